//! The socket's side of routing: a [`MatchMailbox`] for a match another node runs.
//!
//! The mailbox is read by a proxy task that sends each [`MatchRequest`] on to the owner as a
//! NATS request and hands its [`MatchReply`] back, so the gateway drives a remote match
//! exactly as a local one. A subscription
//! listens on the viewer's feed subject *before* it asks for the snapshot, and drops batches
//! the snapshot already covers, so nothing is missed or doubled.

use super::Cluster;
use super::wire::{self, FeedMessage};
use crate::protocol::{
    CommandError, Mail, MatchMailbox, MatchReply, MatchRequest, Subscription, ViewerBatch,
};
use crate::record::MatchId;
use crate::rules::Viewer;
use crate::store::Store;
use async_nats::{RequestErrorKind, Subscriber};
use futures_util::StreamExt;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{broadcast, mpsc, oneshot};

/// Batches buffered for the sockets of one remote subscription (as a local actor's feed).
const FEED_CAPACITY: usize = 64;

/// Why a routed request got no answer.
enum RouteError {
    /// Nobody serves the match under the epoch this proxy is bound to (its owner died, or
    /// handed it off): the request reached no actor.
    NoOwner,
    /// The request was never sent: nothing can have been applied.
    NotSent(String),
    /// The request was sent but no answer came in time, or NATS failed after sending: the
    /// owner may have applied it, or may still.
    Failed(String),
}

impl From<RouteError> for CommandError {
    fn from(error: RouteError) -> CommandError {
        match error {
            RouteError::NoOwner => CommandError::Moved,
            RouteError::NotSent(message) => CommandError::Unavailable(message),
            RouteError::Failed(message) => CommandError::InDoubt(message),
        }
    }
}

impl Cluster {
    /// A mailbox for a match this node does not run, read by a proxy that routes each request
    /// to the owner. Cheap: nothing crosses NATS, and the lease is not read, until the
    /// mailbox is used. The proxy binds to the lease's epoch at its first request and talks
    /// to that epoch's owner only, for its whole life: once the match moves on, its requests
    /// find no responder and are answered `match_moved`, and the socket resumes with a new
    /// proxy.
    pub fn remote_mailbox(self: &Arc<Self>, match_id: &MatchId, store: Store) -> MatchMailbox {
        let (sender, mailbox) = MatchMailbox::channel();
        let proxy = Proxy {
            cluster: self.clone(),
            match_id: match_id.clone(),
            store,
            epoch: None,
            relays: Vec::new(),
        };
        tokio::spawn(proxy.run(mailbox));
        sender
    }
}

struct Proxy {
    cluster: Arc<Cluster>,
    match_id: MatchId,
    store: Store,
    /// The lease epoch this proxy is bound to, read at its first request.
    epoch: Option<i64>,
    /// Dropped when the proxy ends, which stops the relays it started.
    relays: Vec<oneshot::Sender<()>>,
}

impl Proxy {
    async fn run(mut self, mut mailbox: mpsc::Receiver<Mail>) {
        while let Some(mail) = mailbox.recv().await {
            let (request, reply) = match mail {
                Mail::Request { request, reply } => (request, reply),
                // The owner's actor is not this proxy's to stop.
                Mail::Shutdown => return,
            };
            let answer = match request {
                MatchRequest::Subscribe {
                    viewer,
                    resume_from,
                    protocol,
                } => self
                    .subscribe(viewer, resume_from, protocol)
                    .await
                    .map(MatchReply::Subscribed),
                request => {
                    let unanswered = request.unanswered();
                    self.request::<Option<MatchReply>>(&request)
                        .await
                        .unwrap_or_else(|error| unanswered(error.into()))
                }
            };
            if let (Some(reply), Some(answer)) = (reply, answer) {
                let _ = reply.send(answer);
            }
        }
    }

    /// The epoch this proxy talks to: read from the lease once, then fixed.
    async fn epoch(&mut self) -> Result<i64, RouteError> {
        if let Some(epoch) = self.epoch {
            return Ok(epoch);
        }
        match self.store.lease_epoch(&self.match_id).await {
            Ok(Some(epoch)) => {
                self.epoch = Some(epoch);
                Ok(epoch)
            }
            // Not placed yet, or being placed: nobody serves it now.
            Ok(None) => Err(RouteError::NoOwner),
            // Nothing was sent, so nothing can have been applied.
            Err(error) => Err(RouteError::NotSent(format!(
                "the match's lease could not be read: {error}"
            ))),
        }
    }

    async fn send(&mut self, request: &MatchRequest) -> Result<bytes::Bytes, RouteError> {
        let epoch = self.epoch().await?;
        let started = Instant::now();
        let subject = self.cluster.subjects.requests(&self.match_id, epoch);
        let answer = self.cluster.nats.request(subject, wire::to_bytes(request)).await;
        crate::telemetry::record_routed(request.kind(), started.elapsed());
        match answer {
            Ok(message) => Ok(message.payload),
            Err(error) if error.kind() == RequestErrorKind::NoResponders => Err(RouteError::NoOwner),
            Err(error) => Err(RouteError::Failed(format!(
                "the match's node did not answer: {error}"
            ))),
        }
    }

