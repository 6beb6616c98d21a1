//! `/v1/matchmaking/tickets`: wait for opponents with the same game and options.

use super::limits::IpAdmitted;
use super::{AppState, Caller, JsonBody};
use crate::error::ApiError;
use crate::protocol::{CreateTicket, Ticket};
use crate::record::TicketId;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open))
        .routes(routes!(show, cancel))
}

/// Queues for a rated opponent with the same game and options.
#[utoipa::path(operation_id = "open_ticket", post, path = "/v1/matchmaking/tickets", tag = "matchmaking", security(("bearer" = [])),
    request_body = ref("#/components/schemas/CreateTicket"),
    responses(
        (status = 201, body = ref("#/components/schemas/Ticket")),
        (status = 400, body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`too_many_matches`: the player holds the maximum of unfinished matches", body = ref("#/components/schemas/ErrorBody")),
        (status = 429, description = "`rate_limited`: too many creations from this address or player; see `Retry-After`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn open(
    Caller(player): Caller,
    _: IpAdmitted,
    State(state): State<AppState>,
    JsonBody(body): JsonBody<CreateTicket>,
) -> Result<(StatusCode, Json<Ticket>), ApiError> {
    state.limits.admit_creation(&state.store, &player).await?;
    Ok((
        StatusCode::CREATED,
        Json(state.matchmaker.open_ticket(&player, body).await?),
    ))
}

/// Waiting, or the match it was paired into.
#[utoipa::path(operation_id = "show_ticket", get, path = "/v1/matchmaking/tickets/{id}", tag = "matchmaking", security(("bearer" = [])),
    params(("id" = String, Path, description = "ticket id")),
    responses(
        (status = 200, body = ref("#/components/schemas/Ticket")),
        (status = 403, body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn show(
    Caller(player): Caller,
    State(state): State<AppState>,
    id: TicketId,
) -> Result<Json<Ticket>, ApiError> {
    Ok(Json(state.matchmaker.ticket(&player, &id).await?))
}

/// Cancels a waiting ticket.
#[utoipa::path(operation_id = "cancel_ticket", delete, path = "/v1/matchmaking/tickets/{id}", tag = "matchmaking", security(("bearer" = [])),
    params(("id" = String, Path, description = "ticket id")),
    responses((status = 200, body = ref("#/components/schemas/Ticket"))))]
async fn cancel(
    Caller(player): Caller,
    State(state): State<AppState>,
    id: TicketId,
) -> Result<Json<Ticket>, ApiError> {
    Ok(Json(state.matchmaker.cancel_ticket(&player, &id).await?))
}
