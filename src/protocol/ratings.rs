//! Ratings, leaderboards and match history on the wire.

use crate::record::MatchStatus;
use crate::rules::Outcome;
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
    /// While the match stands adjourned by agreement (its `status` stays `live`): since when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjourned_at: Option<DateTime<Utc>>,
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
    /// Career figures per game over finished matches (the operators' career views); a game
    /// the player has not finished a match of is absent.
    #[serde(default)]
    pub careers: Vec<CareerFigures>,
}

/// A player's career in one game. The cricket games (CTG, Wicketz) fill the batting and
/// bowling figures; Cricket Champions fills wins and points instead.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CareerFigures {
    pub game: String,
    /// Finished matches.
    pub matches: i64,
    /// Runs scored while batting (Champions: runs in the points table).
    pub runs: i64,
    /// Wickets taken while bowling, run outs excluded (Champions: wickets in the points table).
    pub wickets: i64,
    /// Legal deliveries faced.
    pub balls_faced: Option<i64>,
    pub fours: Option<i64>,
    pub sixes: Option<i64>,
    /// Times out while batting.
    pub dismissals: Option<i64>,
    /// Runs off the bat and extras conceded while bowling.
    pub runs_conceded: Option<i64>,
    /// Legal deliveries bowled.
    pub balls_bowled: Option<i64>,
    /// Runs per 100 balls faced; absent before the first ball faced.
    pub strike_rate: Option<f64>,
    /// Runs conceded per six-ball over; absent before the first ball bowled.
    pub economy: Option<f64>,
    /// Champions: matches finished in first place.
    pub wins: Option<i64>,
    /// Champions: championship points over all matches.
    pub points: Option<i64>,
    pub average_points: Option<f64>,
}

/// `GET /v1/players/{id}/matches`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerMatches {
    pub player_id: String,
    pub matches: Vec<PlayerMatch>,
    pub next_cursor: Option<String>,
}
