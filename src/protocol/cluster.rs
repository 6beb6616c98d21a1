//! `GET /v1/cluster`: the nodes serving this database, for operators.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How the answering server runs, and every node it knows of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClusterInfo {
    /// `single` (one process, no NATS) or `cluster`.
    pub mode: String,
    /// The node that answered (`null` for a single node).
    pub node_id: Option<String>,
    /// How long a lease lasts unrenewed: a dead node's matches move within about this long.
    pub lease_ttl_ms: Option<u64>,
    /// Nodes with a heartbeat in the last hour, newest first; a single node lists itself.
    pub nodes: Vec<ClusterNode>,
}

/// One node of the cluster.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClusterNode {
    pub node_id: String,
    pub name: String,
    pub advertise_url: Option<String>,
    pub started_at: Option<DateTime<Utc>>,
    pub heartbeat_at: Option<DateTime<Utc>>,
    /// Its heartbeat is younger than the lease TTL.
    pub alive: bool,
    /// It is leaving: no new matches are placed on it.
    pub draining: bool,
    /// False for a gateway node, which serves sockets but runs no match.
    pub runs_matches: bool,
    /// Live matches it runs (holds an unexpired lease on).
    pub matches: i64,
}
