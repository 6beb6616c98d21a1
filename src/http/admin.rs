//! The admin API under `/v1/admin`: ban, unban and rename players, end a live match as
//! abandoned, search players by name, read the audit log. See [`crate::moderation`].
//!
//! Every route takes [`Admin`] first, so the token is checked before the id, the query or
//! the body is looked at: without an `--admin-token` configured every request is `403
//! admin_disabled`, with one a missing or wrong token is `401 unauthorized`.

use super::{AppState, JsonBody, QueryParams, bearer};
use crate::error::ApiError;
use crate::input::{PlayerName, Reason};
use crate::moderation::AdminCheck;
use crate::protocol::{
    AdminPlayer, AdminPlayers, AdminReason, AuditEntry, AuditLog, MatchInfo, PlayerBanned, RenamePlayer,
};
use crate::record::{MatchId, PlayerId};
use crate::store::{AuditRow, ModeratedRow};
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(players))
        .routes(routes!(ban))
        .routes(routes!(unban))
        .routes(routes!(rename))
        .routes(routes!(end_match))
        .routes(routes!(audit))
}

/// The label of the admin token a request carries (`Authorization: Bearer <admin token>`).
pub struct Admin(pub String);

impl axum::extract::FromRequestParts<AppState> for Admin {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, ApiError> {
        match state.admin.check(bearer(&parts.headers)) {
            AdminCheck::Disabled => Err(ApiError::AdminDisabled),
            AdminCheck::Refused => Err(ApiError::Unauthorized),
            AdminCheck::Admin(label) => Ok(Admin(label)),
        }
    }
}

const DEFAULT_LIMIT: i64 = 50;
const MAX_LIMIT: i64 = 200;

#[derive(Deserialize)]
struct PlayersQuery {
    name: Option<String>,
    limit: Option<i64>,
    cursor: Option<String>,
}

#[derive(Deserialize)]
struct AuditQuery {
    limit: Option<i64>,
    cursor: Option<String>,
}

fn limit(limit: Option<i64>) -> Result<i64, ApiError> {
    match limit {
        None => Ok(DEFAULT_LIMIT),
        Some(limit) if (1..=MAX_LIMIT).contains(&limit) => Ok(limit),
        Some(_) => Err(ApiError::BadRequest(format!("limit must be 1 to {MAX_LIMIT}"))),
    }
}

/// A cursor this API issued: a non-negative number (an offset, or an audit id).
fn cursor(cursor: Option<&str>) -> Result<Option<i64>, ApiError> {
    cursor
        .map(|text| {
            text.parse::<i64>()
                .ok()
                .filter(|value| *value >= 0)
                .ok_or_else(|| ApiError::BadRequest("cursor is not one this server issued".into()))
        })
        .transpose()
}

fn admin_player(row: ModeratedRow) -> AdminPlayer {
    AdminPlayer {
        player_id: row.player_id.into_string(),
        name: row.name,
        username: row.username,
        created_at: row.created_at,
        banned_at: row.banned_at,
        ban_reason: row.ban_reason,
    }
}

fn audit_entry(row: AuditRow) -> AuditEntry {
    AuditEntry {
        audit_id: row.audit_id,
        at: row.at,
        actor: row.actor,
        action: row.action,
        target: row.target,
        details: row.details.0,
    }
}

