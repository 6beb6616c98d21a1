//! Read side of ratings and match history: leaderboards, profiles, a player's matches.

use super::{Store, StoreResult};
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LeaderboardRow {
    pub player_id: String,
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    pub matches: i64,
    pub wins: i64,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PlayerRow {
    pub player_id: String,
    pub name: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MatchRatingRow {
    pub game: String,
    pub format: String,
    pub rating: f64,
    pub deviation: f64,
    pub matches: i64,
    pub wins: i64,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PlayerMatchRow {
    pub match_id: String,
    pub game: String,
    pub status: String,
    pub seat: i32,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub result: Option<Json<Value>>,
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
}

impl Store {
    /// One page of a rating pool, best first (ties broken by player id so pages are stable).
    pub async fn leaderboard(
        &self,
        game: &str,
        format: &str,
        limit: i64,
        offset: i64,
    ) -> StoreResult<Vec<LeaderboardRow>> {
        const SQL: &str = "SELECT r.player_id, p.name, r.rating, r.deviation, r.matches, r.wins \
             FROM rating r JOIN player p ON p.player_id = r.player_id \
             WHERE r.game = $1 AND r.format = $2 ORDER BY r.rating DESC, r.player_id LIMIT $3 OFFSET $4";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, LeaderboardRow>(SQL)
            .bind(game).bind(format).bind(limit).bind(offset).fetch_all(pool).await)?)
    }

    pub async fn player(&self, player_id: &str) -> StoreResult<Option<PlayerRow>> {
        const SQL: &str = "SELECT player_id, name, created_at FROM player WHERE player_id = $1";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, PlayerRow>(SQL)
            .bind(player_id).fetch_optional(pool).await)?)
    }

    pub async fn ratings_of(&self, player_id: &str) -> StoreResult<Vec<MatchRatingRow>> {
        const SQL: &str = "SELECT game, format, rating, deviation, matches, wins FROM rating \
             WHERE player_id = $1 ORDER BY game, format";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, MatchRatingRow>(SQL)
            .bind(player_id).fetch_all(pool).await)?)
    }

    /// A player's matches, newest first, with the rating change of rated ones.
    pub async fn matches_of(
        &self,
        player_id: &str,
        limit: i64,
        offset: i64,
    ) -> StoreResult<Vec<PlayerMatchRow>> {
        const SQL: &str = "SELECT m.match_id, m.game, m.status, s.seat, m.created_at, m.finished_at, m.result, \
             mr.rating_before, mr.rating_after \
             FROM match_seat s JOIN \"match\" m ON m.match_id = s.match_id \
             LEFT JOIN match_rating mr ON mr.match_id = s.match_id AND mr.seat = s.seat \
             WHERE s.player_id = $1 ORDER BY m.created_at DESC, m.match_id DESC LIMIT $2 OFFSET $3";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, PlayerMatchRow>(SQL)
            .bind(player_id).bind(limit).bind(offset).fetch_all(pool).await)?)
    }
}
