//! WebSocket messages of `GET /v1/matches/{id}/ws`. Both directions are JSON text frames
//! with a `type` tag.

use crate::record::AdjournmentAction;
use crate::rules::{Outcome, Seat};
use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a client may send.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// A move for the client's own seat. `id` is the client's, echoed in the ack or error.
    /// `after` is the last `seq` the client had processed when it decided: a command made for
    /// a decision that has since been closed (answered, timed out, withdrawn) is refused with
    /// `stale_command` rather than applied to a later one. Without it the server takes the last
    /// seq it sent on this socket.
    Command {
        id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(range(min = 0))]
        after: Option<i64>,
        command: Value,
    },
    /// Adjourning by agreement: offer to stop here and carry on later (optionally at an
    /// agreed `resume_at`), accept or decline the other seat's offer, or withdraw one's own.
    /// Answered with `ack` (its `last_seq` the adjournment's log entry) or an error
    /// (`adjourn_refused`, its `reason` saying why).
    Adjourn {
        id: String,
        action: AdjournAsk,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resume_at: Option<DateTime<Utc>>,
    },
    /// Liveness check; answered with `pong`.
    Ping {
        #[serde(default)]
        id: Option<String>,
    },
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// First message on every connection: everything the viewer needs to draw the match.
    Snapshot(Snapshot),
    /// One event of the log, as this viewer may see it (sealed choices of other seats are
    /// absent or hidden). `seq` increases; gaps are entries this viewer does not see.
    Event { seq: i64, event: Value },
    /// Sent after each batch of events: the viewer's new view and who is asked to act.
    Update(Update),
    /// Protocol 2 only, instead of `event` and `update` frames: one state change in one frame,
    /// the events and the view's merge patch.
    Step(Step),
    /// The command `id` was accepted and its events are durable; `last_seq` is the last of them.
    Ack { id: String, last_seq: i64 },
    /// A refused message. Nothing of it was written to the log.
    Error(ErrorMessage),
    /// The match is over; the seed is now public, so anyone can verify the log.
    Finished { result: Outcome, seed: String },
    /// The adjournment changed (an offer, its answer, the adjournment, the resumption):
    /// sent to every viewer just before the `update` (or `step`) of that change.
    Adjournment(AdjournmentView),
    Pong {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Snapshot {
    pub protocol: u32,
    pub match_id: String,
    pub game: String,
    pub status: crate::record::MatchStatus,
    /// The seat this connection plays, or none for a spectator.
    pub seat: Option<Seat>,
    /// The game's view for this viewer (per-game schema in `proto/<game>/view.json`).
    pub view: Value,
    /// Seats the game is waiting for; empty in a resume's snapshot (it is history: the
    /// update that ends the backlog says who must act now) and before the start.
    pub pending: Vec<Seat>,
    /// The seq of the last log entry this snapshot includes (with `?resume_from=N`, N): every
    /// event sent after it has a higher seq.
    pub last_seq: i64,
    /// Milliseconds left on this seat's turn clock, when it is asked to act.
    pub deadline_ms: Option<u64>,
    pub seed_commitment: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Outcome>,
    /// An offer to adjourn that stands, or the adjournment itself; absent while the match is
    /// played with no offer pending. Always the current one, in a resume's snapshot too.
    /// (Boxed: it is rarely there, and a snapshot crosses channels by value.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjournment: Option<Box<AdjournmentView>>,
}

/// What a seat asks of the adjournment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AdjournAsk {
    Offer,
    Accept,
    Decline,
    Withdraw,
}

/// Where a match stands with adjourning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AdjournmentState {
    /// Played, no offer pending.
    Playing,
    /// A seat offers to adjourn; the others have not all answered.
    Offered,
    /// Adjourned: the clocks are stopped, nobody forfeits for being away and commands are
    /// refused (`match_adjourned`) until it resumes.
    Adjourned,
}

/// The adjournment as every viewer sees it. Absent members are unknown or do not apply
/// (protocol 2 promises no nulls, so none is ever sent as `null`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AdjournmentView {
    pub state: AdjournmentState,
    /// What happened last.
    pub action: AdjournmentAction,
    /// Who did it; absent for `resumed`, which the server does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// While `offered`: the seats that still have to accept (every seat but the one that
    /// offered, in a game of two).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waiting_for: Vec<Seat>,
    /// The agreed (or offered) time to resume.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_at: Option<DateTime<Utc>>,
    /// While `adjourned`: since when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjourned_at: Option<DateTime<Utc>>,
    /// While `adjourned`: when it ends as abandoned (no result, nothing rated) unless it has
    /// resumed by then (the server's `--adjourn-limit-secs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<DateTime<Utc>>,
}

