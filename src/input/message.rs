//! WebSocket frames from a client, checked before anything acts on them.

use super::json::{self, StrictValue};
use super::{printable, printable_json};
use crate::protocol::{ClientMessage, ErrorCode, ErrorMessage, MAX_FRAME_BYTES};
use serde::de::{self, Deserializer, MapAccess, Unexpected, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

/// Reads one text frame into a [`ClientMessage`], or the `bad_message` error to answer it
/// with. In order: the frame's size, JSON syntax (a key repeated in any object included), the
/// command's size as sent (the game's `max_command_bytes`, checked before the game's parser
/// sees it), no control character in any string or key, then the envelope's shape (unknown
/// fields refused). Every error echoes the frame's string `id` whenever it has one, so a
/// client can match the refusal to what it sent: also when the JSON breaks after the id, and
/// when the id itself holds a control character (the echo is JSON-escaped, so it is exactly
/// what was sent).
///
/// An object frame is read in one pass: its members as strictly read JSON values, the
/// command also as the text it was sent as (for its size). The checks that follow look at
/// what that pass read, and the envelope is built from it, the command moved, not copied.
pub fn client_message(text: &str, max_command_bytes: usize) -> Result<ClientMessage, ErrorMessage> {
    if text.len() > MAX_FRAME_BYTES {
        return Err(bad(None, format!("message over {} KiB", MAX_FRAME_BYTES / 1024)));
    }
    let members = match read_members(text) {
        Ok(Some(members)) => members,
        Ok(None) => return not_an_object(text, max_command_bytes),
        Err(error) => return Err(bad(salvaged_id(text), format!("not JSON: {error}"))),
    };
    let id = members.values.iter().find_map(|(key, value)| match value {
        Value::String(id) if key == "id" => Some(id.clone()),
        _ => None,
    });
    if let Some(size) = members.command_bytes
        && size > max_command_bytes
    {
        return Err(bad(
            id,
            format!("command of {size} bytes is over this game's limit of {max_command_bytes}"),
        ));
    }
    members
        .printable()
        .map_err(|error| bad(id.clone(), error.to_string()))?;
    envelope(members.values).map_err(|error| bad(id, format!("not a client message: {error}")))
}

/// The members of an object frame in key order, the order a serde_json object keeps them in
/// and so the order every check of them goes in.
struct Members {
    values: Vec<(String, Value)>,
    /// The size of the `command` member as sent (none for an absent or `null` one).
    command_bytes: Option<usize>,
}

impl Members {
    /// No control character in any key or string, checked as [`printable_json`] checks a
    /// whole object, so the first found is the same.
    fn printable(&self) -> Result<(), super::InputError> {
        self.values.iter().try_for_each(|(key, value)| {
            printable("a key of message", key)?;
            printable_json(&format!("message.{key}"), value)
        })
    }
}

/// Reads a frame in one pass; `None` if it is JSON but not an object. Errors are
/// [`json::parse`]'s, positions included.
fn read_members(text: &str) -> Result<Option<Members>, serde_json::Error> {
    if !text.trim_start_matches([' ', '\t', '\n', '\r']).starts_with('{') {
        return json::parse(text).map(|_| None);
    }
    let mut in_command = None;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let read = deserializer.deserialize_map(MembersVisitor {
        text,
        in_command: &mut in_command,
    });
    let read = read.and_then(|members| deserializer.end().map(|()| members));
    match (read, in_command) {
        // The command's own error, at its place in the frame, not the pass's abort.
        (Err(_), Some(error)) => Err(error),
        (read, _) => read.map(Some),
    }
}

struct MembersVisitor<'t, 's> {
    text: &'t str,
    /// The frame's own parse error, when the command's part of the pass failed.
    in_command: &'s mut Option<serde_json::Error>,
}

impl<'de> Visitor<'de> for MembersVisitor<'de, '_> {
    type Value = Members;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
        let mut members = Members {
            values: Vec::new(),
            command_bytes: None,
        };
        while let Some(key) = map.next_key::<String>()? {
            let value = if key == "command" {
                // Taken as sent, for its size, then read strictly like the rest of the frame.
                let raw: Option<&'de RawValue> = map.next_value().ok();
                let read = raw.and_then(|raw| Some((raw, json::parse(raw.get()).ok()?)));
                let Some((raw, value)) = read.filter(|(raw, value)| !too_deep(raw, value)) else {
                    // The frame's strict parse says what is wrong, as it did before this pass.
                    *self.in_command = json::parse(self.text).err();
                    return Err(de::Error::custom("the command does not read"));
                };
                members.command_bytes = (!value.is_null()).then_some(raw.get().len());
                value
            } else {
                map.next_value::<StrictValue>()?.0
            };
            if members.values.iter().any(|(seen, _)| *seen == key) {
                return Err(de::Error::custom(format_args!(
                    "the key {key:?} appears twice in one object"
                )));
            }
            members.values.push((key, value));
        }
        members.values.sort_by(|(one, _), (other, _)| one.cmp(other));
        Ok(members)
    }
}

