//! Rows as the store reads and writes them; identical on both backends.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;

// One spelling for the wire and the database: serde and sqlx both use the snake_case variant
// name, stored in the `TEXT` column `match.status` (whose `CHECK` lists the same four). A
// stored value outside them fails to decode (`StoreError::Malformed`, naming the value) rather
// than being read as some other status. The doc comment below is the JSON schema's text.
/// Where a match is in its life. `open`: in the lobby; `live`: an actor runs it;
/// `finished`: has a result and a revealed seed; `cancelled`: everyone left before it began.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema, sqlx::Type,
)]
#[serde(rename_all = "snake_case")]
// `type_name = "text"`: on PostgreSQL the value is bound and checked as the built-in `text`
// (the column's type), not as a custom enum type the migrations never create.
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum MatchStatus {
    Open,
    Live,
    Finished,
    Cancelled,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MatchRow {
    pub match_id: String,
    pub game: String,
    pub options: Json<Value>,
    pub status: MatchStatus,
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
    /// The same as the `status` field; kept so that callers outside the store (the lobby, the
    /// CLI) read it unchanged.
    pub fn status(&self) -> MatchStatus {
        self.status
    }
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct SeatRow {
    pub match_id: String,
    pub seat: i32,
    pub player_id: Option<String>,
    pub bot: bool,
    /// A bot seat's level as stored (`easy`, `normal`, `hard`; the column's CHECK lists
    /// them); `None` plays `normal`. Text here because the rules' `BotLevel` knows no sqlx.
    pub bot_level: Option<String>,
}

impl SeatRow {
    /// The level this seat's bot plays at. A stored word no level spells (the CHECK forbids
    /// it) plays `normal` rather than stopping the match.
    pub fn bot_level(&self) -> crate::rules::BotLevel {
        self.bot_level
            .as_deref()
            .and_then(|word| word.parse().ok())
            .unwrap_or_default()
    }
}

// Stored in `match_event.kind` (`TEXT`) as on the wire, the snake_case variant name, like
// `MatchStatus`.
/// What a log row records.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema, sqlx::Type,
)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum EntryKind {
    /// `{seat, source, command}`: what a seat (or its clock, or a bot) asked.
    Command,
    /// One engine event, unredacted.
    Event,
    /// `{seat, reason}`: a seat lost without the engine deciding it.
    Forfeit,
}

/// What finishes a match in the transaction that writes its last entries: the result, and
/// the rating pool it counts in (the game's `rating_pool` of the match's options, which the
/// store cannot work out itself: it does not know the games).
#[derive(Clone, Debug, PartialEq)]
pub struct Finish {
    /// The `Outcome`, as JSON.
    pub result: serde_json::Value,
    pub rating_pool: String,
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
