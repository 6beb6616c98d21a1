//! Adjourning by agreement: a seat offers to stop and carry on later, the others accept (or
//! not), and the match stands adjourned (clocks stopped, nobody forfeits for being away)
//! until every player is back, or the agreed time comes. An adjournment that outlives the
//! server's limit ends the match as abandoned, unrated.
//!
//! Every step is an `adjournment` entry of the log, so a match rebuilt from its log (after a
//! restart, on another node) stands exactly where it stood: the log's entries are folded
//! as each one the actor writes is. Where the match stands and what a request would write
//! are [`adjournment`](super::adjournment)'s, pure.
//!
//! Why the actor keeps running while adjourned: its lease, recovery, drain and failover work
//! unchanged (an adjourned match is a live one whose clocks are stopped), and the one place
//! that decides when it resumes or expires is its own clock.

use super::MatchActor;
use super::adjournment::{Moment, Wake};
use super::writes::Change;
use crate::protocol::{AdjournAsk, AdjournmentView, CommandError, Frame, ServerMessage};
use crate::record::{AdjournmentAction, AdjournmentRecord, EntryKind, NewEntry};
use crate::rules::{Game, Seat};
use chrono::{DateTime, Utc};
use std::time::Duration;
use tokio::time::Instant;

/// An action's word, as the log spells it (a metric label).
fn action_name(action: AdjournmentAction) -> &'static str {
    match action {
        AdjournmentAction::Offered => "offered",
        AdjournmentAction::Accepted => "accepted",
        AdjournmentAction::Declined => "declined",
        AdjournmentAction::Withdrawn => "withdrawn",
        AdjournmentAction::Agreed => "agreed",
        AdjournmentAction::Resumed => "resumed",
    }
}

/// A limit as a person reads it in a result's summary: "14 days", "6 hours", "90 seconds".
fn spelled(limit: Duration) -> String {
    let secs = limit.as_secs();
    let (count, unit) = match secs {
        0 => (0, "second"),
        _ if secs.is_multiple_of(86_400) => (secs / 86_400, "day"),
        _ if secs.is_multiple_of(3_600) => (secs / 3_600, "hour"),
        _ => (secs, "second"),
    };
    let plural = if count == 1 { "" } else { "s" };
    format!("{count} {unit}{plural}")
}

/// A wall-clock time as a `tokio::time` deadline (now, if it has passed).
fn instant_at(at: DateTime<Utc>) -> Instant {
    let wait = (at - Utc::now()).to_std().unwrap_or_default();
    Instant::now() + wait
}

impl<G: Game> MatchActor<G> {
    fn adjourn_limit(&self) -> Duration {
        self.context.adjourn_limit
    }

    /// A seat's `adjourn` message: decided against where the match stands, then written.
    pub(super) async fn adjourn(
        &mut self,
        seat: Seat,
        ask: AdjournAsk,
        resume_at: Option<DateTime<Utc>>,
    ) -> Result<i64, CommandError> {
        self.reconcile(self.write_deadline()).await?;
        if self.finished.is_some() || self.needs_start {
            return Err(CommandError::MatchNotLive);
        }
        if seat.index() >= self.seat_count() || self.is_bot(seat) {
            return Err(CommandError::NotYourTurn("the seat is not a player's".into()));
        }
        let bots: Vec<Seat> = (0..self.seat_count() as u8)
            .map(Seat)
            .filter(|seat| self.is_bot(*seat))
            .collect();
        let moment = Moment {
            bots: &bots,
            next_seq: self.next_seq,
            now: Utc::now(),
            expires: self.adjourn_limit(),
        };
        let steps = self.adjournment.decide(seat, ask, resume_at, &moment)?;
        self.write_adjournment(steps).await
    }

    /// Writes adjournment steps (no engine events) and, once durable, folds them in.
    async fn write_adjournment(&mut self, steps: Vec<AdjournmentRecord>) -> Result<i64, CommandError> {
        let mut entries = Vec::with_capacity(steps.len());
        for (offset, step) in steps.iter().enumerate() {
            entries.push(NewEntry {
                seq: self.next_seq + offset as i64,
                kind: EntryKind::Adjournment,
                payload: super::to_raw(step)?,
            });
        }
        let change = Change::adjournment(self.next_seq, steps);
        self.write(entries, change, Vec::new()).await
    }

