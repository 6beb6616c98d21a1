//! A socket's start: its snapshot and, for a resume, the events it missed, then its feed.
//!
//! The actor keeps only a bounded recent past in memory ([`Recent`](super::Recent): the last
//! hundred-odd events and the state before them): a whole match's events would be most of
//! its memory, and only a resuming socket (or the log endpoint) needs them. A seat's resume
//! that reaches back further gets the events re-derived from the durable log, which holds
//! everything the actor has acked; a spectator's gets the current snapshot instead, so that
//! spectator sockets, which anyone may open, never make the actor read the log. How the
//! backlog is framed in each protocol is [`crate::protocol::resume`]'s.

use super::{MatchActor, to_json, viewer_index};
use crate::matches::recent;
use crate::protocol::delta::HeldView;
use crate::protocol::{Frame, LogEntryBody, Protocol, Snapshot, Subscription, resume};
use crate::record::EntryKind;
use crate::rules::{Game, MatchCore, Viewer};
use serde_json::Value;

impl<G: Game> MatchActor<G> {
    /// A socket's start in `protocol`: its snapshot (as of `resume_from`, if given, with the
    /// backlog since) and its viewer's feed from right after it.
    pub(super) async fn subscribe(
        &mut self,
        viewer: Viewer,
        resume_from: Option<i64>,
        protocol: Protocol,
    ) -> Subscription {
        let index = viewer_index(viewer, self.seat_count());
        let (snapshot, backlog) = match resume_from {
            Some(from) => self.resumed(viewer, from, protocol).await,
            None => (self.snapshot(viewer), Vec::new()),
        };
        // Subscribing inside the actor, after the backlog is read, leaves no gap.
        let feed = match protocol {
            Protocol::V1 => self.feeds[index].full.subscribe(),
            Protocol::V2 => {
                // Every delta socket of this viewer holds the current view now (its
                // snapshot, or the backlog's step): the next patch is against it.
                match HeldView::new(&G::view(&self.core.state, viewer)) {
                    Ok(held) => self.feeds[index].held = Some(held),
                    Err(error) => tracing::error!(%error, "a view could not be serialised"),
                }
                self.feeds[index].delta.subscribe()
            }
        };
        Subscription {
            snapshot: resume::snapshot(snapshot, protocol),
            backlog,
            feed,
        }
    }

    /// The viewer's current view and every event it may see so far, re-derived from the log.
    pub(super) async fn log(&self, viewer: Viewer) -> (Value, Vec<LogEntryBody>) {
        let entries = self
            .visible_since(viewer, 0)
            .await
            .into_iter()
            .map(|(seq, event)| LogEntryBody {
                seq,
                kind: EntryKind::Event,
                payload: to_json(&event),
                at: None,
            })
            .collect();
        (to_json(&G::view(&self.core.state, viewer)), entries)
    }

    /// A resuming socket's start: the viewer's snapshot as of seq `from` (clamped to the log),
    /// then every event after `from` it may see, then an `update` to now. So every event
    /// after the snapshot's `last_seq` comes exactly once, and none the snapshot already
    /// holds. The snapshot is history: its `pending` is empty and it has no deadline (the
    /// closing update says who must act now). If the log cannot be read back, the snapshot
    /// is the current one and only the update follows.
    ///
    /// In protocol 2 the events and the update are one `step` from the snapshot's view.
    async fn resumed(&self, viewer: Viewer, from: i64, protocol: Protocol) -> (Snapshot, Vec<Frame>) {
        let last_seq = self.next_seq - 1;
        let from = from.clamp(0, last_seq);
        let mut snapshot = self.snapshot(viewer);
        let history = match viewer {
            _ if from >= last_seq => None,
            // A spectator has no seat to catch up on, and anyone may open spectator sockets:
            // reading the durable log in this mailbox for each would let a storm of them
            // stall the players' commands. Within the recent past it gets its events; past
            // that, the current snapshot (the older events are in `/log`).
            Viewer::Spectator => {
                let recent = self.recent.since(viewer, from);
                let source = if recent.is_some() {
                    "recent"
                } else {
                    "spectator_now"
                };
                crate::telemetry::record_history_read(G::ID, source);
                recent.map(|recent| (recent.view, recent.events))
            }
            Viewer::Seat(_) => self.history(viewer, from).await,
        };
        let events = match history {
            Some((view, events)) => {
                snapshot.view = view;
                snapshot.last_seq = from;
                events
            }
            None => Vec::new(),
        };
        snapshot.pending = Vec::new();
        snapshot.deadline_ms = None;
        let view = G::view(&self.core.state, viewer);
        let (pending, deadline) = (self.pending(), self.deadline_ms(viewer));
        let now = resume::Now {
            last_seq,
            view: &view,
            pending: &pending,
            deadline_ms: deadline,
        };
        // The snapshot's view is the one this socket will hold; a protocol 2 step goes from it.
        let backlog = resume::backlog(protocol, &events, &snapshot.view, now);
        (snapshot, backlog)
    }

    /// The viewer's view as of seq `from` and the events after it that it may see: from the
    /// recent past when it reaches back to `from`, else folded from the durable log;
    /// `None` if the log cannot be read.
    async fn history(&self, viewer: Viewer, from: i64) -> Option<(Value, Vec<(i64, G::Event)>)> {
        if let Some(recent) = self.recent.since(viewer, from) {
            crate::telemetry::record_history_read(G::ID, "recent");
            return Some((recent.view, recent.events));
        }
        crate::telemetry::record_history_read(G::ID, "log");
        let log = match self.context.store.log(&self.context.match_id).await {
            Ok(log) => log,
            Err(error) => {
                tracing::error!(match_id = %self.context.match_id, %error, "could not read the log back");
                return None;
            }
        };
        // Folded as logged, not replayed through the engine (see `recent::from_log`).
        let initial = MatchCore::<G>::new(&self.options, &self.seed).ok()?.state;
        match recent::from_log::<G>(initial, &log, viewer, from) {
            Ok(history) => Some((history.view, history.events)),
            Err(error) => {
                tracing::error!(match_id = %self.context.match_id, %error, "the log does not read back");
                None
            }
        }
    }

    /// The events after `from` as `viewer` may see them, re-derived from the durable log. If
    /// the log cannot be read the caller gets none.
    async fn visible_since(&self, viewer: Viewer, from: i64) -> Vec<(i64, G::Event)> {
        self.history(viewer, from)
            .await
            .map(|(_, events)| events)
            .unwrap_or_default()
    }
}
