//! WebSocket frames from a client, checked before anything acts on them.

use super::printable_json;
use crate::protocol::{ClientMessage, ErrorCode, ErrorMessage, MAX_FRAME_BYTES};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// Reads one text frame into a [`ClientMessage`], or the `bad_message` error to answer it
/// with. In order: the frame's size, JSON syntax, the command's size as sent (the game's
/// `max_command_bytes`, checked before the game's parser sees it), no control character in
/// any string or key, then the envelope's shape (unknown fields refused). Every error echoes
/// the frame's string `id` whenever it has one, so a client can match the refusal to what it
/// sent: also when the JSON breaks after the id, and when the id itself holds a control
/// character (the echo is JSON-escaped, so it is exactly what was sent).
pub fn client_message(text: &str, max_command_bytes: usize) -> Result<ClientMessage, ErrorMessage> {
    if text.len() > MAX_FRAME_BYTES {
        return Err(bad(None, format!("message over {} KiB", MAX_FRAME_BYTES / 1024)));
    }
    let value: Value =
        super::json::parse(text).map_err(|error| bad(salvaged_id(text), format!("not JSON: {error}")))?;
    let id = value.get("id").and_then(Value::as_str).map(str::to_string);
    // The command exactly as sent. A frame the probe cannot read although it is JSON repeats
    // a key, which would let a second `command` slip past the size check: refused.
    #[derive(Deserialize)]
    struct Probe<'a> {
        #[serde(borrow, default)]
        command: Option<&'a RawValue>,
    }
    let probe: Probe<'_> = serde_json::from_str(text)
        .map_err(|error| bad(id.clone(), format!("not a client message: {error}")))?;
    if let Some(command) = probe.command
        && command.get().len() > max_command_bytes
    {
        return Err(bad(
            id,
            format!(
                "command of {} bytes is over this game's limit of {max_command_bytes}",
                command.get().len()
            ),
        ));
    }
    printable_json("message", &value).map_err(|error| bad(id.clone(), error.to_string()))?;
    serde_json::from_value(value).map_err(|error| bad(id, format!("not a client message: {error}")))
}

/// The string `id` of an object frame whose JSON breaks somewhere after that member, read by
/// walking the object with serde_json up to the break: what was read before it stays read.
fn salvaged_id(text: &str) -> Option<String> {
    use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
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
