//! The wire: every JSON message a client sends or receives, versioned.
//!
//! Game-specific payloads (options, commands, events, views) travel as JSON values inside
//! game-independent envelopes, so one gateway serves every game; their own schemas are
//! generated per game into `proto/<game>/`. `tests/proto_schema.rs` regenerates `proto/`
//! from these types and fails when the committed files are stale.

pub mod cluster;
pub mod frame;
pub mod http;
pub mod ratings;
pub mod schema;
pub mod ws;

pub use cluster::*;
pub use frame::Frame;
pub use http::*;
pub use ratings::*;
pub use ws::*;

/// Bumped on any change a deployed client could trip over. Sent in every snapshot.
pub const PROTOCOL_VERSION: u32 = 1;

/// Largest WebSocket message the server accepts from a client.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;
