//! The actor's clocks: each pending seat's turn clock (its default move when it runs out),
//! the disconnect grace (a forfeit when it runs out), and the backoff of the server's own
//! moves that failed on storage. They are `tokio::time` deadlines, so tests can pause time.

use super::MatchActor;
use super::writes::Move;
use crate::protocol::CommandError;
use crate::record::{AbandonRecord, CommandSource};
use crate::rules::{Game, Seat, Viewer};
use tokio::time::Instant;

/// What became of a move the server made for a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ServerMove {
    Played,
    /// The engine refused it (or there was none): the seat was forfeited.
    Forfeited,
    /// No further move now: the database failed (a retry is scheduled) or the match moved.
    Stop,
}

impl<G: Game> MatchActor<G> {
    /// Milliseconds left for this seat (the earliest deadline for a spectator).
    pub(super) fn deadline_ms(&self, viewer: Viewer) -> Option<u64> {
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
    pub(super) fn resume_clocks(&mut self) {
        let Some(since) = self.resumed_since.take() else {
            return;
        };
        if self.adjournment.is_adjourned() {
            return;
        }
        let used = (chrono::Utc::now() - since).to_std().unwrap_or_default();
        let left = self.context.clocks.turn.saturating_sub(used);
        for seat in self.pending() {
            if !self.is_bot(seat) {
                self.deadlines.insert(seat, Instant::now() + left);
            }
        }
    }

    /// Gives every newly pending human seat a fresh turn clock and drops the others.
    pub(super) fn refresh_clocks(&mut self) {
        if self.adjournment.is_adjourned() {
            // Stopped: a resumption gives every pending seat a fresh clock.
            self.deadlines.clear();
            return;
        }
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

    /// When a disconnect grace ends the match: the first to run out while another player is
    /// connected (that seat forfeits), or the last one when every player has left (the match
    /// is abandoned then, unless one of them comes back first: the others forfeit to it).
    fn grace_end(&self) -> Option<Instant> {
        if self.adjournment.is_adjourned() {
            return None;
        }
        let ends = self.grace_expiries().map(|(_, at)| at);
        if self.every_player_left() {
            ends.max()
        } else {
            ends.min()
        }
    }

    /// Two or more seats are players' (not bots'), and none of them is connected.
    fn every_player_left(&self) -> bool {
        let players: Vec<usize> = (0..self.disconnected_since.len())
            .filter(|index| !self.is_bot(Seat(*index as u8)))
            .collect();
        players.len() >= 2
            && players
                .iter()
                .all(|index| self.disconnected_since[*index].is_some())
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
    pub(super) fn next_wake(&self) -> Option<Instant> {
        let turn = self.deadlines.values().copied();
        let next = turn
            .chain(self.grace_end())
            .chain(self.adjournment_wake())
            .chain(self.retry_at)
            .min()?;
        Some(self.retry_at.map_or(next, |retry| next.max(retry)))
    }

    pub(super) fn on_connection(&mut self, seat: Seat, connected: bool) {
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
    pub(super) fn retry_later(&mut self, error: &CommandError) {
        let delay = self.settings().retry_delay(self.retries);
        self.retries = self.retries.saturating_add(1);
        self.retry_at = Some(Instant::now() + delay);
        tracing::warn!(match_id = %self.context.match_id, %error, ?delay, "storage failed; the server's move will be retried");
    }

    /// Forfeits `seat`; if the database fails the forfeit, schedules a retry and says so.
    pub(super) async fn forfeit_or_retry(&mut self, seat: Seat, reason: &str) -> bool {
        self.end_or_retry(Some(seat), reason).await
    }

    /// Forfeits `seat`, or (none) abandons the match as the server; if the database fails
    /// the write, schedules a retry and says so.
    pub(super) async fn end_or_retry(&mut self, seat: Option<Seat>, reason: &str) -> bool {
        let ended = match seat {
            Some(seat) => self.forfeit(seat, reason).await,
            None => self.abandon(reason, AbandonRecord::SERVER).await,
        };
        match ended {
            Err(CommandError::Moved) => true,
            Err(error) if error.is_storage() => {
                self.retry_later(&error);
                true
            }
            _ => false,
        }
    }

    /// Plays a move the server makes for `seat` (a bot's, or the default its turn clock
    /// plays). A move the engine refuses, or none at all, forfeits the seat: the match must
    /// not wait forever on a seat nobody plays.
    pub(super) async fn play_for(
        &mut self,
        seat: Seat,
        command: Option<G::Command>,
        source: CommandSource,
        forfeit_reason: &str,
    ) -> ServerMove {
        let played = match command {
            Some(command) => self.submit(seat, Move::Made(command), source).await,
            None => Err(CommandError::NotYourTurn(
                "the server has no move for the seat".into(),
            )),
        };
        match played {
            Ok(_) => ServerMove::Played,
            // The database, not the seat, failed: the move is tried again later.
            Err(error) if error.is_storage() => {
                self.retry_later(&error);
                ServerMove::Stop
            }
            Err(CommandError::Moved) => ServerMove::Stop,
            Err(error) => {
                tracing::warn!(match_id = %self.context.match_id, %seat, ?source, %error, "the server's move was refused");
                if self.forfeit_or_retry(seat, forfeit_reason).await {
                    ServerMove::Stop
                } else {
                    ServerMove::Forfeited
                }
            }
        }
    }

    pub(super) async fn on_clock(&mut self) {
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
        if self.adjournment.is_adjourned() {
            return self.on_adjournment_clock().await;
        }
        let gone = self
            .grace_expiries()
            .find(|(_, at)| *at <= now)
            .map(|(seat, _)| seat);
        if self.grace_end().is_some_and(|at| at <= now) {
            // Every player gone past their grace: no result (no seat forfeits), not a rated
            // loss for whoever happened to leave first; else the first whose grace ran out.
            let forfeits = if self.every_player_left() { None } else { gone };
            let reason = if forfeits.is_some() {
                "disconnected"
            } else {
                "every player left"
            };
            self.end_or_retry(forfeits, reason).await;
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
            let played = self
                .play_for(
                    seat,
                    default,
                    CommandSource::Timeout,
                    "timeout without a legal default move",
                )
                .await;
            if played == ServerMove::Stop {
                return;
            }
        }
        self.play_automatic_moves().await;
    }
}
