//! Bodies of the HTTP API under `/v1`.

use crate::fairness::VerifyReport;
use crate::record::{EntryKind, MatchStatus, TicketStatus};
use crate::rules::{Outcome, Seat};
use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Every HTTP error: `{"error": {"code": ..., "message": ...}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorDetail {
    pub code: String,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatePlayer {
    /// 1 to 40 printable characters after normalisation (NFC, trimmed, inner whitespace
    /// collapsed to one space); the normalised name is the one stored and shown.
    pub name: String,
}

/// The token is shown once; send it as `Authorization: Bearer <token>` (or `?token=` on the
/// WebSocket).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerCreated {
    pub player_id: String,
    pub name: String,
    pub token: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Opponent {
    /// Fill every other seat with a server-side bot and start at once.
    Bot,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateMatch {
    pub game: String,
    /// The game's options (per-game schema in `proto/<game>/options.json`); default if absent.
    #[serde(default)]
    pub options: Option<Value>,
    #[serde(default)]
    pub opponent: Option<Opponent>,
    /// Seats (after the creator's) given to server-side bots; the rest wait for players.
    /// `opponent: "bot"` is every other seat. The seat count comes from the game's options
    /// (e.g. Cricket Champions `{"players": 2..5}`).
    #[serde(default)]
    pub bots: Option<u8>,
    /// How strongly the bot seats play: `easy` (random legal moves), `normal` (the
    /// heuristic, the default) or `hard` (mixed strategies; CTG only so far: other games
    /// refuse it with `bad_options`). Only with bot seats.
    #[serde(default)]
    pub bot_level: Option<crate::rules::BotLevel>,
    /// Seconds per decision before the server plays the default move (server default 60).
    #[serde(default)]
    pub turn_clock_secs: Option<u64>,
    /// Seconds a disconnected player keeps the seat before forfeiting (server default 300).
    #[serde(default)]
    pub disconnect_grace_secs: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeatInfo {
    pub seat: Seat,
    pub player_id: Option<String>,
    pub name: Option<String>,
    pub bot: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MatchInfo {
    pub match_id: String,
    pub game: String,
    pub options: Value,
    pub status: MatchStatus,
    pub seat_count: u8,
    pub seats: Vec<SeatInfo>,
    pub turn_clock_ms: i64,
    pub disconnect_grace_ms: i64,
    /// hex sha256 of the seed, public from creation.
    pub seed_commitment: String,
    /// The seed itself, only once the match is finished.
    pub seed: Option<String>,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    pub result: Option<Outcome>,
    /// While the match stands adjourned by agreement (its `status` stays `live`): since when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjourned_at: Option<DateTime<Utc>>,
    /// The time its players agreed to resume it, if they named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_at: Option<DateTime<Utc>>,
    /// The competition this match is a fixture of, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub competition_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MatchList {
    pub matches: Vec<MatchInfo>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTicket {
    pub game: String,
    #[serde(default)]
    pub options: Option<Value>,
    /// Accept a server-side bot when no player in rating range turns up within the server's
    /// bot wait (`--matchmaking-bot-after-secs`).
    #[serde(default)]
    pub bot_fallback: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Ticket {
    pub ticket_id: String,
    pub game: String,
    pub status: TicketStatus,
    pub match_id: Option<String>,
}

/// One log entry as the caller may see it. While a match is live only redacted events and
/// the adjournment entries (which are public) are listed; once it is over, every entry,
/// commands included.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LogEntryBody {
    pub seq: i64,
    pub kind: EntryKind,
    pub payload: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<DateTime<Utc>>,
}

impl From<crate::record::LogEntry> for LogEntryBody {
    /// A stored entry as it is, with its time.
    fn from(entry: crate::record::LogEntry) -> Self {
        LogEntryBody {
            seq: entry.seq,
            kind: entry.kind,
            payload: entry.payload,
            at: Some(entry.at),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MatchLog {
    pub match_id: String,
    pub status: MatchStatus,
    pub entries: Vec<LogEntryBody>,
}

/// For now the game's final (public) view and outcome; the cricket scorecard comes later.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Scorecard {
    pub match_id: String,
    pub status: MatchStatus,
    pub view: Value,
    pub result: Option<Outcome>,
    /// The cricket scorecard (CTG, Wicketz) or points table (Champions) folded from the
    /// match's events; absent for games without one.
    pub card: Option<crate::rules::scorecard::GameScorecard>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VerifyBody {
    pub match_id: String,
    #[serde(flatten)]
    pub report: VerifyReport,
}

/// `POST /v1/account/claim`: turns the caller's guest player into an account it can log in
/// to from anywhere.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimAccount {
    /// The login name: 3 to 32 ASCII letters, digits, `.`, `_` or `-`, starting with a letter
    /// or a digit; case-insensitive (stored lowercase) and unique. The display name stays
    /// as it is.
    pub username: String,
    /// 8 to 128 characters, kept exactly as typed; stored only as an argon2id hash.
    pub password: String,
}

/// `POST /v1/sessions`: a login.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LogIn {
    pub username: String,
    pub password: String,
    /// An id this device keeps for itself (16 to 128 printable characters, random, never
    /// shown to anyone). A device that logged in to this name before passes the per-name
    /// limit, so someone else's wrong guesses cannot lock its owner out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

/// A new session: the token is shown once; send it as `Authorization: Bearer <token>` (or
/// `?token=` on the WebSocket) until `expires_at`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionCreated {
    pub player_id: String,
    pub name: String,
    pub username: String,
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

/// `GET /v1/account`: the caller's account and session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Account {
    pub player_id: String,
    pub name: String,
    /// The login name once claimed; absent for a guest.
    pub username: Option<String>,
    pub claimed_at: Option<DateTime<Utc>>,
    /// When the token of this request stops working; absent for a guest's token, which
    /// lasts until the account is claimed.
    pub session_expires_at: Option<DateTime<Utc>>,
}

/// `DELETE /v1/sessions/current` and `DELETE /v1/sessions`: how many sessions ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionsEnded {
    pub ended: u64,
}

/// `GET /v1/games`: every game this server runs, as the lobby and the game pages show them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameCatalog {
    pub games: Vec<GameListing>,
}

/// `GET /v1/games/{game}/rules`: the data files the game's engine plays by, parsed, by name
/// (CTG: `ruleset`, `squads`; Wicketz: `ruleset`, `cards`, `printed_cards`, `outcomes`;
/// Champions: `ruleset`), plus `engine` when the game holds rule values in code (CTG: each
/// format's overs, dice, quotas and restrictions, the over cards' and running's rolls).
/// The files' shapes are their own (`data/<game>/`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameRules {
    pub game: String,
    pub data: serde_json::Map<String, serde_json::Value>,
}

/// One game of the catalogue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameListing {
    /// The id used in URLs, the database and the wire: `ctg`.
    pub id: String,
    pub name: String,
    /// For people: "2-5 players".
    pub players: String,
    pub blurb: String,
    /// The bot levels `POST /v1/matches` accepts for this game.
    pub bot_levels: Vec<crate::rules::BotLevel>,
    /// The rating pools its leaderboards have, the default options' pool first.
    pub rating_pools: Vec<String>,
    /// The options a match gets when it names none, every field filled in.
    pub default_options: Value,
    /// Where the browser client loads the game's module from.
    pub client_module: String,
}
