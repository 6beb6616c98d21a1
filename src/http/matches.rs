//! The lobby's match routes and the match WebSocket.

use super::limits::{ClientAddress, IpAdmitted};
use super::{AppState, Caller, JsonBody, QueryParams, bearer};
use crate::accounts::Player;
use crate::error::ApiError;
use crate::gateway::{self, Inbound, Outbound};
use crate::matches::SocketPlan;
use crate::protocol::{CreateMatch, MAX_FRAME_BYTES, MatchInfo, MatchList, Protocol};
use crate::record::MatchId;
use crate::record::MatchStatus;
use crate::rules::{Seat, Viewer};
use axum::Json;
use axum::extract::State;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::time::Duration;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(show))
        .routes(routes!(join))
        .routes(routes!(leave))
        .routes(routes!(websocket))
}

/// Creates a match in the lobby (or against a bot, which starts it at once).
#[utoipa::path(operation_id = "create_match", post, path = "/v1/matches", tag = "matches", security(("bearer" = [])),
    request_body = ref("#/components/schemas/CreateMatch"),
    responses(
        (status = 201, body = ref("#/components/schemas/MatchInfo")),
        (status = 400, body = ref("#/components/schemas/ErrorBody")),
        (status = 401, body = ref("#/components/schemas/ErrorBody")),
        (status = 409, description = "`too_many_matches`: the player holds the maximum of unfinished matches", body = ref("#/components/schemas/ErrorBody")),
        (status = 429, description = "`rate_limited`: too many creations from this address or player; see `Retry-After`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn create(
    Caller(player): Caller,
    _: IpAdmitted,
    State(state): State<AppState>,
    JsonBody(body): JsonBody<CreateMatch>,
) -> Result<(StatusCode, Json<MatchInfo>), ApiError> {
    state.limits.admit_creation(&state.store, &player).await?;
    Ok((
        StatusCode::CREATED,
        Json(state.lobby.create_match(&player, body).await?),
    ))
}

#[derive(Deserialize)]
struct ListQuery {
    /// Any other word is a 400 whose message lists the statuses (serde's unknown variant).
    status: Option<MatchStatus>,
}

/// Lists matches, optionally by status.
#[utoipa::path(operation_id = "list_matches", get, path = "/v1/matches", tag = "matches",
    params(("status" = Option<String>, Query, description = "`open`, `live`, `finished` or `cancelled` (a match status); without it, open, live and finished matches; at most 100 of each, oldest first")),
    responses(
        (status = 200, body = ref("#/components/schemas/MatchList")),
        (status = 400, description = "`bad_request`: `status` is not a match status", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn list(
    State(state): State<AppState>,
    QueryParams(query): QueryParams<ListQuery>,
) -> Result<Json<MatchList>, ApiError> {
    Ok(Json(MatchList {
        matches: state.lobby.list(query.status).await?,
    }))
}

/// One match; the seed is revealed once it is finished.
#[utoipa::path(operation_id = "show_match", get, path = "/v1/matches/{id}", tag = "matches",
    params(("id" = String, Path, description = "match id")),
    responses(
        (status = 200, body = ref("#/components/schemas/MatchInfo")),
        (status = 404, body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn show(State(state): State<AppState>, id: MatchId) -> Result<Json<MatchInfo>, ApiError> {
    Ok(Json(state.lobby.match_info(&id).await?))
}

/// Takes a free seat; the match starts when every seat is taken.
#[utoipa::path(operation_id = "join_match", post, path = "/v1/matches/{id}/join", tag = "matches", security(("bearer" = [])),
    params(("id" = String, Path, description = "match id")),
    responses(
        (status = 200, body = ref("#/components/schemas/MatchInfo")),
        (status = 409, description = "`match_not_open`, `already_seated` or `too_many_matches`", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn join(
    Caller(player): Caller,
    State(state): State<AppState>,
    id: MatchId,
) -> Result<Json<MatchInfo>, ApiError> {
    state.limits.check_open_matches(&state.store, &player).await?;
    Ok(Json(state.lobby.join(&player, &id).await?))
}

/// Leaves an open match (freeing the seat) or forfeits a live one.
#[utoipa::path(operation_id = "leave_match", post, path = "/v1/matches/{id}/leave", tag = "matches", security(("bearer" = [])),
    params(("id" = String, Path, description = "match id")),
    responses(
        (status = 200, body = ref("#/components/schemas/MatchInfo")),
        (status = 409, body = ref("#/components/schemas/ErrorBody")),
        (status = 503, description = "`unavailable`: the forfeit of a live match could not be written, or the match is moving between nodes; try again", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn leave(
    Caller(player): Caller,
    State(state): State<AppState>,
    id: MatchId,
) -> Result<Json<MatchInfo>, ApiError> {
    Ok(Json(state.lobby.leave(&player, &id).await?))
}

/// Initial read and write buffer of each WebSocket (see `docs/performance.md`).
const SOCKET_BUFFER_BYTES: usize = 8 * 1024;

#[derive(Deserialize)]
struct SocketQuery {
    /// Browsers cannot set headers on a WebSocket, so the token may come in the URL.
    token: Option<String>,
    resume_from: Option<i64>,
    /// 1 (the default: events and full views) or 2 (steps with merge patches): see
    /// `protocol::Protocol`.
    protocol: Option<u32>,
}

// `GET /v1/matches/{id}/ws`: a seat's player with its token, anyone else as a spectator.
/// The WebSocket of a match: `ClientMessage` in, `ServerMessage` out (see `proto/`). A
/// seated player may connect while the match is still open and gets its start's events.
#[utoipa::path(operation_id = "match_websocket", get, path = "/v1/matches/{id}/ws", tag = "play",
    params(
        ("id" = String, Path, description = "match id"),
        ("token" = Option<String>, Query, description = "player token; none = spectator"),
        ("resume_from" = Option<i64>, Query, description = "last event seq the client has: the snapshot is the match as of it, then the events after it, then an update to now"),
    ),
    responses(
        (status = 101, description = "switching to the WebSocket protocol"),
        (status = 429, description = "`rate_limited`: too many spectator sockets opened from this address, or on this server; see `Retry-After`", body = ref("#/components/schemas/ErrorBody")),
        (status = 503, description = "`spectators_full`: the match (or this address) has as many spectator sockets open as it may; `unavailable`: in a cluster, the match is moving between nodes", body = ref("#/components/schemas/ErrorBody")),
    ))]
async fn websocket(
    ClientAddress(client): ClientAddress,
    State(state): State<AppState>,
    headers: HeaderMap,
    id: MatchId,
    QueryParams(query): QueryParams<SocketQuery>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let protocol = Protocol::from_query(query.protocol).map_err(ApiError::BadRequest)?;
    let token = query.token.as_deref().or_else(|| bearer(&headers));
    // A socket opened with a token closes when that session ends (see `accounts::sessions`).
    let (player, session) = match token {
        None => (None, None),
        Some(token) => {
            let (player, session) = state
                .accounts
                .socket_session(token)
                .await?
                .ok_or(ApiError::Unauthorized)?;
            (Some(player), Some(session))
        }
    };
    // Anyone may watch, without an account, so spectator sockets are what a storm would be
    // made of: held to their limits before any other work (`limits::Spectators`); a socket
    // without a token is a spectator's before the database is even asked.
    let spectator_slot = match token {
        None => Some(state.limits.admit_spectator(client, &id)?),
        Some(_) => None,
    };
    let row = state.lobby.match_row(&id).await?; // 404 before anything else
    let seat = match &player {
        Some(player) => state.lobby.seat_of(player, &id).await?,
        None => None,
    };
    let viewer = seat.map_or(Viewer::Spectator, Viewer::Seat);
    let spectator_slot = match (viewer, spectator_slot) {
        (Viewer::Spectator, None) => Some(state.limits.admit_spectator(client, &id)?),
        (_, slot) => slot,
    };
    let upgrade = upgrade
        .map_err(|rejection| ApiError::BadRequest(rejection.body_text()))?
        .max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        // axum's 128 KiB read + 128 KiB write buffers per socket are most of an idle
        // connection's memory; our frames are a few KiB and the buffers grow when needed.
        .read_buffer_size(SOCKET_BUFFER_BYTES)
        .write_buffer_size(SOCKET_BUFFER_BYTES)
        // Bytes a client that does not read can make the server hold: past this the write
        // fails and the session ends (`--ws-max-write-buffer`).
        .max_write_buffer_size(state.sockets.max_write_buffer.max(2 * SOCKET_BUFFER_BYTES));
    let limits = state.sockets;
    let plan = state
        .socket_plans
        .plan(&row, viewer, query.resume_from, protocol)
        .await?;
    Ok(match plan {
        SocketPlan::Live { handle, subscription } => {
            let stops = gateway::Stops::new(state.shutdown.clone(), session);
            upgrade.on_upgrade(move |socket| async move {
                let _slot = spectator_slot;
                let (inbound, outbound) = adapt(socket);
                gateway::run_session(inbound, outbound, handle, viewer, subscription, stops, limits).await;
            })
        }
        SocketPlan::BeforeStart {
            snapshot,
            seat,
            max_command_bytes,
        } => {
            // Planned only for a seated viewer, so a player is known.
            let player = player.ok_or(ApiError::Unauthorized)?;
            let stops = gateway::Stops::new(state.shutdown.clone(), session);
            upgrade.on_upgrade(move |socket| async move {
                let (inbound, outbound) = adapt(socket);
                let started = until_started(state, id, player, seat, protocol);
                gateway::run_before_start(
                    inbound,
                    outbound,
                    snapshot,
                    viewer,
                    max_command_bytes,
                    started,
                    stops,
                    limits,
                )
                .await;
            })
        }
        SocketPlan::Finished { snapshot, seed } => upgrade.on_upgrade(move |socket| async move {
            let _slot = spectator_slot;
            let (inbound, outbound) = adapt(socket);
            gateway::send_final(inbound, outbound, snapshot, seed, limits).await;
        }),
    })
}

/// How often a socket waiting for its match to start re-reads the match: in a cluster the
/// start may happen on another node, and a cancelled match or a given-up seat sends no
/// notification. A local start is seen at once through the lobby's notification.
const START_POLL: Duration = Duration::from_millis(500);

/// Waits until `player`'s match is live and subscribes its seat from seq 0, so the start's
/// events come as the subscription's backlog, wherever the match runs.
async fn until_started(
    state: AppState,
    id: MatchId,
    player: Player,
    seat: Seat,
    protocol: Protocol,
) -> gateway::Started {
    use gateway::{Started, close};
    loop {
        let started = state.live.started();
        tokio::pin!(started);
        started.as_mut().enable();
        // A database error here is likely brief: the next round reads again.
        if let Ok(row) = state.lobby.match_row(&id).await {
            match row.status() {
                MatchStatus::Open => {}
                MatchStatus::Live => {
                    if !matches!(state.lobby.seat_of(&player, &id).await, Ok(Some(now)) if now == seat) {
                        return Started::Close(close::NORMAL, "no longer seated in this match");
                    }
                    if let Some(handle) = state.lobby.handle_for(&row)
                        && let Some(subscription) =
                            handle.subscribe(Viewer::Seat(seat), Some(0), protocol).await
                    {
                        return Started::Live(handle, Box::new(subscription));
                    }
                    // Started, but not running anywhere this moment (being placed): again soon.
                }
                MatchStatus::Finished => {
                    return Started::Close(close::GOING_AWAY, "the match is over: reconnect for its result");
                }
                MatchStatus::Cancelled => return Started::Close(close::NORMAL, "match cancelled"),
            }
        }
        let _ = tokio::time::timeout(START_POLL, started).await;
    }
}

/// axum's socket as the gateway's library-neutral frames.
fn adapt(
    socket: WebSocket,
) -> (
    impl futures_util::Stream<Item = Inbound> + Unpin,
    impl futures_util::Sink<Outbound> + Unpin,
) {
    let (sink, stream) = socket.split();
    let inbound = stream.map(|frame| match frame {
        Ok(Message::Text(text)) => Inbound::Text(text.to_string()),
        Ok(Message::Binary(_)) => Inbound::Binary,
        Ok(Message::Ping(_)) | Ok(Message::Pong(_)) => Inbound::Control,
        Ok(Message::Close(_)) => Inbound::Closed,
        Err(error) => inbound_error(error),
    });
    let outbound = Box::pin(sink.with(|frame: Outbound| async move {
        Ok::<_, axum::Error>(match frame {
            // Shares the frame's buffer; the check cannot fail, as frames are serde_json output.
            Outbound::Text(frame) => Message::Text(
                axum::extract::ws::Utf8Bytes::try_from(frame.into_bytes()).map_err(axum::Error::new)?,
            ),
            Outbound::Ping => Message::Ping(Default::default()),
            Outbound::Close { code, reason } => Message::Close(Some(CloseFrame {
                code,
                reason: reason.into(),
            })),
        })
    }));
    (Box::pin(inbound), outbound)
}

/// Which transport failure a read error is. axum wraps tungstenite's error; its type (the
/// version axum uses) tells an oversize frame from bad UTF-8 without reading messages.
fn inbound_error(error: axum::Error) -> Inbound {
    use tungstenite::Error;
    match error.into_inner().downcast_ref::<Error>() {
        Some(Error::Capacity(_)) => Inbound::TooBig,
        Some(Error::Utf8(_)) => Inbound::NotUtf8,
        _ => Inbound::Closed,
    }
}
