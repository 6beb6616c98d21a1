//! Parsing at the edge: everything a client sends is checked here, once, and turned into
//! types that cannot hold bad values ([`PlayerName`], the record's
//! [`MatchId`](crate::record::MatchId), ...), so the lobby, the
//! store and the games never see a control character, a malformed id or a name that is
//! only whitespace.
//!
//! Why so strict about control characters: PostgreSQL refuses NUL in `text` (the request
//! would fail deep in the store, as a 500), log lines and terminals interpret the others,
//! and no legitimate client needs them. Refusing them at the edge gives the same typed
//! `bad_request` / `bad_message` on every backend.

mod account;
mod ids;
pub mod json;
mod limits;
mod message;
mod name;
mod reason;

pub use account::{Password, Username};
pub use limits::{CLOCK_CEILING_SECS, InputLimits, MAX_BODY_BYTES};
pub use message::client_message;
pub use name::PlayerName;
pub use reason::Reason;

use serde_json::Value;

/// Why a client's input was refused. Each becomes a `bad_request` (HTTP) or a `bad_message`
/// (WebSocket) whose message is this text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("{field} contains the control character U+{code:04X}; only printable text is accepted")]
    ControlCharacter { field: String, code: u32 },
    #[error("{field} is not a valid id: expected a UUID such as 67e55044-10b1-426f-9247-bb680e5fe0c8")]
    MalformedId { field: &'static str },
    #[error("name {0}")]
    Name(String),
    #[error("username {0}")]
    Username(String),
    #[error("password {0}")]
    Password(String),
    #[error("reason {0}")]
    Reason(String),
}

/// `text` unchanged if it holds no control character (Unicode category Cc: C0, DEL, C1).
pub fn printable<'a>(field: &str, text: &'a str) -> Result<&'a str, InputError> {
    match text.chars().find(|c| c.is_control()) {
        None => Ok(text),
        Some(c) => Err(InputError::ControlCharacter {
            field: field.to_string(),
            code: u32::from(c),
        }),
    }
}

/// Checks every string and every object key of a JSON document for control characters.
/// `field` names the document; the error names the path inside it (`options.squads[0].name`).
/// Recursion is bounded by serde_json's own nesting limit (128) on the parse that made `value`.
pub fn printable_json(field: &str, value: &Value) -> Result<(), InputError> {
    match value {
        Value::String(text) => printable(field, text).map(drop),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(index, item)| printable_json(&format!("{field}[{index}]"), item)),
        Value::Object(map) => map.iter().try_for_each(|(key, item)| {
            // A bad key is named by its position, not echoed.
            printable(&format!("a key of {field}"), key)?;
            printable_json(&format!("{field}.{key}"), item)
        }),
        Value::Null | Value::Bool(_) | Value::Number(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn control_characters_are_found_in_strings_keys_and_nested_values() {
        assert!(printable("name", "Ann Lee é 😀").is_ok());
        for bad in [
            "a\0b",
            "tab\t",
            "new\nline",
            "del\u{7f}",
            "c1\u{85}",
            "\u{1b}[31m",
        ] {
            assert!(
                matches!(printable("name", bad), Err(InputError::ControlCharacter { .. })),
                "{bad:?}"
            );
        }
        assert!(printable_json("body", &json!({"a": [1, "ok", {"b": null}]})).is_ok());
        let error =
            printable_json("body", &json!({"options": {"squads": [{"name": "x\u{0}"}]}})).unwrap_err();
        assert_eq!(
            error.to_string(),
            "body.options.squads[0].name contains the control character U+0000; only printable text is accepted"
        );
        let error = printable_json("body", &json!({"k\u{1}": 1})).unwrap_err();
        assert!(error.to_string().starts_with("a key of body contains"), "{error}");
    }
}
