//! The owner's side of routing: answers the requests other nodes send for a match this node
//! runs, and relays each viewer's batches to them.

use super::Cluster;
use super::wire::{self, FeedMessage, RouteRequest};
use crate::matches::{MatchHandle, ViewerBatch};
use crate::protocol::Protocol;
use crate::rules::Viewer;
use futures_util::StreamExt;
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::broadcast::{self, error::RecvError};

impl Cluster {
    /// Starts answering requests for `match_id` on NATS, for as long as its actor runs. Returns
    /// once the subscription is registered with the NATS server, so a client told the match is
    /// live finds it; then tells sockets still bound to a previous owner that it moved here.
    pub(crate) async fn serve_match(self: &Arc<Self>, match_id: &str, handle: MatchHandle) {
        let subject = self.subjects.requests(match_id);
        let mut requests = match self.nats.subscribe(subject).await {
            Ok(requests) => requests,
            Err(error) => {
                // Sockets on other nodes cannot reach this match until the node is restarted
                // or loses it; sockets on this node still can.
                tracing::error!(%match_id, %error, "cannot serve the match over NATS");
                return;
            }
        };
        let _ = self.nats.flush().await;
        let _ = self.nats.publish(self.subjects.moved(match_id), "".into()).await;
        let cluster = self.clone();
        let match_id = match_id.to_string();
        tokio::spawn(async move {
            let mut relayed: HashSet<(Viewer, Protocol)> = HashSet::new();
            loop {
                tokio::select! {
                    request = requests.next() => {
                        let Some(request) = request else { break };
                        cluster.answer(&match_id, &handle, request, &mut relayed);
                    }
                    // The actor stopped (the match ended or moved): stop answering for it.
                    _ = handle.closed() => break,
                }
            }
            let _ = requests.unsubscribe().await;
        });
    }

    /// Answers one request in its own task: a command waiting for its commit must not hold
    /// up another socket's subscription.
    fn answer(
        self: &Arc<Self>,
        match_id: &str,
        handle: &MatchHandle,
        message: async_nats::Message,
        relayed: &mut HashSet<(Viewer, Protocol)>,
    ) {
        let Some(reply) = message.reply.clone() else {
            return;
        };
        let request: RouteRequest = match serde_json::from_slice(&message.payload) {
            Ok(request) => request,
            Err(error) => {
                tracing::warn!(%match_id, %error, "unreadable routed request");
                return;
            }
        };
        // The first subscription of a viewer starts its relay; the feed handed back with that
        // subscription is positioned right after its snapshot, so the relay misses nothing.
        let relay = match &request {
            RouteRequest::Subscribe { viewer, protocol, .. } => relayed.insert((*viewer, *protocol)),
            _ => false,
        };
        let (cluster, handle, match_id) = (self.clone(), handle.clone(), match_id.to_string());
        tokio::spawn(async move {
            let payload = match request {
                RouteRequest::Command { seat, command } => {
                    wire::to_bytes(&handle.command(seat, command).await)
                }
                RouteRequest::Subscribe {
                    viewer,
                    resume_from,
                    protocol,
                } => match handle.subscribe(viewer, resume_from, protocol).await {
                    Some(subscription) => {
                        let payload =
                            wire::encode_subscription(&subscription.snapshot, &subscription.backlog);
                        if relay {
                            let subject = cluster.subjects.feed(&match_id, viewer, protocol);
                            tokio::spawn(cluster.clone().relay(subject, subscription.feed));
                        }
                        payload
                    }
                    None => bytes::Bytes::new(),
                },
                RouteRequest::Connection { seat, connected } => {
                    handle.connection(seat, connected).await;
                    wire::to_bytes(&())
                }
                RouteRequest::Log { viewer } => wire::to_bytes(&handle.log(viewer).await),
                RouteRequest::Forfeit { seat, reason } => {
                    wire::to_bytes(&handle.forfeit(seat, &reason).await)
                }
            };
            let _ = cluster.nats.publish(reply, payload).await;
        });
    }

    /// Publishes one viewer's batches until the actor ends. It outlives the remote sockets
    /// that asked for it (one relay per viewer, shared): the cost is a publish per batch
    /// nobody may be reading, for the rest of the match.
    async fn relay(self: Arc<Self>, subject: String, mut feed: broadcast::Receiver<Arc<ViewerBatch>>) {
        loop {
            let message = match feed.recv().await {
                Ok(batch) => FeedMessage::Batch(batch),
                Err(RecvError::Lagged(_)) => FeedMessage::Lagged,
                Err(RecvError::Closed) => FeedMessage::Closed,
            };
            let closed = message == FeedMessage::Closed;
            if self
                .nats
                .publish(subject.clone(), wire::encode_feed(&message))
                .await
                .is_err()
                || closed
            {
                return;
            }
        }
    }
}
