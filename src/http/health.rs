//! `/healthz` (the process answers) and `/readyz` (the database answers too).

use super::AppState;
use axum::http::StatusCode;
use axum::{Json, Router, extract::State, routing::get};
use serde_json::{Value, json};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let store = &state.lobby.store;
    if state
        .lobby
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
    if store.ping(state.lobby.journal.settings().readyz_timeout()).await {
        let body =
            json!({"status": "ready", "database": store.backend(), "live_matches": state.lobby.live.len()});
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
