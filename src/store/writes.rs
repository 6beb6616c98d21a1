//! Steps that more than one transaction takes, written once for both connection types: a
//! new match with its seats (the lobby's create and the matchmaking pass), and a finished
//! match with its ratings (a lone append and the journal's group).

use super::backend::Backend;
use super::ratings::RecordRatings;
use super::{MatchRow, SeatRow};
use crate::record::{Finish, MatchId};
use chrono::{DateTime, Utc};
use sqlx::types::Json;

const MATCH_SQL: &str = "INSERT INTO \"match\" (match_id, game, options, status, seat_count, turn_clock_ms, \
     disconnect_grace_ms, seed_commitment, seed, created_at, started_at, finished_at, result) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";
pub(super) const SEAT_SQL: &str =
    "INSERT INTO match_seat (match_id, seat, player_id, bot, bot_level) VALUES ($1, $2, $3, $4, $5)";
const FINISH_SQL: &str = "UPDATE \"match\" SET status = 'finished', finished_at = $2, result = $3 \
     WHERE match_id = $1";

pub(super) trait MatchWrites: Backend + RecordRatings {
    /// Writes a new match's row and its seats.
    async fn insert_match_rows(&mut self, row: &MatchRow, seats: &[SeatRow]) -> Result<(), sqlx::Error>;

    /// Records a match's result and, in the same transaction, its ratings: a result is
    /// never committed unrated.
    async fn finish_match(
        &mut self,
        match_id: &MatchId,
        finish: &Finish,
        at: DateTime<Utc>,
    ) -> Result<(), sqlx::Error>;
}

on_each_connection! {
    impl MatchWrites {
        async fn insert_match_rows(&mut self, row: &MatchRow, seats: &[SeatRow]) -> Result<(), sqlx::Error> {
            sqlx::query(MATCH_SQL)
                .bind(&row.match_id)
                .bind(&row.game)
                .bind(&row.options)
                .bind(row.status)
                .bind(row.seat_count)
                .bind(row.turn_clock_ms)
                .bind(row.disconnect_grace_ms)
                .bind(&row.seed_commitment)
                .bind(&row.seed)
                .bind(row.created_at)
                .bind(row.started_at)
                .bind(row.finished_at)
                .bind(&row.result)
                .execute(&mut *self)
                .await?;
            for seat in seats {
                sqlx::query(SEAT_SQL)
                    .bind(&seat.match_id)
                    .bind(seat.seat)
                    .bind(&seat.player_id)
                    .bind(seat.bot)
                    .bind(&seat.bot_level)
                    .execute(&mut *self)
                    .await?;
            }
            Ok(())
        }

        async fn finish_match(
            &mut self,
            match_id: &MatchId,
            finish: &Finish,
            at: DateTime<Utc>,
        ) -> Result<(), sqlx::Error> {
            sqlx::query(FINISH_SQL)
                .bind(match_id)
                .bind(at)
                .bind(Json(&finish.result))
                .execute(&mut *self)
                .await?;
            self.record_ratings(match_id, finish, at).await
        }
    }
}
