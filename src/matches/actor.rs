//! The actor of one live match: the only code that writes its log.
//!
//! Every change follows the same path: decide on a copy of the match ([`MatchCore`]),
//! append the command and its events in one transaction, and only then adopt the copy,
//! broadcast the redacted events and ack. A refused command or a failed write leaves the
//! match exactly as it was. Clocks are `tokio::time` deadlines, so tests can pause time.

use super::handle::{ActorMessage, Batch, CommandError, MAILBOX, Subscription, ViewerBatch};
use super::{ActorContext, MatchHandle};
use crate::fairness::{self, CommandRecord, CommandSource, ForfeitRecord, Mismatch};
use crate::protocol::{LogEntryBody, PROTOCOL_VERSION, Snapshot, Update};
use crate::rules::{BotPolicy, Dice, Game, MatchCore, Outcome, Reject, RejectKind, Seat, Seed, Viewer};
use crate::store::{EntryKind, LogEntry, MatchStatus, NewEntry};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

/// Batches buffered per subscriber before a slow one is told to resume.
const FEED_CAPACITY: usize = 256;
/// A bot (or a broken engine) cannot keep the actor busy forever between messages.
const MAX_AUTOMATIC_MOVES: usize = 10_000;

/// Why an actor could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("the stored seed is not 32 hex bytes")]
    BadSeed,
    #[error("the game refuses the stored options: {0}")]
    Setup(String),
    #[error(transparent)]
    Log(#[from] Mismatch),
}

/// One event as every viewer may see it: index = seat, last = spectator.
struct HistoryEntry {
    seq: i64,
    per_viewer: Vec<Option<Value>>,
}

struct MatchActor<G: Game> {
    context: ActorContext,
    core: MatchCore<G>,
    next_seq: i64,
    needs_start: bool,
    history: Vec<HistoryEntry>,
    feed: broadcast::Sender<Arc<Batch>>,
    deadlines: HashMap<Seat, Instant>,
    connections: Vec<usize>,
    disconnected_since: Vec<Option<Instant>>,
    finished: Option<Outcome>,
    bot_dice: Dice,
}

/// Rebuilds a match from its log (an empty log means it has not started yet) and runs it.
pub(crate) fn spawn<G: Game>(
    context: ActorContext,
    options: G::Options,
    log: Vec<LogEntry>,
) -> Result<(MatchHandle, tokio::task::JoinHandle<()>), SpawnError> {
    let seed = Seed::from_hex(&context.seed_hex).ok_or(SpawnError::BadSeed)?;
    let viewers = viewers(context.seats.len());
    let mut history = Vec::new();
    let (core, next_seq, forfeit) = if log.is_empty() {
        let core = MatchCore::<G>::new(&options, &seed).map_err(|e| SpawnError::Setup(e.to_string()))?;
        (core, 1, None)
    } else {
        let replayed = fairness::replay::<G>(&options, &seed, &log, |state, seq, event| {
            history.push(redact_for_all::<G>(state, seq, event, &viewers));
        })?;
        (replayed.core, replayed.last_seq + 1, replayed.forfeit)
    };
    let finished = match forfeit {
        Some(record) => Some(fairness::forfeit_outcome(
            context.seats.len(),
            record.seat,
            &record.reason,
        )),
        None => G::outcome(&core.state),
    };
    let now = Instant::now();
    let seat_total = context.seats.len();
    let actor = MatchActor::<G> {
        needs_start: log.is_empty(),
        core,
        next_seq,
        history,
        feed: broadcast::channel(FEED_CAPACITY).0,
        deadlines: HashMap::new(),
        connections: vec![0; seat_total],
        disconnected_since: vec![Some(now); seat_total],
        finished,
        bot_dice: Dice::new(&fairness::new_seed()),
        context,
    };
    let (sender, receiver) = mpsc::channel(MAILBOX);
    let join = tokio::spawn(async move {
        let _live = crate::telemetry::GaugeGuard::new(crate::telemetry::LIVE_MATCHES);
        actor.run(receiver).await;
    });
    Ok((MatchHandle { sender, game: G::ID }, join))
}

