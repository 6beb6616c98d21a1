//! Writes: every change reaches the log through the journal, fenced by the node's lease in a
//! cluster, before the actor adopts it.
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
//! (turn clocks, bots, forfeits) that fail on storage are retried with a bounded backoff
//! ([`clocks`](super::clocks)), never taken for "no legal move", so an outage forfeits nobody.

use super::fanout::RedactedEvent;
use super::{MatchActor, asks, to_json, to_raw};
use crate::fairness;
use crate::matches::recent::Recent;
use crate::protocol::CommandError;
use crate::record::{
    AbandonRecord, AdjournmentRecord, CommandRecord, CommandSource, EntryKind, Finish, ForfeitRecord,
    LogEntry, MatchId, NewEntry,
};
use crate::rules::{Game, MatchCore, Outcome, Reject, RejectKind, Seat};
use crate::store::{DbSettings, Receipt, StoreError, within};
use serde::Deserialize;
use serde_json::Value;
use tokio::time::Instant;

/// A command as [`MatchActor::submit`] gets it.
pub(super) enum Move<G: Game> {
    /// A client's JSON: the game reads it only once the seat may act, so `not_your_turn`
    /// comes before `bad_message`. `after`: the last seq the client had seen when it decided.
    Sent { command: Value, after: Option<i64> },
    /// A move the server made itself (a turn clock's default, a bot's), already typed.
    Made(G::Command),
}

/// What a write makes current once it has committed.
pub(super) struct Change<G: Game> {
    /// The copy of the match after the events (`None` for a forfeit: no engine events).
    next: Option<MatchCore<G>>,
    events: Vec<G::Event>,
    /// The seq of the first of `events`.
    first_event_seq: i64,
    /// The seq of the last entry written.
    last_seq: i64,
    outcome: Option<Outcome>,
    /// Whether `outcome`, if any, moves ratings (not for an abandonment).
    rated: bool,
    /// The seat whose command it is (its clock starts afresh if it is asked again).
    acted: Option<Seat>,
    /// The seat whose turn clock ran out, when the command is the default move played for it.
    timed_out: Option<Seat>,
    /// Adjournment steps written (only by [`Change::adjournment`]).
    adjournment: Vec<AdjournmentRecord>,
}

impl<G: Game> Change<G> {
    /// A write of adjournment steps from `first_seq`: no engine events, no result.
    pub(super) fn adjournment(first_seq: i64, steps: Vec<AdjournmentRecord>) -> Self {
        Change {
            next: None,
            events: Vec::new(),
            first_event_seq: first_seq + steps.len() as i64,
            last_seq: first_seq + steps.len() as i64 - 1,
            outcome: None,
            rated: true,
            acted: None,
            timed_out: None,
            adjournment: steps,
        }
    }
}

