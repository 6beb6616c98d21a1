//! A node's membership primitives over NATS: the start requests addressed to this node by
//! the node that placed a match here, the announcements that leases were released, and
//! asking another node to start a match. The loop that uses them (heartbeat, failover
//! claims, shedding lost leases) belongs to the matches floor
//! (`matches::placement::ClusterPlacement`).

use super::{Cluster, ClusterError};
use crate::record::MatchId;
use futures_util::{Stream, StreamExt};

/// "Start this match": sent by the node that placed a match here, which waits for the answer.
pub struct StartRequest {
    match_id: MatchId,
    reply: Option<async_nats::Subject>,
}

impl StartRequest {
    pub fn match_id(&self) -> &MatchId {
        &self.match_id
    }
}

impl Cluster {
    /// The start requests addressed to this node, and a signal each time some node released
    /// leases (a drain), for this one to claim them now rather than at its next tick.
    pub async fn membership_feeds(
        &self,
    ) -> Result<
        (
            impl Stream<Item = StartRequest> + Unpin + use<>,
            impl Stream<Item = ()> + Unpin + use<>,
        ),
        ClusterError,
    > {
        let (starts, orphans) = tokio::join!(
            self.nats.subscribe(self.subjects.start(self.node_id())),
            self.nats.subscribe(self.subjects.orphans()),
        );
        let subscribed = |subscription: Result<async_nats::Subscriber, async_nats::SubscribeError>| {
            subscription.map_err(|error| ClusterError::Nats {
                url: String::new(),
                message: error.to_string(),
            })
        };
        // The id is parsed here, where it comes off the wire; only a node of this cluster
        // sends these, so one that is not a match id is dropped (the sender times out).
        let starts = subscribed(starts)?.filter_map(|request| {
            let match_id = MatchId::parse(&String::from_utf8_lossy(&request.payload));
            if match_id.is_err() {
                tracing::warn!("start request without a match id");
            }
            let start = match_id.ok().map(|match_id| StartRequest {
                match_id,
                reply: request.reply,
            });
            std::future::ready(start)
        });
        let orphans = subscribed(orphans)?.map(|_| ());
        Ok((starts, orphans))
    }

    /// Answers a start request: `Ok` once the match's start is logged here.
    pub async fn answer_start(&self, request: StartRequest, answer: Result<(), String>) {
        if let Some(reply) = request.reply {
            let payload = super::wire::to_bytes(&answer);
            let _ = self.nats.publish(reply, payload).await;
        }
    }

    /// Asks `node_id` to start a match placed on it; `Err` if it did not confirm in time.
    pub async fn ask_to_start(&self, node_id: &str, match_id: &MatchId) -> Result<(), String> {
        let subject = self.subjects.start(node_id);
        let answer = self
            .nats
            .request(subject, match_id.to_string().into())
            .await
            .map_err(|error| error.to_string())?;
        serde_json::from_slice::<Result<(), String>>(&answer.payload).map_err(|error| error.to_string())?
    }
}
