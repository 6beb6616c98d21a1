//! What can be asked of a running match, written once for both ways it is asked.
//!
//! A socket on the node that runs the match puts a [`MatchRequest`] in the actor's mailbox,
//! with a oneshot channel for the [`MatchReply`] ([`Mail`]). A socket on another node of a
//! cluster serialises the same request, the cluster's route carries it to the owner, which
//! puts it in the actor's mailbox and serialises the reply back. So a new kind of request is
//! one variant here and one arm in the actor, and the route carries it unchanged.
//!
//! The types live on this floor, below the cluster and the matches, so that the cluster can
//! carry a match's requests without knowing what a match is.

use super::{AdjournAsk, ErrorCode, LogEntryBody, Protocol, Subscription};
use crate::rules::{Seat, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::{mpsc, oneshot};

/// Messages queued per actor before senders wait: a full mailbox makes callers wait
/// (back-pressure) rather than grow memory.
pub const MAILBOX: usize = 64;

/// A request to a match's actor, as its mailbox holds it and as the cluster's route carries it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum MatchRequest {
    /// A seat's command, as the client sent it: the game reads it only once the seat may act.
    /// `after`: the last seq the client had seen when it decided (see
    /// [`ClientMessage::Command`](super::ClientMessage::Command)); a command for a decision
    /// asked after it is stale.
    Command {
        seat: Seat,
        #[serde(default)]
        after: Option<i64>,
        command: Value,
    },
    /// Opens a viewer's feed in `protocol` (full views, or JSON Patches of them).
    Subscribe {
        viewer: Viewer,
        resume_from: Option<i64>,
        protocol: Protocol,
    },
    /// A seat's connection opened or closed (disconnect grace). Nobody waits for an answer.
    Connection {
        seat: Seat,
        connected: bool,
    },
    /// The viewer's current view and the events it may see so far.
    Log {
        viewer: Viewer,
    },
    Forfeit {
        seat: Seat,
        reason: String,
    },
    /// An operator ends the match: nobody wins, nothing is rated. `by`: the admin's label.
    Abandon {
        reason: String,
        by: String,
    },
    /// A seat's step in adjourning the match by agreement.
    Adjourn {
        seat: Seat,
        action: AdjournAsk,
        #[serde(default)]
        resume_at: Option<chrono::DateTime<chrono::Utc>>,
    },
}

/// The answer to a [`MatchRequest`], one variant per request that has one.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchReply {
    /// The command's last seq once its events are durable, or why it was refused.
    Command(Result<i64, CommandError>),
    /// Holds the viewer's live feed, so it cannot cross the route as it is: the cluster
    /// frames the snapshot and backlog itself and relays the feed.
    #[serde(skip)]
    Subscribed(Subscription),
    Log(Value, Vec<LogEntryBody>),
    Forfeit(Result<(), CommandError>),
    Abandon(Result<(), CommandError>),
    /// The adjournment entry's seq once durable, or why it was refused.
    Adjourn(Result<i64, CommandError>),
}

impl MatchRequest {
    /// The metric label of the request.
    pub fn kind(&self) -> &'static str {
        match self {
            MatchRequest::Command { .. } => "command",
            MatchRequest::Subscribe { .. } => "subscribe",
            MatchRequest::Connection { .. } => "connection",
            MatchRequest::Log { .. } => "log",
            MatchRequest::Forfeit { .. } => "forfeit",
            MatchRequest::Abandon { .. } => "abandon",
            MatchRequest::Adjourn { .. } => "adjourn",
        }
    }

    /// Whether anyone waits for the answer (a connection notice is fire and forget).
    pub fn expects_reply(&self) -> bool {
        !matches!(self, MatchRequest::Connection { .. })
    }

    /// What a request that reached no actor is answered, given why: a command or forfeit
    /// gets the error, the others no answer at all.
    pub fn unanswered(&self) -> fn(CommandError) -> Option<MatchReply> {
        match self {
            MatchRequest::Command { .. } => |error| Some(MatchReply::Command(Err(error))),
            MatchRequest::Forfeit { .. } => |error| Some(MatchReply::Forfeit(Err(error))),
            MatchRequest::Abandon { .. } => |error| Some(MatchReply::Abandon(Err(error))),
            MatchRequest::Adjourn { .. } => |error| Some(MatchReply::Adjourn(Err(error))),
            MatchRequest::Subscribe { .. } | MatchRequest::Connection { .. } | MatchRequest::Log { .. } => {
                |_| None
            }
        }
    }
}

/// One message of a match actor's mailbox.
pub enum Mail {
    /// A request, and where its answer goes (`None` when nobody waits for it).
    Request {
        request: MatchRequest,
        reply: Option<oneshot::Sender<MatchReply>>,
    },
    /// Stop after the messages queued before this one. Never routed: a node stops only its
    /// own actors.
    Shutdown,
}

/// The sending side of a match actor's mailbox, local or (in a cluster) a proxy's: what a
/// match handle wraps, and what the cluster serves a match through.
#[derive(Clone)]
pub struct MatchMailbox {
    sender: mpsc::Sender<Mail>,
    /// Set by an actor that stops while its match is live (it moved to another node, or this
    /// one is draining): a request it can no longer take is answered `Moved`, not "not live".
    moved: Arc<AtomicBool>,
}