    async fn request<T: serde::de::DeserializeOwned>(
        &mut self,
        request: &MatchRequest,
    ) -> Result<T, RouteError> {
        let payload = self.send(request).await?;
        serde_json::from_slice(&payload)
            .map_err(|error| RouteError::Failed(format!("unreadable answer from the match's node: {error}")))
    }

    /// Listens on the viewer's feed and on the match's `moved` subject, then asks the owner
    /// for the snapshot; `None` if no node serves the match right now.
    async fn subscribe(
        &mut self,
        viewer: Viewer,
        resume_from: Option<i64>,
        protocol: crate::protocol::Protocol,
    ) -> Option<Subscription> {
        let epoch = self.epoch().await.ok()?;
        let nats = &self.cluster.nats;
        let feed = nats
            .subscribe(
                self.cluster
                    .subjects
                    .feed(&self.match_id, epoch, viewer, protocol),
            )
            .await
            .ok()?;
        let moved = nats
            .subscribe(self.cluster.subjects.moved(&self.match_id))
            .await
            .ok()?;
        // Registered with the server before the owner can publish anything we need.
        nats.flush().await.ok()?;
        let payload = self
            .send(&MatchRequest::Subscribe {
                viewer,
                resume_from,
                protocol,
            })
            .await
            .ok()?;
        let (snapshot, backlog) = wire::decode_subscription(payload)?;
        let (sender, receiver) = broadcast::channel(FEED_CAPACITY);
        let (stop, stopped) = oneshot::channel();
        self.relays.push(stop);
        // The feed takes over after the backlog (which, for a resume, runs from the resume
        // point to now), or after the snapshot when there is none: a batch published while
        // the owner built them is in them already.
        let covered = crate::protocol::covered_by(&backlog)
            .unwrap_or(snapshot.last_seq)
            .max(snapshot.last_seq);
        let links = self.cluster.link_changes();
        tokio::spawn(forward(feed, moved, links, sender, (epoch, covered), stopped));
        Some(Subscription {
            snapshot,
            backlog,
            feed: receiver,
        })
    }
}

/// Moves the owner's batches for one subscription onto its local feed, until the owner's
/// actor ends, the match moves, the sockets leave, or the proxy stops.
///
/// NATS delivers at most once: a batch published while either node's link was down is gone.
/// A socket must then resume from the log rather than skip the batch's events, so the sockets
/// are told the match moved (they close with 1001 and resume exactly) when a batch does not
/// follow on from what they hold, and when this node's link comes back (the lost batch may
/// have been the last for a while: the one that asks this seat to play, say).
async fn forward(
    mut feed: Subscriber,
    mut moved: Subscriber,
    mut links: tokio::sync::watch::Receiver<u64>,
    sender: broadcast::Sender<Arc<ViewerBatch>>,
    (epoch, covered): (i64, i64),
    mut stopped: oneshot::Receiver<()>,
) {
    let mut last_seq = covered;
    loop {
        tokio::select! {
            message = feed.next() => {
                let Some(message) = message else { break };
                match wire::decode_feed(message.payload) {
                    Some(FeedMessage::Batch(batch)) => {
                        // Already in the snapshot (the relay may predate this subscription).
                        if batch.last_seq <= last_seq && !batch.moved {
                            continue;
                        }
                        if batch.after > last_seq && !batch.moved {
                            tracing::warn!(after = batch.after, had = last_seq, "a routed batch was lost; the sockets resume");
                            crate::telemetry::record_routed_resume("gap");
                            let _ = sender.send(Arc::new(ViewerBatch::moved(last_seq)));
                            break;
                        }
                        last_seq = batch.last_seq;
                        let moved = batch.moved;
                        if sender.send(batch).is_err() || moved {
                            break;
                        }
                    }
                    // Batches were lost on the way (the owner's relay fell behind, or its
                    // NATS link came back): the sockets must resume from the log.
                    Some(FeedMessage::Lagged) => {
                        crate::telemetry::record_routed_resume("owner");
                        let _ = sender.send(Arc::new(ViewerBatch::moved(last_seq)));
                        break;
                    }
                    Some(FeedMessage::Closed) | None => break,
                }
            }
            notice = moved.next() => {
                // A new owner under a later epoch (an unreadable notice counts as one): this
                // subscription's owner is no longer the match's.
                let newer = notice.is_none_or(|notice| {
                    std::str::from_utf8(&notice.payload)
                        .ok()
                        .and_then(|text| text.parse::<i64>().ok())
                        .is_none_or(|announced| announced > epoch)
                });
                if newer {
                    let _ = sender.send(Arc::new(ViewerBatch::moved(last_seq)));
                    break;
                }
            }
            changed = links.changed() => {
                if changed.is_ok() {
                    tracing::info!(had = last_seq, "this node's NATS link came back; the routed sockets resume");
                    crate::telemetry::record_routed_resume("link");
                }
                let _ = sender.send(Arc::new(ViewerBatch::moved(last_seq)));
                break;
            }
            _ = &mut stopped => break,
        }
    }
    let _ = feed.unsubscribe().await;
    let _ = moved.unsubscribe().await;
}
