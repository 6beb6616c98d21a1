//! `/v1/competitions`: leagues and knockouts among friends (the `competitions` floor does
//! the work; this maps its answers to HTTP).

use super::{AppState, Caller, CompetitionPath, JsonBody, QueryParams};
use crate::competitions::CompetitionError;
use crate::error::ApiError;
use crate::protocol::{AddBots, Competition, CompetitionFixture, CompetitionList, CreateCompetition};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(show))
        .routes(routes!(join))
        .routes(routes!(leave))
        .routes(routes!(bots))
        .routes(routes!(start))
        .routes(routes!(ready))
}

impl From<CompetitionError> for ApiError {
    fn from(error: CompetitionError) -> Self {
        let message = error.to_string();
        match error {
            CompetitionError::NotFound => ApiError::NotFound("competition"),
            CompetitionError::FixtureNotFound => ApiError::NotFound("fixture"),
            CompetitionError::NotOpen => ApiError::Conflict("competition_not_open", message),
            CompetitionError::AlreadyEntered => ApiError::Conflict("already_entered", message),
            CompetitionError::NotEntered => ApiError::Conflict("not_entered", message),
            CompetitionError::CreatorCannotLeave => ApiError::Conflict("creator_cannot_leave", message),
            CompetitionError::TooFewEntries(_) => ApiError::Conflict("too_few_entries", message),
            CompetitionError::Full(_) => ApiError::Conflict("competition_full", message),
            CompetitionError::NotPlayable(_) => ApiError::Conflict("fixture_not_playable", message),
            CompetitionError::NotCreator => ApiError::Refused("not_creator", message),
            CompetitionError::NotYourFixture => ApiError::Refused("not_your_fixture", message),
            CompetitionError::BadRequest(message) => ApiError::BadRequest(message),
            CompetitionError::Lobby(error) => error.into(),
            CompetitionError::Game(error) => error.into(),
            CompetitionError::Store(error) => error.into(),
        }
    }
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<CompetitionStatus>,
}

/// Any other word is a 400 whose message lists these (serde's unknown variant).
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum CompetitionStatus {
    Open,
    Running,
    Finished,
}

impl CompetitionStatus {
    fn as_str(self) -> &'static str {
        match self {
            CompetitionStatus::Open => "open",
            CompetitionStatus::Running => "running",
            CompetitionStatus::Finished => "finished",
        }
    }
}

