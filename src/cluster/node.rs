//! A node's membership loop: heartbeat, lease renewal, failover claims, and the answers to
//! "start this match" from the node that placed it here.
//!
//! Three times per lease TTL the node records its heartbeat (which renews its lease on all
//! its matches at once), stops the actors of matches it no longer holds (another node took
//! them while this one was paused or cut off), and claims its share of the live matches
//! nobody holds: those of a node whose heartbeat is older than its TTL, or that left the
//! cluster (a drain). A claimed match is rebuilt from its log, exactly as after a restart.

use super::Cluster;
use crate::matches::Lobby;
use futures_util::StreamExt;
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::watch;
use tokio::time::{Instant, MissedTickBehavior};

/// Runs the loop until `stopping` flips; a no-op for a single node.
pub fn spawn(lobby: Arc<Lobby>, mut stopping: watch::Receiver<bool>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let Some(cluster) = lobby.cluster.clone() else {
            return;
        };
        let nats = cluster.nats.clone();
        let (starts, orphans) = tokio::join!(
            nats.subscribe(cluster.subjects.start(cluster.node_id())),
            nats.subscribe(cluster.subjects.orphans()),
        );
        let (mut starts, mut orphans) = match (starts, orphans) {
            (Ok(starts), Ok(orphans)) => (starts, orphans),
            (Err(error), _) | (_, Err(error)) => {
                tracing::error!(%error, "cannot subscribe to the cluster's subjects; this node takes no matches");
                return;
            }
        };
        let mut ticks = tokio::time::interval(cluster.heartbeat_interval());
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut renewed_at = Instant::now();
        loop {
            tokio::select! {
                _ = ticks.tick() => tick(&lobby, &cluster, &mut renewed_at).await,
                Some(request) = starts.next() => {
                    tokio::spawn(start_placed(lobby.clone(), cluster.clone(), request));
                }
                Some(_) = orphans.next() => {
                    claim(&lobby, &cluster).await;
                }
                _ = stopping.changed() => break,
            }
        }
    })
}

/// One round of membership: heartbeat (renewing every lease), shed what was lost, claim
/// orphans.
async fn tick(lobby: &Lobby, cluster: &Cluster, renewed_at: &mut Instant) {
    if cluster.is_draining() {
        return;
    }
    let store = &lobby.store;
    let held = match store.heartbeat(&cluster.node, false).await {
        Ok(()) => store.held_leases(cluster.node_id()).await,
        Err(error) => Err(error),
    };
    match held {
        Ok(held) => {
            *renewed_at = Instant::now();
            let held: HashSet<String> = held.into_iter().map(|lease| lease.match_id).collect();
            shed_lost(lobby, cluster, Some(&held)).await;
        }
        Err(error) => {
            tracing::warn!(%error, "cluster heartbeat failed");
            // Past the TTL without a heartbeat, other nodes may hold these matches: stop
            // serving them (their writes would be refused anyway).
            if renewed_at.elapsed() > cluster.lease_ttl {
                shed_lost(lobby, cluster, None).await;
            }
        }
    }
    claim(lobby, cluster).await;
}

/// Stops the actors of matches this node runs but no longer holds (`held`: the live matches
/// it owns; `None` when it cannot know and must assume the worst, its heartbeat being older
/// than its TTL). A match missing from `held` may have been placed here a moment after the
/// read, so each is checked once more, and kept unless the database says it is another's.
async fn shed_lost(lobby: &Lobby, cluster: &Cluster, held: Option<&HashSet<String>>) {
    for (match_id, handle) in lobby.live.entries() {
        let lost = match held {
            None => true,
            Some(held) if held.contains(&match_id) => false,
            Some(_) => matches!(
                lobby.store.lease_held(&match_id, cluster.node_id()).await,
                Ok(None)
            ),
        };
        if lost {
            tracing::warn!(%match_id, "lease lost to another node; stopping the match here");
            lobby.live.remove(&match_id);
            tokio::spawn(async move { handle.shutdown().await });
        }
    }
}

/// Claims this node's share of the live matches nobody holds, and runs them.
pub async fn claim(lobby: &Lobby, cluster: &Cluster) -> usize {
    if cluster.is_draining() || !cluster.node.runs_matches {
        return 0;
    }
    let store = &lobby.store;
    let orphans = match store.orphan_count().await {
        Ok(0) => return 0,
        Ok(count) => count,
        Err(error) => {
            tracing::warn!(%error, "cannot count unowned matches");
            return 0;
        }
    };
    // Survivors split the orphans; whatever is left is claimed on the next tick.
    let nodes = store.serving_nodes().await.unwrap_or(1).max(1);
    let share = (orphans + nodes - 1) / nodes;
    let claimed = match store.claim_orphans(cluster.node_id(), share).await {
        Ok(claimed) => claimed,
        Err(error) => {
            tracing::warn!(%error, "claiming unowned matches failed");
            return 0;
        }
    };
    crate::telemetry::record_claims(claimed.len());
    let count = claimed.len();
    for lease in claimed {
        let match_id = lease.match_id.clone();
        let epoch = lease.epoch;
        match lobby.run_placed(lease, false).await {
            Ok(()) => tracing::info!(%match_id, epoch, "took the match over"),
            Err(error) => tracing::error!(%match_id, %error, "could not resume a claimed match"),
        }
    }
    count
}

/// Another node placed a new match here: start it and answer once its start is logged.
async fn start_placed(lobby: Arc<Lobby>, cluster: Arc<Cluster>, request: async_nats::Message) {
    let match_id = String::from_utf8_lossy(&request.payload).to_string();
    let answer = match lobby.store.lease_held(&match_id, cluster.node_id()).await {
        Ok(Some(lease)) if lobby.live.get(&match_id).is_none() => lobby
            .run_placed(lease, true)
            .await
            .map_err(|error| error.to_string()),
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err("this node does not hold the match's lease".to_string()),
        Err(error) => Err(error.to_string()),
    };
    if let Some(reply) = request.reply {
        let payload = super::wire::to_bytes(&answer);
        let _ = cluster.nats.publish(reply, payload).await;
    }
}

impl Cluster {
    /// Asks `node_id` to start a match placed on it; `Err` if it did not confirm in time.
    pub(crate) async fn ask_to_start(&self, node_id: &str, match_id: &str) -> Result<(), String> {
        let subject = self.subjects.start(node_id);
        let answer = self
            .nats
            .request(subject, match_id.to_string().into())
            .await
            .map_err(|error| error.to_string())?;
        serde_json::from_slice::<Result<(), String>>(&answer.payload).map_err(|error| error.to_string())?
    }
}
