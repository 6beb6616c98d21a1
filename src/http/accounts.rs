//! Accounts and sessions: claim a guest player, log in elsewhere, log out (here or
//! everywhere). See [`crate::accounts`] for the rules.

use super::limits::ClientAddress;
use super::{AppState, JsonBody, bearer, require_player};
use crate::error::ApiError;
use crate::input::{Password, Username};
use crate::protocol::{Account, ClaimAccount, LogIn, SessionCreated, SessionsEnded};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{delete, get, post};
use axum::{Json, Router};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/account", get(show))
        .route("/v1/account/claim", post(claim))
        .route("/v1/sessions", post(log_in).delete(log_out_everywhere))
        .route("/v1/sessions/current", delete(log_out))
}

/// The caller's player and its bearer token (checked).
async fn caller(state: &AppState, headers: &HeaderMap) -> Result<(crate::matches::Player, String), ApiError> {
    let player = require_player(state, headers).await?;
    let token = bearer(headers).ok_or(ApiError::Unauthorized)?.to_string();
    Ok((player, token))
}

async fn show(State(state): State<AppState>, headers: HeaderMap) -> Result<Json<Account>, ApiError> {
    let (player, token) = caller(&state, &headers).await?;
    Ok(Json(state.accounts.account(&player, &token).await?))
}

async fn claim(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<ClaimAccount>,
) -> Result<Json<Account>, ApiError> {
    let (player, token) = caller(&state, &headers).await?;
    let username = Username::parse(&body.username)?;
    let password = Password::parse(&body.password)?;
    Ok(Json(
        state.accounts.claim(&player, &token, username, password).await?,
    ))
}

/// Charged to the rate limits before the password is looked at. A password that could
/// never have been set (too short, too long) is refused as wrong credentials, not as bad
/// input: the answer must not depend on what the stored password might be.
async fn log_in(
    ClientAddress(client): ClientAddress,
    State(state): State<AppState>,
    JsonBody(body): JsonBody<LogIn>,
) -> Result<(StatusCode, Json<SessionCreated>), ApiError> {
    let username = Username::parse(&body.username)?;
    state.limits.admit_login(client, &username)?;
    let password = Password::parse(&body.password).map_err(|_| ApiError::InvalidCredentials)?;
    let session = state.accounts.login(username, password).await?;
    Ok((StatusCode::CREATED, Json(session)))
}

async fn log_out(State(state): State<AppState>, headers: HeaderMap) -> Result<Json<SessionsEnded>, ApiError> {
    let (player, token) = caller(&state, &headers).await?;
    let ended = state.accounts.log_out(&player, &token, false).await?;
    Ok(Json(SessionsEnded { ended }))
}

async fn log_out_everywhere(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<SessionsEnded>, ApiError> {
    let (player, token) = caller(&state, &headers).await?;
    let ended = state.accounts.log_out(&player, &token, true).await?;
    Ok(Json(SessionsEnded { ended }))
}
