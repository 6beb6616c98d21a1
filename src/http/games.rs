//! The game catalogue, `GET /v1/games`, and each game's browser module.
//!
//! Both come from the registry, so the lobby, the leaderboards and the match screen list
//! and draw whatever games the server runs: a game that ships its browser module in its
//! own folder (`GameExtras::CLIENT_MODULE`) is served (by [`super::web`]) at the same
//! `/js/games/<id>.js` the client's own game modules are, and the client needs no list of
//! games.

use super::limits::IpAdmitted;
use super::{AppState, Caller};
use crate::error::ApiError;
use crate::protocol::{GameCatalog, GameListing};
use crate::protocol::{GameRules, MatchInfo};
use crate::rules::BotLevel;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(catalog))
        .routes(routes!(rules))
        .routes(routes!(tutorial))
}

/// Every game this server runs: names, bot levels, rating pools, default options and
/// where the browser client loads each game's module from.
#[utoipa::path(operation_id = "game_catalog", get, path = "/v1/games", tag = "games", responses(
    (status = 200, body = ref("#/components/schemas/GameCatalog")),
))]
async fn catalog(State(state): State<AppState>) -> Result<Json<GameCatalog>, ApiError> {
    let registry = state.lobby.games();
    let mut games = Vec::new();
    for id in registry.ids() {
        let Some(game) = registry.get(id) else { continue };
        let listing = game.listing();
        let (default_options, _) = game.check_options(None)?;
        games.push(GameListing {
            id: id.to_string(),
            name: listing.name.to_string(),
            players: listing.players.to_string(),
            blurb: listing.blurb.to_string(),
            bot_levels: BotLevel::ALL
                .into_iter()
                .filter(|level| game.has_bot(*level))
                .collect(),
            rating_pools: game.rating_pools(),
            default_options,
            client_module: format!("/js/games/{id}.js"),
        });
    }
    Ok(Json(GameCatalog { games }))
}

/// The data files a game's engine plays by (`data/<game>/*.json`), parsed, by name, and
/// `engine`: the rule values it holds in code (a format's overs, a card's roll). The
/// browser's rules reference draws its tables (distances, cards, outcomes) from these, so
/// the reference shows what the engine enforces.
#[utoipa::path(operation_id = "game_rules", get, path = "/v1/games/{game}/rules", tag = "games",
    params(("game" = String, Path, description = "a game id from `GET /v1/games`")),
    responses(
        (status = 200, body = ref("#/components/schemas/GameRules")),
        (status = 400, description = "`unknown_game`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn rules(State(state): State<AppState>, Path(game): Path<String>) -> Result<Json<GameRules>, ApiError> {
    let kind = super::game_of(&state, &game)?;
    let mut data = serde_json::Map::new();
    for (name, text) in kind.rules_data() {
        let value = serde_json::from_str(text)
            .map_err(|error| ApiError::Internal(format!("{game} {name}: {error}")))?;
        data.insert((*name).to_string(), value);
    }
    if let Some(engine) = kind.engine_rules() {
        data.insert("engine".to_string(), engine);
    }
    Ok(Json(GameRules { game, data }))
}

/// Starts the game's tutorial for the caller: a short match against the bot with the
/// tutorial's fixed, public seed (never rated): the same dice stream for everyone, so the
/// same choices meet the same rolls (the bot's own choices stay private and vary).
#[utoipa::path(operation_id = "start_tutorial", post, path = "/v1/games/{game}/tutorial", tag = "games", security(("bearer" = [])),
    params(("game" = String, Path, description = "a game id from `GET /v1/games`")),
    responses(
        (status = 201, body = ref("#/components/schemas/MatchInfo")),
        (status = 400, description = "`unknown_game`", body = ref("#/components/schemas/ErrorBody")),
        (status = 401, body = ref("#/components/schemas/ErrorBody")),
        (status = 404, description = "`not_found`: the game has no tutorial", body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`too_many_matches`: the player holds the maximum of unfinished matches", body = ref("#/components/schemas/ErrorBody")),
        (status = 429, description = "`rate_limited`: too many creations from this address or player", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn tutorial(
    Caller(player): Caller,
    _: IpAdmitted,
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> Result<(StatusCode, Json<MatchInfo>), ApiError> {
    state.limits.admit_creation(&state.store, &player).await?;
    Ok((
        StatusCode::CREATED,
        Json(state.lobby.create_tutorial(&player, &game).await?),
    ))
}
