//! Where a match, or a matchmaking ticket, is in its life.
//!
//! One spelling for the wire and the database: serde and sqlx both use the snake_case variant
//! name, stored as `TEXT` in a column whose `CHECK` lists the same words. A stored value
//! outside them fails to decode (the store's `Malformed`, naming the value) rather than being
//! read as some other status.

// The doc comment below is the JSON schema's text.
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

// Stored in `matchmaking_ticket.status` (its CHECK lists the three).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema, sqlx::Type,
)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum TicketStatus {
    Waiting,
    Matched,
    Cancelled,
}
