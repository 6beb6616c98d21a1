//! The actor of one live match: the only code that writes its log.
//!
//! Every change follows the same path: decide on a copy of the match ([`MatchCore::decide_observed`],
//! which folds each event into the copy once, as the rules emit it, and redacts it there),
//! append the command and its events in one transaction, and only then adopt the copy,
//! broadcast the redacted events and ack. A refused command or a failed write leaves the
//! match exactly as it was. Clocks are `tokio::time` deadlines, so tests can pause time.
//!
//! The fan-out is the server's hot path, so the actor serialises each event once per viewer
//! (frames shared by that viewer's sockets), and redacts and renders for a viewer only when
//! some socket of that viewer is listening: each viewer has its own feed.
//!
//! # Database outages
//!
//! A write waits at most `--db-timeout-ms` for its commit; then the command is
//! answered `unavailable` and nothing is adopted. Such a write is *in doubt*: its COMMIT may
//! have been sent and may land (or have landed) anyway. So before the actor writes again it
//! reconciles: it waits (bounded) for the journal's final answer, then reads the log after its
//! last seq. If exactly the in-doubt entries are there, it adopts the state they lead to and
//! broadcasts them; if nothing is, it drops them; anything else is rebuilt from the log. The log never gets a
//! gap, a duplicate seq or a state the actor does not hold. Moves the server makes itself
//! (turn clocks, bots, forfeits) that fail on storage are retried with a bounded backoff,
//! never taken for "no legal move", so an outage forfeits nobody.
//!
//! The actor keeps only a bounded recent past in memory ([`Recent`]: the last hundred-odd
//! events and the state before them): a whole match's events would be most of its memory,
//! and only a resuming socket (or the log endpoint) needs them. A seat's resume that reaches
//! back further gets the events re-derived from the durable log, which holds everything the
//! actor has acked; a spectator's gets the current snapshot instead, so that spectator sockets,
//! which anyone may open, never make the actor read the log.

use super::handle::{ActorMessage, CommandError, MAILBOX, Subscription, ViewerBatch};
use super::recent::{self, Recent};
use super::{ActorContext, MatchHandle};
use crate::fairness::{self, Mismatch};
use crate::protocol::delta::{self, HeldView};
use crate::protocol::{Frame, LogEntryBody, PROTOCOL_VERSION, Protocol, Snapshot};
use crate::record::{
    CommandRecord, CommandSource, EntryKind, Finish, ForfeitRecord, LogEntry, MatchStatus, NewEntry,
};
use crate::rules::{Dice, Game, MatchCore, Outcome, Reject, RejectKind, Seat, Seed, Viewer};
use crate::store::{DbSettings, Receipt, SeatRow, StoreError, within};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

/// Batches buffered per viewer before a slow socket is told to resume. Each slot costs memory
/// in every live match, and a seat's socket is at most a few batches behind while it plays.
const FEED_CAPACITY: usize = 64;
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

/// One new event as each listening viewer may see it (index = seat, last = spectator), as
/// that viewer's sockets are sent it in each protocol it is listened in; viewers who see the
/// same thing share one protocol 1 buffer.
struct RedactedEvent {
    per_viewer: Vec<ViewerEvent>,
}

#[derive(Default)]
struct ViewerEvent {
    /// Protocol 1's `event` frame.
    full: Option<Frame>,
    /// Protocol 2's `[seq, event]` pair, for a `step`.
    compact: Option<Box<RawValue>>,
}

/// What a write makes current once it has committed.
struct Change<G: Game> {
    /// The copy of the match after the events (`None` for a forfeit: no engine events).
    next: Option<MatchCore<G>>,
    events: Vec<G::Event>,
    /// The seq of the first of `events`.
    first_event_seq: i64,
    /// The seq of the last entry written.
    last_seq: i64,
    outcome: Option<Outcome>,
    /// The seat whose command it is (its clock starts afresh if it is asked again).
    acted: Option<Seat>,
}

/// A write that failed or timed out: it may have committed nonetheless.
struct InDoubt<G: Game> {
    change: Change<G>,
    written: Written,
}

/// What the actor knows of a write in doubt.
enum Written {
    /// The journal has not answered yet.
    Waiting(Receipt),
    /// The journal said it failed, and handed its entries back: perhaps it failed after its
    /// COMMIT was sent, so only the log can tell, by holding exactly these entries or not.
    Failed(Vec<NewEntry>),
    /// The journal stopped without an answer.
    Unknown,
}

