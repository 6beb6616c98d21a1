//! Rows as the store reads and writes them; identical on both backends.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;

/// Where a match is in its life. `open`: in the lobby; `live`: an actor runs it;
/// `finished`: has a result and a revealed seed; `cancelled`: everyone left before it began.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchStatus {
    Open,
    Live,
    Finished,
    Cancelled,
}

impl MatchStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchStatus::Open => "open",
            MatchStatus::Live => "live",
            MatchStatus::Finished => "finished",
            MatchStatus::Cancelled => "cancelled",
        }
    }
}

impl std::str::FromStr for MatchStatus {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        Ok(match text {
            "open" => MatchStatus::Open,
            "live" => MatchStatus::Live,
            "finished" => MatchStatus::Finished,
            "cancelled" => MatchStatus::Cancelled,
            other => return Err(format!("unknown match status {other:?}")),
        })
    }
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MatchRow {
    pub match_id: String,
    pub game: String,
    pub options: Json<Value>,
    pub status: String,
    pub seat_count: i32,
    pub turn_clock_ms: i64,
    pub disconnect_grace_ms: i64,
    pub seed_commitment: String,
    /// Secret until the match is finished: never serialise this row to a client.
    pub seed: String,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    pub result: Option<Json<Value>>,
}

impl MatchRow {
    pub fn status(&self) -> MatchStatus {
        self.status.parse().unwrap_or(MatchStatus::Cancelled)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct SeatRow {
    pub match_id: String,
    pub seat: i32,
    pub player_id: Option<String>,
    pub bot: bool,
}

/// What a log row records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// `{seat, source, command}`: what a seat (or its clock, or a bot) asked.
    Command,
    /// One engine event, unredacted.
    Event,
    /// `{seat, reason}`: a seat lost without the engine deciding it.
    Forfeit,
}

impl EntryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::Command => "command",
            EntryKind::Event => "event",
            EntryKind::Forfeit => "forfeit",
        }
    }
}

impl std::str::FromStr for EntryKind {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        Ok(match text {
            "command" => EntryKind::Command,
            "event" => EntryKind::Event,
            "forfeit" => EntryKind::Forfeit,
            other => return Err(format!("unknown log entry kind {other:?}")),
        })
    }
}

#[derive(Clone, Debug)]
pub struct NewEntry {
    pub seq: i64,
    pub kind: EntryKind,
    /// Already JSON: serialised once from the typed command or event, written as is.
    pub payload: Box<serde_json::value::RawValue>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub kind: EntryKind,
    pub payload: Value,
}
