//! The HTTP boundary's errors: each variant is one `code` of `{"error": {"code", "message"}}`
//! with its status. Internal details are logged, never sent. Which domain failure becomes
//! which variant is decided in [`crate::http::errors`], the only place that maps them.

use crate::protocol::{ErrorBody, ErrorDetail};
use crate::store::StoreError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("a valid bearer token is required")]
    Unauthorized,
    /// One message for an unknown login name and a wrong password, so that a caller cannot
    /// learn which names exist.
    #[error("unknown login name or wrong password")]
    InvalidCredentials,
    #[error("this account is claimed already")]
    AlreadyClaimed,
    #[error("the login name {0:?} is taken")]
    UsernameTaken(String),
    #[error(
        "a guest's token is the only key to its account: claim the account with a password before logging out"
    )]
    NotClaimed,
    #[error("{0} not found")]
    NotFound(&'static str),
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    #[error("invalid options: {0}")]
    BadOptions(String),
    #[error("invalid request: {0}")]
    BadRequest(String),
    #[error("the match is not open for joining")]
    MatchNotOpen,
    #[error("the match is not live")]
    MatchNotLive,
    #[error("you already have a seat in this match")]
    AlreadySeated,
    #[error("you have no seat in this match")]
    NotSeated,
    #[error("this ticket is not yours")]
    Forbidden,
    #[error("this route does not take that method")]
    MethodNotAllowed,
    #[error("too many requests: retry in {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    #[error(
        "you already hold {limit} unfinished matches or waiting tickets: finish, leave or cancel one first"
    )]
    TooManyMatches { limit: u32 },
    #[error("the request body is over the limit of {} KiB", crate::input::MAX_BODY_BYTES / 1024)]
    PayloadTooLarge,
    #[error("the database is unavailable; try again shortly")]
    Unavailable,
    /// The match (or this address) has as many spectator sockets open as it may.
    #[error(
        "this match has as many spectators as it can take (or this address has as many spectator sockets open); try again later"
    )]
    SpectatorsFull,
    /// Work the server bounds (password hashing) is at its limit: retry in a moment.
    #[error("the server is busy; retry in a moment")]
    Overloaded,
    /// The admin API is off: no `--admin-token` was configured.
    #[error(
        "the admin API is disabled: start the server with --admin-token (or CREASE_ADMIN_TOKEN) to enable it"
    )]
    AdminDisabled,
    /// An operator banned the account.
    #[error("this account is banned")]
    Banned,
    /// Another player holds the display name, compared case-insensitively.
    #[error("the display name {0:?} is taken (names are compared case-insensitively)")]
    NameTaken(String),
    /// A request the resource's state refuses (409), with its own code (`already_entered`,
    /// `competition_not_open`, ...).
    #[error("{1}")]
    Conflict(&'static str, String),
    /// A request the caller may not make (403), with its own code (`not_creator`, ...).
    #[error("{1}")]
    Refused(&'static str, String),
    #[error("storage failure")]
    Store(StoreError),
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Unauthorized | ApiError::InvalidCredentials => StatusCode::UNAUTHORIZED,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::UnknownGame(_) | ApiError::BadOptions(_) | ApiError::BadRequest(_) => {
                StatusCode::BAD_REQUEST
            }
            ApiError::MatchNotOpen
            | ApiError::MatchNotLive
            | ApiError::AlreadySeated
            | ApiError::NotSeated
            | ApiError::AlreadyClaimed
            | ApiError::UsernameTaken(_)
            | ApiError::NameTaken(_)
            | ApiError::NotClaimed => StatusCode::CONFLICT,
            ApiError::Forbidden | ApiError::AdminDisabled | ApiError::Banned => StatusCode::FORBIDDEN,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::TooManyMatches { .. } | ApiError::Conflict(..) => StatusCode::CONFLICT,
            ApiError::Refused(..) => StatusCode::FORBIDDEN,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unavailable | ApiError::Overloaded | ApiError::SpectatorsFull => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Store(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Unauthorized => "unauthorized",
            ApiError::InvalidCredentials => "invalid_credentials",
            ApiError::AlreadyClaimed => "already_claimed",
            ApiError::UsernameTaken(_) => "username_taken",
            ApiError::NotClaimed => "not_claimed",
            ApiError::NotFound(_) => "not_found",
            ApiError::UnknownGame(_) => "unknown_game",
            ApiError::BadOptions(_) => "bad_options",
            ApiError::BadRequest(_) => "bad_request",
            ApiError::MatchNotOpen => "match_not_open",
            ApiError::MatchNotLive => "match_not_live",
            ApiError::AlreadySeated => "already_seated",
            ApiError::NotSeated => "not_seated",
            ApiError::Forbidden => "forbidden",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::TooManyMatches { .. } => "too_many_matches",
            ApiError::PayloadTooLarge => "payload_too_large",
            ApiError::Unavailable => "unavailable",
            ApiError::Overloaded => "overloaded",
            ApiError::SpectatorsFull => "spectators_full",
            ApiError::AdminDisabled => "admin_disabled",
            ApiError::Banned => "banned",
            ApiError::NameTaken(_) => "name_taken",
            ApiError::Conflict(code, _) | ApiError::Refused(code, _) => code,
            ApiError::Store(_) | ApiError::Internal(_) => "internal",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Store(error) = &self {
            tracing::error!(%error, "request failed in the store");
        }
        if let ApiError::Internal(error) = &self {
            tracing::error!(%error, "request failed");
        }
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code().to_string(),
                message: self.to_string(),
            },
        };
        let mut response = (self.status(), axum::Json(body)).into_response();
        if let ApiError::RateLimited { retry_after_secs } = self {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, retry_after_secs.into());
        }
        let retry_after_secs = match self {
            ApiError::Overloaded => Some(1),
            ApiError::SpectatorsFull => Some(10),
            _ => None,
        };
        if let Some(secs) = retry_after_secs {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        response
    }
}
