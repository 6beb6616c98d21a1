//! The record: the words a match's history is written in, shared by every layer that reads
//! or writes it.
//!
//! The store keeps these values in its tables, the protocol sends them on the wire, fairness
//! replays them and the match actors write them, so each is defined once, here, with one
//! spelling for JSON and SQL (serde's and sqlx's derives agree on the snake_case name). This
//! module sits on the ground floor: it knows the rules' types (a [`Seat`](crate::rules::Seat))
//! and nothing above them (no store, protocol, http or matches), so any of those can depend
//! on it without a cycle.

mod audit;
mod clocks;
mod entry;
mod ids;
mod status;

pub use audit::AuditAction;
pub use clocks::Clocks;
pub use entry::{
    AbandonRecord, AdjournmentAction, AdjournmentRecord, CommandRecord, CommandSource, EntryKind, Finish,
    ForfeitRecord, LogEntry, NewEntry,
};
pub use ids::{MatchId, PlayerId, TicketId};
pub use status::{MatchStatus, TicketStatus};