    /// Folds steps just made durable (the first of them is entry `first_seq`), and sets the
    /// clocks and connections to match: an adjournment stops every clock; a resumption
    /// starts fresh turn clocks and, for a player still away, the disconnect grace from now.
    /// Returns the frame every viewer gets for each step, in order (an offer a bot accepts
    /// in the same write is two steps: both are shown).
    pub(super) fn adopt_adjournment(&mut self, steps: &[AdjournmentRecord], first_seq: i64) -> Vec<Frame> {
        let now = Utc::now();
        let mut frames = Vec::with_capacity(steps.len());
        for (offset, step) in steps.iter().enumerate() {
            self.adjournment.apply(step, now, first_seq + offset as i64);
            crate::telemetry::record_adjournment(action_name(step.action));
            frames.extend(
                self.adjournment
                    .view(self.adjourn_limit())
                    .map(|view| Frame::encode(&ServerMessage::Adjournment(view))),
            );
        }
        if self.adjournment.is_adjourned() {
            self.deadlines.clear();
            self.back_since_adjourned = vec![false; self.seat_count()];
        } else if steps.iter().any(|step| step.action == AdjournmentAction::Resumed) {
            self.deadlines.clear();
            let since = Instant::now();
            for (index, away) in self.disconnected_since.iter_mut().enumerate() {
                if self.connections[index] == 0 {
                    *away = Some(since);
                }
            }
        }
        frames
    }

    pub(super) fn adjournment_view(&self) -> Option<AdjournmentView> {
        self.adjournment.standing_view(self.adjourn_limit())
    }

    /// When the adjourned match's own clock fires (its agreed time, or its limit).
    pub(super) fn adjournment_wake(&self) -> Option<Instant> {
        self.adjournment
            .next_turn(self.adjourn_limit())
            .map(|(at, _)| instant_at(at))
    }

    /// A player's socket opened while adjourned: once every player has come back since the
    /// adjournment (a socket that merely stayed open does not count), play resumes.
    pub(super) async fn on_back(&mut self, seat: Seat) {
        if !self.adjournment.is_adjourned() {
            return;
        }
        if let Some(back) = self.back_since_adjourned.get_mut(seat.index()) {
            *back = true;
        }
        let everyone_back = (0..self.seat_count())
            .filter(|index| !self.is_bot(Seat(*index as u8)))
            .all(|index| self.back_since_adjourned[index] && self.connections[index] > 0);
        if everyone_back {
            self.resume("every player is back").await;
        }
    }

    /// The adjourned match's clock fired: resume at the agreed time, or end it at the limit.
    pub(super) async fn on_adjournment_clock(&mut self) {
        let Some((at, wake)) = self.adjournment.next_turn(self.adjourn_limit()) else {
            return;
        };
        if at > Utc::now() {
            return;
        }
        match wake {
            Wake::Resume => self.resume("the agreed time came").await,
            Wake::Expire => {
                let reason = format!("adjourned for longer than {}", spelled(self.adjourn_limit()));
                self.end_or_retry(None, &reason).await;
            }
        }
    }

    async fn resume(&mut self, why: &str) {
        let step = AdjournmentRecord {
            action: AdjournmentAction::Resumed,
            seat: None,
            resume_at: None,
        };
        match self.write_adjournment(vec![step]).await {
            Ok(_) => {
                tracing::info!(match_id = %self.context.match_id, why, "resumed");
                self.play_automatic_moves().await;
            }
            Err(CommandError::Moved) => {}
            Err(error) => self.retry_later(&error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_spelled_in_the_largest_whole_unit() {
        assert_eq!(spelled(Duration::from_secs(14 * 86_400)), "14 days");
        assert_eq!(spelled(Duration::from_secs(3_600)), "1 hour");
        assert_eq!(spelled(Duration::from_secs(90)), "90 seconds");
        assert_eq!(spelled(Duration::from_secs(1)), "1 second");
    }
}
