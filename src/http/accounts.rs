//! Accounts and sessions: claim a guest player, log in elsewhere, log out (here or
//! everywhere). See [`crate::accounts`] for the rules.

use super::limits::{ClientAddress, Device};
use super::{AppState, JsonBody, bearer, require_player};
use crate::error::ApiError;
use crate::input::{Password, Username};
use crate::protocol::{Account, ClaimAccount, LogIn, SessionCreated, SessionsEnded};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(show))
        .routes(routes!(claim))
        .routes(routes!(log_in, log_out_everywhere))
        .routes(routes!(log_out))
}

/// The caller's player and its bearer token (checked).
async fn caller(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(crate::accounts::Player, String), ApiError> {
    let player = require_player(state, headers).await?;
    let token = bearer(headers).ok_or(ApiError::Unauthorized)?.to_string();
    Ok((player, token))
}

/// The caller's account: its login name once claimed, and when this token expires.
#[utoipa::path(operation_id = "show_account", get, path = "/v1/account", tag = "accounts", security(("bearer" = [])),
    responses(
        (status = 200, body = ref("#/components/schemas/Account")),
        (status = 401, body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn show(State(state): State<AppState>, headers: HeaderMap) -> Result<Json<Account>, ApiError> {
    let (player, token) = caller(&state, &headers).await?;
    Ok(Json(state.accounts.account(&player, &token).await?))
}

/// Claims the caller's guest player with a login name and a password, so it can log in
/// from other devices. The guest token keeps working, and now expires like any session.
#[utoipa::path(operation_id = "claim_account", post, path = "/v1/account/claim", tag = "accounts", security(("bearer" = [])),
    request_body = ref("#/components/schemas/ClaimAccount"),
    responses(
        (status = 200, body = ref("#/components/schemas/Account")),
        (status = 400, description = "`bad_request`: the login name or the password is not acceptable", body = ref("#/components/schemas/ErrorBody")),
        (status = 401, body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`already_claimed` or `username_taken`", body = ref("#/components/schemas/ErrorBody")),
        (status = 503, description = "`overloaded`: too many password hashes at once; see `Retry-After`", body = ref("#/components/schemas/ErrorBody")),
    ))]
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

// Charged to the rate limits before the password is looked at. A password that could
// never have been set (too short, too long) is refused as wrong credentials, not as bad
// input: the answer must not depend on what the stored password might be.
/// Logs in to a claimed account: a new bearer token, valid until `expires_at`.
#[utoipa::path(operation_id = "log_in", post, path = "/v1/sessions", tag = "accounts",
    request_body = ref("#/components/schemas/LogIn"),
    responses(
        (status = 201, body = ref("#/components/schemas/SessionCreated")),
        (status = 400, body = ref("#/components/schemas/ErrorBody")),
        (status = 401, description = "`invalid_credentials`: unknown login name or wrong password", body = ref("#/components/schemas/ErrorBody")),
        (status = 429, description = "`rate_limited`: too many login attempts from this address or for this name (a device that logged in to the name before passes the name's limit); see `Retry-After`", body = ref("#/components/schemas/ErrorBody")),
        (status = 503, description = "`overloaded`: too many password checks at once; see `Retry-After`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn log_in(
    ClientAddress(client): ClientAddress,
    State(state): State<AppState>,
    JsonBody(body): JsonBody<LogIn>,
) -> Result<(StatusCode, Json<SessionCreated>), ApiError> {
    let username = Username::parse(&body.username)?;
    let device_id = body.device.as_deref().map(device_id).transpose()?;
    let device = Device {
        id: device_id,
        address: client,
    };
    state.limits.admit_login(device, &username)?;
    let password = Password::parse(&body.password).map_err(|_| ApiError::InvalidCredentials)?;
    let session = state.accounts.login(username.clone(), password).await?;
    state.limits.remember_login(device, &username);
    Ok((StatusCode::CREATED, Json(session)))
}

/// A login body's `device`: 16 to 128 printable ASCII characters, so that it is long enough
/// not to be guessed and short enough to keep.
fn device_id(text: &str) -> Result<&str, ApiError> {
    let printable = text.bytes().all(|byte| byte.is_ascii_graphic());
    if !(16..=128).contains(&text.len()) || !printable {
        return Err(ApiError::BadRequest(
            "`device` must be 16 to 128 printable ASCII characters".into(),
        ));
    }
    Ok(text)
}

/// Logs out: the token of this request stops working.
#[utoipa::path(operation_id = "log_out", delete, path = "/v1/sessions/current", tag = "accounts", security(("bearer" = [])),
    responses(
        (status = 200, body = ref("#/components/schemas/SessionsEnded")),
        (status = 401, body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`not_claimed`: a guest's token is its account's only key", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn log_out(State(state): State<AppState>, headers: HeaderMap) -> Result<Json<SessionsEnded>, ApiError> {
    let (player, token) = caller(&state, &headers).await?;
    let ended = state.accounts.log_out(&player, &token, false).await?;
    Ok(Json(SessionsEnded { ended }))
}

/// Logs out everywhere: every token of the caller's account stops working, this one too.
#[utoipa::path(operation_id = "log_out_everywhere", delete, path = "/v1/sessions", tag = "accounts", security(("bearer" = [])),
    responses(
        (status = 200, body = ref("#/components/schemas/SessionsEnded")),
        (status = 401, body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`not_claimed`: a guest's token is its account's only key", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn log_out_everywhere(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<SessionsEnded>, ApiError> {
    let (player, token) = caller(&state, &headers).await?;
    let ended = state.accounts.log_out(&player, &token, true).await?;
    Ok(Json(SessionsEnded { ended }))
}