/// serde_json's nesting limit (128) counts the frame's own object, which the command's own
/// parse does not: a command nested this deep is refused as the frame's parse refuses it.
const COMMAND_DEPTH_LIMIT: usize = 127;

/// Whether `value` nests to [`COMMAND_DEPTH_LIMIT`] (only a command this long can).
fn too_deep(raw: &RawValue, value: &Value) -> bool {
    raw.get().len() >= 2 * COMMAND_DEPTH_LIMIT && depth(value) >= COMMAND_DEPTH_LIMIT
}

/// How deeply arrays and objects nest in `value` (a scalar is 0).
fn depth(value: &Value) -> usize {
    let inner = match value {
        Value::Array(items) => items.iter().map(depth).max(),
        Value::Object(members) => members.values().map(depth).max(),
        _ => return 0,
    };
    1 + inner.unwrap_or(0)
}

/// Builds the envelope from an object's members as serde's derive for the internally tagged
/// [`ClientMessage`] would from a serde_json object, with its messages: the tag first, then
/// the variant's fields in key order (unknown ones refused), then the missing ones.
fn envelope(members: Vec<(String, Value)>) -> Result<ClientMessage, serde_json::Error> {
    use de::Error;
    let mut tag = None;
    let mut fields = Vec::with_capacity(members.len());
    for (key, value) in members {
        match value {
            Value::String(name) if key == "type" => tag = Some(name),
            other if key == "type" => {
                return Err(Error::invalid_type(unexpected(&other), &"variant identifier"));
            }
            value => fields.push((key, value)),
        }
    }
    let tag = tag.ok_or_else(|| Error::missing_field("type"))?;
    if tag == "adjourn" {
        // No command to move and nothing to salvage: serde's own reading of the variant
        // (unknown fields refused, `resume_at` an RFC 3339 time) is the check.
        let mut object: serde_json::Map<String, Value> = fields.into_iter().collect();
        object.insert("type".into(), Value::String(tag));
        return serde_json::from_value(Value::Object(object));
    }
    let mut id: Option<Option<String>> = None;
    let mut command = None;
    let mut after = None;
    let known: &[&str] = match tag.as_str() {
        "command" => &["id", "after", "command"],
        "ping" => &["id"],
        other => return Err(Error::unknown_variant(other, &["command", "adjourn", "ping"])),
    };
    for (key, value) in fields {
        match key.as_str() {
            // A ping's id may be `null`; a command's must be a string.
            "id" => {
                id = Some(match value {
                    Value::String(id) => Some(id),
                    Value::Null if tag == "ping" => None,
                    other => return Err(Error::invalid_type(unexpected(&other), &"a string")),
                })
            }
            "command" if tag == "command" => command = Some(value),
            "after" if tag == "command" => {
                after = match value {
                    Value::Null => None,
                    Value::Number(number) => match number.as_i64() {
                        Some(seq) if seq >= 0 => Some(seq),
                        _ => {
                            return Err(Error::invalid_value(
                                unexpected(&Value::Number(number)),
                                &"a seq >= 0",
                            ));
                        }
                    },
                    other => return Err(Error::invalid_type(unexpected(&other), &"a seq >= 0")),
                }
            }
            other => return Err(Error::unknown_field(other, known)),
        }
    }
    if tag == "ping" {
        return Ok(ClientMessage::Ping { id: id.flatten() });
    }
    let id = id.flatten().ok_or_else(|| Error::missing_field("id"))?;
    let command = command.ok_or_else(|| Error::missing_field("command"))?;
    Ok(ClientMessage::Command { id, after, command })
}

/// What serde calls `value` in an "invalid type" error.
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(boolean) => Unexpected::Bool(*boolean),
        Value::Number(number) => match (number.as_u64(), number.as_i64()) {
            (Some(unsigned), _) => Unexpected::Unsigned(unsigned),
            (None, Some(signed)) => Unexpected::Signed(signed),
            _ => Unexpected::Float(number.as_f64().unwrap_or_default()),
        },
        Value::String(text) => Unexpected::Str(text),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// A frame that is JSON but not an object (junk, in practice). serde reads a sequence as a
/// struct or an internally tagged enum too, so such a frame goes through serde's own reading
/// of the envelope, with its messages; it has no id to echo.
fn not_an_object(text: &str, max_command_bytes: usize) -> Result<ClientMessage, ErrorMessage> {
    #[derive(serde::Deserialize)]
    struct Probe<'a> {
        #[serde(borrow, default)]
        command: Option<&'a RawValue>,
    }
    let refused = |error: serde_json::Error| bad(None, format!("not a client message: {error}"));
    let probe: Probe<'_> = serde_json::from_str(text).map_err(refused)?;
    if let Some(command) = probe.command
        && command.get().len() > max_command_bytes
    {
        let size = command.get().len();
        return Err(bad(
            None,
            format!("command of {size} bytes is over this game's limit of {max_command_bytes}"),
        ));
    }
    let value = json::parse(text).map_err(|error| bad(None, format!("not JSON: {error}")))?;
    printable_json("message", &value).map_err(|error| bad(None, error.to_string()))?;
    serde_json::from_value(value).map_err(refused)
}

