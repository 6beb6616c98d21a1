//! `/healthz` (the process answers), `/readyz` (the database answers too) and `/metrics`.

use super::AppState;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::{Json, extract::State};
use serde_json::{Value, json};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz))
        .routes(routes!(metrics))
}

/// Liveness: the process answers.
#[utoipa::path(operation_id = "healthz", get, path = "/healthz", tag = "health", responses((status = 200, description = "`{\"status\": \"ok\"}`")))]
async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

/// Readiness: the database answers (and, in a cluster, the node is not draining).
#[utoipa::path(operation_id = "readyz", get, path = "/readyz", tag = "health", responses(
    (status = 200, description = "ready, with the backend and the number of live matches"),
    (status = 503, description = "the database is unreachable, or the node is draining"),
))]
async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let store = &state.store;
    if state
        .cluster
        .as_ref()
        .is_some_and(|cluster| cluster.is_draining())
    {
        // Load balancers stop sending new connections here while the matches move away.
        let body = json!({
            "status": "draining",
            "error": {"code": "unavailable", "message": "this node is leaving the cluster"},
        });
        return (StatusCode::SERVICE_UNAVAILABLE, Json(body));
    }
    // Bounded: a load balancer must learn about an outage within its own probe timeout.
    if store.ping(state.db.readyz_timeout()).await {
        let body = json!({"status": "ready", "database": store.backend(), "live_matches": state.live.len()});
        (StatusCode::OK, Json(body))
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({
                "status": "database unreachable",
                "error": {"code": "unavailable", "message": "the database is unreachable"},
            })),
        )
    }
}

/// Operational metrics in the Prometheus text format (live matches, sockets, commands,
/// latencies, mailbox depth), for a scraper rather than a game client.
#[utoipa::path(operation_id = "metrics", get, path = "/metrics", tag = "health", responses(
    (status = 200, description = "Prometheus text exposition format", content_type = "text/plain")
))]
async fn metrics() -> impl IntoResponse {
    let body = crate::telemetry::render();
    ([(CONTENT_TYPE, "text/plain; version=0.0.4")], body)
}
