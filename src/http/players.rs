//! `POST /v1/players`: guest accounts.

use super::limits::IpAdmitted;
use super::{AppState, JsonBody};
use crate::error::ApiError;
use crate::input::PlayerName;
use crate::protocol::{CreatePlayer, PlayerCreated};
use axum::http::StatusCode;
use axum::{Json, Router, extract::State, routing::post};

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/players", post(create))
}

async fn create(
    _: IpAdmitted,
    State(state): State<AppState>,
    JsonBody(body): JsonBody<CreatePlayer>,
) -> Result<(StatusCode, Json<PlayerCreated>), ApiError> {
    let (player, token) = state.lobby.create_player(PlayerName::parse(&body.name)?).await?;
    let created = PlayerCreated {
        player_id: player.player_id,
        name: player.name,
        token,
    };
    Ok((StatusCode::CREATED, Json(created)))
}