fn viewers(seat_count: usize) -> Vec<Viewer> {
    (0..seat_count)
        .map(|index| Viewer::Seat(Seat(index as u8)))
        .chain(std::iter::once(Viewer::Spectator))
        .collect()
}

fn viewer_index(viewer: Viewer, seat_count: usize) -> usize {
    match viewer {
        Viewer::Seat(seat) if seat.index() < seat_count => seat.index(),
        _ => seat_count,
    }
}

fn redact_for_all<G: Game>(state: &G::State, seq: i64, event: &G::Event, viewers: &[Viewer]) -> HistoryEntry {
    let per_viewer = viewers
        .iter()
        .map(|viewer| G::redact(state, event, *viewer).and_then(|event| serde_json::to_value(event).ok()))
        .collect();
    HistoryEntry { seq, per_viewer }
}

/// Counts an answered command. The `type` label is the command's own tag only when the game
/// could read the command, so a client cannot invent label values.
fn record_command<G: Game>(
    kind: Option<String>,
    result: &Result<i64, CommandError>,
    elapsed: std::time::Duration,
) {
    let (label, outcome) = match result {
        Ok(_) => (kind, "ok"),
        Err(error @ CommandError::IllegalMove { .. }) => (kind, error.code().as_str()),
        Err(error) => (None, error.code().as_str()),
    };
    let label = label.unwrap_or_else(|| "unparsed".to_string());
    crate::telemetry::record_command(G::ID, label, outcome, elapsed);
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

impl<G: Game> MatchActor<G> {
    async fn run(mut self, mut mailbox: mpsc::Receiver<ActorMessage>) {
        if self.needs_start {
            if let Err(error) = self.start().await {
                tracing::error!(match_id = %self.context.match_id, %error, "could not start the match");
                return;
            }
        } else if let Some(outcome) = self.finished.clone() {
            // Only reachable if a crash separated the last events from the result; finish now.
            let _ = self.commit(Vec::new(), Some(outcome)).await;
        }
        self.refresh_clocks();
        self.play_automatic_moves().await;
        while self.finished.is_none() {
            let wake = self.next_wake();
            tokio::select! {
                message = mailbox.recv() => match message.inspect(|_| {
                    metrics::histogram!(crate::telemetry::MAILBOX_DEPTH).record(mailbox.len() as f64);
                }) {
                    None | Some(ActorMessage::Shutdown) => return,
                    Some(message) => self.handle(message).await,
                },
                _ = tokio::time::sleep_until(wake.unwrap_or_else(Instant::now)), if wake.is_some() => {
                    self.on_clock().await;
                }
            }
        }
        self.context.live.remove(&self.context.match_id);
        tracing::info!(match_id = %self.context.match_id, "match finished");
    }

    async fn handle(&mut self, message: ActorMessage) {
        match message {
            ActorMessage::Command { seat, command, reply } => {
                let started = std::time::Instant::now();
                let kind = command.get("type").and_then(Value::as_str).map(str::to_string);
                let result = self.submit(seat, command, CommandSource::Player).await;
                record_command::<G>(kind, &result, started.elapsed());
                let _ = reply.send(result);
                self.play_automatic_moves().await;
            }
            ActorMessage::Subscribe {
                viewer,
                resume_from,
                reply,
            } => {
                let index = viewer_index(viewer, self.seat_count());
                let backlog = match resume_from {
                    Some(from) => self
                        .history
                        .iter()
                        .filter(|entry| entry.seq > from)
                        .filter_map(|entry| Some((entry.seq, entry.per_viewer[index].clone()?)))
                        .collect(),
                    None => Vec::new(),
                };
                let subscription = Subscription {
                    snapshot: self.snapshot(viewer),
                    backlog,
                    feed: self.feed.subscribe(),
                };
                let _ = reply.send(subscription);
            }
            ActorMessage::Connection { seat, connected } => self.on_connection(seat, connected),
            ActorMessage::Log { viewer, reply } => {
                let index = viewer_index(viewer, self.seat_count());
                let entries = self
                    .history
                    .iter()
                    .filter_map(|entry| {
                        Some(LogEntryBody {
                            seq: entry.seq,
                            kind: EntryKind::Event,
                            payload: entry.per_viewer[index].clone()?,
                            at: None,
                        })
                    })
                    .collect();
                let _ = reply.send((to_json(&G::view(&self.core.state, viewer)), entries));
            }
            ActorMessage::Forfeit { seat, reason, reply } => {
                let _ = reply.send(self.forfeit(seat, &reason).await);
            }
            ActorMessage::Shutdown => {}
        }
    }

    fn seat_count(&self) -> usize {
        self.context.seats.len()
    }

    fn is_bot(&self, seat: Seat) -> bool {
        self.context.seats.get(seat.index()).is_some_and(|row| row.bot)
    }

    async fn start(&mut self) -> Result<i64, CommandError> {
        let mut next = self.core.clone();
        let before = next.state.clone();
        let events = next.start();
        self.commit_events(next, before, None, events).await
    }

    /// Decides a command on a copy of the match and commits it. Nothing changes on refusal.
    async fn submit(
        &mut self,
        seat: Seat,
        command: Value,
        source: CommandSource,
    ) -> Result<i64, CommandError> {
        if self.finished.is_some() {
            return Err(CommandError::MatchNotLive);
        }
        let pending = G::pending(&self.core.state);
        if !pending.contains(&seat) {
            let waiting: Vec<String> = pending.iter().map(ToString::to_string).collect();
            return Err(CommandError::NotYourTurn(format!(
                "waiting for {}",
                waiting.join(", ")
            )));
        }
        let typed: G::Command = serde_json::from_value(command.clone())
            .map_err(|error| CommandError::BadCommand(error.to_string()))?;
        let mut next = self.core.clone();
        let before = next.state.clone();
        let submitted = next.submit(seat, &typed).map_err(|reject| match reject.kind() {
            RejectKind::NotYourTurn => CommandError::NotYourTurn(reject.to_string()),
            RejectKind::IllegalMove => CommandError::IllegalMove {
                reason: reject.reason().to_string(),
                message: reject.to_string(),
            },
            RejectKind::MatchOver => CommandError::MatchNotLive,
        })?;
        let record = CommandRecord {
            seat,
            source,
            command,
        };
        self.commit_events(next, before, Some(record), submitted.events)
            .await
    }

    /// Appends `[command,] events` (and the result if they end the match), then adopts `next`.
    async fn commit_events(
        &mut self,
        next: MatchCore<G>,
        before: G::State,
        command: Option<CommandRecord>,
        events: Vec<G::Event>,
    ) -> Result<i64, CommandError> {
        let mut entries = Vec::with_capacity(events.len() + 1);
        let mut seq = self.next_seq;
        if let Some(record) = &command {
            entries.push(NewEntry {
                seq,
                kind: EntryKind::Command,
                payload: to_json(record),
            });
            seq += 1;
        }
        let first_event_seq = seq;
        for event in &events {
            entries.push(NewEntry {
                seq,
                kind: EntryKind::Event,
                payload: to_json(event),
            });
            seq += 1;
        }
        let outcome = G::outcome(&next.state);
        self.append(&entries, outcome.as_ref()).await?;
        self.next_seq = seq;
        self.core = next;
        let viewers = viewers(self.seat_count());
        let mut shadow = before;
        let mut new_history = Vec::with_capacity(events.len());
        for (offset, event) in events.iter().enumerate() {
            G::apply(&mut shadow, event);
            new_history.push(redact_for_all::<G>(
                &shadow,
                first_event_seq + offset as i64,
                event,
                &viewers,
            ));
        }
        self.finished = outcome;
        // The seat that just acted starts a fresh clock if it is asked again.
        if let Some(record) = &command {
            self.deadlines.remove(&record.seat);
        }
        self.refresh_clocks();
        self.broadcast(&new_history);
        self.history.extend(new_history);
        Ok(self.next_seq - 1)
    }

    async fn append(&self, entries: &[NewEntry], outcome: Option<&Outcome>) -> Result<(), CommandError> {
        let result = outcome.map(to_json);
        self.context
            .journal
            .append(
                &self.context.match_id,
                entries.to_vec(),
                result,
                chrono::Utc::now(),
            )
            .await
            .map_err(|error| {
                tracing::error!(match_id = %self.context.match_id, %error, "append failed");
                CommandError::Internal("the log could not be written".into())
            })
    }

    /// Writes entries that are not engine events (a forfeit) and finishes with `outcome`.
    async fn commit(&mut self, entries: Vec<NewEntry>, outcome: Option<Outcome>) -> Result<(), CommandError> {
        self.append(&entries, outcome.as_ref()).await?;
        self.next_seq += entries.len() as i64;
        self.finished = outcome;
        self.broadcast(&[]);
        Ok(())
    }

    async fn forfeit(&mut self, seat: Seat, reason: &str) -> Result<(), CommandError> {
        if self.finished.is_some() {
            return Err(CommandError::MatchNotLive);
        }
        let record = ForfeitRecord {
            seat,
            reason: reason.to_string(),
        };
        let entry = NewEntry {
            seq: self.next_seq,
            kind: EntryKind::Forfeit,
            payload: to_json(&record),
        };
        let outcome = fairness::forfeit_outcome(self.seat_count(), seat, reason);
        tracing::info!(match_id = %self.context.match_id, %seat, reason, "forfeit");
        self.commit(vec![entry], Some(outcome)).await
    }

    fn broadcast(&self, new_history: &[HistoryEntry]) {
        let viewers = viewers(self.seat_count());
        let pending = self.pending();
        let last_seq = self.next_seq - 1;
        let per_viewer = viewers
            .iter()
            .enumerate()
            .map(|(index, viewer)| ViewerBatch {
                events: new_history
                    .iter()
                    .filter_map(|entry| Some((entry.seq, entry.per_viewer[index].clone()?)))
                    .collect(),
                update: Update {
                    last_seq,
                    view: to_json(&G::view(&self.core.state, *viewer)),
                    pending: pending.clone(),
                    deadline_ms: self.deadline_ms(*viewer),
                },
            })
            .collect();
        let finished = self
            .finished
            .clone()
            .map(|outcome| (outcome, self.context.seed_hex.clone()));
        // No subscribers is fine: the log is the record, the feed only informs.
        let _ = self.feed.send(Arc::new(Batch {
            per_viewer,
            pending,
            finished,
        }));
    }

    fn pending(&self) -> Vec<Seat> {
        if self.finished.is_some() {
            Vec::new()
        } else {
            G::pending(&self.core.state)
        }
    }

    fn snapshot(&self, viewer: Viewer) -> Snapshot {
        Snapshot {
            protocol: PROTOCOL_VERSION,
            match_id: self.context.match_id.clone(),
            game: G::ID.to_string(),
            status: if self.finished.is_some() {
                MatchStatus::Finished
            } else {
                MatchStatus::Live
            },
            seat: match viewer {
                Viewer::Seat(seat) => Some(seat),
                Viewer::Spectator => None,
            },
            view: to_json(&G::view(&self.core.state, viewer)),
            pending: self.pending(),
            last_seq: self.next_seq - 1,
            deadline_ms: self.deadline_ms(viewer),
            seed_commitment: self.context.seed_commitment.clone(),
            result: self.finished.clone(),
        }
    }

    /// Milliseconds left for this seat (the earliest deadline for a spectator).
    fn deadline_ms(&self, viewer: Viewer) -> Option<u64> {
        let deadline = match viewer {
            Viewer::Seat(seat) => self.deadlines.get(&seat).copied(),
            Viewer::Spectator => self.deadlines.values().min().copied(),
        }?;
        Some(deadline.saturating_duration_since(Instant::now()).as_millis() as u64)
    }

    /// Gives every newly pending human seat a fresh turn clock and drops the others.
    fn refresh_clocks(&mut self) {
        let pending = self.pending();
        self.deadlines.retain(|seat, _| pending.contains(seat));
        let turn = self.context.clocks.turn;
        for seat in pending {
            if !self.is_bot(seat) {
                self.deadlines
                    .entry(seat)
                    .or_insert_with(|| Instant::now() + turn);
            }
        }
    }

    fn grace_expiries(&self) -> impl Iterator<Item = (Seat, Instant)> + '_ {
        let grace = self.context.clocks.disconnect_grace;
        self.disconnected_since
            .iter()
            .enumerate()
            .filter(|(index, _)| !self.is_bot(Seat(*index as u8)))
            .filter_map(move |(index, since)| Some((Seat(index as u8), (*since)? + grace)))
    }

    fn next_wake(&self) -> Option<Instant> {
        let turn = self.deadlines.values().copied();
        turn.chain(self.grace_expiries().map(|(_, at)| at)).min()
    }

    fn on_connection(&mut self, seat: Seat, connected: bool) {
        let Some(count) = self.connections.get_mut(seat.index()) else {
            return;
        };
        if connected {
            *count += 1;
            self.disconnected_since[seat.index()] = None;
        } else {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.disconnected_since[seat.index()] = Some(Instant::now());
            }
        }
    }

    async fn on_clock(&mut self) {
        let now = Instant::now();
        let gone = self
            .grace_expiries()
            .find(|(_, at)| *at <= now)
            .map(|(seat, _)| seat);
        if let Some(seat) = gone {
            let _ = self.forfeit(seat, "disconnected").await;
            return;
        }
        let mut expired: Vec<Seat> = self
            .deadlines
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(seat, _)| *seat)
            .collect();
        expired.sort();
        for seat in expired {
            if self.finished.is_some() || !self.deadlines.contains_key(&seat) {
                continue;
            }
            let default = G::default_command(&self.core.state, seat);
            let played = match default {
                Some(command) => self.submit(seat, to_json(&command), CommandSource::Timeout).await,
                None => Err(CommandError::NotYourTurn("no default move".into())),
            };
            if let Err(error) = played {
                tracing::warn!(match_id = %self.context.match_id, %seat, %error, "no default move on timeout");
                let _ = self.forfeit(seat, "timeout without a legal default move").await;
            }
        }
        self.play_automatic_moves().await;
    }

    /// Server-side bots move as soon as the game waits for them.
    async fn play_automatic_moves(&mut self) {
        for _ in 0..MAX_AUTOMATIC_MOVES {
            if self.finished.is_some() {
                return;
            }
            let Some(seat) = self.pending().into_iter().find(|seat| self.is_bot(*seat)) else {
                return;
            };
            let view = G::view(&self.core.state, Viewer::Seat(seat));
            let command = G::bot_command(&view, BotPolicy::Heuristic, &mut self.bot_dice)
                .or_else(|| G::default_command(&self.core.state, seat));
            let played = match command {
                Some(command) => self.submit(seat, to_json(&command), CommandSource::Bot).await,
                None => Err(CommandError::NotYourTurn("the bot has no move".into())),
            };
            if let Err(error) = played {
                tracing::warn!(match_id = %self.context.match_id, %seat, %error, "bot move refused");
                let _ = self.forfeit(seat, "the bot found no legal move").await;
                return;
            }
        }
    }
}
