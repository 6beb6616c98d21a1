//! Server messages serialised once, shared by every socket that sends them.
//!
//! A match actor turns each event and view into JSON exactly once per viewer; the sockets of
//! that viewer then only copy a reference-counted buffer. The helpers here write the same
//! bytes as serialising the matching [`ServerMessage`](super::ServerMessage) variant (a test
//! holds them to it), but take the game's typed values by reference, so no
//! `serde_json::Value` tree is built on the hot path.

use crate::rules::{Outcome, Seat};
use bytes::Bytes;
use serde::Serialize;
use serde_json::value::RawValue;

/// One server message as the UTF-8 JSON text of a WebSocket frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame(Bytes);

impl Frame {
    /// Serialises any message. Our messages have string keys only, so this cannot fail in
    /// practice; if a game type ever broke that, the client gets `null` and the log says why.
    pub fn encode<T: Serialize + ?Sized>(message: &T) -> Frame {
        match serde_json::to_vec(message) {
            Ok(bytes) => Frame(Bytes::from(bytes)),
            Err(error) => {
                tracing::error!(%error, "a server message could not be serialised");
                Frame(Bytes::from_static(b"null"))
            }
        }
    }

    /// `{"type":"event","seq":..,"event":..}`, as [`ServerMessage::Event`](super::ServerMessage::Event).
    pub fn event<E: Serialize>(seq: i64, event: &E) -> Frame {
        #[derive(Serialize)]
        #[serde(tag = "type", rename = "event")]
        struct EventFrame<'a, E> {
            seq: i64,
            event: &'a E,
        }
        Frame::encode(&EventFrame { seq, event })
    }

    /// `{"type":"update",..}`, as [`ServerMessage::Update`](super::ServerMessage::Update).
    pub fn update<V: Serialize>(
        last_seq: i64,
        view: &V,
        pending: &[Seat],
        deadline_ms: Option<u64>,
        timed_out: Option<Seat>,
    ) -> Frame {
        #[derive(Serialize)]
        #[serde(tag = "type", rename = "update")]
        struct UpdateFrame<'a, V> {
            last_seq: i64,
            view: &'a V,
            pending: &'a [Seat],
            deadline_ms: Option<u64>,
            #[serde(skip_serializing_if = "Option::is_none")]
            timed_out: Option<Seat>,
        }
        Frame::encode(&UpdateFrame {
            last_seq,
            view,
            pending,
            deadline_ms,
            timed_out,
        })
    }

    /// `{"type":"step",..}`, as [`ServerMessage::Step`](super::ServerMessage::Step). Each of
    /// `events` is one `[seq, event]` pair as [`Frame::step_event`] wrote it.
    pub fn step(
        last_seq: i64,
        events: &[&RawValue],
        view: &serde_json::Value,
        pending: &[Seat],
        deadline_ms: Option<u64>,
        timed_out: Option<Seat>,
    ) -> Frame {
        #[derive(Serialize)]
        #[serde(tag = "type", rename = "step")]
        struct StepFrame<'a> {
            last_seq: i64,
            #[serde(skip_serializing_if = "<[_]>::is_empty")]
            events: &'a [&'a RawValue],
            view: &'a serde_json::Value,
            pending: &'a [Seat],
            #[serde(skip_serializing_if = "Option::is_none")]
            deadline_ms: Option<u64>,
            #[serde(skip_serializing_if = "Option::is_none")]
            timed_out: Option<Seat>,
        }
        Frame::encode(&StepFrame {
            last_seq,
            events,
            view,
            pending,
            deadline_ms,
            timed_out,
        })
    }

    /// One event of a `step`: `[seq, event]`, the event without null members (protocol 2).
    pub fn step_event<E: Serialize>(seq: i64, event: &E) -> Box<RawValue> {
        let pair =
            super::delta::to_compact(event).and_then(|event| serde_json::value::to_raw_value(&(seq, event)));
        pair.unwrap_or_else(|error| {
            tracing::error!(%error, "an event could not be serialised");
            RawValue::from_string(format!("[{seq},null]")).unwrap_or_else(|_| RawValue::NULL.to_owned())
        })
    }

    /// `{"type":"finished",..}`, as [`ServerMessage::Finished`](super::ServerMessage::Finished).
    pub fn finished(result: &Outcome, seed: &str) -> Frame {
        #[derive(Serialize)]
        #[serde(tag = "type", rename = "finished")]
        struct FinishedFrame<'a> {
            result: &'a Outcome,
            seed: &'a str,
        }
        Frame::encode(&FinishedFrame { result, seed })
    }

    /// Whether this is a `finished` frame. Every constructor here serialises the `type` tag
    /// first, so the prefix identifies it without parsing (frames from another node of a
    /// cluster were written by this same code).
    pub fn is_finished(&self) -> bool {
        self.0.starts_with(br#"{"type":"finished""#)
    }

    /// The log seq this frame brings its reader up to: an event's `seq`, or the `last_seq` of
    /// an update, step, ack or snapshot. Parses the frame, so it is for a connection's start
    /// (a backlog), not the hot path.
    pub fn seq(&self) -> Option<i64> {
        #[derive(serde::Deserialize)]
        struct Seqs {
            seq: Option<i64>,
            last_seq: Option<i64>,
        }
        let seqs: Seqs = serde_json::from_slice(&self.0).ok()?;
        seqs.last_seq.or(seqs.seq)
    }

    pub fn as_str(&self) -> &str {
        // Every constructor writes serde_json output, which is UTF-8.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    pub fn into_bytes(self) -> Bytes {
        self.0
    }

    /// A frame another node of the cluster serialised (it arrives over NATS as bytes); `None`
    /// if the bytes are not UTF-8. Shares the buffer.
    pub fn from_utf8(bytes: Bytes) -> Option<Frame> {
        std::str::from_utf8(&bytes).is_ok().then_some(Frame(bytes))
    }
}

