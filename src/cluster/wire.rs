//! What crosses NATS between a socket's node and a match's owner.
//!
//! Requests and small answers are JSON: a [`MatchRequest`](crate::protocol::MatchRequest)
//! and its reply, as the actor's mailbox holds them. Frames are not parsed again: the owner's actor
//! serialised them once, and they travel as lines (serde_json's compact output never holds a
//! raw newline), after a first line that carries the rest.

use crate::protocol::{Frame, Snapshot, ViewerBatch};
use bytes::{BufMut, Bytes, BytesMut};
use serde::Serialize;
use std::sync::Arc;

pub(super) fn to_bytes<T: Serialize>(value: &T) -> Bytes {
    Bytes::from(serde_json::to_vec(value).unwrap_or_else(|_| b"null".to_vec()))
}

/// Joins a first line and frames into one payload.
fn lines(first: &[u8], frames: &[Frame]) -> Bytes {
    let size = first.len() + frames.iter().map(|frame| frame.as_str().len() + 1).sum::<usize>();
    let mut payload = BytesMut::with_capacity(size);
    payload.put_slice(first);
    for frame in frames {
        payload.put_u8(b'\n');
        payload.put_slice(frame.as_str().as_bytes());
    }
    payload.freeze()
}

/// Splits a payload into its first line and its frames (sharing the payload's buffer).
fn split_lines(payload: Bytes) -> Option<(Bytes, Vec<Frame>)> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (index, byte) in payload.iter().enumerate() {
        if *byte == b'\n' {
            parts.push(payload.slice(start..index));
            start = index + 1;
        }
    }
    parts.push(payload.slice(start..));
    let mut parts = parts.into_iter();
    let first = parts.next()?;
    let frames = parts.map(Frame::from_utf8).collect::<Option<Vec<_>>>()?;
    Some((first, frames))
}

/// A subscription's start: the snapshot as JSON, then the backlog's frames.
pub(super) fn encode_subscription(snapshot: &Snapshot, backlog: &[Frame]) -> Bytes {
    lines(&serde_json::to_vec(snapshot).unwrap_or_default(), backlog)
}

pub(super) fn decode_subscription(payload: Bytes) -> Option<(Snapshot, Vec<Frame>)> {
    let (first, frames) = split_lines(payload)?;
    let snapshot = serde_json::from_slice(&first).ok()?;
    Some((snapshot, frames))
}

/// One message on a viewer's feed subject.
#[derive(Debug, PartialEq)]
pub(super) enum FeedMessage {
    /// Shared with the actor's feed: relaying a batch copies no frame.
    Batch(Arc<ViewerBatch>),
    /// The owner's relay fell behind its actor: its sockets must resume.
    Lagged,
    /// The actor ended (the match is over, or it moved after a final `moved` batch).
    Closed,
}

const LAGGED: &[u8] = b"lagged";
const CLOSED: &[u8] = b"closed";

/// `<last_seq> <moved: 0|1> <after>` then the frames; or a bare marker.
pub(super) fn encode_feed(message: &FeedMessage) -> Bytes {
    match message {
        FeedMessage::Batch(batch) => {
            let first = format!("{} {} {}", batch.last_seq, u8::from(batch.moved), batch.after);
            lines(first.as_bytes(), &batch.frames)
        }
        FeedMessage::Lagged => Bytes::from_static(LAGGED),
        FeedMessage::Closed => Bytes::from_static(CLOSED),
    }
}

pub(super) fn decode_feed(payload: Bytes) -> Option<FeedMessage> {
    match &payload[..] {
        LAGGED => return Some(FeedMessage::Lagged),
        CLOSED => return Some(FeedMessage::Closed),
        _ => {}
    }
    let (first, frames) = split_lines(payload)?;
    let first = std::str::from_utf8(&first).ok()?;
    let mut fields = first.split(' ');
    let last_seq = fields.next()?.parse().ok()?;
    let moved = fields.next()? == "1";
    // A node from before `after` was sent claims nothing: 0 never looks like a gap.
    let after = fields.next().map_or(Some(0), |after| after.parse().ok())?;
    Some(FeedMessage::Batch(Arc::new(ViewerBatch {
        frames,
        after,
        last_seq,
        moved,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::MatchStatus;
    use crate::rules::Seat;

    #[test]
    fn a_batch_crosses_the_wire_unchanged() {
        let batch = ViewerBatch {
            frames: vec![
                Frame::from(r#"{"type":"event","seq":7,"event":{"text":"a\nb"}}"#.to_string()),
                Frame::from(r#"{"type":"update","last_seq":7}"#.to_string()),
            ],
            after: 5,
            last_seq: 7,
            moved: false,
        };
        let decoded = decode_feed(encode_feed(&FeedMessage::Batch(Arc::new(batch))));
        let Some(FeedMessage::Batch(decoded)) = decoded else {
            panic!("not a batch: {decoded:?}");
        };
        assert_eq!((decoded.after, decoded.last_seq), (5, 7));
        assert!(!decoded.moved);
        assert_eq!(
            decoded.frames[0].as_str(),
            r#"{"type":"event","seq":7,"event":{"text":"a\nb"}}"#
        );
        assert_eq!(decoded.frames.len(), 2);
        let moved = Arc::new(ViewerBatch::moved(9));
        let decoded = decode_feed(encode_feed(&FeedMessage::Batch(moved.clone())));
        assert_eq!(decoded, Some(FeedMessage::Batch(moved)));
        for marker in [FeedMessage::Lagged, FeedMessage::Closed] {
            let encoded = encode_feed(&marker);
            assert_eq!(decode_feed(encoded), Some(marker));
        }
        assert_eq!(decode_feed(Bytes::from_static(b"garbage")), None);
    }

    #[test]
    fn a_subscription_crosses_the_wire_unchanged() {
        let snapshot = Snapshot {
            protocol: crate::protocol::PROTOCOL_VERSION,
            match_id: "m".into(),
            game: "ctg".into(),
            status: MatchStatus::Live,
            seat: Some(Seat(1)),
            view: serde_json::json!({"note": "two\nlines"}),
            pending: vec![Seat(1)],
            last_seq: 12,
            deadline_ms: Some(900),
            seed_commitment: "c".into(),
            result: None,
            adjournment: None,
        };
        let backlog = vec![Frame::from(r#"{"type":"event","seq":12}"#.to_string())];
        let (decoded, frames) =
            decode_subscription(encode_subscription(&snapshot, &backlog)).expect("decodes");
        assert_eq!(decoded, snapshot);
        assert_eq!(frames, backlog);
    }
}
