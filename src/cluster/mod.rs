//! Cluster mode: many crease nodes on one PostgreSQL, NATS between them, any node serves any
//! match, and no match is lost with a node (docs/cluster.md).
//!
//! * **Ownership** lives in PostgreSQL ([`crate::store::Lease`]): each live match has one
//!   owner node, held by a lease with an epoch. The owner's actor is the only writer of the
//!   match's log, and every journal transaction checks the epoch ([`crate::store::Fence`]), so
//!   a paused or cut-off old owner can never append after another node took over.
//! * **Routing** goes over NATS ([`serve`], [`remote`]): a socket on a node that does not own
//!   its match gets a match handle whose mailbox is a proxy task
//!   ([`Cluster::remote_mailbox`]); the same [`MatchRequest`](crate::protocol::MatchRequest)s
//!   the actor's own mailbox holds travel to the owner as requests on
//!   `<cluster>.match.<id>.req`, and the owner publishes each viewer's batches on
//!   `<cluster>.match.<id>.feed.<viewer>.v<protocol>`. The gateway cannot tell the difference.
//! * **Membership and failover**: every node heartbeats, renews its leases, and claims its
//!   share of expired ones, rebuilding those matches from their logs. A draining node
//!   (SIGTERM) releases its leases at once and nudges the others to claim them. The loop is
//!   the matches floor's (`matches::placement`); this floor gives it the NATS side ([`node`]:
//!   start requests, release announcements).
//!
//! Single-node mode (no `--nats-url`) touches none of this.

pub mod config;
pub mod node;
mod remote;
mod serve;
mod wire;

pub use config::ClusterConfig;
pub use serve::Served;

use crate::record::MatchId;
use crate::store::NodeRecord;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Why cluster mode could not start.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("cluster mode needs a postgres:// DATABASE_URL (the leases live there)")]
    NeedsPostgres,
    #[error("cannot connect to NATS at {url}: {message}")]
    Nats { url: String, message: String },
}

/// This node's membership: its identity, its NATS connection and the subjects it uses.
pub struct Cluster {
    pub node: NodeRecord,
    pub lease_ttl: Duration,
    nats: async_nats::Client,
    subjects: Subjects,
    draining: AtomicBool,
    /// Counts this node's NATS link coming back (and the server dropping messages for a slow
    /// subscription). Messages published to or by this node while its link was down are
    /// lost, not queued: every relay and routed feed that might have missed one makes its
    /// sockets resume from the log when it changes.
    links: tokio::sync::watch::Sender<u64>,
}

impl Cluster {
    /// Connects to NATS. The node id is the configured name plus a random suffix, so a
    /// restarted process never mistakes its predecessor's leases for its own.
    pub async fn connect(config: &ClusterConfig, database_url: &str) -> Result<Cluster, ClusterError> {
        if !(database_url.starts_with("postgres:") || database_url.starts_with("postgresql:")) {
            return Err(ClusterError::NeedsPostgres);
        }
        let url = config.nats_url.clone().unwrap_or_default();
        let node_id = config.node_id();
        let links = tokio::sync::watch::Sender::new(0u64);
        let link_events = links.clone();
        let nats = async_nats::ConnectOptions::new()
            .name(&node_id)
            .request_timeout(Some(config.route_timeout()))
            .event_callback(move |event| {
                let links = link_events.clone();
                async move {
                    tracing::info!(%event, "NATS link");
                    if matches!(
                        event,
                        async_nats::Event::Connected | async_nats::Event::SlowConsumer(_)
                    ) {
                        links.send_modify(|count| *count += 1);
                    }
                }
            })
            .connect(url.as_str())
            .await
            .map_err(|error| ClusterError::Nats {
                url: url.clone(),
                message: error.to_string(),
            })?;
        Ok(Cluster {
            node: NodeRecord {
                node_id,
                name: config.node_name(),
                advertise_url: config.advertise_url.clone(),
                started_at: chrono::Utc::now(),
                lease_ttl_ms: config.lease_ttl().as_millis() as i64,
                runs_matches: config.runs_matches,
            },
            lease_ttl: config.lease_ttl(),
            nats,
            subjects: Subjects {
                prefix: config.cluster_name.clone(),
            },
            draining: AtomicBool::new(false),
            links,
        })
    }

