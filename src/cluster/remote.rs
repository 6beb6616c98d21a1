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
use async_nats::{RequestErrorKind, Subscriber};
use futures_util::StreamExt;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{broadcast, mpsc, oneshot};

/// Batches buffered for the sockets of one remote subscription (as a local actor's feed).
const FEED_CAPACITY: usize = 64;

/// Why a routed request got no answer.
enum RouteError {
    /// Nobody serves the match now (its owner died or handed it off and nobody claimed it yet).
    NoOwner,
    /// The owner did not answer in time, or NATS failed.
    Failed(String),
}

impl From<RouteError> for CommandError {
    fn from(error: RouteError) -> CommandError {
        match error {
            RouteError::NoOwner => CommandError::Moved,
            RouteError::Failed(message) => CommandError::Unavailable(message),
        }
    }
}

impl Cluster {
    /// A mailbox for a match this node does not run, read by a proxy that routes each request
    /// to the owner. Cheap: nothing crosses NATS until the mailbox is used.
    pub fn remote_mailbox(self: &Arc<Self>, match_id: &MatchId) -> MatchMailbox {
        let (sender, mailbox) = MatchMailbox::channel();
        let proxy = Proxy {
            cluster: self.clone(),
            match_id: match_id.clone(),
            relays: Vec::new(),
        };
        tokio::spawn(proxy.run(mailbox));
        sender
    }
}

struct Proxy {
    cluster: Arc<Cluster>,
    match_id: MatchId,
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

    async fn send(&self, request: &MatchRequest) -> Result<bytes::Bytes, RouteError> {
        let started = Instant::now();
        let subject = self.cluster.subjects.requests(&self.match_id);
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

    async fn request<T: serde::de::DeserializeOwned>(&self, request: &MatchRequest) -> Result<T, RouteError> {
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
        let nats = &self.cluster.nats;
        let feed = nats
            .subscribe(self.cluster.subjects.feed(&self.match_id, viewer, protocol))
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
        // The backlog ends at the snapshot's seq: the feed takes over after it.
        tokio::spawn(forward(feed, moved, sender, snapshot.last_seq, stopped));
        Some(Subscription {
            snapshot,
            backlog,
            feed: receiver,
        })
    }
}

/// Moves the owner's batches for one subscription onto its local feed, until the owner's
/// actor ends, the match moves, the sockets leave, or the proxy stops.
async fn forward(
    mut feed: Subscriber,
    mut moved: Subscriber,
    sender: broadcast::Sender<Arc<ViewerBatch>>,
    covered: i64,
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
                        last_seq = batch.last_seq;
                        let moved = batch.moved;
                        if sender.send(batch).is_err() || moved {
                            break;
                        }
                    }
                    // Batches were lost on the way: the sockets must resume from the log.
                    Some(FeedMessage::Lagged) => {
                        let _ = sender.send(Arc::new(ViewerBatch::moved(last_seq)));
                        break;
                    }
                    Some(FeedMessage::Closed) | None => break,
                }
            }
            _ = moved.next() => {
                let _ = sender.send(Arc::new(ViewerBatch::moved(last_seq)));
                break;
            }
            _ = &mut stopped => break,
        }
    }
    let _ = feed.unsubscribe().await;
    let _ = moved.unsubscribe().await;
}