/// Players whose display name contains `name` (case-insensitively; all without it), by name.
#[utoipa::path(operation_id = "admin_players", get, path = "/v1/admin/players", tag = "admin", security(("admin" = [])),
    params(
        ("name" = Option<String>, Query, description = "text the display name contains, compared case-insensitively"),
        ("limit" = Option<i64>, Query, description = "1 to 200, default 50"),
        ("cursor" = Option<String>, Query, description = "`next_cursor` of the previous page"),
    ),
    responses(
        (status = 200, body = ref("#/components/schemas/AdminPlayers")),
        (status = 400, description = "`bad_request`: `limit` or `cursor` is not acceptable", body = ref("#/components/schemas/ErrorBody")),
        (status = 403, description = "`admin_disabled`: the server has no admin token configured", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn players(
    _admin: Admin,
    State(state): State<AppState>,
    QueryParams(query): QueryParams<PlayersQuery>,
) -> Result<Json<AdminPlayers>, ApiError> {
    let limit = limit(query.limit)?;
    let offset = cursor(query.cursor.as_deref())?.unwrap_or(0);
    let text = query.name.unwrap_or_default();
    let mut rows = state.moderation.players(&text, limit + 1, offset).await?;
    let next_cursor = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        Some((offset + limit).to_string())
    } else {
        None
    };
    Ok(Json(AdminPlayers {
        players: rows.into_iter().map(admin_player).collect(),
        next_cursor,
    }))
}

/// Bans a player: its tokens and password open nothing until it is unbanned, its sockets
/// close (4401), it leaves every open match and forfeits every live one, and its waiting
/// tickets are cancelled.
#[utoipa::path(operation_id = "admin_ban_player", post, path = "/v1/admin/players/{id}/ban", tag = "admin", security(("admin" = [])),
    params(("id" = String, Path, description = "player id")),
    request_body = ref("#/components/schemas/AdminReason"),
    responses(
        (status = 200, body = ref("#/components/schemas/PlayerBanned")),
        (status = 400, description = "`bad_request`: the id, or the reason, is not acceptable", body = ref("#/components/schemas/ErrorBody")),
        (status = 403, description = "`admin_disabled`: the server has no admin token configured", body = ref("#/components/schemas/ErrorBody")),
        (status = 404, description = "`not_found`: no such player", body = ref("#/components/schemas/ErrorBody")),
        (status = 503, description = "`unavailable`: the database, or a match's node, did not answer; the ban may be partly applied: repeat it", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn ban(
    Admin(by): Admin,
    State(state): State<AppState>,
    id: PlayerId,
    JsonBody(body): JsonBody<AdminReason>,
) -> Result<Json<PlayerBanned>, ApiError> {
    let reason = Reason::parse(&body.reason)?;
    let report = state.moderation.ban(&by, &id, &reason).await?;
    Ok(Json(PlayerBanned {
        player: admin_player(report.player),
        sessions_closed: report.sessions_closed as u64,
        matches_left: report
            .matches_left
            .into_iter()
            .map(MatchId::into_string)
            .collect(),
    }))
}

/// Lifts a player's ban: its sessions (those not expired) and its password work again.
#[utoipa::path(operation_id = "admin_unban_player", post, path = "/v1/admin/players/{id}/unban", tag = "admin", security(("admin" = [])),
    params(("id" = String, Path, description = "player id")),
    responses(
        (status = 200, body = ref("#/components/schemas/AdminPlayer")),
        (status = 403, description = "`admin_disabled`: the server has no admin token configured", body = ref("#/components/schemas/ErrorBody")),
        (status = 404, description = "`not_found`: no such player", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn unban(
    Admin(by): Admin,
    State(state): State<AppState>,
    id: PlayerId,
) -> Result<Json<AdminPlayer>, ApiError> {
    Ok(Json(admin_player(state.moderation.unban(&by, &id).await?)))
}

/// Gives a player a new display name, which no other player may hold (case-insensitively).
#[utoipa::path(operation_id = "admin_rename_player", post, path = "/v1/admin/players/{id}/rename", tag = "admin", security(("admin" = [])),
    params(("id" = String, Path, description = "player id")),
    request_body = ref("#/components/schemas/RenamePlayer"),
    responses(
        (status = 200, body = ref("#/components/schemas/AdminPlayer")),
        (status = 400, description = "`bad_request`: the id, or the name, is not acceptable", body = ref("#/components/schemas/ErrorBody")),
        (status = 403, description = "`admin_disabled`: the server has no admin token configured", body = ref("#/components/schemas/ErrorBody")),
        (status = 404, description = "`not_found`: no such player", body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`name_taken`: another player holds the name (compared case-insensitively)", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn rename(
    Admin(by): Admin,
    State(state): State<AppState>,
    id: PlayerId,
    JsonBody(body): JsonBody<RenamePlayer>,
) -> Result<Json<AdminPlayer>, ApiError> {
    let name = PlayerName::parse(&body.name)?;
    Ok(Json(admin_player(state.moderation.rename(&by, &id, name).await?)))
}

/// Ends a live match as abandoned: its actor logs an `abandon` entry (the reason and the
/// admin's label), nobody wins and no rating changes; the seed is revealed and `verify`
/// checks the log as for any finished match.
#[utoipa::path(operation_id = "admin_end_match", post, path = "/v1/admin/matches/{id}/end", tag = "admin", security(("admin" = [])),
    params(("id" = String, Path, description = "match id")),
    request_body = ref("#/components/schemas/AdminReason"),
    responses(
        (status = 200, body = ref("#/components/schemas/MatchInfo")),
        (status = 400, description = "`bad_request`: the id, or the reason, is not acceptable", body = ref("#/components/schemas/ErrorBody")),
        (status = 403, description = "`admin_disabled`: the server has no admin token configured", body = ref("#/components/schemas/ErrorBody")),
        (status = 404, description = "`not_found`: no such match", body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`match_not_live`: the match is not being played (open, finished or cancelled)", body = ref("#/components/schemas/ErrorBody")),
        (status = 503, description = "`unavailable`: the match is moving between nodes, or its log could not be written; nothing was recorded: try again", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn end_match(
    Admin(by): Admin,
    State(state): State<AppState>,
    id: MatchId,
    JsonBody(body): JsonBody<AdminReason>,
) -> Result<Json<MatchInfo>, ApiError> {
    let reason = Reason::parse(&body.reason)?;
    Ok(Json(state.moderation.end_match(&by, &id, &reason).await?))
}

/// The audit log of admin actions, newest first: who, what, to what, when.
#[utoipa::path(operation_id = "admin_audit", get, path = "/v1/admin/audit", tag = "admin", security(("admin" = [])),
    params(
        ("limit" = Option<i64>, Query, description = "1 to 200, default 50"),
        ("cursor" = Option<String>, Query, description = "`next_cursor` of the previous page (older entries)"),
    ),
    responses(
        (status = 200, body = ref("#/components/schemas/AuditLog")),
        (status = 400, description = "`bad_request`: `limit` or `cursor` is not acceptable", body = ref("#/components/schemas/ErrorBody")),
        (status = 403, description = "`admin_disabled`: the server has no admin token configured", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn audit(
    _admin: Admin,
    State(state): State<AppState>,
    QueryParams(query): QueryParams<AuditQuery>,
) -> Result<Json<AuditLog>, ApiError> {
    let limit = limit(query.limit)?;
    let before = cursor(query.cursor.as_deref())?;
    let mut rows = state.moderation.audit(limit + 1, before).await?;
    let next_cursor = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        rows.last().map(|row| row.audit_id.to_string())
    } else {
        None
    };
    Ok(Json(AuditLog {
        entries: rows.into_iter().map(audit_entry).collect(),
        next_cursor,
    }))
}
