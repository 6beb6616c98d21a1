//! `POST /v1/players`: guest accounts.

use super::limits::IpAdmitted;
use super::{AppState, JsonBody};
use crate::error::ApiError;
use crate::input::PlayerName;
use crate::protocol::{CreatePlayer, PlayerCreated};
use axum::http::StatusCode;
use axum::{Json, extract::State};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create))
}

/// Creates a guest player; the token is shown once and stored only as a hash. Display names
/// are unique case-insensitively: a name another player holds gets the lowest free suffix
/// (`Ana` -> `Ana #2`), and the body says which name was given.
#[utoipa::path(operation_id = "create_player", post, path = "/v1/players", tag = "players",
    request_body = ref("#/components/schemas/CreatePlayer"),
    responses(
        (status = 201, body = ref("#/components/schemas/PlayerCreated")),
        (status = 400, body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`name_taken`: every suffix tried for the name was taken by requests racing this one; try again", body = ref("#/components/schemas/ErrorBody")),
        (status = 429, description = "`rate_limited`: too many creations from this address or player; see `Retry-After`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn create(
    _: IpAdmitted,
    State(state): State<AppState>,
    JsonBody(body): JsonBody<CreatePlayer>,
) -> Result<(StatusCode, Json<PlayerCreated>), ApiError> {
    let (player, token) = state
        .accounts
        .create_player(PlayerName::parse(&body.name)?)
        .await?;
    let created = PlayerCreated {
        player_id: player.player_id.into_string(),
        name: player.name,
        token,
    };
    Ok((StatusCode::CREATED, Json(created)))
}
