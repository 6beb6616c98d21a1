//! `GET /v1/cluster`: which nodes serve this database, their heartbeats and their matches.

use super::AppState;
use crate::error::ApiError;
use crate::protocol::{ClusterInfo, ClusterNode};
use axum::Json;
use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(cluster))
}

/// The nodes serving this database (cluster mode), with heartbeats and live matches each;
/// a single node lists itself.
#[utoipa::path(operation_id = "cluster", get, path = "/v1/cluster", tag = "health", responses(
    (status = 200, body = ref("#/components/schemas/ClusterInfo")),
    (status = 503, description = "the database is unavailable", body = ref("#/components/schemas/ErrorBody")),
))]
async fn cluster(State(state): State<AppState>) -> Result<Json<ClusterInfo>, ApiError> {
    let Some(cluster) = &state.cluster else {
        // One process: itself, with the matches it runs.
        return Ok(Json(ClusterInfo {
            mode: "single".into(),
            node_id: None,
            lease_ttl_ms: None,
            nodes: vec![ClusterNode {
                node_id: "single".into(),
                name: "single".into(),
                advertise_url: None,
                started_at: None,
                heartbeat_at: None,
                alive: true,
                draining: false,
                runs_matches: true,
                matches: state.live.len() as i64,
            }],
        }));
    };
    let nodes = state.store.cluster_nodes().await?;
    Ok(Json(ClusterInfo {
        mode: "cluster".into(),
        node_id: Some(cluster.node_id().to_string()),
        lease_ttl_ms: Some(cluster.lease_ttl_ms() as u64),
        nodes: nodes
            .into_iter()
            .map(|node| ClusterNode {
                node_id: node.node_id,
                name: node.name,
                advertise_url: node.advertise_url,
                started_at: Some(node.started_at),
                heartbeat_at: Some(node.heartbeat_at),
                alive: node.alive,
                draining: node.draining,
                runs_matches: node.runs_matches,
                matches: node.matches,
            })
            .collect(),
    }))
}
