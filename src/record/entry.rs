//! A match's log: what each entry records, and the payloads of the entries the server writes
//! itself (a command, a forfeit). An event's payload is the game's own event type.

use crate::rules::Seat;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

// Stored in `match_event.kind` (`TEXT`) as on the wire, the snake_case variant name, like
// `MatchStatus`.
/// What a log row records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema, sqlx::Type)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum EntryKind {
    /// `{seat, source, command}`: what a seat (or its clock, or a bot) asked.
    Command,
    /// One engine event, unredacted.
    Event,
    /// `{seat, reason}`: a seat lost without the engine deciding it.
    Forfeit,
    /// `{reason, by}`: an operator ended the match; nobody won and nothing is rated.
    Abandon,
    /// `{action, seat?, resume_at?}`: a step of adjourning by agreement (an offer, its
    /// answer, the adjournment, the resumption). The engine never sees it.
    Adjournment,
}

/// What finishes a match in the transaction that writes its last entries: the result, and
/// the rating pool it counts in (the game's `rating_pool` of the match's options, which the
/// store cannot work out itself: it does not know the games).
#[derive(Clone, Debug, PartialEq)]
pub struct Finish {
    /// The `Outcome`, as JSON.
    pub result: serde_json::Value,
    pub rating_pool: String,
    /// False for a match an operator abandoned: its result ends it but says nothing of the
    /// players' skill, so no rating moves.
    pub rated: bool,
}

/// An entry on its way into the log: the store stamps its time when the append commits.
#[derive(Clone, Debug)]
pub struct NewEntry {
    pub seq: i64,
    pub kind: EntryKind,
    /// Already JSON: serialised once from the typed command or event, written as is.
    pub payload: Box<serde_json::value::RawValue>,
}

/// An entry as the log holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub kind: EntryKind,
    pub payload: Value,
}

/// Who made the server submit a command. Logged so a reader can tell a player's move from
/// the one the clock played for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CommandSource {
    Player,
    Timeout,
    Bot,
}

/// The payload of a `command` log entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CommandRecord {
    pub seat: Seat,
    pub source: CommandSource,
    pub command: Value,
}

/// The payload of a `forfeit` log entry: a seat lost without the engine deciding it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ForfeitRecord {
    pub seat: Seat,
    pub reason: String,
}

/// The payload of an `abandon` log entry: an operator ended the match before the rules did.
/// It is the log's last entry; the match is finished with every seat placed equal, unrated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AbandonRecord {
    /// Why, as the operator gave it (or the server: every player left).
    pub reason: String,
    /// Who: the label of the admin token that asked, or `server` when the server abandoned
    /// the match because every player had left.
    pub by: String,
}

impl AbandonRecord {
    /// `by` of an abandonment the server decided: every player of the match had left when
    /// the first one's disconnect grace ran out, so nobody takes a rated loss for leaving
    /// a few milliseconds earlier than the other.
    pub const SERVER: &'static str = "server";
}

/// A step of adjourning a match by agreement, as its log records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AdjournmentAction {
    /// A seat offers to stop here and carry on later (at `resume_at`, if it names a time).
    Offered,
    /// One of the other seats accepted, in a game of more than two seats: the last to accept
    /// writes `agreed` instead.
    Accepted,
    /// Another seat said no: play goes on.
    Declined,
    /// The seat that offered took its offer back.
    Withdrawn,
    /// The last seat to answer accepted: the clocks stop and nobody forfeits for being away.
    Agreed,
    /// Play goes on: every player came back, or the agreed time came (no seat: the server).
    Resumed,
}

/// The payload of an `adjournment` log entry. The entry's time is when it happened: an
/// adjournment's start is its `agreed` entry's `at`, from which the server's limit runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AdjournmentRecord {
    pub action: AdjournmentAction,
    /// Who offered, answered or withdrew; absent for a resumption, which the server makes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The agreed time to resume, if the offer named one (repeated in the `agreed` entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_at: Option<DateTime<Utc>>,
}
