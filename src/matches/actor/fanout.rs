//! The fan-out, the server's hot path: each viewer has its own feeds (one per protocol), and
//! the actor serialises each event once per viewer (frames shared by that viewer's sockets),
//! redacting and rendering for a viewer only when some socket of that viewer is listening.

use super::{MatchActor, viewers};
use crate::protocol::delta::{self, HeldView};
use crate::protocol::{Frame, ViewerBatch};
use crate::rules::{Game, Seat, Viewer};
use serde_json::value::RawValue;
use std::sync::Arc;
use tokio::sync::broadcast;

/// Batches buffered per viewer before a slow socket is told to resume. Each slot costs memory
/// in every live match, and a seat's socket is at most a few batches behind while it plays.
const FEED_CAPACITY: usize = 64;

/// One new event as each listening viewer may see it (index = seat, last = spectator), as
/// that viewer's sockets are sent it in each protocol it is listened in; viewers who see the
/// same thing share one protocol 1 buffer.
pub(super) struct RedactedEvent {
    per_viewer: Vec<ViewerEvent>,
}

#[derive(Default)]
struct ViewerEvent {
    /// Protocol 1's `event` frame.
    full: Option<Frame>,
    /// Protocol 2's `[seq, event]` pair, for a `step`.
    compact: Option<Box<RawValue>>,
}

/// One viewer's feeds: protocol 1 sockets get events and full views, protocol 2 sockets
/// steps whose merge patches go from `held`, the view the delta sockets hold (a viewer's
/// sockets all hold the same one: each starts at the current view and every batch reaches
/// all of them).
pub(super) struct ViewerFeeds {
    pub(super) full: broadcast::Sender<Arc<ViewerBatch>>,
    pub(super) delta: broadcast::Sender<Arc<ViewerBatch>>,
    pub(super) held: Option<HeldView>,
}

impl ViewerFeeds {
    pub(super) fn new() -> Self {
        ViewerFeeds {
            full: broadcast::channel(FEED_CAPACITY).0,
            delta: broadcast::channel(FEED_CAPACITY).0,
            held: None,
        }
    }

    /// Some socket of this viewer listens, whatever its protocol.
    pub(super) fn listened(&self) -> bool {
        self.full.receiver_count() > 0 || self.delta.receiver_count() > 0
    }
}

/// Redacts each event for the listening viewers as a copy of the match folds it, numbering
/// the events from the first seq they will take in the log.
pub(super) struct Redactor {
    /// Each viewer, and whether a socket of it listens in protocol 1 and in protocol 2 (only
    /// those are redacted and encoded for).
    listening: Vec<(Viewer, Listens)>,
    next_seq: i64,
    pub(super) redacted: Vec<RedactedEvent>,
}

#[derive(Clone, Copy)]
struct Listens {
    full: bool,
    delta: bool,
}

impl Redactor {
    pub(super) fn observe<G: Game>(&mut self, state: &G::State, event: &G::Event) {
        let mut per_viewer: Vec<ViewerEvent> = Vec::with_capacity(self.listening.len());
        for &(viewer, listens) in &self.listening {
            let Some(event) = (listens.full || listens.delta)
                .then(|| G::redact(state, event, viewer))
                .flatten()
            else {
                per_viewer.push(ViewerEvent::default());
                continue;
            };
            let full = listens
                .full
                .then(|| Frame::event(self.next_seq, &event))
                .map(|frame| {
                    // Most events look the same to everyone: keep one buffer, not one per viewer.
                    per_viewer
                        .iter()
                        .filter_map(|seen| seen.full.as_ref())
                        .find(|seen| **seen == frame)
                        .cloned()
                        .unwrap_or(frame)
                });
            let compact = listens.delta.then(|| Frame::step_event(self.next_seq, &event));
            per_viewer.push(ViewerEvent { full, compact });
        }
        self.redacted.push(RedactedEvent { per_viewer });
        self.next_seq += 1;
    }
}

impl<G: Game> MatchActor<G> {
    /// A redactor for events from `first_seq` on, for the viewers listening now. Nobody can
    /// subscribe before those events are broadcast: the actor is busy with them.
    pub(super) fn redactor(&self, first_seq: i64) -> Redactor {
        let listening = viewers(self.seat_count())
            .into_iter()
            .zip(&self.feeds)
            .map(|(viewer, feeds)| {
                let listens = Listens {
                    full: feeds.full.receiver_count() > 0,
                    delta: feeds.delta.receiver_count() > 0,
                };
                (viewer, listens)
            })
            .collect();
        Redactor {
            listening,
            next_seq: first_seq,
            redacted: Vec::new(),
        }
    }

    /// Sends every listening viewer its frames: the new events it may see, its new view and,
    /// if the match just ended, the result. A viewer nobody listens to costs nothing.
    /// `after` is the last seq before this change's entries; `timed_out` the seat whose turn
    /// clock made this change, if one did; `notices` frames every viewer gets before the
    /// events (an adjournment's steps).
    pub(super) fn broadcast(
        &mut self,
        new_events: &[RedactedEvent],
        after: i64,
        timed_out: Option<Seat>,
        notices: &[Frame],
    ) {
        let pending = self.pending();
        let last_seq = self.next_seq - 1;
        let finished = self
            .finished
            .as_ref()
            .map(|outcome| Frame::finished(outcome, &self.context.seed_hex));
        for (index, viewer) in viewers(self.seat_count()).into_iter().enumerate() {
            if !self.feeds[index].listened() {
                continue;
            }
            let view = G::view(&self.core.state, viewer);
            let deadline = self.deadline_ms(viewer);
            let batch = |update: Frame, mut frames: Vec<Frame>| {
                frames.push(update);
                frames.extend(finished.clone());
                Arc::new(ViewerBatch {
                    frames,
                    after,
                    last_seq,
                    moved: false,
                })
            };
            let feeds = &mut self.feeds[index];
            // A receiver that left since the count is fine: the log is the record.
            if feeds.full.receiver_count() > 0 {
                let events = notices
                    .iter()
                    .cloned()
                    .chain(
                        new_events
                            .iter()
                            .filter_map(|entry| entry.per_viewer[index].full.clone()),
                    )
                    .collect();
                let update = Frame::update(last_seq, &view, &pending, deadline, timed_out);
                let _ = feeds.full.send(batch(update, events));
            }
            if feeds.delta.receiver_count() > 0 {
                let events: Vec<&RawValue> = new_events
                    .iter()
                    .filter_map(|entry| entry.per_viewer[index].compact.as_deref())
                    .collect();
                let patch = match &mut feeds.held {
                    Some(held) => held.advance(&view),
                    // Nobody subscribed in protocol 2 yet: never reached, but holding the view
                    // now and sending it whole is still a correct step.
                    None => HeldView::new(&view).and_then(|held| {
                        feeds.held = Some(held);
                        delta::to_compact(&view)
                    }),
                };
                match patch {
                    Ok(patch) => {
                        let step = Frame::step(last_seq, &events, &patch, &pending, deadline, timed_out);
                        let _ = feeds.delta.send(batch(step, notices.to_vec()));
                    }
                    Err(error) => tracing::error!(%error, "a view could not be serialised"),
                }
            }
        }
    }
}
