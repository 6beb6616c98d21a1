//! Bodies of the admin API under `/v1/admin` (moderation; `docs/operators.md`).

use crate::record::AuditAction;
use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why a player is banned or a match ended: 1 to 200 printable characters (trimmed), kept
/// in the audit log (and, for a match, in its log).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdminReason {
    pub reason: String,
}

/// A new display name: the rules of `CreatePlayer.name`, and no other player may hold it
/// (compared case-insensitively).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenamePlayer {
    pub name: String,
}

/// A player as an operator sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AdminPlayer {
    pub player_id: String,
    pub name: String,
    /// The login name, once the account is claimed.
    pub username: Option<String>,
    pub created_at: DateTime<Utc>,
    /// Set while the player is banned.
    pub banned_at: Option<DateTime<Utc>>,
    pub ban_reason: Option<String>,
}

/// What a ban did: the player's sockets were told to close (`sessions_closed` sessions) and
/// it was taken out of `matches_left` (open ones left, live ones forfeited).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerBanned {
    pub player: AdminPlayer,
    pub sessions_closed: u64,
    pub matches_left: Vec<String>,
}

/// One page of a player search, by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AdminPlayers {
    pub players: Vec<AdminPlayer>,
    /// Pass as `cursor` for the next page; absent on the last.
    pub next_cursor: Option<String>,
}

/// One admin action: who (the admin token's label), what, to what, and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AuditEntry {
    pub audit_id: i64,
    pub at: DateTime<Utc>,
    pub actor: String,
    pub action: AuditAction,
    /// The player id or match id acted on.
    pub target: String,
    /// The action's own details (`reason`; `from` and `to` for a rename).
    pub details: Value,
}

/// One page of the audit log, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AuditLog {
    pub entries: Vec<AuditEntry>,
    /// Pass as `cursor` for older entries; absent on the last page.
    pub next_cursor: Option<String>,
}