struct MatchActor<G: Game> {
    context: ActorContext,
    core: MatchCore<G>,
    next_seq: i64,
    needs_start: bool,
    /// With the seed, what re-deriving the log needs (resumes and the log endpoint).
    options: G::Options,
    /// The game's rating pool of `options`, stored with the result.
    rating_pool: String,
    seed: Seed,
    /// One pair of feeds per viewer (index as in [`RedactedEvent::per_viewer`]).
    feeds: Vec<ViewerFeeds>,
    deadlines: HashMap<Seat, Instant>,
    connections: Vec<usize>,
    disconnected_since: Vec<Option<Instant>>,
    finished: Option<Outcome>,
    bot_dice: Dice,
    /// The last write, if its outcome is unknown; settled before any other write.
    in_doubt: Option<InDoubt<G>>,
    /// When a server-made move that failed on storage is tried again, and how many tries
    /// have failed in a row (the backoff's exponent).
    retry_at: Option<Instant>,
    retries: u32,
    /// Another node holds the match now (a write was fenced): stop without writing again.
    moved: bool,
    /// Raised when this actor stops while the match is live, for its handles to report.
    moved_flag: Arc<std::sync::atomic::AtomicBool>,
    /// For a match rebuilt from its log: when its last entry was written.
    resumed_since: Option<chrono::DateTime<chrono::Utc>>,
    /// The last events, which resumes read instead of the log.
    recent: Recent<G>,
}