impl From<String> for Frame {
    fn from(text: String) -> Frame {
        Frame(Bytes::from(text))
    }
}

/// The seq a backlog brings its reader up to (its last frame's, at the most), if any frame
/// carries one: where a feed that follows it must take over.
pub fn covered_by(frames: &[Frame]) -> Option<i64> {
    frames.iter().filter_map(Frame::seq).max()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{ServerMessage, Update};
    use serde_json::json;

    #[test]
    fn helpers_write_the_same_bytes_as_the_message_enum() {
        let event = json!({ "kind": "ball", "runs": 4, "nested": { "a": [1, 2] } });
        assert_eq!(
            Frame::event(7, &event),
            Frame::encode(&ServerMessage::Event {
                seq: 7,
                event: event.clone()
            })
        );
        let pending = vec![Seat(1)];
        for (deadline_ms, timed_out) in [(None, None), (Some(1500), None), (None, Some(Seat(0)))] {
            let update = Update {
                last_seq: 9,
                view: event.clone(),
                pending: pending.clone(),
                deadline_ms,
                timed_out,
            };
            assert_eq!(
                Frame::update(9, &event, &pending, deadline_ms, timed_out),
                Frame::encode(&ServerMessage::Update(update))
            );
        }
        let view = json!({ "ball": { "card": 3 }, "ask": null });
        let first = Frame::step_event(10, &json!({ "type": "revealed", "shot": null, "card": 3 }));
        let second = Frame::step_event(12, &json!({ "type": "await" }));
        for (deadline_ms, timed_out) in [(None, None), (Some(1500), None), (None, Some(Seat(1)))] {
            for events in [vec![], vec![&*first, &*second]] {
                assert_eq!(
                    Frame::step(12, &events, &view, &pending, deadline_ms, timed_out),
                    Frame::encode(&ServerMessage::Step(super::super::Step {
                        last_seq: 12,
                        events: events
                            .iter()
                            .map(|pair| serde_json::from_str(pair.get()).expect("a pair"))
                            .collect(),
                        view: view.clone(),
                        pending: pending.clone(),
                        deadline_ms,
                        timed_out,
                    }))
                );
            }
        }
        assert_eq!(
            first.get(),
            r#"[10,{"card":3,"type":"revealed"}]"#,
            "a step's event has no null members"
        );
        let outcome = Outcome {
            placings: vec![1, 2],
            summary: "home won by 4 runs".into(),
        };
        assert_eq!(
            Frame::finished(&outcome, "abcd"),
            Frame::encode(&ServerMessage::Finished {
                result: outcome.clone(),
                seed: "abcd".into()
            })
        );
    }

    #[test]
    fn a_frame_reads_back_as_the_message_it_encodes() {
        let frame = Frame::event(3, &json!({ "x": 1 }));
        assert_eq!(
            serde_json::from_str::<ServerMessage>(frame.as_str()).expect("decodes"),
            ServerMessage::Event {
                seq: 3,
                event: json!({ "x": 1 })
            }
        );
        assert_eq!(frame.as_str(), r#"{"type":"event","seq":3,"event":{"x":1}}"#);
    }
}
