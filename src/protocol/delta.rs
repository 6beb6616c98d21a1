//! Protocol 2's views: JSON Merge Patches (RFC 7396) against the view the viewer holds.
//!
//! A merge patch is the changed members themselves (`{"ball":{"card":3},"phase":"skills"}`),
//! with `null` meaning "remove": far fewer bytes than RFC 6902's one `{"op":..,"path":..,
//! "value":..}` object per change, and any JSON library can apply it in a dozen lines. The
//! price is that a patch cannot set a member to `null`, so protocol 2 views carry no null
//! members at all: a member that protocol 1 sends as `null` is simply absent (nulls inside
//! arrays stay, they are positions). [`without_nulls`] is that rule; the snapshot, the
//! patches and the events of a protocol 2 socket all follow it.
//!
//! [`HeldView`] keeps the viewer's last view as the JSON text of its top-level members
//! (written straight from the typed view by a serializer that captures each field), so a
//! new view is compared member by member as text: only the members that changed (a few of a
//! CTG view's thirty, per step) are parsed into trees and diffed.

use serde::Serialize;
use serde::ser::Impossible;
use serde_json::{Map, Value};
use std::ops::Range;

/// `value` with every `null` object member removed, at any depth (array elements stay).
pub fn without_nulls(mut value: Value) -> Value {
    remove_nulls(&mut value);
    value
}

