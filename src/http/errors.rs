//! Each domain's errors as the API's: the one place that decides which `code` and status a
//! lobby, matchmaking, account, game, input or store failure answers with. The domain
//! modules say what went wrong in their own words and know nothing of HTTP.

use crate::accounts::AccountError;
use crate::error::ApiError;
use crate::input::InputError;
use crate::matches::{GameError, LobbyError};
use crate::matchmaking::MatchmakingError;
use crate::moderation::ModerationError;
use crate::store::StoreError;

/// A client's bad options are its own (400); a stored match the game cannot rebuild is ours.
impl From<GameError> for ApiError {
    fn from(error: GameError) -> Self {
        match error {
            GameError::Options(message) => ApiError::BadOptions(message),
            GameError::Unknown(game) => ApiError::UnknownGame(game),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

/// An outage is the client's business (503, try again); any other store failure is ours (500).
impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        if error.is_unavailable() {
            tracing::warn!(%error, "request failed: database unavailable");
            ApiError::Unavailable
        } else {
            ApiError::Store(error)
        }
    }
}

/// Input that does not parse is a `bad_request` whose message is the input's own.
impl From<InputError> for ApiError {
    fn from(error: InputError) -> Self {
        ApiError::BadRequest(error.to_string())
    }
}

impl From<LobbyError> for ApiError {
    fn from(error: LobbyError) -> Self {
        match error {
            LobbyError::MatchNotFound => ApiError::NotFound("match"),
            // A full match answers as a started one: either way there is no seat to take.
            LobbyError::NotOpen | LobbyError::NoFreeSeat => ApiError::MatchNotOpen,
            LobbyError::NotLive => ApiError::MatchNotLive,
            LobbyError::AlreadySeated => ApiError::AlreadySeated,
            LobbyError::NotSeated => ApiError::NotSeated,
            LobbyError::Clock(message) | LobbyError::NoBotAtLevel(message) => ApiError::BadOptions(message),
            LobbyError::BotSeats(message) => ApiError::BadRequest(message),
            LobbyError::Game(error) => error.into(),
            LobbyError::NoNodeToRun | LobbyError::Moving | LobbyError::NotWritten(_) => ApiError::Unavailable,
            LobbyError::NoTutorial => ApiError::NotFound("tutorial"),
            LobbyError::BadTutorial(message) => ApiError::Internal(message),
            LobbyError::Store(error) => error.into(),
        }
    }
}

impl From<MatchmakingError> for ApiError {
    fn from(error: MatchmakingError) -> Self {
        match error {
            MatchmakingError::TicketNotFound => ApiError::NotFound("ticket"),
            MatchmakingError::NotYourTicket => ApiError::Forbidden,
            MatchmakingError::Game(error) => error.into(),
            MatchmakingError::OptionsKey(error) => ApiError::Internal(error.to_string()),
            MatchmakingError::Start(error) => error.into(),
            MatchmakingError::Store(error) => error.into(),
        }
    }
}

impl From<AccountError> for ApiError {
    fn from(error: AccountError) -> Self {
        match error {
            // The session's player is gone: the token opens nothing any more.
            AccountError::NoAccount => ApiError::Unauthorized,
            AccountError::InvalidCredentials => ApiError::InvalidCredentials,
            AccountError::AlreadyClaimed => ApiError::AlreadyClaimed,
            AccountError::UsernameTaken(username) => ApiError::UsernameTaken(username),
            AccountError::NotClaimed => ApiError::NotClaimed,
            AccountError::Password(message) => ApiError::Internal(message),
            AccountError::Busy => ApiError::Overloaded,
            AccountError::Banned => ApiError::Banned,
            AccountError::NameTaken(name) => ApiError::NameTaken(name),
            AccountError::Store(error) => error.into(),
        }
    }
}

impl From<ModerationError> for ApiError {
    fn from(error: ModerationError) -> Self {
        match error {
            ModerationError::PlayerNotFound => ApiError::NotFound("player"),
            ModerationError::NameTaken(name) => ApiError::NameTaken(name),
            ModerationError::Lobby(error) => error.into(),
            ModerationError::Store(error) => error.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    fn answer(error: impl Into<ApiError>) -> (&'static str, StatusCode) {
        let error = error.into();
        (error.code(), error.status())
    }

    /// The failures the server tests do not reach over HTTP: what a game cannot rebuild, a
    /// full match, a cluster with no node to run a match.
    #[test]
    fn failures_no_request_reaches_keep_their_answers() {
        let stored = serde_json::from_str::<u8>("x").unwrap_err();
        assert_eq!(
            answer(GameError::StoredOptions(stored)),
            ("internal", StatusCode::INTERNAL_SERVER_ERROR)
        );
        assert_eq!(
            answer(LobbyError::Game(GameError::StoredSeed)),
            ("internal", StatusCode::INTERNAL_SERVER_ERROR)
        );
        assert_eq!(
            answer(LobbyError::NoFreeSeat),
            ("match_not_open", StatusCode::CONFLICT)
        );
        assert_eq!(
            answer(MatchmakingError::Start(LobbyError::NoNodeToRun)),
            ("unavailable", StatusCode::SERVICE_UNAVAILABLE)
        );
        assert_eq!(
            answer(AccountError::Password("no stand-in password hash".into())),
            ("internal", StatusCode::INTERNAL_SERVER_ERROR)
        );
        assert_eq!(
            answer(AccountError::Busy),
            ("overloaded", StatusCode::SERVICE_UNAVAILABLE)
        );
    }
}

/// The domain modules must not learn HTTP: `ApiError` and axum appear only under `src/http/`,
/// in `src/error.rs` (the API's error type itself), and in the connection loop that serves
/// them (`src/listener.rs`). Comments may name them; code may not.
#[cfg(test)]
mod boundary {
    use std::path::{Path, PathBuf};

    const SERVES_HTTP: [&str; 3] = ["http", "error.rs", "listener.rs"];

    fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src/ reads") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                rust_files(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                found.push(path);
            }
        }
    }

    #[test]
    fn only_the_http_layer_uses_api_error_or_axum() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let mut offenders = Vec::new();
        for file in &files {
            let relative = file.strip_prefix(&src).expect("under src/");
            let top = relative.components().next().expect("a path").as_os_str();
            if SERVES_HTTP.iter().any(|allowed| top == *allowed) {
                continue;
            }
            let text = std::fs::read_to_string(file).expect("a source file reads");
            for (number, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                if code.contains("ApiError") || code.contains("axum::") || code.starts_with("use axum") {
                    offenders.push(format!("{}:{}: {}", relative.display(), number + 1, code));
                }
            }
        }
        assert!(
            files.len() > 50,
            "the walk found the source tree: {}",
            files.len()
        );
        assert!(
            offenders.is_empty(),
            "HTTP outside src/http/:\n{}",
            offenders.join("\n")
        );
    }
}