impl MatchMailbox {
    /// A new bounded mailbox and its reading end, for an actor (or a proxy) to read.
    pub fn channel() -> (MatchMailbox, mpsc::Receiver<Mail>) {
        let (sender, receiver) = mpsc::channel(MAILBOX);
        let mailbox = MatchMailbox {
            sender,
            moved: Arc::new(AtomicBool::new(false)),
        };
        (mailbox, receiver)
    }

    /// The flag the actor raises when it stops running a live match.
    pub fn moved_flag(&self) -> Arc<AtomicBool> {
        self.moved.clone()
    }

    /// Why a request found no actor: the match moved, or it is over.
    pub fn gone(&self) -> CommandError {
        if self.moved.load(Ordering::SeqCst) {
            CommandError::Moved
        } else {
            CommandError::MatchNotLive
        }
    }

    /// Asks the actor and waits for its answer; a request that reaches no actor gets what
    /// [`MatchRequest::unanswered`] says.
    pub async fn ask(&self, request: MatchRequest) -> Option<MatchReply> {
        let unanswered = request.unanswered();
        let (reply, answer) = oneshot::channel();
        let mail = Mail::Request {
            request,
            reply: Some(reply),
        };
        if self.sender.send(mail).await.is_err() {
            return unanswered(self.gone());
        }
        match answer.await {
            Ok(reply) => Some(reply),
            Err(_) => unanswered(self.gone()),
        }
    }

    /// Queues a request nobody waits for the answer to.
    pub async fn tell(&self, request: MatchRequest) {
        let _ = self.sender.send(Mail::Request { request, reply: None }).await;
    }

    /// Resolves once the actor has stopped reading its mailbox.
    pub async fn closed(&self) {
        self.sender.closed().await
    }

    pub fn is_closed(&self) -> bool {
        self.sender.is_closed()
    }

    /// Asks the actor to stop after the message it is handling; resolves when it has.
    pub async fn shutdown(&self) {
        let _ = self.sender.send(Mail::Shutdown).await;
        self.sender.closed().await;
    }
}

/// Why the actor refused a command. Nothing was written to the log. Serialisable because,
/// in a cluster, the answer crosses NATS from the match's owner to the socket's node.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum CommandError {
    #[error("the game is not waiting for this seat: {0}")]
    NotYourTurn(String),
    #[error("illegal move: {message}")]
    IllegalMove { reason: String, message: String },
    #[error("this command cannot be read by the game: {0}")]
    BadCommand(String),
    #[error("the match is not live")]
    MatchNotLive,
    #[error("the server could not store the command: {0}")]
    Internal(String),
    /// Nothing was attempted: an earlier write is still unconfirmed, or the write could not
    /// even be queued.
    #[error("the database is unavailable; the command was not applied: {0}")]
    Unavailable(String),
    /// The write was not confirmed within the server's bound (`--db-timeout-ms`), or a routed
    /// request got no answer in time: the command may have been applied.
    #[error("the command's outcome is unknown (it may have been applied); resume and look: {0}")]
    InDoubt(String),
    /// The command answers a decision that was closed after the client's `after`.
    #[error("the decision this command was made for is closed: {0}")]
    Stale(String),
    /// The match is now run by another node (drain or failover); reconnect and resume.
    #[error("the match moved to another server node; reconnect with resume_from")]
    Moved,
    /// The match is adjourned: no move until it resumes.
    #[error("the match is adjourned; it resumes when every player is back, or at the agreed time")]
    Adjourned,
    /// An `adjourn` message its state refuses; `reason` is the stable word for why.
    #[error("{message}")]
    AdjournRefused { reason: String, message: String },
}

impl CommandError {
    pub fn code(&self) -> ErrorCode {
        match self {
            CommandError::NotYourTurn(_) => ErrorCode::NotYourTurn,
            CommandError::IllegalMove { .. } => ErrorCode::IllegalMove,
            CommandError::BadCommand(_) => ErrorCode::BadMessage,
            CommandError::MatchNotLive => ErrorCode::MatchNotLive,
            CommandError::Internal(_) => ErrorCode::Internal,
            CommandError::Unavailable(_) => ErrorCode::Unavailable,
            CommandError::InDoubt(_) => ErrorCode::InDoubt,
            CommandError::Stale(_) => ErrorCode::StaleCommand,
            CommandError::Moved => ErrorCode::MatchMoved,
            CommandError::Adjourned => ErrorCode::MatchAdjourned,
            CommandError::AdjournRefused { .. } => ErrorCode::AdjournRefused,
        }
    }

    /// A failure of the server's storage rather than of the command: a server-made move that
    /// fails like this is tried again later, never taken as "no legal move".
    pub fn is_storage(&self) -> bool {
        matches!(
            self,
            CommandError::Internal(_) | CommandError::Unavailable(_) | CommandError::InDoubt(_)
        )
    }

    pub fn reason(&self) -> Option<String> {
        match self {
            CommandError::IllegalMove { reason, .. } | CommandError::AdjournRefused { reason, .. } => {
                Some(reason.clone())
            }
            _ => None,
        }
    }
}
