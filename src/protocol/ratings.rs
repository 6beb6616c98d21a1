//! Ratings, leaderboards and match history on the wire.

use crate::rules::Outcome;
use crate::store::MatchStatus;
use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LeaderboardEntry {
    /// 1 is the best rating in the pool.
    pub rank: u64,
    pub player_id: String,
    pub name: String,
    /// Glicko-2 rating (starts at 1500).
    pub rating: f64,
    /// Glicko-2 rating deviation: how unsure the rating still is (starts at 350).
    pub deviation: f64,
    pub matches: i64,
    pub wins: i64,
}

/// `GET /v1/leaderboards/{game}`: one page of one game and format's rating pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Leaderboard {
    pub game: String,
    pub format: String,
    pub entries: Vec<LeaderboardEntry>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// A player's rating in one pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerRating {
    pub game: String,
    pub format: String,
    pub rating: f64,
    pub deviation: f64,
    pub matches: i64,
    pub wins: i64,
}

/// One match a player sat in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerMatch {
    pub match_id: String,
    pub game: String,
    pub status: MatchStatus,
    pub seat: u8,
    /// This seat's place (1 is best) once the match is finished.
    pub placing: Option<u8>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub result: Option<Outcome>,
    /// Present for rated matches only.
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
}

/// `GET /v1/players/{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerProfile {
    pub player_id: String,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub ratings: Vec<PlayerRating>,
    /// The ten most recent matches.
    pub recent_matches: Vec<PlayerMatch>,
}

/// `GET /v1/players/{id}/matches`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerMatches {
    pub player_id: String,
    pub matches: Vec<PlayerMatch>,
    pub next_cursor: Option<String>,
}