/// The string `id` of an object frame whose JSON breaks somewhere after that member, read by
/// walking the object with serde_json up to the break: what was read before it stays read.
fn salvaged_id(text: &str) -> Option<String> {
    use serde::de::{DeserializeSeed, IgnoredAny};
    struct Members<'a>(&'a mut Option<String>);
    impl<'de> Visitor<'de> for Members<'_> {
        type Value = ();
        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            formatter.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if key == "id" {
                    match map.next_value::<Value>()? {
                        Value::String(id) => *self.0 = Some(id),
                        _ => *self.0 = None,
                    }
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(())
        }
    }
    impl<'de> DeserializeSeed<'de> for Members<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_map(self)
        }
    }
    let mut id = None;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let _ = Members(&mut id).deserialize(&mut deserializer);
    id
}

fn bad(id: Option<String>, message: String) -> ErrorMessage {
    ErrorMessage {
        id,
        code: ErrorCode::BadMessage,
        message,
        reason: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(text: &str) -> ErrorMessage {
        client_message(text, 64).expect_err(text)
    }

    #[test]
    fn frames_are_checked_and_refusals_echo_the_id() {
        let ok = json!({"type": "command", "id": "c1", "command": {"type": "pick", "value": 1}});
        assert_eq!(
            client_message(&ok.to_string(), 64),
            Ok(ClientMessage::Command {
                id: "c1".into(),
                after: None,
                command: json!({"type": "pick", "value": 1})
            })
        );
        // Not JSON: there is no id to echo.
        assert_eq!(refused("{nope").id, None);
        // Unknown envelope field, unknown type, missing command: the id comes back.
        for frame in [
            json!({"type": "command", "id": "c2", "command": {}, "extra": 1}),
            json!({"type": "ping", "id": "c2", "extra": 1}),
            json!({"type": "teleport", "id": "c2"}),
            json!({"type": "command", "id": "c2"}),
        ] {
            let error = refused(&frame.to_string());
            assert_eq!(
                (error.code, error.id.as_deref()),
                (ErrorCode::BadMessage, Some("c2")),
                "{frame}"
            );
        }
        // Control characters anywhere, in values or keys.
        let error = refused(r#"{"type":"command","id":"c3","command":{"type":"buy","card":"x\u0000"}}"#);
        assert_eq!(error.id.as_deref(), Some("c3"));
        assert!(
            error
                .message
                .contains("message.command.card contains the control character U+0000")
        );
        // An id with a control character is still the client's id: echoed (JSON-escaped).
        let error = refused(r#"{"type":"ping","id":"c\u0007"}"#);
        assert_eq!(error.id.as_deref(), Some("c\u{7}"));
        assert!(
            error
                .message
                .contains("message.id contains the control character U+0007")
        );
        // JSON that breaks after the id: the id read before the break comes back.
        for broken in [
            r#"{"type":"command","id":"c6","command":{"type":"pick","value":1},}"#,
            r#"{"type":"command","id":"c6","command":{"type":"pick" "value":1}}"#,
            r#"{"id":"c6","type":"ping""#,
        ] {
            let error = refused(broken);
            assert_eq!(error.id.as_deref(), Some("c6"), "{broken}");
            assert!(error.message.starts_with("not JSON"), "{}", error.message);
        }
        // Broken before any id, or no id at all, or not a string: nothing to echo.
        for no_id in [
            r#"{"type":"ping","id":"#,
            "{'id':'c7'}",
            r#"[1,"#,
            r#"{"id":7,"type":}"#,
        ] {
            assert_eq!(refused(no_id).id, None, "{no_id}");
        }
        // The command's size as sent, before any game parses it.
        let big = json!({"type": "command", "id": "c4", "command": {"type": "x", "pad": "y".repeat(60)}});
        let error = refused(&big.to_string());
        assert_eq!(error.id.as_deref(), Some("c4"));
        assert!(
            error.message.contains("over this game's limit of 64"),
            "{}",
            error.message
        );
        // A repeated key cannot smuggle a second, larger command past the check.
        let twice = format!(
            r#"{{"type":"command","id":"c5","command":{{}},"command":{{"pad":"{}"}}}}"#,
            "y".repeat(100)
        );
        assert_eq!(refused(&twice).id.as_deref(), Some("c5"));
        assert_eq!(
            refused(&"x".repeat(MAX_FRAME_BYTES + 1)).message,
            "message over 64 KiB"
        );
    }
}
