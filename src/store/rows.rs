//! Rows as the store reads and writes them; identical on both backends. The values they
//! share with the wire and the log (statuses, entry kinds) are the record's.

use crate::record::{MatchId, MatchStatus, PlayerId};
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MatchRow {
    pub match_id: MatchId,
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
    /// When the match was adjourned by agreement, while it stands adjourned.
    pub adjourned_at: Option<DateTime<Utc>>,
    /// The time its players agreed to resume it, if they named one.
    pub resume_at: Option<DateTime<Utc>>,
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
    pub match_id: MatchId,
    pub seat: i32,
    pub player_id: Option<PlayerId>,
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
