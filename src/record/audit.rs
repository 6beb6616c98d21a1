//! What an operator did, as the audit table (`admin_audit.action`) and the wire spell it.

// Stored as `TEXT` in a column whose `CHECK` lists the same words, like `MatchStatus`.
/// An admin action recorded in the audit log.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema, sqlx::Type,
)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum AuditAction {
    Ban,
    Unban,
    Rename,
    EndMatch,
}