fn remove_nulls(value: &mut Value) {
    match value {
        Value::Object(members) => {
            members.retain(|_, member| !member.is_null());
            members.values_mut().for_each(remove_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(remove_nulls),
        _ => {}
    }
}

/// The merge patch that turns `old` into `new`, both [`without_nulls`]; `None` when they are
/// equal. Objects are patched member by member; anything else is replaced whole.
fn merge_diff(old: &Value, new: &Value) -> Option<Value> {
    match (old, new) {
        (Value::Object(old), Value::Object(new)) => {
            let mut patch = Map::new();
            for name in old.keys().filter(|name| !new.contains_key(*name)) {
                patch.insert(name.clone(), Value::Null);
            }
            for (name, member) in new {
                let change = match old.get(name) {
                    None => Some(member.clone()),
                    Some(before) => merge_diff(before, member),
                };
                if let Some(change) = change {
                    patch.insert(name.clone(), change);
                }
            }
            (!patch.is_empty()).then_some(Value::Object(patch))
        }
        _ => (old != new).then(|| new.clone()),
    }
}

/// Serialises a value the way protocol 2 sends it: as JSON, [`without_nulls`].
pub fn to_compact<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Value> {
    serde_json::to_value(value).map(without_nulls)
}

/// The view one protocol 2 viewer holds, as the serialised text of each top-level member.
#[derive(Debug)]
pub struct HeldView {
    held: Held,
}

#[derive(Debug)]
enum Held {
    Members(Members),
    /// A view that is not a struct (no game has one today): diffed as a whole tree.
    Whole(Value),
}

impl HeldView {
    /// Holds `view` as the viewer's current view.
    pub fn new<V: Serialize>(view: &V) -> serde_json::Result<HeldView> {
        Ok(HeldView {
            held: hold(view, Vec::new())?,
        })
    }

    /// The merge patch from the held view to `view` (`{}` when nothing changed), and holds
    /// `view` from now on.
    pub fn advance<V: Serialize>(&mut self, view: &V) -> serde_json::Result<Value> {
        // The text buffer of the view before last is reused for the next one.
        let spare = match &mut self.held {
            Held::Members(members) => std::mem::take(&mut members.spare),
            Held::Whole(_) => Vec::new(),
        };
        let mut next = hold(view, spare)?;
        let patch = match (&mut self.held, &mut next) {
            (Held::Members(old), Held::Members(new)) => {
                let patch = old.patch_to(new)?;
                new.spare = std::mem::take(&mut old.text);
                patch
            }
            // A patch that is not an object replaces the whole document, as `merge_diff` says.
            (old, new) => {
                merge_diff(&old.to_value()?, &new.to_value()?).unwrap_or_else(|| Value::Object(Map::new()))
            }
        };
        self.held = next;
        Ok(patch)
    }
}

impl Held {
    fn to_value(&self) -> serde_json::Result<Value> {
        match self {
            Held::Whole(value) => Ok(value.clone()),
            Held::Members(members) => {
                let mut object = Map::new();
                for index in 0..members.spans.len() {
                    if let Some(member) = members.member(index)? {
                        object.insert(members.spans[index].0.to_string(), member);
                    }
                }
                Ok(Value::Object(object))
            }
        }
    }
}

fn hold<V: Serialize>(view: &V, mut text: Vec<u8>) -> serde_json::Result<Held> {
    text.clear();
    let mut capture = MemberCapture {
        text,
        spans: Vec::new(),
    };
    match view.serialize(&mut capture) {
        Ok(()) => Ok(Held::Members(Members {
            text: capture.text,
            spans: capture.spans,
            spare: Vec::new(),
        })),
        Err(Capture::NotAStruct) => Ok(Held::Whole(to_compact(view)?)),
        Err(Capture::Json(error)) => Err(error),
    }
}

/// A struct view's members: each one's name and the span of its JSON text in `text`.
#[derive(Debug)]
struct Members {
    text: Vec<u8>,
    spans: Vec<(&'static str, Range<usize>)>,
    /// A buffer to serialise the next view into.
    spare: Vec<u8>,
}

impl Members {
    fn text(&self, index: usize) -> &[u8] {
        &self.text[self.spans[index].1.clone()]
    }

    /// A member as protocol 2 holds it: absent when it is `null`.
    fn member(&self, index: usize) -> serde_json::Result<Option<Value>> {
        let value = without_nulls(serde_json::from_slice(self.text(index))?);
        Ok((!value.is_null()).then_some(value))
    }

    fn find(&self, name: &str, hint: usize) -> Option<usize> {
        // Two views of one type list their members in the same order.
        match self.spans.get(hint) {
            Some((at_hint, _)) if *at_hint == name => Some(hint),
            _ => self.spans.iter().position(|(member, _)| *member == name),
        }
    }

    fn patch_to(&self, new: &Members) -> serde_json::Result<Value> {
        let mut patch = Map::new();
        for (index, (name, _)) in self.spans.iter().enumerate() {
            if new.find(name, index).is_none() && self.member(index)?.is_some() {
                patch.insert(name.to_string(), Value::Null);
            }
        }
        for (index, (name, _)) in new.spans.iter().enumerate() {
            let before = self.find(name, index);
            // Same text, same member: the common case costs one comparison and no parse.
            if before.is_some_and(|before| self.text(before) == new.text(index)) {
                continue;
            }
            let after = new.member(index)?;
            let change = match (before, after) {
                (None, None) => None,
                (None, Some(after)) => Some(after),
                (Some(before), None) => (self.text(before) != b"null").then_some(Value::Null),
                (Some(before), Some(after)) => match self.member(before)? {
                    Some(before) => merge_diff(&before, &after),
                    None => Some(after),
                },
            };
            if let Some(change) = change {
                patch.insert(name.to_string(), change);
            }
        }
        Ok(Value::Object(patch))
    }
}

/// A serde serializer that accepts one struct and writes each of its fields' values as
/// JSON into one buffer, noting where each starts and ends: the members' texts without
/// scanning the whole view's JSON again to find them.
struct MemberCapture {
    text: Vec<u8>,
    spans: Vec<(&'static str, Range<usize>)>,
}

#[derive(Debug, thiserror::Error)]
enum Capture {
    #[error("the view is not a struct")]
    NotAStruct,
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl serde::ser::Error for Capture {
    fn custom<T: std::fmt::Display>(message: T) -> Self {
        Capture::Json(serde_json::Error::custom(message))
    }
}

impl serde::ser::SerializeStruct for &mut MemberCapture {
    type Ok = ();
    type Error = Capture;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Capture> {
        let start = self.text.len();
        serde_json::to_writer(&mut self.text, value)?;
        self.spans.push((name, start..self.text.len()));
        Ok(())
    }

    fn end(self) -> Result<(), Capture> {
        Ok(())
    }
}

macro_rules! not_a_struct {
    ($($method:ident($($argument:ty),*) -> $output:ty;)*) => {
        $(fn $method(self, $(_: $argument),*) -> Result<$output, Capture> {
            Err(Capture::NotAStruct)
        })*
    };
}

impl serde::Serializer for &mut MemberCapture {
    type Ok = ();
    type Error = Capture;
    type SerializeStruct = Self;
    type SerializeSeq = Impossible<(), Capture>;
    type SerializeTuple = Impossible<(), Capture>;
    type SerializeTupleStruct = Impossible<(), Capture>;
    type SerializeTupleVariant = Impossible<(), Capture>;
    type SerializeMap = Impossible<(), Capture>;
    type SerializeStructVariant = Impossible<(), Capture>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Capture> {
        Ok(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Capture> {
        value.serialize(self)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Capture> {
        Err(Capture::NotAStruct)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Capture> {
        Err(Capture::NotAStruct)
    }

    not_a_struct! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// RFC 7396's apply, as a client would write it (json_patch implements the same).
    fn apply(target: &mut Value, patch: &Value) {
        json_patch::merge(target, patch);
    }

    /// A view as games have them: a struct, so each member's text is captured apart.
    #[derive(Serialize)]
    struct View {
        phase: &'static str,
        ball: Value,
        ask: Option<Value>,
        cards: Vec<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        winner: Option<u8>,
    }

    #[test]
    fn a_patch_carries_only_the_changed_members_and_removes_with_null() {
        let old = View {
            phase: "sealed",
            ball: json!({ "card": null, "sealed": false }),
            ask: Some(json!({ "ask": "bowl" })),
            cards: vec![1, 2],
            winner: None,
        };
        let new = View {
            phase: "skills",
            ball: json!({ "card": 3, "sealed": true }),
            ask: None,
            cards: vec![1, 2],
            winner: Some(1),
        };
        let mut held = HeldView::new(&old).expect("a view");
        assert!(
            matches!(held.held, Held::Members(_)),
            "a struct is held member by member"
        );
        let patch = held.advance(&new).expect("a patch");
        assert_eq!(
            patch,
            json!({ "phase": "skills", "ball": { "card": 3, "sealed": true }, "ask": null, "winner": 1 })
        );
        let mut client = to_compact(&old).expect("json");
        apply(&mut client, &patch);
        assert_eq!(client, to_compact(&new).expect("json"));
        // A member that is skipped again is removed again.
        let patch = held.advance(&old).expect("a patch");
        assert_eq!(patch["winner"], Value::Null);
        apply(&mut client, &patch);
        assert_eq!(client, to_compact(&old).expect("json"));
    }

    #[test]
    fn an_unchanged_view_is_an_empty_patch_and_arrays_are_replaced_whole() {
        let view = json!({ "a": [1, { "b": null }], "c": 1 });
        let mut held = HeldView::new(&view).expect("a view");
        assert_eq!(held.advance(&view).expect("a patch"), json!({}));
        let next = json!({ "a": [1, { "b": 2 }], "c": 1 });
        assert_eq!(
            held.advance(&next).expect("a patch"),
            json!({ "a": [1, { "b": 2 }] })
        );
    }

    #[test]
    fn nulls_go_at_every_depth_but_stay_in_arrays() {
        assert_eq!(
            without_nulls(json!({ "a": null, "b": { "c": null, "d": [null, { "e": null, "f": 1 }] } })),
            json!({ "b": { "d": [null, { "f": 1 }] } })
        );
    }

    #[test]
    fn a_view_that_is_not_an_object_is_replaced_whole() {
        let mut held = HeldView::new(&json!([1, 2])).expect("a view");
        assert_eq!(held.advance(&json!([1, 3])).expect("a patch"), json!([1, 3]));
        assert_eq!(held.advance(&json!([1, 3])).expect("a patch"), json!({}));
    }

    fn document() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            (0..3i32).prop_map(|n| json!(n)),
            prop_oneof![Just("x"), Just("y")].prop_map(|text| json!(text)),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            let name = prop_oneof![Just("a"), Just("b"), Just("c"), Just("d")].prop_map(str::to_string);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                prop::collection::btree_map(name, inner, 0..4)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    #[derive(Serialize)]
    struct Doc {
        v: Value,
        w: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        x: Option<Value>,
    }

    proptest! {
        /// Any two views, with nested objects, arrays and nulls as views have, held as a
        /// struct or as a whole tree: the patch applied to the first gives the second.
        #[test]
        fn applying_the_patch_always_gives_the_new_view(
            old in (document(), document(), prop::option::of(document())),
            new in (document(), document(), prop::option::of(document())),
        ) {
            let (old, new) = (Doc { v: old.0, w: Some(old.1), x: old.2 }, Doc { v: new.0, w: Some(new.1), x: new.2 });
            let mut held = HeldView::new(&old).expect("a view");
            let patch = held.advance(&new).expect("a patch");
            let mut client = to_compact(&old).expect("json");
            apply(&mut client, &patch);
            prop_assert_eq!(&client, &to_compact(&new).expect("json"));
            let as_tree = HeldView::new(&to_compact(&old).expect("json"))
                .and_then(|mut held| held.advance(&to_compact(&new).expect("json")))
                .expect("a patch");
            prop_assert_eq!(patch, as_tree, "a struct and its tree give the same patch");
        }
    }
}
