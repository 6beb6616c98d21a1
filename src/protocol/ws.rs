//! WebSocket messages of `GET /v1/matches/{id}/ws`. Both directions are JSON text frames
//! with a `type` tag.

use crate::rules::{Outcome, Seat};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a client may send.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// A move for the client's own seat. `id` is the client's, echoed in the ack or error.
    Command { id: String, command: Value },
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
    /// The command `id` was accepted and its events are durable; `last_seq` is the last of them.
    Ack { id: String, last_seq: i64 },
    /// A refused message. Nothing of it was written to the log.
    Error(ErrorMessage),
    /// The match is over; the seed is now public, so anyone can verify the log.
    Finished { result: Outcome, seed: String },
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
    pub status: crate::store::MatchStatus,
    /// The seat this connection plays, or none for a spectator.
    pub seat: Option<Seat>,
    /// The game's view for this viewer (per-game schema in `proto/<game>/view.json`).
    pub view: Value,
    /// Seats the game is waiting for.
    pub pending: Vec<Seat>,
    /// The seq of the last log entry; resume from it with `?resume_from=`.
    pub last_seq: i64,
    /// Milliseconds left on this seat's turn clock, when it is asked to act.
    pub deadline_ms: Option<u64>,
    pub seed_commitment: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Outcome>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Update {
    pub last_seq: i64,
    pub view: Value,
    pub pending: Vec<Seat>,
    pub deadline_ms: Option<u64>,
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
    /// Not JSON, an unknown `type` or field, a control character in any string, a command
    /// over its game's size limit or one the game cannot read, or a frame over 64 KiB. Echoes
    /// the frame's string `id` whenever it has one.
    BadMessage,
    /// Too many messages; slow down (the socket is closed if it continues).
    RateLimited,
    /// A spectator tried to play.
    NotSeated,
    /// The match is not running (still in the lobby, or over).
    MatchNotLive,
    /// The server failed; the command was not applied.
    Internal,
    /// The database did not confirm the write in time; the command was not applied (should
    /// its write turn out to have landed, the match adopts it and sends the update).
    Unavailable,
    /// In a cluster, the match moved to another server node (a drain or a failover); the
    /// command was not applied. The socket closes with 1001: reconnect with `resume_from`
    /// (to any node) and send the command again if the snapshot still asks for it.
    MatchMoved,
}

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
            ErrorCode::MatchMoved => "match_moved",
        }
    }
}
