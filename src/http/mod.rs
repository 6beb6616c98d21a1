//! The HTTP API, one router per concern, merged in [`router`].
//!
//! Handlers are thin: they authenticate, call accounts, the [`Lobby`], the matchmaker or a
//! match actor, and map errors through [`ApiError`] into `{"error": {"code", "message"}}`.

pub mod accounts;
pub mod admin;
pub mod cluster;
pub mod competitions;
mod contract;
pub mod errors;
pub mod extract;
pub mod games;
pub mod health;
pub mod history;
pub mod limits;
pub mod matches;
pub mod matchmaking;
pub mod openapi;
pub mod players;
pub mod ratings;
pub mod web;

use crate::accounts::Player;
use crate::cluster::Cluster;
use crate::error::ApiError;
use crate::matches::{GameKind, LiveMatches, Lobby, SocketPlanner};
use crate::matchmaking::Matchmaker;
use crate::store::{DbSettings, Store};
use axum::Router;
use axum::http::HeaderMap;
pub use extract::{CompetitionPath, JsonBody, PathText, QueryParams};
use std::sync::Arc;
use tokio::sync::watch;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

#[derive(Clone)]
pub struct AppState {
    /// Seating and starting matches.
    pub lobby: Arc<Lobby>,
    /// Tickets, and the passes that pair them.
    pub matchmaker: Arc<Matchmaker>,
    /// Leagues and knockouts.
    pub competitions: Arc<crate::competitions::Competitions>,
    /// What each match socket opens onto.
    pub socket_plans: Arc<SocketPlanner>,
    /// The database, for the reads no floor below owns (history, ratings, profiles, health).
    pub store: Store,
    /// The database settings (`/readyz`'s timeout).
    pub db: DbSettings,
    /// The actors running on this node.
    pub live: Arc<LiveMatches>,
    /// This node's membership when it runs as one node of a cluster.
    pub cluster: Option<Arc<Cluster>>,
    /// Claims, logins and logouts.
    pub accounts: Arc<crate::accounts::Accounts>,
    /// The abuse limits on creating players, matches and tickets.
    pub limits: Arc<limits::AbuseLimits>,
    /// Flips to true when the server stops; WebSocket sessions close on it.
    pub shutdown: watch::Receiver<bool>,
    /// Ping, write and close limits of each WebSocket.
    pub sockets: crate::gateway::SocketLimits,
    /// The admin actions behind `/v1/admin/...`.
    pub moderation: Arc<crate::moderation::Moderation>,
    /// The admin tokens (none: the admin API is disabled).
    pub admin: Arc<crate::moderation::AdminConfig>,
}

/// Every API route with its OpenAPI operation: each router registers both at once.
pub fn api_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .merge(health::router())
        .merge(cluster::router())
        .merge(players::router())
        .merge(accounts::router())
        .merge(games::router())
        .merge(matches::router())
        .merge(history::router())
        .merge(matchmaking::router())
        .merge(competitions::router())
        .merge(ratings::router())
        .merge(admin::router())
        .merge(openapi::router())
}

pub fn router(state: AppState) -> Router {
    let games = state.lobby.games().clone();
    let (api, _) = api_routes().split_for_parts();
    api.fallback(|| async { ApiError::NotFound("route") })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(axum::middleware::from_fn(count_request))
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(request_span))
        // axum's limit, not tower-http's: its rejection reaches [`JsonBody`], which answers
        // 413 in the API's error shape (tower-http's layer answers plain text).
        .layer(axum::extract::DefaultBodyLimit::max(crate::input::MAX_BODY_BYTES))
        .with_state(state)
        // The browser client: `/` and its files; its catch-all answers unknown /v1 paths in
        // the API's error shape.
        .merge(web::router(games))
}

/// Counts each API request by its route's template (`/v1/matches/{id}`, never the id itself,
/// so the series stay few) with its status and time (`crease_http_requests_total`).
async fn count_request(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |path| path.as_str().to_string());
    let method = request.method().clone();
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    crate::telemetry::record_http(
        route,
        method.as_str(),
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}

/// The request's span: method and path only. The query is left out because the WebSocket
/// route carries the player's token there, and tokens are never logged.
fn request_span(request: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    tracing::info_span!("request", method = %request.method(), path = %request.uri().path())
}

/// The bearer token of a request, from `Authorization: Bearer <token>`. The scheme is
/// case-insensitive (RFC 9110 section 11.1), so `bearer` and `BEARER` work too.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim_start().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The registered game a request names, by its id (a stored row's `game`, a path segment):
/// one this build does not register is refused as unknown, never a panic.
pub fn game_of(state: &AppState, game: &str) -> Result<Arc<dyn GameKind>, ApiError> {
    Ok(state.lobby.games().require(game)?)
}

/// The player a request must come from.
pub async fn require_player(state: &AppState, headers: &HeaderMap) -> Result<Player, ApiError> {
    let token = bearer(headers).ok_or(ApiError::Unauthorized)?;
    state
        .accounts
        .authenticate(token)
        .await?
        .ok_or(ApiError::Unauthorized)
}

/// The authenticated player as an extractor. An authenticated handler takes it as its first
/// argument, so a request without a valid token is answered 401 before its id, its body or
/// its rate limit is looked at: the client learns it must log in, not what else is wrong.
pub struct Caller(pub Player);

impl axum::extract::FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, ApiError> {
        require_player(state, &parts.headers).await.map(Caller)
    }
}

/// The player behind an optional token; a token that is present but wrong is refused.
pub async fn optional_player(state: &AppState, token: Option<&str>) -> Result<Option<Player>, ApiError> {
    match token {
        None => Ok(None),
        Some(token) => state
            .accounts
            .authenticate(token)
            .await?
            .ok_or(ApiError::Unauthorized)
            .map(Some),
    }
}
