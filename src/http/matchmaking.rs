//! `/v1/matchmaking/tickets`: wait for opponents with the same game and options.

use super::limits::IpAdmitted;
use super::{AppState, JsonBody, require_player};
use crate::error::ApiError;
use crate::input::TicketId;
use crate::protocol::{CreateTicket, Ticket};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::{Json, Router, routing::get, routing::post};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/matchmaking/tickets", post(open))
        .route("/v1/matchmaking/tickets/{id}", get(show).delete(cancel))
}

async fn open(
    _: IpAdmitted,
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<CreateTicket>,
) -> Result<(StatusCode, Json<Ticket>), ApiError> {
    let player = require_player(&state, &headers).await?;
    state.limits.admit_creation(&state.lobby.store, &player).await?;
    Ok((
        StatusCode::CREATED,
        Json(crate::matchmaking::open_ticket(&state.lobby, &player, body).await?),
    ))
}

async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    id: TicketId,
) -> Result<Json<Ticket>, ApiError> {
    let player = require_player(&state, &headers).await?;
    Ok(Json(
        crate::matchmaking::ticket(&state.lobby, &player, id.as_str()).await?,
    ))
}

async fn cancel(
    State(state): State<AppState>,
    headers: HeaderMap,
    id: TicketId,
) -> Result<Json<Ticket>, ApiError> {
    let player = require_player(&state, &headers).await?;
    Ok(Json(
        crate::matchmaking::cancel_ticket(&state.lobby, &player, id.as_str()).await?,
    ))
}