impl Snapshot {
    /// The snapshot as its socket is sent it: protocol 2 promises no null members, so there
    /// an absent seat (a spectator) or deadline is left out rather than sent as `null`.
    pub fn frame(self) -> super::Frame {
        let protocol_2 = self.protocol == 2;
        let message = ServerMessage::Snapshot(self);
        match (protocol_2, serde_json::to_value(&message)) {
            (true, Ok(value)) => super::Frame::encode(&super::delta::without_nulls(value)),
            _ => super::Frame::encode(&message),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Update {
    pub last_seq: i64,
    pub view: Value,
    pub pending: Vec<Seat>,
    pub deadline_ms: Option<u64>,
    /// The seat whose turn clock ran out: the server played that seat's default move in this
    /// change (absent otherwise), so a client can say so where the player looks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_out: Option<Seat>,
}

/// Protocol 2's one frame per state change. Protocol 2 frames carry no `null` object
/// members (absent means null), in views and events alike.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Step {
    /// The seq of the last log entry once this step is applied.
    pub last_seq: i64,
    /// The new events this viewer may see, as `[seq, event]` pairs in seq order (absent when
    /// none): the same events a protocol 1 socket gets as `event` frames.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<(i64, Value)>,
    /// An RFC 7396 JSON Merge Patch to apply to the view the client holds (the snapshot's,
    /// patched by every step since): changed members only, `null` removes a member, arrays
    /// are replaced whole; `{}` when the view did not change.
    pub view: Value,
    pub pending: Vec<Seat>,
    /// Milliseconds left on this seat's turn clock, when it is asked to act.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
    /// As in `update`: the seat whose turn clock ran out and was played for in this change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_out: Option<Seat>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorMessage {
    /// The client's command id, when the error answers a command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub code: ErrorCode,
    pub message: String,
    /// The engine's stable reason for `illegal_move` (e.g. `card_not_in_hand`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Why a WebSocket message was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The game is not waiting for this seat.
    NotYourTurn,
    /// The seat may act, but not like this; `reason` names the rule.
    IllegalMove,
    /// A binary frame, not JSON, an unknown `type` or field, a control character in any
    /// string, a command over its game's size limit or one the game cannot read. Echoes the
    /// frame's string `id` whenever it has one.
    BadMessage,
    /// Too many messages; slow down (the socket is closed if it continues).
    RateLimited,
    /// A spectator tried to play.
    NotSeated,
    /// The match is not running: not started yet (a seat's socket opened while the match is
    /// `open`), or over.
    MatchNotLive,
    /// The server failed; the command was not applied.
    Internal,
    /// Nothing was attempted: an earlier write of the match is still unconfirmed by the
    /// database. The command was not applied; send it again later.
    Unavailable,
    /// The command's fate is unknown: its write was not confirmed in time, or the match's
    /// node (in a cluster) did not answer in time. It may have been applied, or may still be,
    /// but only to the decision it was made for. Settle it from the log: reconnect with
    /// `resume_from`; if the update that ends the backlog still asks for the same decision,
    /// send the command again with the same `after`. At most one command per decision is
    /// ever applied.
    InDoubt,
    /// The decision the command was made for (see its `after`) is closed: it was answered,
    /// its clock ran out, or it was withdrawn. Not applied; decide again from the latest view.
    StaleCommand,
    /// In a cluster, the match moved to another server node (a drain or a failover); the
    /// command was not applied. The socket closes with 1001: reconnect with `resume_from`
    /// (to any node) and send the command again if the update that ends the resume's backlog
    /// still asks for it.
    MatchMoved,
    /// The match is adjourned: its clocks are stopped and no move is taken until it resumes
    /// (when every player is back, or at the agreed time).
    MatchAdjourned,
    /// An `adjourn` message the adjournment's state refuses; `reason` says why (`no_offer`,
    /// `own_offer`, `already_offered`, `adjourned`, `too_soon`, `resume_at_past`,
    /// `resume_at_late`).
    AdjournRefused,
}

/// Which error a message gets when several apply: the checks in the order the server makes
/// them (gateway, then the match actor); the first that fails answers. `proto/README.md`'s
/// table is generated from this list and `tests/server/protocol.rs` checks the order.
pub const PRECEDENCE: &[(ErrorCode, &str)] = &[
    (
        ErrorCode::RateLimited,
        "the socket's token bucket is empty (checked before the frame is read, so no `id`)",
    ),
    (
        ErrorCode::BadMessage,
        "the frame: binary, not JSON, a command over the game's size limit, a control character, the envelope's shape",
    ),
    (ErrorCode::NotSeated, "a spectator sent a command"),
    (
        ErrorCode::MatchNotLive,
        "the match has not started (socket opened while `open`), or its actor has stopped because it is over",
    ),
    (
        ErrorCode::MatchMoved,
        "the match's actor stopped here: another node runs it now",
    ),
    (
        ErrorCode::Unavailable,
        "an earlier write of the match is still unconfirmed by the database",
    ),
    (
        ErrorCode::Internal,
        "the log could not be read back to settle an earlier write",
    ),
    (ErrorCode::MatchNotLive, "the match is over"),
    (
        ErrorCode::MatchAdjourned,
        "the match is adjourned: no move until it resumes",
    ),
    (
        ErrorCode::AdjournRefused,
        "an `adjourn` message the adjournment's state refuses; `reason` says why",
    ),
    (ErrorCode::NotYourTurn, "the game is not waiting for this seat"),
    (
        ErrorCode::StaleCommand,
        "the seat's decision was asked after the command's `after`: it answers a closed decision",
    ),
    (
        ErrorCode::BadMessage,
        "the game cannot read the command (unknown type or field, wrong value type)",
    ),
    (
        ErrorCode::IllegalMove,
        "the engine refuses the move; `reason` names the rule",
    ),
    (
        ErrorCode::MatchMoved,
        "the write was fenced: another node took the match over",
    ),
    (
        ErrorCode::InDoubt,
        "the database did not confirm this write in time (in a cluster, also: the match's node did not answer in time)",
    ),
    (ErrorCode::Internal, "the write failed otherwise"),
];

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NotSeated => "not_seated",
            ErrorCode::MatchNotLive => "match_not_live",
            ErrorCode::Internal => "internal",
            ErrorCode::Unavailable => "unavailable",
            ErrorCode::InDoubt => "in_doubt",
            ErrorCode::StaleCommand => "stale_command",
            ErrorCode::MatchMoved => "match_moved",
            ErrorCode::MatchAdjourned => "match_adjourned",
            ErrorCode::AdjournRefused => "adjourn_refused",
        }
    }
}
