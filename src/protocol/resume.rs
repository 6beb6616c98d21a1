//! How a socket's start is framed in each protocol version: its snapshot, and the backlog
//! that brings a resuming socket from the snapshot to now. The actor decides what the viewer
//! may see; this decides how it is written.

use super::delta::HeldView;
use super::{Frame, Protocol, Snapshot};
use crate::rules::Seat;
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// Where the match is now, for the frame that ends a backlog.
pub struct Now<'a, V> {
    pub last_seq: i64,
    pub view: &'a V,
    pub pending: &'a [Seat],
    pub deadline_ms: Option<u64>,
}

/// A subscription's snapshot as `protocol` sends it: numbered, and in protocol 2 without null
/// members in its view.
pub fn snapshot(mut snapshot: Snapshot, protocol: Protocol) -> Snapshot {
    snapshot.protocol = protocol.number();
    snapshot.view = protocol.view(snapshot.view);
    snapshot
}

/// What follows a snapshot whose view is `from_view`: in protocol 1 an `event` frame per
/// event then an `update` to `now`; in protocol 2 one `step` with the events and the merge
/// patch from `from_view` (the view the socket will hold) to `now`'s.
pub fn backlog<E: Serialize, V: Serialize>(
    protocol: Protocol,
    events: &[(i64, E)],
    from_view: &Value,
    now: Now<'_, V>,
) -> Vec<Frame> {
    let Now {
        last_seq,
        view,
        pending,
        deadline_ms,
    } = now;
    match protocol {
        Protocol::V1 => events
            .iter()
            .map(|(seq, event)| Frame::event(*seq, event))
            // A resume's closing update is history caught up, not a change made just now.
            .chain(std::iter::once(Frame::update(
                last_seq,
                view,
                pending,
                deadline_ms,
                None,
            )))
            .collect(),
        Protocol::V2 => {
            let pairs: Vec<Box<RawValue>> = events
                .iter()
                .map(|(seq, event)| Frame::step_event(*seq, event))
                .collect();
            let pairs: Vec<&RawValue> = pairs.iter().map(AsRef::as_ref).collect();
            let patch = HeldView::new(from_view)
                .and_then(|mut held| held.advance(view))
                .unwrap_or_else(|error| {
                    tracing::error!(%error, "a view could not be serialised");
                    Value::Object(Default::default())
                });
            vec![Frame::step(last_seq, &pairs, &patch, pending, deadline_ms, None)]
        }
    }
}
