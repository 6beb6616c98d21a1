//! What happened in a match: its log (as the caller may see it), scorecard and verification.

use super::{AppState, QueryParams, bearer, optional_player};
use crate::error::ApiError;
use crate::fairness::VerifyReport;
use crate::protocol::{LogEntryBody, MatchLog, Scorecard, VerifyBody};
use crate::record::MatchId;
use crate::record::MatchStatus;
use crate::rules::{Outcome, Viewer};
use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(log))
        .routes(routes!(scorecard))
        .routes(routes!(verify))
}

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

async fn viewer_of(
    state: &AppState,
    headers: &HeaderMap,
    token: Option<&str>,
    id: &MatchId,
) -> Result<Viewer, ApiError> {
    let token = token.or_else(|| bearer(headers));
    let seat = match optional_player(state, token).await? {
        Some(player) => state.lobby.seat_of(&player, id).await?,
        None => None,
    };
    Ok(seat.map_or(Viewer::Spectator, Viewer::Seat))
}

// Live: the events the caller may see. Finished: every entry, commands included.
/// The events the caller may see; every entry once the match is over.
#[utoipa::path(operation_id = "match_log", get, path = "/v1/matches/{id}/log", tag = "history",
    params(("id" = String, Path, description = "match id")),
    responses((status = 200, body = ref("#/components/schemas/MatchLog"))))]
async fn log(
    State(state): State<AppState>,
    headers: HeaderMap,
    id: MatchId,
    QueryParams(query): QueryParams<TokenQuery>,
) -> Result<Json<MatchLog>, ApiError> {
    let row = state.lobby.match_row(&id).await?;
    let viewer = viewer_of(&state, &headers, query.token.as_deref(), &id).await?;
    let status = row.status();
    let entries = match status {
        MatchStatus::Finished => state
            .store
            .log(&id)
            .await?
            .into_iter()
            .map(LogEntryBody::from)
            .collect(),
        MatchStatus::Live => {
            let mut entries = match state.lobby.handle_for(&row) {
                Some(handle) => handle
                    .log(viewer)
                    .await
                    .map(|(_, entries)| entries)
                    .unwrap_or_default(),
                None => Vec::new(),
            };
            // Offers to adjourn and their answers are public: everyone sees them, in place.
            let adjournments = state.store.adjournment_log(&id).await?;
            entries.extend(adjournments.into_iter().map(LogEntryBody::from));
            entries.sort_by_key(|entry| entry.seq);
            entries
        }
        MatchStatus::Open | MatchStatus::Cancelled => Vec::new(),
    };
    Ok(Json(MatchLog {
        match_id: id.into_string(),
        status,
        entries,
    }))
}

/// The cricket scorecard (CTG, Wicketz) or points table (Champions).
#[utoipa::path(operation_id = "match_scorecard", get, path = "/v1/matches/{id}/scorecard", tag = "history",
    params(("id" = String, Path, description = "match id")),
    responses((status = 200, body = ref("#/components/schemas/Scorecard"))))]
async fn scorecard(State(state): State<AppState>, id: MatchId) -> Result<Json<Scorecard>, ApiError> {
    let row = state.lobby.match_row(&id).await?;
    let status = row.status();
    let game = super::game_of(&state, &row.game)?;
    let log = state.store.log(&id).await?;
    let view = match (status, state.lobby.handle_for(&row)) {
        (MatchStatus::Live, Some(handle)) => handle.log(Viewer::Spectator).await.map(|(view, _)| view),
        (MatchStatus::Finished, _) => Some(game.replayed_view(&row, &log, Viewer::Spectator)?),
        _ => None,
    };
    let result = row
        .result
        .as_ref()
        .and_then(|json| serde_json::from_value::<Outcome>(json.0.clone()).ok());
    let card = game.scorecard(&row.options.0, &log)?;
    Ok(Json(Scorecard {
        match_id: id.into_string(),
        status,
        view: view.unwrap_or(serde_json::Value::Null),
        result,
        card,
    }))
}

/// Re-derives every roll from the revealed seed and the log.
#[utoipa::path(operation_id = "match_verify", get, path = "/v1/matches/{id}/verify", tag = "history",
    params(("id" = String, Path, description = "match id")),
    responses((status = 200, body = ref("#/components/schemas/VerifyBody"))))]
async fn verify(State(state): State<AppState>, id: MatchId) -> Result<Json<VerifyBody>, ApiError> {
    let row = state.lobby.match_row(&id).await?;
    let report = if row.status() == MatchStatus::Finished {
        let game = super::game_of(&state, &row.game)?;
        let log = state.store.log(&id).await?;
        game.verify(&row, &log)
    } else {
        VerifyReport::NotFinished
    };
    Ok(Json(VerifyBody {
        match_id: id.into_string(),
        report,
    }))
}