/// A write that failed or timed out: it may have committed nonetheless.
pub(super) struct InDoubt<G: Game> {
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
fn storage_error(match_id: &MatchId, error: StoreError) -> CommandError {
    tracing::error!(%match_id, %error, "append failed");
    if error.is_unavailable() {
        CommandError::Unavailable("the database did not confirm the write".into())
    } else {
        CommandError::Internal("the log could not be written".into())
    }
}

impl<G: Game> MatchActor<G> {
    pub(super) async fn start(&mut self) -> Result<i64, CommandError> {
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

    pub(super) fn settings(&self) -> &DbSettings {
        self.context.journal.settings()
    }

    /// When a write started now must have been confirmed.
    pub(super) fn write_deadline(&self) -> Instant {
        Instant::now() + self.settings().db_timeout()
    }

    /// Decides a command on a copy of the match and commits it. Nothing changes on refusal.
    pub(super) async fn submit(
        &mut self,
        seat: Seat,
        command: Move<G>,
        source: CommandSource,
    ) -> Result<i64, CommandError> {
        // An earlier write in doubt is settled first: it may change what this command meets.
        self.reconcile(self.write_deadline()).await?;
        if self.finished.is_some() {
            return Err(CommandError::MatchNotLive);
        }
        if self.adjournment.is_adjourned() {
            return Err(CommandError::Adjourned);
        }
        let pending = G::pending(&self.core.state);
        if !pending.contains(&seat) {
            let waiting: Vec<String> = pending.iter().map(ToString::to_string).collect();
            return Err(CommandError::NotYourTurn(format!(
                "waiting for {}",
                waiting.join(", ")
            )));
        }
        let (typed, command) = match command {
            Move::Sent { command: json, after } => {
                self.check_fresh(seat, after)?;
                let typed = G::Command::deserialize(&json)
                    .map_err(|error| CommandError::BadCommand(error.to_string()))?;
                (typed, json)
            }
            Move::Made(typed) => {
                let json = to_json(&typed);
                (typed, json)
            }
        };
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

    /// Refuses a command decided before its seat's current decision was asked: it answers a
    /// decision that has since closed (a late or replayed command, or one the client was told
    /// is in doubt and then answered again), and must never land on a later one.
    fn check_fresh(&self, seat: Seat, after: Option<i64>) -> Result<(), CommandError> {
        let asked_at = self.asked_at.get(seat.index()).copied().unwrap_or(0);
        match after {
            Some(after) if after < asked_at => Err(CommandError::Stale(format!(
                "decided after seq {after}; this seat was asked again after seq {asked_at}"
            ))),
            _ => Ok(()),
        }
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
            timed_out: command
                .as_ref()
                .filter(|record| record.source == CommandSource::Timeout)
                .map(|record| record.seat),
            rated: true,
            acted: command.map(|record| record.seat),
            adjournment: Vec::new(),
        };
        self.write(entries, change, redacted).await
    }

    /// Writes `entries` through the journal, waiting at most `--db-timeout-ms`, and adopts
    /// `change` once they have committed. A write that fails or times out is kept in doubt.
    pub(super) async fn write(
        &mut self,
        entries: Vec<NewEntry>,
        change: Change<G>,
        redacted: Vec<RedactedEvent>,
    ) -> Result<i64, CommandError> {
        let deadline = self.write_deadline();
        let finish = change.outcome.as_ref().map(|outcome| Finish {
            result: to_json(outcome),
            rating_pool: self.rating_pool.clone(),
            rated: change.rated,
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
        // Its COMMIT may have been sent: the command may be in the log, and the client must
        // settle it from there rather than take it for refused.
        let reason = match error {
            CommandError::Unavailable(reason) | CommandError::Internal(reason) => reason,
            other => other.to_string(),
        };
        Err(CommandError::InDoubt(reason))
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
        let (after, timed_out) = (self.next_seq - 1, change.timed_out);
        let notices = match change.adjournment.is_empty() {
            true => Vec::new(),
            false => self.adopt_adjournment(&change.adjournment, after + 1),
        };
        let pending_before = self.pending();
        self.next_seq = change.last_seq + 1;
        // Every write comes after the start's, so the match has started now.
        self.needs_start = false;
        if let Some(next) = change.next {
            self.core = next;
        }
        if change.outcome.is_some() {
            self.rated = change.rated;
        }
        self.finished = change.outcome;
        if let Some(seat) = change.acted {
            self.deadlines.remove(&seat);
        }
        let pending_after = self.pending();
        asks::asked_after_change(
            &mut self.asked_at,
            &pending_before,
            &pending_after,
            change.acted,
            change.last_seq,
        );
        self.retries = 0;
        self.retry_at = None;
        self.refresh_clocks();
        self.broadcast(&redacted, after, timed_out, &notices);
    }

    /// Settles a write in doubt before `deadline`: adopted if it landed, dropped if not.
    /// `Unavailable` while the database cannot tell (the doubt stays for the next try).
    pub(super) async fn reconcile(&mut self, deadline: Instant) -> Result<(), CommandError> {
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
            // In a cluster the log moves under this actor when another node took the match
            // over: this node must not rebuild (and so go on answering for) a match it no
            // longer holds. It rebuilds only if its own epoch is still the lease's (its own
            // write landed but could not be recognised).
            if let Some(fence) = self.context.fence {
                match within(deadline, self.context.store.lease_epoch(&match_id)).await {
                    Some(Ok(Some(epoch))) if epoch == fence.0 => {}
                    Some(Ok(_)) => {
                        tracing::warn!(%match_id, "the log moved under another node's lease; stopping here");
                        crate::telemetry::record_fenced_write();
                        self.moved = true;
                        return Err(CommandError::Moved);
                    }
                    failed => {
                        self.in_doubt = Some(doubt);
                        return Err(match failed {
                            Some(Err(error)) => storage_error(&match_id, error),
                            _ => CommandError::Unavailable("the lease could not be read in time".into()),
                        });
                    }
                }
            }
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
        let (replayed, asked_at) =
            super::asks::replay::<G>(&self.options, &self.seed, &log, self.seat_count())
                .map_err(|mismatch| CommandError::Internal(format!("the log does not replay: {mismatch}")))?;
        self.asked_at = asked_at;
        self.adjournment = super::adjournment::Adjournment::from_log(&log, self.seat_count())
            .map_err(|error| CommandError::Internal(format!("the log does not replay: {error}")))?;
        self.finished = match &replayed.ending {
            Some(ending) => Some(ending.outcome(self.seat_count())),
            None => G::outcome(&replayed.core.state),
        };
        self.rated = replayed.ending.as_ref().is_none_or(fairness::Ending::is_rated);
        self.core = replayed.core;
        self.next_seq = replayed.last_seq + 1;
        // The log's last events, not an empty past: a socket resuming right after this
        // rebuild (a spectator's above all, served only from here) gets what it missed.
        let initial = MatchCore::<G>::new(&self.options, &self.seed)
            .map_err(|error| CommandError::Internal(format!("the match's options: {error}")))?
            .state;
        self.recent = Recent::from_log(initial, &log)
            .map_err(|error| CommandError::Internal(format!("the log does not read back: {error}")))?;
        self.needs_start = log.is_empty();
        self.refresh_clocks();
        // What the viewers were sent no longer leads to this state by the events they got:
        // an update now would skip the entries in between. Their sockets close (1001) and
        // resume from the last seq they processed, which the log serves exactly.
        self.tell_resume();
        Ok(())
    }

    /// Writes entries that are not engine events (a forfeit, an abandonment) and finishes
    /// with `outcome`, rated or not.
    pub(super) async fn commit(
        &mut self,
        entries: Vec<NewEntry>,
        outcome: Option<Outcome>,
        rated: bool,
    ) -> Result<(), CommandError> {
        let change = Change {
            next: None,
            events: Vec::new(),
            first_event_seq: self.next_seq,
            last_seq: self.next_seq + entries.len() as i64 - 1,
            outcome,
            rated,
            acted: None,
            timed_out: None,
            adjournment: Vec::new(),
        };
        self.write(entries, change, Vec::new()).await.map(|_| ())
    }

    pub(super) async fn forfeit(&mut self, seat: Seat, reason: &str) -> Result<(), CommandError> {
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
        self.commit(vec![entry], Some(outcome), true).await
    }

    /// Ends the match at an operator's request: one `abandon` entry, every seat placed
    /// equal, nothing rated. The same path as a forfeit, so replay and `verify` read it.
    pub(super) async fn abandon(&mut self, reason: &str, by: &str) -> Result<(), CommandError> {
        self.reconcile(self.write_deadline()).await?;
        if self.finished.is_some() {
            return Err(CommandError::MatchNotLive);
        }
        let record = AbandonRecord {
            reason: reason.to_string(),
            by: by.to_string(),
        };
        let entry = NewEntry {
            seq: self.next_seq,
            kind: EntryKind::Abandon,
            payload: to_raw(&record)?,
        };
        let outcome = fairness::abandon_outcome(self.seat_count(), &record);
        tracing::info!(match_id = %self.context.match_id, by, reason, "abandoned");
        self.commit(vec![entry], Some(outcome), false).await
    }
}
