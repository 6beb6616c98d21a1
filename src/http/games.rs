//! The game catalogue, `GET /v1/games`, and each game's browser module.
//!
//! Both come from the registry, so the lobby, the leaderboards and the match screen list
//! and draw whatever games the server runs: a game that ships its browser module in its
//! own folder (`GameExtras::CLIENT_MODULE`) is served (by [`super::web`]) at the same
//! `/js/games/<id>.js` the client's own game modules are, and the client needs no list of
//! games.

use super::AppState;
use crate::protocol::{GameCatalog, GameListing};
use crate::rules::BotLevel;
use axum::Json;
use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(catalog))
}

/// Every game this server runs: names, bot levels, rating pools, default options and
/// where the browser client loads each game's module from.
#[utoipa::path(operation_id = "game_catalog", get, path = "/v1/games", tag = "games", responses(
    (status = 200, body = ref("#/components/schemas/GameCatalog")),
))]
async fn catalog(State(state): State<AppState>) -> Result<Json<GameCatalog>, crate::error::ApiError> {
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
