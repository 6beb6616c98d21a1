//! A node of a cluster: each live match is leased to one node, which alone runs its actor.
//!
//! A match that goes live is leased to the least-loaded node, which is asked over NATS to
//! start it (this node takes it over if that node does not confirm). Three times per lease
//! TTL the node records its heartbeat (which renews its lease on all its matches at once),
//! stops the actors of matches it no longer holds (another node took them while this one
//! was paused or cut off), and claims its share of the live matches nobody holds: those of
//! a node whose heartbeat is older than its TTL, or that left the cluster (a drain). A
//! claimed match is rebuilt from its log, exactly as after a restart.

use super::{Actors, Placement};
use crate::cluster::node::StartRequest;
use crate::cluster::{Cluster, Served};
use crate::matches::{LobbyError, MatchHandle};
use crate::record::{MatchId, MatchStatus};
use crate::rules::Viewer;
use crate::store::{Fence, Lease, MatchRow, Store};
use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;
use tokio::time::{Instant, MissedTickBehavior};

pub struct ClusterPlacement {
    actors: Arc<Actors>,
    cluster: Arc<Cluster>,
    /// A small pool of its own for heartbeats, lease reads and claims
    /// ([`Store::connect_membership`]): they never wait behind the journal's writes.
    membership: Store,
    /// The matches this node answers for over NATS, each under the epoch it holds.
    served: Mutex<HashMap<MatchId, Served>>,
    /// When the heartbeat last committed (renewing every lease this node holds).
    renewed_at: Mutex<Instant>,
    /// Live matches this node held at the last round without running them (it let them go
    /// while its heartbeat was stale, then renewed): taken back if still so at the next.
    held_unrun: Mutex<HashSet<MatchId>>,
}

impl ClusterPlacement {
    pub fn new(actors: Arc<Actors>, cluster: Arc<Cluster>, membership: Store) -> Self {
        ClusterPlacement {
            actors,
            cluster,
            membership,
            served: Mutex::new(HashMap::new()),
            renewed_at: Mutex::new(Instant::now()),
            held_unrun: Mutex::new(HashSet::new()),
        }
    }

    fn store(&self) -> &Store {
        &self.actors.store
    }

