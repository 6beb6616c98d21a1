//! The wire: every JSON message a client sends or receives, versioned.
//!
//! Game-specific payloads (options, commands, events, views) travel as JSON values inside
//! game-independent envelopes, so one gateway serves every game; their own schemas are
//! generated per game into `proto/<game>/`. `tests/rules/proto_schema.rs` regenerates `proto/`
//! from these types and fails when the committed files are stale.

pub mod admin;
pub mod cluster;
pub mod competitions;
pub mod delta;
pub mod feed;
pub mod frame;
pub mod http;
pub mod ratings;
pub mod request;
pub mod resume;
pub mod schema;
pub mod ws;

pub use admin::*;
pub use cluster::*;
pub use competitions::*;
pub use feed::{Subscription, ViewerBatch};
pub use frame::{Frame, covered_by};
pub use http::*;
pub use ratings::*;
pub use request::{CommandError, Mail, MatchMailbox, MatchReply, MatchRequest};
pub use ws::*;

/// The newest protocol version this server speaks. Bumped on any change a deployed client
/// could trip over; a client asks for one with `?protocol=N` on the match socket, and every
/// snapshot says which one the connection got.
pub const PROTOCOL_VERSION: u32 = 2;

/// What a match socket speaks, negotiated when it opens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Protocol {
    /// Version 1, the default: every `update` carries the viewer's full view.
    #[default]
    V1,
    /// Version 2: after the snapshot, one `step` frame per state change (its events and an
    /// RFC 7396 merge patch of the view) replaces the `event` frames and the `update`; no
    /// frame carries a `null` object member ([`delta`]).
    V2,
}

impl Protocol {
    /// The `protocol` query parameter: absent means 1, so old clients keep working.
    pub fn from_query(version: Option<u32>) -> Result<Protocol, String> {
        match version {
            None | Some(1) => Ok(Protocol::V1),
            Some(2) => Ok(Protocol::V2),
            Some(other) => Err(format!(
                "protocol {other} is not spoken here: use 1 or 2 (the newest, {PROTOCOL_VERSION})"
            )),
        }
    }

    /// A whole view (a snapshot's) as this protocol sends it.
    pub fn view(self, view: serde_json::Value) -> serde_json::Value {
        match self {
            Protocol::V1 => view,
            Protocol::V2 => delta::without_nulls(view),
        }
    }

    pub fn number(self) -> u32 {
        match self {
            Protocol::V1 => 1,
            Protocol::V2 => 2,
        }
    }
}

/// Largest WebSocket message the server accepts from a client.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;