/// Creates a league or a knockout; the creator is its first entry.
#[utoipa::path(operation_id = "create_competition", post, path = "/v1/competitions", tag = "competitions", security(("bearer" = [])),
    request_body = ref("#/components/schemas/CreateCompetition"),
    responses(
        (status = 201, body = ref("#/components/schemas/Competition")),
        (status = 400, description = "`bad_request`, `bad_options`, `unknown_game`", body = ref("#/components/schemas/ErrorBody")),
        (status = 401, body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn create(
    Caller(player): Caller,
    State(state): State<AppState>,
    JsonBody(body): JsonBody<CreateCompetition>,
) -> Result<(StatusCode, Json<Competition>), ApiError> {
    Ok((
        StatusCode::CREATED,
        Json(state.competitions.create(&player, body).await?),
    ))
}

/// Competitions, newest first (100 at most), optionally of one status.
#[utoipa::path(operation_id = "list_competitions", get, path = "/v1/competitions", tag = "competitions",
    params(("status" = Option<String>, Query, description = "`open`, `running` or `finished`")),
    responses(
        (status = 200, body = ref("#/components/schemas/CompetitionList")),
        (status = 400, description = "`bad_request`: `status` is not a competition status", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn list(
    State(state): State<AppState>,
    QueryParams(query): QueryParams<ListQuery>,
) -> Result<Json<CompetitionList>, ApiError> {
    let status = query.status.map(CompetitionStatus::as_str);
    Ok(Json(CompetitionList {
        competitions: state.competitions.list(status).await?,
    }))
}

/// A competition: entries, fixtures, the table (a league) and the champion once finished.
#[utoipa::path(operation_id = "show_competition", get, path = "/v1/competitions/{id}", tag = "competitions",
    params(("id" = String, Path, description = "competition id")),
    responses(
        (status = 200, body = ref("#/components/schemas/Competition")),
        (status = 404, body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn show(State(state): State<AppState>, path: CompetitionPath) -> Result<Json<Competition>, ApiError> {
    Ok(Json(state.competitions.get(&path.id).await?))
}

/// Enters the caller while the competition is open.
#[utoipa::path(operation_id = "join_competition", post, path = "/v1/competitions/{id}/join", tag = "competitions", security(("bearer" = [])),
    params(("id" = String, Path, description = "competition id")),
    responses(
        (status = 200, body = ref("#/components/schemas/Competition")),
        (status = 409, description = "`already_entered`, `competition_not_open`, `competition_full`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn join(
    Caller(player): Caller,
    State(state): State<AppState>,
    path: CompetitionPath,
) -> Result<Json<Competition>, ApiError> {
    Ok(Json(state.competitions.join(&player, &path.id).await?))
}

/// Takes the caller's entry out while the competition is open (not the creator's).
#[utoipa::path(operation_id = "leave_competition", post, path = "/v1/competitions/{id}/leave", tag = "competitions", security(("bearer" = [])),
    params(("id" = String, Path, description = "competition id")),
    responses(
        (status = 200, body = ref("#/components/schemas/Competition")),
        (status = 409, description = "`not_entered`, `creator_cannot_leave`, `competition_not_open`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn leave(
    Caller(player): Caller,
    State(state): State<AppState>,
    path: CompetitionPath,
) -> Result<Json<Competition>, ApiError> {
    Ok(Json(state.competitions.leave(&player, &path.id).await?))
}

/// The creator enters server bots.
#[utoipa::path(operation_id = "add_competition_bots", post, path = "/v1/competitions/{id}/bots", tag = "competitions", security(("bearer" = [])),
    params(("id" = String, Path, description = "competition id")),
    request_body = ref("#/components/schemas/AddBots"),
    responses(
        (status = 200, body = ref("#/components/schemas/Competition")),
        (status = 403, description = "`not_creator`", body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`competition_not_open`, `competition_full`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn bots(
    Caller(player): Caller,
    State(state): State<AppState>,
    path: CompetitionPath,
    JsonBody(body): JsonBody<AddBots>,
) -> Result<Json<Competition>, ApiError> {
    Ok(Json(state.competitions.add_bots(&player, &path.id, body).await?))
}

/// The creator starts it: entries seeded, every fixture made.
#[utoipa::path(operation_id = "start_competition", post, path = "/v1/competitions/{id}/start", tag = "competitions", security(("bearer" = [])),
    params(("id" = String, Path, description = "competition id")),
    responses(
        (status = 200, body = ref("#/components/schemas/Competition")),
        (status = 403, description = "`not_creator`", body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`too_few_entries`, `competition_not_open`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn start(
    Caller(player): Caller,
    State(state): State<AppState>,
    path: CompetitionPath,
) -> Result<Json<Competition>, ApiError> {
    Ok(Json(state.competitions.start(&player, &path.id).await?))
}

/// One of the fixture's players is ready; with both sides ready (a bot always is) its
/// match is made and started, and the fixture carries its `match_id`.
#[utoipa::path(operation_id = "fixture_ready", post, path = "/v1/competitions/{id}/fixtures/{fixture}/ready", tag = "competitions", security(("bearer" = [])),
    params(("id" = String, Path, description = "competition id"), ("fixture" = u32, Path, description = "fixture id")),
    responses(
        (status = 200, body = ref("#/components/schemas/CompetitionFixture")),
        (status = 403, description = "`not_your_fixture`", body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`fixture_not_playable`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn ready(
    Caller(player): Caller,
    State(state): State<AppState>,
    path: CompetitionPath,
) -> Result<Json<CompetitionFixture>, ApiError> {
    let fixture = path.fixture.ok_or(ApiError::NotFound("fixture"))?;
    Ok(Json(state.competitions.ready(&player, &path.id, fixture).await?))
}