    fn served(&self) -> std::sync::MutexGuard<'_, HashMap<MatchId, Served>> {
        self.served
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn renewed_at(&self) -> Instant {
        *self
            .renewed_at
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Stops running a match this node no longer holds: first it stops answering for it over
    /// NATS (so no request is taken after this point), then its actor stops and its sockets
    /// are told it moved.
    async fn let_go(&self, match_id: &MatchId) {
        let served = self.served().remove(match_id);
        if let Some(served) = served {
            served.stop().await;
        }
        if let Some(handle) = self.actors.live.get(match_id) {
            self.actors.live.remove(match_id);
            handle.shutdown().await;
        }
    }

    /// Runs the membership loop (heartbeat, shedding, claims, start requests from other
    /// nodes) until `stopping` flips.
    pub fn spawn_membership(
        self: Arc<Self>,
        mut stopping: watch::Receiver<bool>,
    ) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            let (mut starts, mut orphans) = match self.cluster.membership_feeds().await {
                Ok(feeds) => feeds,
                Err(error) => {
                    tracing::error!(%error, "cannot subscribe to the cluster's subjects; this node takes no matches");
                    return;
                }
            };
            let heartbeats = tokio::spawn(self.clone().heartbeats(stopping.clone()));
            let mut ticks = tokio::time::interval(self.cluster.heartbeat_interval());
            ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = ticks.tick() => self.tick().await,
                    Some(request) = starts.next() => {
                        tokio::spawn(self.clone().start_placed(request));
                    }
                    Some(()) = orphans.next() => {
                        self.claim().await;
                    }
                    _ = stopping.changed() => break,
                }
            }
            heartbeats.abort();
        })
    }

    /// Records the heartbeat three times per TTL, on its own, so that slow claims, lease
    /// reads or a slow database under the rest of the round never delay a renewal.
    async fn heartbeats(self: Arc<Self>, mut stopping: watch::Receiver<bool>) {
        let mut ticks = tokio::time::interval(self.cluster.heartbeat_interval());
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                _ = stopping.changed() => return,
            }
            if self.cluster.is_draining() {
                continue;
            }
            // Taken before the query: the lease runs from when the database saw it, which is
            // no earlier than this.
            let sent_at = Instant::now();
            // Bounded: on a partitioned link a query never fails, it hangs, and a node that
            // cannot renew must find out within a TTL that it may no longer own anything.
            let ttl = self.cluster.lease_ttl;
            match tokio::time::timeout(ttl, self.membership.heartbeat(&self.cluster.node, false)).await {
                Ok(Ok(())) => {
                    *self
                        .renewed_at
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner()) = sent_at
                }
                Ok(Err(error)) => tracing::warn!(%error, "cluster heartbeat failed"),
                Err(_) => tracing::warn!(?ttl, "cluster heartbeat got no answer within the lease TTL"),
            }
        }
    }

    /// Gives a match that just went live its first lease, on the least-loaded node, and has
    /// that node start it. If the chosen node does not confirm, this node takes it over.
    async fn place(&self, match_id: &MatchId) -> Result<(), LobbyError> {
        let me = self.cluster.node_id();
        let store = self.store();
        let target = match store.least_loaded_node().await? {
            Some(node) => node,
            None if self.cluster.node.runs_matches => me.to_string(),
            // Only gateway nodes are up: nobody can run the match yet; a node that joins
            // claims it (it is live and unleased).
            None => return Err(LobbyError::NoNodeToRun),
        };
        let Some(lease) = store.place_match(match_id, &target).await? else {
            return Ok(()); // another node placed it first
        };
        crate::telemetry::record_claims(1);
        if target == me {
            return self.run_placed(lease, true).await;
        }
        match self.cluster.ask_to_start(&target, match_id).await {
            Ok(()) => Ok(()),
            Err(error) => {
                tracing::warn!(%match_id, node = %target, %error, "the chosen node did not start the match; running it here");
                match store.take_over(&lease, &target, me).await? {
                    Some(lease) => self.run_placed(lease, true).await,
                    None => Ok(()),
                }
            }
        }
    }

    /// Runs a match under a lease this node holds: rebuilt from its log (empty for a match
    /// that has not started), its writes fenced by the lease's epoch, served to the other
    /// nodes over NATS. With `wait_for_start`, returns once the game's start is durably
    /// logged.
    async fn run_placed(&self, lease: Lease, wait_for_start: bool) -> Result<(), LobbyError> {
        let row = self.actors.match_row(&lease.match_id).await?;
        let log = self.store().log(&lease.match_id).await?;
        let fresh = log.is_empty();
        let handle = self.actors.spawn(&row, log, Some(Fence(lease.epoch))).await?;
        let served = self
            .cluster
            .serve_match(&row.match_id, lease.epoch, handle.clone())
            .await;
        // A previous epoch's, if this node held the match before, stops answering now.
        let previous = self.served().insert(row.match_id.clone(), served);
        if let Some(previous) = previous {
            previous.stop().await;
        }
        if wait_for_start && fresh {
            handle.log(Viewer::Spectator).await;
        }
        Ok(())
    }

    /// One round of membership (the heartbeat runs apart): shed what was lost, claim
    /// orphans.
    async fn tick(&self) {
        if self.cluster.is_draining() {
            return;
        }
        // Past the TTL without a renewal, other nodes may hold these matches: stop serving
        // them (their writes would be refused anyway).
        if self.renewed_at().elapsed() > self.cluster.lease_ttl {
            tracing::warn!("no heartbeat within the lease TTL; letting every match go");
            self.shed_lost(None).await;
        } else {
            let held = tokio::time::timeout(
                self.cluster.lease_ttl,
                self.membership.held_leases(self.cluster.node_id()),
            );
            let held = held.await.unwrap_or_else(|_| {
                Err(crate::store::StoreError::Unavailable(
                    "no answer within the lease TTL".into(),
                ))
            });
            match held {
                Ok(held) => {
                    let ids: HashSet<MatchId> = held.iter().map(|lease| lease.match_id.clone()).collect();
                    self.shed_lost(Some(&ids)).await;
                    self.take_back(held).await;
                }
                Err(error) => tracing::warn!(%error, "cannot read the leases this node holds"),
            }
        }
        self.claim().await;
        // Matches that ended on their own: nothing to answer for any more.
        let live = &self.actors.live;
        self.served().retain(|match_id, _| live.get(match_id).is_some());
    }

    /// Stops the actors of matches this node runs but no longer holds (`held`: the live
    /// matches it owns; `None` when it cannot know and must assume the worst, its heartbeat
    /// being older than its TTL). A match missing from `held` may have been placed here a
    /// moment after the read, so each is checked once more, and kept unless the database
    /// says it is another's.
    async fn shed_lost(&self, held: Option<&HashSet<MatchId>>) {
        let live = &self.actors.live;
        for (match_id, _) in live.entries() {
            let lost = match held {
                None => true,
                Some(held) if held.contains(&match_id) => false,
                Some(_) => matches!(
                    self.membership
                        .lease_held(&match_id, self.cluster.node_id())
                        .await,
                    Ok(None)
                ),
            };
            if lost {
                tracing::warn!(%match_id, "lease lost to another node; stopping the match here");
                self.let_go(&match_id).await;
            }
        }
    }

    /// Runs again the live matches this node holds but does not run. A node whose heartbeat
    /// went stale let every match go (their actors stopped), but if nobody claimed them before
    /// its heartbeat came back, it still holds their leases, and no other node will ever claim
    /// a lease whose holder is fresh: without this they would stay live with nobody running
    /// them. A match held but not running at two rounds in a row is taken back under a new
    /// epoch (fencing any straggler of this node's under the old one) and rebuilt from its
    /// log; one seen only once may be a placement on its way to starting here.
    async fn take_back(&self, held: Vec<Lease>) {
        if !self.cluster.node.runs_matches {
            return;
        }
        let live = &self.actors.live;
        let unrun: Vec<Lease> = held
            .into_iter()
            .filter(|lease| live.get(&lease.match_id).is_none())
            .collect();
        let now: HashSet<MatchId> = unrun.iter().map(|lease| lease.match_id.clone()).collect();
        let before = std::mem::replace(
            &mut *self
                .held_unrun
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
            now,
        );
        let me = self.cluster.node_id();
        for lease in unrun.into_iter().filter(|lease| before.contains(&lease.match_id)) {
            let match_id = lease.match_id.clone();
            match self.membership.take_over(&lease, me, me).await {
                Ok(Some(lease)) => {
                    crate::telemetry::record_claims(1);
                    let epoch = lease.epoch;
                    match self.run_placed(lease, false).await {
                        Ok(()) => {
                            tracing::info!(%match_id, epoch, "took back a match this node held but did not run")
                        }
                        Err(error) => {
                            tracing::error!(%match_id, %error, "could not resume a match taken back")
                        }
                    }
                }
                Ok(None) => {} // it changed hands meanwhile
                Err(error) => tracing::warn!(%match_id, %error, "could not take back a held match"),
            }
        }
    }

    /// Claims this node's share of the live matches nobody holds, and runs them.
    async fn claim(&self) -> usize {
        if self.cluster.is_draining() || !self.cluster.node.runs_matches {
            return 0;
        }
        let store = &self.membership;
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
        let claimed = match store.claim_orphans(self.cluster.node_id(), share).await {
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
            match self.run_placed(lease, false).await {
                Ok(()) => tracing::info!(%match_id, epoch, "took the match over"),
                Err(error) => tracing::error!(%match_id, %error, "could not resume a claimed match"),
            }
        }
        count
    }

    /// Another node placed a new match here: start it and answer once its start is logged.
    async fn start_placed(self: Arc<Self>, request: StartRequest) {
        let match_id = request.match_id();
        let answer = match self.store().lease_held(match_id, self.cluster.node_id()).await {
            Ok(Some(lease)) if self.actors.live.get(match_id).is_none() => self
                .run_placed(lease, true)
                .await
                .map_err(|error| error.to_string()),
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err("this node does not hold the match's lease".to_string()),
            Err(error) => Err(error.to_string()),
        };
        self.cluster.answer_start(request, answer).await;
    }

    /// Leaves the cluster without waiting for the lease TTL: marks this node draining (no
    /// new matches are placed here, `/readyz` fails), stops every actor (their sockets are
    /// told the match moved), releases the leases and tells the other nodes to claim them
    /// now.
    async fn leave(&self) {
        let cluster = &self.cluster;
        cluster.set_draining();
        if let Err(error) = self.membership.heartbeat(&cluster.node, true).await {
            tracing::warn!(%error, "could not mark the node draining");
        }
        let matches = self.actors.live.len();
        // Stop answering over NATS first: a request that finds no responder is answered
        // `match_moved` (not applied), never taken by an actor that is stopping.
        let served: Vec<Served> = self.served().drain().map(|(_, served)| served).collect();
        for served in served {
            served.stop().await;
        }
        self.actors.shutdown().await;
        // Leaving the node table ends this node's lease on every match it owned.
        match self.store().leave_cluster(cluster.node_id()).await {
            Ok(()) => tracing::info!(matches, "drained: left the cluster"),
            Err(error) => {
                tracing::warn!(%error, "could not leave the cluster; the leases expire with the TTL")
            }
        }
        cluster.announce_orphans().await;
    }
}

impl Placement for ClusterPlacement {
    fn start<'a>(&'a self, match_id: &'a MatchId) -> BoxFuture<'a, Result<(), LobbyError>> {
        Box::pin(self.place(match_id))
    }

    /// The nodes claim live matches by lease rather than resuming them all.
    fn recover(&self) -> BoxFuture<'_, Result<usize, LobbyError>> {
        Box::pin(async { Ok(self.claim().await) })
    }

    fn handle_for(&self, row: &MatchRow) -> Option<MatchHandle> {
        if let Some(handle) = self.actors.live.get(&row.match_id) {
            return Some(handle);
        }
        if row.status() != MatchStatus::Live {
            return None;
        }
        let game = self.actors.games.get(&row.game)?;
        // A match this node does not run: the handle's mailbox is the cluster's proxy of the
        // owner's. Cheap: nothing crosses NATS until the handle is used.
        let mailbox = self.cluster.remote_mailbox(&row.match_id, self.store().clone());
        Some(MatchHandle::new(mailbox, game.id(), game.max_command_bytes()))
    }

    fn spans_nodes(&self) -> bool {
        true
    }

    fn drain(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.leave())
    }

    fn shutdown(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.actors.shutdown())
    }
}
