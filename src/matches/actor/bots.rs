//! Server-side bots: a bot's seat moves as soon as the game waits for it, its command handed
//! to the actor typed (the game's own bot at the seat's level, else its default move).

use super::MatchActor;
use super::clocks::ServerMove;
use crate::record::CommandSource;
use crate::rules::{Game, Seat, Viewer};
use crate::store::SeatRow;

/// A bot (or a broken engine) cannot keep the actor busy forever between messages.
const MAX_AUTOMATIC_MOVES: usize = 10_000;

impl<G: Game> MatchActor<G> {
    pub(super) fn is_bot(&self, seat: Seat) -> bool {
        self.context.seats.get(seat.index()).is_some_and(|row| row.bot)
    }

    /// Server-side bots move as soon as the game waits for them.
    pub(super) async fn play_automatic_moves(&mut self) {
        for _ in 0..MAX_AUTOMATIC_MOVES {
            // A retry is already scheduled: the database failed a moment ago.
            // Adjourned: the bot waits with the clocks.
            if self.finished.is_some()
                || self.retry_at.is_some()
                || self.moved
                || self.adjournment.is_adjourned()
            {
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
            let played = self
                .play_for(seat, command, CommandSource::Bot, "the bot found no legal move")
                .await;
            if played != ServerMove::Played {
                return;
            }
        }
    }
}