/// Rebuilds a match from its log (an empty log means it has not started yet) and runs it.
pub(crate) fn spawn<G: Game>(
    context: ActorContext,
    options: G::Options,
    rating_pool: String,
    log: Vec<LogEntry>,
) -> Result<(MatchHandle, tokio::task::JoinHandle<()>), SpawnError> {
    let seed = Seed::from_hex(&context.seed_hex).ok_or(SpawnError::BadSeed)?;
    let (core, next_seq, forfeit) = if log.is_empty() {
        let core = MatchCore::<G>::new(&options, &seed).map_err(|e| SpawnError::Setup(e.to_string()))?;
        (core, 1, None)
    } else {
        let replayed = fairness::replay::<G>(&options, &seed, &log, |_, _, _| {})?;
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
    let recent = Recent::new(core.state.clone(), next_seq - 1);
    let mut actor = MatchActor::<G> {
        needs_start: log.is_empty(),
        core,
        next_seq,
        options,
        rating_pool,
        seed,
        feeds: (0..=seat_total).map(|_| ViewerFeeds::new()).collect(),
        deadlines: HashMap::new(),
        connections: vec![0; seat_total],
        disconnected_since: vec![Some(now); seat_total],
        finished,
        bot_dice: Dice::new(&fairness::new_seed()),
        context,
        in_doubt: None,
        retry_at: None,
        retries: 0,
        moved: false,
        moved_flag: Default::default(),
        resumed_since: log.last().map(|entry| entry.at),
        recent,
    };
    let (sender, receiver) = mpsc::channel(MAILBOX);
    let handle = MatchHandle::new(sender, G::ID, G::MAX_COMMAND_BYTES);
    actor.moved_flag = handle.moved_flag();
    let join = tokio::spawn(async move {
        let _live = crate::telemetry::GaugeGuard::new(crate::telemetry::LIVE_MATCHES);
        actor.run(receiver).await;
    });
    Ok((handle, join))
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

/// One viewer's feeds: protocol 1 sockets get events and full views, protocol 2 sockets
/// steps whose merge patches go from `held`, the view the delta sockets hold (a viewer's
/// sockets all hold the same one: each starts at the current view and every batch reaches
/// all of them).
struct ViewerFeeds {
    full: broadcast::Sender<Arc<ViewerBatch>>,
    delta: broadcast::Sender<Arc<ViewerBatch>>,
    held: Option<HeldView>,
}

impl ViewerFeeds {
    fn new() -> Self {
        ViewerFeeds {
            full: broadcast::channel(FEED_CAPACITY).0,
            delta: broadcast::channel(FEED_CAPACITY).0,
            held: None,
        }
    }

    /// Some socket of this viewer listens, whatever its protocol.
    fn listened(&self) -> bool {
        self.full.receiver_count() > 0 || self.delta.receiver_count() > 0
    }
}

/// Redacts each event for the listening viewers as a copy of the match folds it, numbering
/// the events from the first seq they will take in the log.
struct Redactor {
    /// Each viewer, and whether a socket of it listens in protocol 1 and in protocol 2 (only
    /// those are redacted and encoded for).
    listening: Vec<(Viewer, Listens)>,
    next_seq: i64,
    redacted: Vec<RedactedEvent>,
}

#[derive(Clone, Copy)]
struct Listens {
    full: bool,
    delta: bool,
}

impl Redactor {
    fn observe<G: Game>(&mut self, state: &G::State, event: &G::Event) {
        let mut per_viewer: Vec<ViewerEvent> = Vec::with_capacity(self.listening.len());
        for &(viewer, listens) in &self.listening {
            let Some(event) = (listens.full || listens.delta)
                .then(|| G::redact(state, event, viewer))
                .flatten()
            else {
                per_viewer.push(ViewerEvent::default());
                continue;
            };
            let full = listens
                .full
                .then(|| Frame::event(self.next_seq, &event))
                .map(|frame| {
                    // Most events look the same to everyone: keep one buffer, not one per viewer.
                    per_viewer
                        .iter()
                        .filter_map(|seen| seen.full.as_ref())
                        .find(|seen| **seen == frame)
                        .cloned()
                        .unwrap_or(frame)
                });
            let compact = listens.delta.then(|| Frame::step_event(self.next_seq, &event));
            per_viewer.push(ViewerEvent { full, compact });
        }
        self.redacted.push(RedactedEvent { per_viewer });
        self.next_seq += 1;
    }
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

/// Whether the log's `tail` is exactly `entries` (same seqs, kinds and payloads).
fn same_entries(entries: &[NewEntry], tail: &[LogEntry]) -> bool {
    entries.len() == tail.len()
        && entries.iter().zip(tail).all(|(entry, logged)| {
            entry.seq == logged.seq
                && entry.kind == logged.kind
                && serde_json::from_str::<Value>(entry.payload.get())
                    .is_ok_and(|payload| payload == logged.payload)
        })
}

/// A failed store call as a command's answer: an outage is `unavailable`, the rest `internal`.
fn storage_error(match_id: &str, error: StoreError) -> CommandError {
    tracing::error!(%match_id, %error, "append failed");
    if error.is_unavailable() {
        CommandError::Unavailable("the database did not confirm the write".into())
    } else {
        CommandError::Internal("the log could not be written".into())
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A log row's payload, serialised straight from the typed value.
fn to_raw<T: serde::Serialize>(value: &T) -> Result<Box<RawValue>, CommandError> {
    serde_json::value::to_raw_value(value).map_err(|error| CommandError::Internal(error.to_string()))
}

impl<G: Game> MatchActor<G> {
    async fn run(mut self, mut mailbox: mpsc::Receiver<ActorMessage>) {
        if self.needs_start {
            match self.start().await {
                Ok(_) => {}
                Err(error) if error.is_storage() => self.retry_later(&error),
                Err(error) => {
                    tracing::error!(match_id = %self.context.match_id, %error, "could not start the match");
                    return;
                }
            }
        } else if let Some(outcome) = self.finished.clone() {
            // Only reachable if a crash separated the last events from the result; finish now.
            let _ = self.commit(Vec::new(), Some(outcome)).await;
        }
        self.resume_clocks();
        self.refresh_clocks();
        self.play_automatic_moves().await;
        while self.finished.is_none() && !self.moved {
            let wake = self.next_wake();
            tokio::select! {
                message = mailbox.recv() => match message.inspect(|_| {
                    metrics::histogram!(crate::telemetry::MAILBOX_DEPTH).record(mailbox.len() as f64);
                }) {
                    None => return,
                    // A stop while the match is live (shutdown, drain, a lost lease): the
                    // match goes on from its log elsewhere, so its sockets are told to resume.
                    Some(ActorMessage::Shutdown) => return self.tell_moved(),
                    Some(message) => self.handle(message).await,
                },
                _ = tokio::time::sleep_until(wake.unwrap_or_else(Instant::now)), if wake.is_some() => {
                    self.on_clock().await;
                }
            }
        }
        if self.moved {
            tracing::warn!(match_id = %self.context.match_id, "another node took the match over; stopped");
            self.tell_moved();
            mailbox.close();
            self.context.live.remove_closed(&self.context.match_id);
            return;
        }
        self.context.live.remove(&self.context.match_id);
        tracing::info!(match_id = %self.context.match_id, "match finished");
    }

    /// Sends every listening viewer the last batch of this actor: the match moved.
    fn tell_moved(&self) {
        self.moved_flag.store(true, std::sync::atomic::Ordering::SeqCst);
        let last_seq = self.next_seq - 1;
        for feeds in &self.feeds {
            let moved = Arc::new(ViewerBatch::moved(last_seq));
            let _ = feeds.full.send(moved.clone());
            let _ = feeds.delta.send(moved);
        }
    }

    async fn handle(&mut self, message: ActorMessage) {
        match message {
            ActorMessage::Command { seat, command, reply } => {
                let started = std::time::Instant::now();
                let kind = command.get("type").and_then(Value::as_str).map(str::to_string);
                let result = self.submit(seat, command, CommandSource::Player).await;
                record_command::<G>(kind, &result, started.elapsed());
                let _ = reply.send(result);
                if self.in_doubt.is_some() && self.retry_at.is_none() {
                    // Settle the doubt without waiting for the player: if the write landed,
                    // the match must move on (bots, clocks) by itself.
                    self.retry_later(&CommandError::Unavailable("a write is in doubt".into()));
                }
                self.play_automatic_moves().await;
            }
            ActorMessage::Subscribe {
                viewer,
                resume_from,
                protocol,
                reply,
            } => {
                let index = viewer_index(viewer, self.seat_count());
                let (mut snapshot, backlog) = match resume_from {
                    Some(from) => self.resumed(viewer, from, protocol).await,
                    None => (self.snapshot(viewer), Vec::new()),
                };
                // Subscribing inside the actor, after the backlog is read, leaves no gap.
                let feed = match protocol {
                    Protocol::V1 => self.feeds[index].full.subscribe(),
                    Protocol::V2 => {
                        // Every delta socket of this viewer holds the current view now (its
                        // snapshot, or the backlog's step): the next patch is against it.
                        match HeldView::new(&G::view(&self.core.state, viewer)) {
                            Ok(held) => self.feeds[index].held = Some(held),
                            Err(error) => tracing::error!(%error, "a view could not be serialised"),
                        }
                        self.feeds[index].delta.subscribe()
                    }
                };
                snapshot.protocol = protocol.number();
                snapshot.view = protocol.view(snapshot.view);
                let subscription = Subscription {
                    snapshot,
                    backlog,
                    feed,
                };
                let _ = reply.send(subscription);
            }
            ActorMessage::Connection { seat, connected } => self.on_connection(seat, connected),
            ActorMessage::Log { viewer, reply } => {
                let entries = self
                    .visible_since(viewer, 0)
                    .await
                    .into_iter()
                    .map(|(seq, event)| LogEntryBody {
                        seq,
                        kind: EntryKind::Event,
                        payload: to_json(&event),
                        at: None,
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

    /// A resuming socket's start: the viewer's snapshot as of seq `from` (clamped to the log),
    /// then every event after `from` it may see, then an `update` to now. So every event
    /// after the snapshot's `last_seq` comes exactly once, and none the snapshot already
    /// holds. The snapshot is history: its `pending` is empty and it has no deadline (the
    /// closing update says who must act now). If the log cannot be read back, the snapshot
    /// is the current one and only the update follows.
    ///
    /// In protocol 2 the events and the update are one `step` from the snapshot's view.
    async fn resumed(&self, viewer: Viewer, from: i64, protocol: Protocol) -> (Snapshot, Vec<Frame>) {
        let last_seq = self.next_seq - 1;
        let from = from.clamp(0, last_seq);
        let mut snapshot = self.snapshot(viewer);
        let history = match viewer {
            _ if from >= last_seq => None,
            // A spectator has no seat to catch up on, and anyone may open spectator sockets:
            // reading the durable log in this mailbox for each would let a storm of them
            // stall the players' commands. Within the recent past it gets its events; past
            // that, the current snapshot (the older events are in `/log`).
            Viewer::Spectator => {
                let recent = self.recent.since(viewer, from);
                let source = if recent.is_some() {
                    "recent"
                } else {
                    "spectator_now"
                };
                crate::telemetry::record_history_read(G::ID, source);
                recent.map(|recent| (recent.view, recent.events))
            }
            Viewer::Seat(_) => self.history(viewer, from).await,
        };
        let events = match history {
            Some((view, events)) => {
                snapshot.view = view;
                snapshot.last_seq = from;
                events
            }
            None => Vec::new(),
        };
        snapshot.pending = Vec::new();
        snapshot.deadline_ms = None;
        let view = G::view(&self.core.state, viewer);
        let (pending, deadline) = (self.pending(), self.deadline_ms(viewer));
        let backlog = match protocol {
            Protocol::V1 => events
                .iter()
                .map(|(seq, event)| Frame::event(*seq, event))
                .chain(std::iter::once(Frame::update(
                    last_seq, &view, &pending, deadline,
                )))
                .collect(),
            Protocol::V2 => {
                let pairs: Vec<Box<RawValue>> = events
                    .iter()
                    .map(|(seq, event)| Frame::step_event(*seq, event))
                    .collect();
                let pairs: Vec<&RawValue> = pairs.iter().map(AsRef::as_ref).collect();
                // The snapshot's view is the one this socket will hold; the step goes from it.
                let patch = HeldView::new(&snapshot.view)
                    .and_then(|mut held| held.advance(&view))
                    .unwrap_or_else(|error| {
                        tracing::error!(%error, "a view could not be serialised");
                        Value::Object(Default::default())
                    });
                vec![Frame::step(last_seq, &pairs, &patch, &pending, deadline)]
            }
        };
        (snapshot, backlog)
    }

    /// The viewer's view as of seq `from` and the events after it that it may see: from the
    /// recent past when it reaches back to `from`, else folded from the durable log;
    /// `None` if the log cannot be read.
    async fn history(&self, viewer: Viewer, from: i64) -> Option<(Value, Vec<(i64, G::Event)>)> {
        if let Some(recent) = self.recent.since(viewer, from) {
            crate::telemetry::record_history_read(G::ID, "recent");
            return Some((recent.view, recent.events));
        }
        crate::telemetry::record_history_read(G::ID, "log");
        let log = match self.context.store.log(&self.context.match_id).await {
            Ok(log) => log,
            Err(error) => {
                tracing::error!(match_id = %self.context.match_id, %error, "could not read the log back");
                return None;
            }
        };
        // Folded as logged, not replayed through the engine (see `recent::from_log`).
        let initial = MatchCore::<G>::new(&self.options, &self.seed).ok()?.state;
        match recent::from_log::<G>(initial, &log, viewer, from) {
            Ok(history) => Some((history.view, history.events)),
            Err(error) => {
                tracing::error!(match_id = %self.context.match_id, %error, "the log does not read back");
                None
            }
        }
    }

    /// The events after `from` as `viewer` may see them, re-derived from the durable log. If
    /// the log cannot be read the caller gets none.
    async fn visible_since(&self, viewer: Viewer, from: i64) -> Vec<(i64, G::Event)> {
        self.history(viewer, from)
            .await
            .map(|(_, events)| events)
            .unwrap_or_default()
    }

    /// A redactor for events from `first_seq` on, for the viewers listening now. Nobody can
    /// subscribe before those events are broadcast: the actor is busy with them.
    fn redactor(&self, first_seq: i64) -> Redactor {
        let listening = viewers(self.seat_count())
            .into_iter()
            .zip(&self.feeds)
            .map(|(viewer, feeds)| {
                let listens = Listens {
                    full: feeds.full.receiver_count() > 0,
                    delta: feeds.delta.receiver_count() > 0,
                };
                (viewer, listens)
            })
            .collect();
        Redactor {
            listening,
            next_seq: first_seq,
            redacted: Vec::new(),
        }
    }

    fn is_bot(&self, seat: Seat) -> bool {
        self.context.seats.get(seat.index()).is_some_and(|row| row.bot)
    }

    async fn start(&mut self) -> Result<i64, CommandError> {
        self.reconcile(self.write_deadline()).await?;
        if !self.needs_start {
            return Ok(self.next_seq - 1);
        }
        let mut next = self.core.clone();
        let mut redactor = self.redactor(self.next_seq);
        let events = next.start_observed(|state, event| redactor.observe::<G>(state, event));
        // Adopting the start clears `needs_start`.
        self.commit_events(next, None, events, redactor.redacted).await
    }

    fn settings(&self) -> &DbSettings {
        self.context.journal.settings()
    }

    /// When a write started now must have been confirmed.
    fn write_deadline(&self) -> Instant {
        Instant::now() + self.settings().db_timeout()
    }

    /// Decides a command on a copy of the match and commits it. Nothing changes on refusal.
    async fn submit(
        &mut self,
        seat: Seat,
        command: Value,
        source: CommandSource,
    ) -> Result<i64, CommandError> {
        // An earlier write in doubt is settled first: it may change what this command meets.
        self.reconcile(self.write_deadline()).await?;
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
        let typed =
            G::Command::deserialize(&command).map_err(|error| CommandError::BadCommand(error.to_string()))?;
        // The command's own row comes first, then its events. The live match stays as it is
        // until the journal commits: `accepted.next` is the copy the events were folded into.
        let mut redactor = self.redactor(self.next_seq + 1);
        let accepted = self
            .core
            .decide_observed(seat, &typed, |state, event| redactor.observe::<G>(state, event))
            .map_err(|reject| match reject.kind() {
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
        self.commit_events(
            accepted.next,
            Some(record),
            accepted.submitted.events,
            redactor.redacted,
        )
        .await
    }

    /// Appends `[command,] events` (and the result if they end the match), then adopts `next`
    /// and broadcasts `redacted` (the events as each viewer sees them).
    async fn commit_events(
        &mut self,
        next: MatchCore<G>,
        command: Option<CommandRecord>,
        events: Vec<G::Event>,
        redacted: Vec<RedactedEvent>,
    ) -> Result<i64, CommandError> {
        let mut entries = Vec::with_capacity(events.len() + 1);
        let mut seq = self.next_seq;
        if let Some(record) = &command {
            entries.push(NewEntry {
                seq,
                kind: EntryKind::Command,
                payload: to_raw(record)?,
            });
            seq += 1;
        }
        let first_event_seq = seq;
        for event in &events {
            entries.push(NewEntry {
                seq,
                kind: EntryKind::Event,
                payload: to_raw(event)?,
            });
            seq += 1;
        }
        let change = Change {
            outcome: G::outcome(&next.state),
            next: Some(next),
            events,
            first_event_seq,
            last_seq: seq - 1,
            acted: command.map(|record| record.seat),
        };
        self.write(entries, change, redacted).await
    }

    /// Writes `entries` through the journal, waiting at most `--db-timeout-ms`, and adopts
    /// `change` once they have committed. A write that fails or times out is kept in doubt.
    async fn write(
        &mut self,
        entries: Vec<NewEntry>,
        change: Change<G>,
        redacted: Vec<RedactedEvent>,
    ) -> Result<i64, CommandError> {
        let deadline = self.write_deadline();
        let finish = change.outcome.as_ref().map(|outcome| Finish {
            result: to_json(outcome),
            rating_pool: self.rating_pool.clone(),
        });
        let journal = &self.context.journal;
        let match_id = &self.context.match_id;
        let queued = journal
            .enqueue_by(
                deadline,
                match_id,
                entries,
                finish,
                chrono::Utc::now(),
                self.context.fence,
            )
            .await;
        // Not queued at all (the queue stayed full, or the writer stopped): nothing can land.
        let mut receipt = match queued {
            Ok(receipt) => receipt,
            Err(error) => return Err(storage_error(match_id, error)),
        };
        let (error, written) = match within(deadline, &mut receipt).await {
            Some(Ok(Ok(()))) => {
                self.adopt(change, Some(redacted));
                return Ok(self.next_seq - 1);
            }
            // The transaction saw a newer lease and rolled back: nothing landed, and the
            // match is another node's now.
            Some(Ok(Err(unwritten))) if unwritten.error.is_fenced() => {
                crate::telemetry::record_fenced_write();
                self.moved = true;
                return Err(CommandError::Moved);
            }
            Some(Ok(Err(unwritten))) => (
                storage_error(match_id, unwritten.error),
                Written::Failed(unwritten.entries),
            ),
            Some(Err(_)) => (
                CommandError::Internal("the journal writer stopped".into()),
                Written::Unknown,
            ),
            None => {
                let bound = self.settings().db_timeout_ms;
                tracing::warn!(%match_id, bound, "no commit within the bound; the write is in doubt");
                (
                    CommandError::Unavailable(format!("no commit within {bound} ms")),
                    Written::Waiting(receipt),
                )
            }
        };
        self.in_doubt = Some(InDoubt { change, written });
        Err(error)
    }

    /// Makes a committed `change` current and sends it to the listening viewers. `redacted`
    /// is `None` when the change is adopted late (after reconciling): the viewers listening
    /// now may differ, so its events are redacted again for them.
    fn adopt(&mut self, change: Change<G>, redacted: Option<Vec<RedactedEvent>>) {
        let redacted = redacted.unwrap_or_else(|| {
            let mut redactor = self.redactor(change.first_event_seq);
            let mut state = self.core.state.clone();
            for event in &change.events {
                G::apply(&mut state, event);
                redactor.observe::<G>(&state, event);
            }
            redactor.redacted
        });
        self.recent.push(change.first_event_seq, &change.events);
        self.next_seq = change.last_seq + 1;
        // Every write comes after the start's, so the match has started now.
        self.needs_start = false;
        if let Some(next) = change.next {
            self.core = next;
        }
        self.finished = change.outcome;
        if let Some(seat) = change.acted {
            self.deadlines.remove(&seat);
        }
        self.retries = 0;
        self.retry_at = None;
        self.refresh_clocks();
        self.broadcast(&redacted);
    }

    /// Settles a write in doubt before `deadline`: adopted if it landed, dropped if not.
    /// `Unavailable` while the database cannot tell (the doubt stays for the next try).
    async fn reconcile(&mut self, deadline: Instant) -> Result<(), CommandError> {
        let Some(mut doubt) = self.in_doubt.take() else {
            return Ok(());
        };
        if let Written::Waiting(receipt) = &mut doubt.written {
            match within(deadline, receipt).await {
                None => {
                    self.in_doubt = Some(doubt);
                    return Err(CommandError::Unavailable(
                        "an earlier write is still unconfirmed".into(),
                    ));
                }
                Some(Ok(Ok(()))) => {
                    tracing::info!(match_id = %self.context.match_id, "a write in doubt committed; adopted");
                    self.adopt(doubt.change, None);
                    return Ok(());
                }
                Some(Ok(Err(unwritten))) => doubt.written = Written::Failed(unwritten.entries),
                Some(Err(_)) => doubt.written = Written::Unknown,
            }
        }
        let match_id = self.context.match_id.clone();
        let after = self.next_seq - 1;
        let tail = match within(deadline, self.context.store.log_after(&match_id, after)).await {
            Some(Ok(tail)) => tail,
            failed => {
                self.in_doubt = Some(doubt);
                return Err(match failed {
                    Some(Err(error)) => storage_error(&match_id, error),
                    _ => CommandError::Unavailable("the log could not be read back in time".into()),
                });
            }
        };
        // Compared entry by entry, not by the last seq alone: a write judged lost earlier
        // whose COMMIT landed late must not pass for a different write of the same length.
        let landed = match &doubt.written {
            Written::Failed(entries) => same_entries(entries, &tail),
            _ => false,
        };
        if tail.is_empty() {
            tracing::info!(%match_id, "a write in doubt did not land; dropped");
            Ok(())
        } else if landed {
            tracing::info!(%match_id, "a write in doubt landed; adopted");
            self.adopt(doubt.change, None);
            Ok(())
        } else {
            tracing::warn!(%match_id, after, found = tail.len(), "the log moved unexpectedly; rebuilding");
            let rebuilt = self.rebuild(deadline).await;
            if rebuilt.is_err() {
                self.in_doubt = Some(doubt);
            }
            rebuilt
        }
    }

    /// Re-derives the match from its durable log, as recovery after a restart does.
    async fn rebuild(&mut self, deadline: Instant) -> Result<(), CommandError> {
        let match_id = self.context.match_id.clone();
        let log = match within(deadline, self.context.store.log(&match_id)).await {
            Some(Ok(log)) => log,
            Some(Err(error)) => return Err(storage_error(&match_id, error)),
            None => {
                return Err(CommandError::Unavailable(
                    "the log could not be read back in time".into(),
                ));
            }
        };
        let replayed = fairness::replay::<G>(&self.options, &self.seed, &log, |_, _, _| {})
            .map_err(|mismatch| CommandError::Internal(format!("the log does not replay: {mismatch}")))?;
        self.finished = match replayed.forfeit {
            Some(record) => Some(fairness::forfeit_outcome(
                self.seat_count(),
                record.seat,
                &record.reason,
            )),
            None => G::outcome(&replayed.core.state),
        };
        self.core = replayed.core;
        self.next_seq = replayed.last_seq + 1;
        self.recent = Recent::new(self.core.state.clone(), replayed.last_seq);
        self.needs_start = log.is_empty();
        self.refresh_clocks();
        self.broadcast(&[]);
        Ok(())
    }

    /// Writes entries that are not engine events (a forfeit) and finishes with `outcome`.
    async fn commit(&mut self, entries: Vec<NewEntry>, outcome: Option<Outcome>) -> Result<(), CommandError> {
        let change = Change {
            next: None,
            events: Vec::new(),
            first_event_seq: self.next_seq,
            last_seq: self.next_seq + entries.len() as i64 - 1,
            outcome,
            acted: None,
        };
        self.write(entries, change, Vec::new()).await.map(|_| ())
    }

    async fn forfeit(&mut self, seat: Seat, reason: &str) -> Result<(), CommandError> {
        self.reconcile(self.write_deadline()).await?;
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
            payload: to_raw(&record)?,
        };
        let outcome = fairness::forfeit_outcome(self.seat_count(), seat, reason);
        tracing::info!(match_id = %self.context.match_id, %seat, reason, "forfeit");
        self.commit(vec![entry], Some(outcome)).await
    }

    /// Sends every listening viewer its frames: the new events it may see, its new view and,
    /// if the match just ended, the result. A viewer nobody listens to costs nothing.
    fn broadcast(&mut self, new_events: &[RedactedEvent]) {
        let pending = self.pending();
        let last_seq = self.next_seq - 1;
        let finished = self
            .finished
            .as_ref()
            .map(|outcome| Frame::finished(outcome, &self.context.seed_hex));
        for (index, viewer) in viewers(self.seat_count()).into_iter().enumerate() {
            if !self.feeds[index].listened() {
                continue;
            }
            let view = G::view(&self.core.state, viewer);
            let deadline = self.deadline_ms(viewer);
            let batch = |update: Frame, mut frames: Vec<Frame>| {
                frames.push(update);
                frames.extend(finished.clone());
                Arc::new(ViewerBatch {
                    frames,
                    last_seq,
                    moved: false,
                })
            };
            let feeds = &mut self.feeds[index];
            // A receiver that left since the count is fine: the log is the record.
            if feeds.full.receiver_count() > 0 {
                let events = new_events
                    .iter()
                    .filter_map(|entry| entry.per_viewer[index].full.clone())
                    .collect();
                let update = Frame::update(last_seq, &view, &pending, deadline);
                let _ = feeds.full.send(batch(update, events));
            }
            if feeds.delta.receiver_count() > 0 {
                let events: Vec<&RawValue> = new_events
                    .iter()
                    .filter_map(|entry| entry.per_viewer[index].compact.as_deref())
                    .collect();
                let patch = match &mut feeds.held {
                    Some(held) => held.advance(&view),
                    // Nobody subscribed in protocol 2 yet: never reached, but holding the view
                    // now and sending it whole is still a correct step.
                    None => HeldView::new(&view).and_then(|held| {
                        feeds.held = Some(held);
                        delta::to_compact(&view)
                    }),
                };
                match patch {
                    Ok(patch) => {
                        let step = Frame::step(last_seq, &events, &patch, &pending, deadline);
                        let _ = feeds.delta.send(batch(step, Vec::new()));
                    }
                    Err(error) => tracing::error!(%error, "a view could not be serialised"),
                }
            }
        }
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

    /// A match rebuilt from its log (a restart, or another node taking it over) keeps the
    /// time its pending seats had already used: their clocks run from the last logged entry
    /// (when they were last asked, or later), not afresh from now. So a turn clock is never
    /// cut short, and a failover cannot hand a slow player a new full clock.
    fn resume_clocks(&mut self) {
        let Some(since) = self.resumed_since.take() else {
            return;
        };
        let used = (chrono::Utc::now() - since).to_std().unwrap_or_default();
        let left = self.context.clocks.turn.saturating_sub(used);
        for seat in self.pending() {
            if !self.is_bot(seat) {
                self.deadlines.insert(seat, Instant::now() + left);
            }
        }
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

    /// The next clock to act on. While a retry is scheduled nothing fires before it: expired
    /// clocks wait for the database rather than spin.
    fn next_wake(&self) -> Option<Instant> {
        let turn = self.deadlines.values().copied();
        let next = turn
            .chain(self.grace_expiries().map(|(_, at)| at))
            .chain(self.retry_at)
            .min()?;
        Some(self.retry_at.map_or(next, |retry| next.max(retry)))
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

    /// Schedules another try of the server's own pending moves after a storage failure:
    /// the backoff doubles from `--db-retry-initial-ms` up to `--db-retry-max-ms`.
    fn retry_later(&mut self, error: &CommandError) {
        let delay = self.settings().retry_delay(self.retries);
        self.retries = self.retries.saturating_add(1);
        self.retry_at = Some(Instant::now() + delay);
        tracing::warn!(match_id = %self.context.match_id, %error, ?delay, "storage failed; the server's move will be retried");
    }

    /// Forfeits `seat`; if the database fails the forfeit, schedules a retry and says so.
    async fn forfeit_or_retry(&mut self, seat: Seat, reason: &str) -> bool {
        match self.forfeit(seat, reason).await {
            Err(CommandError::Moved) => true,
            Err(error) if error.is_storage() => {
                self.retry_later(&error);
                true
            }
            _ => false,
        }
    }

    async fn on_clock(&mut self) {
        let now = Instant::now();
        if self.moved {
            return;
        }
        if self.retry_at.is_some_and(|at| at > now) {
            return;
        }
        self.retry_at = None;
        if self.in_doubt.is_some()
            && let Err(error) = self.reconcile(self.write_deadline()).await
        {
            return self.retry_later(&error);
        }
        if self.needs_start {
            // The start itself could not be written yet: nothing else can happen before it.
            match self.start().await {
                Ok(_) => self.refresh_clocks(),
                Err(error) => return self.retry_later(&error),
            }
        }
        let gone = self
            .grace_expiries()
            .find(|(_, at)| *at <= now)
            .map(|(seat, _)| seat);
        if let Some(seat) = gone {
            self.forfeit_or_retry(seat, "disconnected").await;
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
            if self.finished.is_some() || self.moved || !self.deadlines.contains_key(&seat) {
                continue;
            }
            let default = G::default_command(&self.core.state, seat);
            let played = match default {
                Some(command) => self.submit(seat, to_json(&command), CommandSource::Timeout).await,
                None => Err(CommandError::NotYourTurn("no default move".into())),
            };
            match played {
                Ok(_) => {}
                // The database, not the seat, failed: the clock's move is tried again later.
                Err(error) if error.is_storage() => return self.retry_later(&error),
                Err(CommandError::Moved) => return,
                Err(error) => {
                    tracing::warn!(match_id = %self.context.match_id, %seat, %error, "no default move on timeout");
                    if self
                        .forfeit_or_retry(seat, "timeout without a legal default move")
                        .await
                    {
                        return;
                    }
                }
            }
        }
        self.play_automatic_moves().await;
    }

    /// Server-side bots move as soon as the game waits for them.
    async fn play_automatic_moves(&mut self) {
        for _ in 0..MAX_AUTOMATIC_MOVES {
            // A retry is already scheduled: the database failed a moment ago.
            if self.finished.is_some() || self.retry_at.is_some() || self.moved {
                return;
            }
            let Some(seat) = self.pending().into_iter().find(|seat| self.is_bot(*seat)) else {
                return;
            };
            let view = G::view(&self.core.state, Viewer::Seat(seat));
            let level = self
                .context
                .seats
                .get(seat.index())
                .map(SeatRow::bot_level)
                .unwrap_or_default();
            let command = G::bot_command_at(&view, level, &mut self.bot_dice)
                .or_else(|| G::default_command(&self.core.state, seat));
            let played = match command {
                Some(command) => self.submit(seat, to_json(&command), CommandSource::Bot).await,
                None => Err(CommandError::NotYourTurn("the bot has no move".into())),
            };
            match played {
                Ok(_) => {}
                // The database, not the bot, failed: its move is tried again later.
                Err(error) if error.is_storage() => return self.retry_later(&error),
                Err(CommandError::Moved) => return,
                Err(error) => {
                    tracing::warn!(match_id = %self.context.match_id, %seat, %error, "bot move refused");
                    self.forfeit_or_retry(seat, "the bot found no legal move").await;
                    return;
                }
            }
        }
    }
}
