//! The owner's side of routing: puts the requests other nodes send for a match this node
//! runs into its actor's mailbox, sends the replies back, and relays each viewer's batches.

use super::Cluster;
use super::wire::{self, FeedMessage};
use crate::protocol::{MatchMailbox, MatchReply, MatchRequest, Protocol, ViewerBatch};
use crate::record::MatchId;
use crate::rules::Viewer;
use futures_util::StreamExt;
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::sync::oneshot;

/// This node answering for one match under one epoch. [`Served::stop`] makes it stop
/// answering (the request subject unsubscribed) before the caller does anything else, as a
/// node that learns it lost the match must; dropping it stops the same way, unwaited.
pub struct Served {
    stop: Option<oneshot::Sender<oneshot::Sender<()>>>,
}

impl Served {
    /// Stops answering for the match and waits until the NATS server has been told.
    pub async fn stop(mut self) {
        let Some(stop) = self.stop.take() else { return };
        let (done, stopped) = oneshot::channel();
        if stop.send(done).is_ok() {
            let _ = stopped.await;
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let (done, _) = oneshot::channel();
            let _ = stop.send(done);
        }
    }
}

impl Cluster {
    /// Starts answering requests for `match_id` under lease `epoch` on NATS, for as long as
    /// its actor reads `mailbox` and the returned [`Served`] is held. Returns once the
    /// subscription is registered with the NATS server, so a client told the match is live
    /// finds it; then tells sockets still bound to a previous owner that it moved here.
    pub(crate) async fn serve_match(
        self: &Arc<Self>,
        match_id: &MatchId,
        epoch: i64,
        mailbox: impl Into<MatchMailbox>,
    ) -> Served {
        let mailbox = mailbox.into();
        let subject = self.subjects.requests(match_id, epoch);
        let mut requests = match self.nats.subscribe(subject).await {
            Ok(requests) => requests,
            Err(error) => {
                // Sockets on other nodes cannot reach this match until the node is restarted
                // or loses it; sockets on this node still can.
                tracing::error!(%match_id, %error, "cannot serve the match over NATS");
                return Served { stop: None };
            }
        };
        let _ = self.nats.flush().await;
        let _ = self
            .nats
            .publish(self.subjects.moved(match_id), epoch.to_string().into())
            .await;
        let (stop, mut stopping) = oneshot::channel::<oneshot::Sender<()>>();
        let cluster = self.clone();
        let match_id = match_id.clone();
        tokio::spawn(async move {
            let mut relayed: HashSet<(Viewer, Protocol)> = HashSet::new();
            let mut done = None;
            loop {
                tokio::select! {
                    // Checked first: once told to stop, not one more request is taken.
                    biased;
                    stop = &mut stopping => {
                        done = stop.ok();
                        break;
                    }
                    // The actor stopped (the match ended or moved): stop answering for it.
                    _ = mailbox.closed() => break,
                    request = requests.next() => {
                        let Some(request) = request else { break };
                        cluster.answer(&match_id, epoch, &mailbox, request, &mut relayed);
                    }
                }
            }
            let _ = requests.unsubscribe().await;
            let _ = cluster.nats.flush().await;
            if let Some(done) = done {
                let _ = done.send(());
            }
        });
        Served { stop: Some(stop) }
    }

    /// Answers one request in its own task: a command waiting for its commit must not hold
    /// up another socket's subscription.
    fn answer(
        self: &Arc<Self>,
        match_id: &MatchId,
        epoch: i64,
        mailbox: &MatchMailbox,
        message: async_nats::Message,
        relayed: &mut HashSet<(Viewer, Protocol)>,
    ) {
        let Some(reply) = message.reply.clone() else {
            return;
        };
        let request: MatchRequest = match serde_json::from_slice(&message.payload) {
            Ok(request) => request,
            Err(error) => {
                tracing::warn!(%match_id, %error, "unreadable routed request");
                return;
            }
        };
        // The first subscription of a viewer starts its relay; the feed handed back with that
        // subscription is positioned right after its snapshot, so the relay misses nothing.
        let relay = match &request {
            MatchRequest::Subscribe { viewer, protocol, .. } => relayed
                .insert((*viewer, *protocol))
                .then(|| self.subjects.feed(match_id, epoch, *viewer, *protocol)),
            _ => None,
        };
        let (cluster, mailbox) = (self.clone(), mailbox.clone());
        tokio::spawn(async move {
            let payload = if !request.expects_reply() {
                mailbox.tell(request).await;
                wire::to_bytes(&None::<MatchReply>)
            } else {
                match mailbox.ask(request).await {
                    Some(MatchReply::Subscribed(subscription)) => {
                        let payload =
                            wire::encode_subscription(&subscription.snapshot, &subscription.backlog);
                        if let Some(subject) = relay {
                            tokio::spawn(cluster.clone().relay(subject, subscription.feed));
                        }
                        payload
                    }
                    answer => wire::to_bytes(&answer),
                }
            };
            let _ = cluster.nats.publish(reply, payload).await;
        });
    }

    /// Publishes one viewer's batches until the actor ends. It outlives the remote sockets
    /// that asked for it (one relay per viewer, shared): the cost is a publish per batch
    /// nobody may be reading, for the rest of the match.
    ///
    /// When this node's NATS link comes back, batches it published meanwhile may never have
    /// reached the other nodes, and the last of them may be the one their sockets wait for:
    /// it tells them to resume from the log (as when it falls behind its actor).
    async fn relay(self: Arc<Self>, subject: String, mut feed: broadcast::Receiver<Arc<ViewerBatch>>) {
        let mut links = self.link_changes();
        loop {
            let message = tokio::select! {
                batch = feed.recv() => match batch {
                    Ok(batch) => FeedMessage::Batch(batch),
                    Err(RecvError::Lagged(_)) => FeedMessage::Lagged,
                    Err(RecvError::Closed) => FeedMessage::Closed,
                },
                changed = links.changed() => match changed {
                    Ok(()) => FeedMessage::Lagged,
                    // The cluster is gone: so is this node's NATS.
                    Err(_) => return,
                },
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
