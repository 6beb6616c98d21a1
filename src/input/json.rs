//! JSON that means one thing: an object that names a key twice is refused.
//!
//! serde_json keeps the last of repeated keys, so `{"name":"a","name":"b"}` reads as `b`,
//! while another parser (a proxy's, a logger's, an auditor's) may read `a`. Refusing the
//! ambiguity at the edge means every reader of a request sees the same request.

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// A JSON value read with every object's keys checked for repeats, at any depth.
#[derive(Debug, Clone, PartialEq)]
pub struct StrictValue(pub Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Strict.deserialize(deserializer).map(StrictValue)
    }
}

/// Reads a text as JSON, refusing repeated keys.
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<StrictValue>(text).map(|value| value.0)
}

/// The visitor behind [`StrictValue`]: builds a [`Value`] as serde_json does, but an object
/// member whose key was seen before in the same object is an error.
#[derive(Clone, Copy)]
struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }
    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }
    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }
    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_string()))
    }
    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        let mut values = Vec::new();
        while let Some(value) = items.next_element_seed(Strict)? {
            values.push(value);
        }
        Ok(Value::Array(values))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = members.next_key::<String>()? {
            let value = members.next_value_seed(Strict)?;
            if object.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "the key {key:?} appears twice in one object"
                )));
            }
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn repeated_keys_are_refused_at_any_depth_and_everything_else_reads_as_serde_json_does() {
        for text in [
            r#"{"name":"a","name":"b"}"#,
            r#"{"outer":{"x":1,"x":1}}"#,
            r#"[{"id":"1"},{"id":"2","id":"3"}]"#,
        ] {
            let error = parse(text).expect_err(text).to_string();
            assert!(error.contains("appears twice"), "{text}: {error}");
        }
        for text in [
            r#"{"name":"a","other":{"name":"b"}}"#,
            r#"[1, -2, 3.5, "x", true, null, {"a": [], "b": {}}]"#,
            r#"18446744073709551615"#,
            r#""\u00e9""#,
        ] {
            let expected: Value = serde_json::from_str(text).expect(text);
            assert_eq!(parse(text).expect(text), expected, "{text}");
        }
        assert!(parse("{").is_err());
        assert_eq!(parse(r#"{"a":1}"#).expect("json"), json!({ "a": 1 }));
    }
}