    pub fn node_id(&self) -> &str {
        &self.node.node_id
    }

    pub fn lease_ttl_ms(&self) -> i64 {
        self.lease_ttl.as_millis() as i64
    }

    /// How often the node heartbeats, renews and claims: three times per lease TTL, so one
    /// late heartbeat never costs a lease.
    pub fn heartbeat_interval(&self) -> Duration {
        self.lease_ttl / 3
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// Changes each time this node's NATS link comes back or the server drops messages for
    /// it: whatever crossed NATS may have been lost since the receiver last looked.
    fn link_changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.links.subscribe()
    }

    pub(crate) fn set_draining(&self) {
        self.draining.store(true, Ordering::SeqCst);
    }

    /// Publishes `payload` to every node listening on `topic` (at most once, best effort:
    /// a listener must have a backstop for a lost announcement).
    pub async fn announce(&self, topic: &str, payload: Vec<u8>) {
        let subject = self.subjects.announcements(topic);
        if let Err(error) = self.nats.publish(subject, payload.into()).await {
            tracing::warn!(%error, topic, "could not announce to the cluster");
        }
        let _ = self.nats.flush().await;
    }

    /// Every announcement on `topic` from any node (this one included), until NATS is gone.
    pub async fn listen(
        &self,
        topic: &str,
    ) -> Result<impl futures_util::Stream<Item = Vec<u8>> + Unpin + use<>, ClusterError> {
        use futures_util::StreamExt;
        let subscriber = self
            .nats
            .subscribe(self.subjects.announcements(topic))
            .await
            .map_err(|error| ClusterError::Nats {
                url: String::new(),
                message: error.to_string(),
            })?;
        Ok(subscriber.map(|message| message.payload.to_vec()))
    }

    /// Tells every node that leases were released, so they claim now, not at their next tick.
    pub(crate) async fn announce_orphans(&self) {
        let _ = self.nats.publish(self.subjects.orphans(), "".into()).await;
        let _ = self.nats.flush().await;
    }
}

/// The NATS subjects of one cluster, all under `--cluster-name`.
#[derive(Clone, Debug)]
struct Subjects {
    prefix: String,
}

impl Subjects {
    /// Requests to the owner of a match under lease `epoch` (commands, subscriptions,
    /// connection notices, logs). The epoch is in the subject so that a request reaches one
    /// owner at the most: after a takeover the old owner (paused, cut off, not yet aware)
    /// listens on the old epoch's subject, which no socket bound to the new epoch sends on.
    fn requests(&self, match_id: &MatchId, epoch: i64) -> String {
        format!("{}.match.{match_id}.e{epoch}.req", self.prefix)
    }

    /// One viewer's batches of a match in one protocol, published by its owner under lease
    /// `epoch`: two owners' streams never mix on one socket.
    fn feed(
        &self,
        match_id: &MatchId,
        epoch: i64,
        viewer: crate::rules::Viewer,
        protocol: crate::protocol::Protocol,
    ) -> String {
        let viewer = match viewer {
            crate::rules::Viewer::Seat(seat) => format!("seat{}", seat.index()),
            crate::rules::Viewer::Spectator => "spectator".to_string(),
        };
        format!(
            "{}.match.{match_id}.e{epoch}.feed.{viewer}.v{}",
            self.prefix,
            protocol.number()
        )
    }

    /// Published by a node that has just started serving a match it took over, with the new
    /// epoch as payload: sockets bound to an older epoch close and resume.
    fn moved(&self, match_id: &MatchId) -> String {
        format!("{}.match.{match_id}.moved", self.prefix)
    }

    /// Asks one node to start a match placed on it.
    fn start(&self, node_id: &str) -> String {
        format!("{}.node.{node_id}.start", self.prefix)
    }

    /// Announcements of one kind (`topic`) that another floor sends every node.
    fn announcements(&self, topic: &str) -> String {
        format!("{}.announce.{topic}", self.prefix)
    }

    /// Leases were released: claim them now.
    fn orphans(&self) -> String {
        format!("{}.orphans", self.prefix)
    }
}
