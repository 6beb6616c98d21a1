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
