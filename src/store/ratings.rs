//! The rating update inside the transaction that finishes a match ([`crate::ratings`] decides
//! what is rated and does the arithmetic; this is its SQL).
//!
//! [`RecordRatings`] is stamped for both backends' connections by `on_each_connection!`,
//! so the SQL is written once; the only difference is the row lock
//! ([`Dialect::lock_for_update`](super::backend::Dialect::lock_for_update)).

use super::backend::Backend;
use crate::ratings::{RatedSeat, Rating, is_rated, is_win, update};
use crate::record::{Finish, MatchId};
use crate::rules::Outcome;
use chrono::{DateTime, Utc};

/// Rates a just-finished match on the connection of the transaction that finished it.
pub(super) trait RecordRatings: Backend {
    /// Does nothing for an unrated match (a bot seat, an unreadable result, an abandonment).
    async fn record_ratings(
        &mut self,
        match_id: &MatchId,
        finish: &Finish,
        now: DateTime<Utc>,
    ) -> Result<(), sqlx::Error>;
}

const MATCH_SQL: &str = "SELECT game FROM \"match\" WHERE match_id = $1";
const SEATS_SQL: &str = "SELECT seat, player_id, bot FROM match_seat WHERE match_id = $1 ORDER BY seat";
const ENSURE_SQL: &str = "INSERT INTO rating (player_id, game, format, rating, deviation, volatility, \
     matches, wins, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 0, 0, $7) \
     ON CONFLICT (player_id, game, format) DO NOTHING";
const READ_SQL: &str =
    "SELECT rating, deviation, volatility FROM rating WHERE player_id = $1 AND game = $2 AND format = $3";
const WRITE_SQL: &str = "UPDATE rating SET rating = $4, deviation = $5, volatility = $6, \
     matches = matches + 1, wins = wins + $7, updated_at = $8 \
     WHERE player_id = $1 AND game = $2 AND format = $3";
const HISTORY_SQL: &str = "INSERT INTO match_rating (match_id, seat, player_id, game, format, finish_place, \
     rating_before, rating_after, deviation_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

on_each_connection! {
    impl RecordRatings {
        async fn record_ratings(
            &mut self,
            match_id: &MatchId,
            finish: &Finish,
            now: DateTime<Utc>,
        ) -> Result<(), sqlx::Error> {
            if !finish.rated {
                return Ok(());
            }
            let Ok(outcome) = serde_json::from_value::<Outcome>(finish.result.clone()) else {
                return Ok(());
            };
            let (game,) = sqlx::query_as::<_, (String,)>(MATCH_SQL)
                .bind(match_id)
                .fetch_one(&mut *self)
                .await?;
            let seats: Vec<RatedSeat> = sqlx::query_as::<_, (i32, Option<String>, bool)>(SEATS_SQL)
                .bind(match_id)
                .fetch_all(&mut *self)
                .await?
                .into_iter()
                .map(|(seat, player_id, bot)| RatedSeat {
                    seat,
                    player_id,
                    bot,
                })
                .collect();
            if !is_rated(&seats, &outcome.placings) {
                return Ok(());
            }
            let format = &finish.rating_pool;
            let start = Rating::default();
            let read = format!("{READ_SQL}{}", Self::DIALECT.lock_for_update);
            let mut before = Vec::with_capacity(seats.len());
            // Players are locked in id order so two matches finishing at once cannot deadlock.
            let mut order: Vec<usize> = (0..seats.len()).collect();
            order.sort_by(|a, b| seats[*a].player_id.cmp(&seats[*b].player_id));
            let mut found = vec![start; seats.len()];
            for index in order {
                let player = seats[index].player_id.as_deref().unwrap_or_default();
                sqlx::query(ENSURE_SQL)
                    .bind(player)
                    .bind(&game)
                    .bind(format)
                    .bind(start.rating)
                    .bind(start.deviation)
                    .bind(start.volatility)
                    .bind(now)
                    .execute(&mut *self)
                    .await?;
                let (rating, deviation, volatility) =
                    sqlx::query_as::<_, (f64, f64, f64)>(sqlx::AssertSqlSafe(read.clone()))
                        .bind(player)
                        .bind(&game)
                        .bind(format)
                        .fetch_one(&mut *self)
                        .await?;
                found[index] = Rating {
                    rating,
                    deviation,
                    volatility,
                };
            }
            before.extend(found);
            let after = update(&before, &outcome.placings);
            for (index, seat) in seats.iter().enumerate() {
                let player = seat.player_id.as_deref().unwrap_or_default();
                let won = i64::from(is_win(&outcome.placings, index));
                sqlx::query(WRITE_SQL)
                    .bind(player)
                    .bind(&game)
                    .bind(format)
                    .bind(after[index].rating)
                    .bind(after[index].deviation)
                    .bind(after[index].volatility)
                    .bind(won)
                    .bind(now)
                    .execute(&mut *self)
                    .await?;
                sqlx::query(HISTORY_SQL)
                    .bind(match_id)
                    .bind(seat.seat)
                    .bind(player)
                    .bind(&game)
                    .bind(format)
                    .bind(i32::from(outcome.placings[index]))
                    .bind(before[index].rating)
                    .bind(after[index].rating)
                    .bind(after[index].deviation)
                    .execute(&mut *self)
                    .await?;
            }
            Ok(())
        }
    }
}
