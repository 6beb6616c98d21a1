//! Leaderboards and player profiles: public, no token needed.
//!
//! Paging uses an opaque `cursor` (today the offset of the next row) so clients never build
//! one themselves and the encoding can change without breaking them.

use super::{AppState, PathText, QueryParams};
use crate::error::ApiError;
use crate::protocol::{
    CareerFigures, Leaderboard, LeaderboardEntry, PlayerMatch, PlayerMatches, PlayerProfile, PlayerRating,
};
use crate::record::PlayerId;
use crate::rules::{Outcome, Seat};
use crate::store::PlayerMatchRow;
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(leaderboard))
        .routes(routes!(profile))
        .routes(routes!(matches))
}

const DEFAULT_LIMIT: i64 = 50;
const MAX_LIMIT: i64 = 200;
const RECENT_MATCHES: i64 = 10;

#[derive(Deserialize)]
pub struct PageQuery {
    pub format: Option<String>,
    pub limit: Option<i64>,
    pub cursor: Option<String>,
}

impl PageQuery {
    fn limit(&self) -> Result<i64, ApiError> {
        match self.limit {
            None => Ok(DEFAULT_LIMIT),
            Some(limit) if (1..=MAX_LIMIT).contains(&limit) => Ok(limit),
            Some(_) => Err(ApiError::BadRequest(format!("limit must be 1 to {MAX_LIMIT}"))),
        }
    }

    fn offset(&self) -> Result<i64, ApiError> {
        match &self.cursor {
            None => Ok(0),
            Some(cursor) => cursor
                .parse::<i64>()
                .ok()
                .filter(|offset| *offset >= 0)
                .ok_or_else(|| ApiError::BadRequest("cursor is not one this server issued".into())),
        }
    }
}

/// The next page's cursor, when this page was full (one row more was asked for to know).
fn next_cursor<T>(rows: &mut Vec<T>, limit: i64, offset: i64) -> Option<String> {
    if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        Some((offset + limit).to_string())
    } else {
        None
    }
}

/// One page of a game's Glicko-2 leaderboard for one format.
#[utoipa::path(operation_id = "leaderboard", get, path = "/v1/leaderboards/{game}", tag = "ratings",
    params(
        ("game" = String, Path, description = "ctg, wicketz or champions"),
        ("format" = Option<String>, Query, description = "rating pool, e.g. t10; default: the game's default options"),
        ("limit" = Option<i64>, Query, description = "1 to 200, default 50"),
        ("cursor" = Option<String>, Query, description = "`next_cursor` of the previous page"),
    ),
    responses(
        (status = 200, body = ref("#/components/schemas/Leaderboard")),
        (status = 400, body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn leaderboard(
    State(state): State<AppState>,
    PathText(game): PathText,
    QueryParams(query): QueryParams<PageQuery>,
) -> Result<Json<Leaderboard>, ApiError> {
    let kind = super::game_of(&state, &game)?;
    let format = match &query.format {
        Some(format) => format.clone(),
        None => kind.rating_pools().into_iter().next().unwrap_or_default(),
    };
    let (limit, offset) = (query.limit()?, query.offset()?);
    let mut rows = state.store.leaderboard(&game, &format, limit + 1, offset).await?;
    let next_cursor = next_cursor(&mut rows, limit, offset);
    let entries = rows
        .into_iter()
        .enumerate()
        .map(|(index, row)| LeaderboardEntry {
            rank: (offset + index as i64 + 1) as u64,
            player_id: row.player_id,
            name: row.name,
            rating: row.rating,
            deviation: row.deviation,
            matches: row.matches,
            wins: row.wins,
        })
        .collect();
    Ok(Json(Leaderboard {
        game,
        format,
        entries,
        next_cursor,
    }))
}

fn player_match(row: PlayerMatchRow) -> PlayerMatch {
    let result = row
        .result
        .and_then(|json| serde_json::from_value::<Outcome>(json.0).ok());
    let seat = Seat(row.seat as u8);
    PlayerMatch {
        placing: result
            .as_ref()
            .and_then(|outcome| outcome.placings.get(seat.index()).copied()),
        status: row.status,
        match_id: row.match_id,
        game: row.game,
        seat: seat.0,
        created_at: row.created_at,
        finished_at: row.finished_at,
        result,
        rating_before: row.rating_before,
        rating_after: row.rating_after,
        adjourned_at: row.adjourned_at,
    }
}

/// A player's profile: ratings per game and format, and the ten latest matches.
#[utoipa::path(operation_id = "player_profile", get, path = "/v1/players/{id}", tag = "players",
    params(("id" = String, Path, description = "player id")),
    responses(
        (status = 200, body = ref("#/components/schemas/PlayerProfile")),
        (status = 404, body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn profile(State(state): State<AppState>, id: PlayerId) -> Result<Json<PlayerProfile>, ApiError> {
    let store = &state.store;
    let player = store.player(&id).await?.ok_or(ApiError::NotFound("player"))?;
    let ratings = store
        .ratings_of(&id)
        .await?
        .into_iter()
        .map(|row| PlayerRating {
            game: row.game,
            format: row.format,
            rating: row.rating,
            deviation: row.deviation,
            matches: row.matches,
            wins: row.wins,
        })
        .collect();
    let recent_matches = store
        .matches_of(&id, RECENT_MATCHES, 0)
        .await?
        .into_iter()
        .map(player_match)
        .collect();
    let games = state.lobby.games();
    let career_views: Vec<_> = games
        .ids()
        .into_iter()
        .filter_map(|game| Some((game, games.get(game)?.career()?)))
        .collect();
    let careers = store
        .careers_of(&id, career_views)
        .await?
        .into_iter()
        .map(|(game, row)| CareerFigures {
            game: game.to_string(),
            matches: row.matches,
            runs: row.runs,
            wickets: row.wickets,
            balls_faced: row.balls_faced,
            fours: row.fours,
            sixes: row.sixes,
            dismissals: row.dismissals,
            runs_conceded: row.runs_conceded,
            balls_bowled: row.balls_bowled,
            strike_rate: row.strike_rate,
            economy: row.economy,
            wins: row.wins,
            points: row.points,
            average_points: row.average_points,
        })
        .collect();
    Ok(Json(PlayerProfile {
        player_id: player.player_id,
        name: player.name,
        created_at: player.created_at,
        ratings,
        recent_matches,
        careers,
    }))
}

/// A player's matches, newest first, with rating changes.
#[utoipa::path(operation_id = "player_matches", get, path = "/v1/players/{id}/matches", tag = "players",
    params(
        ("id" = String, Path, description = "player id"),
        ("limit" = Option<i64>, Query, description = "1 to 200, default 50"),
        ("cursor" = Option<String>, Query, description = "`next_cursor` of the previous page"),
    ),
    responses(
        (status = 200, body = ref("#/components/schemas/PlayerMatches")),
        (status = 400, body = ref("#/components/schemas/ErrorBody")),
        (status = 404, body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn matches(
    State(state): State<AppState>,
    id: PlayerId,
    QueryParams(query): QueryParams<PageQuery>,
) -> Result<Json<PlayerMatches>, ApiError> {
    let store = &state.store;
    store.player(&id).await?.ok_or(ApiError::NotFound("player"))?;
    let (limit, offset) = (query.limit()?, query.offset()?);
    let mut rows = store.matches_of(&id, limit + 1, offset).await?;
    let next_cursor = next_cursor(&mut rows, limit, offset);
    Ok(Json(PlayerMatches {
        player_id: id.into_string(),
        matches: rows.into_iter().map(player_match).collect(),
        next_cursor,
    }))
}
