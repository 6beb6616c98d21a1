//! The game-independent side of a match actor: what can be asked of it, over a bounded
//! channel. A full channel makes callers wait (back-pressure) rather than grow memory.

use crate::protocol::{ErrorCode, Frame, LogEntryBody, Protocol, Snapshot};
use crate::rules::{Seat, Viewer};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::{broadcast, mpsc, oneshot};

/// Messages queued per actor before senders wait.
pub const MAILBOX: usize = 64;

/// Why the actor refused a command. Nothing was written to the log. Serialisable because,
/// in a cluster, the answer crosses NATS from the match's owner to the socket's node.
#[derive(Clone, Debug, PartialEq, thiserror::Error, serde::Serialize, serde::Deserialize)]
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
    /// The database did not confirm the write within the server's bound (`--db-timeout-ms`).
    #[error("the database is unavailable; the command was not applied: {0}")]
    Unavailable(String),
    /// The match is now run by another node (drain or failover); reconnect and resume.
    #[error("the match moved to another server node; reconnect with resume_from")]
    Moved,
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
            CommandError::Moved => ErrorCode::MatchMoved,
        }
    }

    /// A failure of the server's storage rather than of the command: a server-made move that
    /// fails like this is tried again later, never taken as "no legal move".
    pub fn is_storage(&self) -> bool {
        matches!(self, CommandError::Internal(_) | CommandError::Unavailable(_))
    }

    pub fn reason(&self) -> Option<String> {
        match self {
            CommandError::IllegalMove { reason, .. } => Some(reason.clone()),
            _ => None,
        }
    }
}

/// What one viewer receives after one accepted command (or the start, a timeout, a bot move):
/// its events, its new view and, at the end, the result, already serialised by the actor, so
/// the sockets never call into the game and never serialise again.
#[derive(Debug, Default, PartialEq)]
pub struct ViewerBatch {
    pub frames: Vec<Frame>,
    /// The seq of the last log entry once this batch is applied.
    pub last_seq: i64,
    /// The last batch from this actor: the match goes on elsewhere (another node took it
    /// over, or this one is draining). Sockets close with 1001 so clients resume.
    pub moved: bool,
}

impl ViewerBatch {
    /// The marker an actor that stops running a live match sends its viewers.
    pub fn moved(last_seq: i64) -> ViewerBatch {
        ViewerBatch {
            frames: Vec::new(),
            last_seq,
            moved: true,
        }
    }
}

/// A connection's start: a snapshot, the event frames after `resume_from` it missed, and its
/// viewer's live feed from exactly that point on (taken inside the actor, so nothing falls
/// in between).
pub struct Subscription {
    pub snapshot: Snapshot,
    pub backlog: Vec<Frame>,
    pub feed: broadcast::Receiver<Arc<ViewerBatch>>,
}

pub(crate) enum ActorMessage {
    Command {
        seat: Seat,
        command: Value,
        reply: oneshot::Sender<Result<i64, CommandError>>,
    },
    Subscribe {
        viewer: Viewer,
        resume_from: Option<i64>,
        protocol: Protocol,
        reply: oneshot::Sender<Subscription>,
    },
    Connection {
        seat: Seat,
        connected: bool,
    },
    Log {
        viewer: Viewer,
        reply: oneshot::Sender<(Value, Vec<LogEntryBody>)>,
    },
    Forfeit {
        seat: Seat,
        reason: String,
        reply: oneshot::Sender<Result<(), CommandError>>,
    },
    Shutdown,
}

/// A cloneable address of one running match.
#[derive(Clone)]
pub struct MatchHandle {
    pub(crate) sender: mpsc::Sender<ActorMessage>,
    pub game: &'static str,
    /// The game's [`crate::rules::Game::MAX_COMMAND_BYTES`], checked by the gateway.
    pub max_command_bytes: usize,
    /// Set by an actor that stops while its match is live (it moved to another node, or this
    /// one is draining): a message it can no longer take is answered `Moved`, not "not live".
    moved: Arc<AtomicBool>,
}

impl MatchHandle {
    pub(crate) fn new(
        sender: mpsc::Sender<ActorMessage>,
        game: &'static str,
        max_command_bytes: usize,
    ) -> Self {
        MatchHandle {
            sender,
            game,
            max_command_bytes,
            moved: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The flag the actor raises when it stops running a live match.
    pub(crate) fn moved_flag(&self) -> Arc<AtomicBool> {
        self.moved.clone()
    }

    /// Why a message found no actor: the match moved, or it is over.
    fn gone(&self) -> CommandError {
        if self.moved.load(Ordering::SeqCst) {
            CommandError::Moved
        } else {
            CommandError::MatchNotLive
        }
    }

    /// Submits a seat's command; resolves once its events are durable (or it was refused).
    pub async fn command(&self, seat: Seat, command: Value) -> Result<i64, CommandError> {
        let (reply, answer) = oneshot::channel();
        self.send(ActorMessage::Command { seat, command, reply }).await?;
        answer.await.map_err(|_| self.gone())?
    }

    /// Opens a viewer's feed in `protocol` (full views, or JSON Patches of them).
    pub async fn subscribe(
        &self,
        viewer: Viewer,
        resume_from: Option<i64>,
        protocol: Protocol,
    ) -> Option<Subscription> {
        let (reply, answer) = oneshot::channel();
        let message = ActorMessage::Subscribe {
            viewer,
            resume_from,
            protocol,
            reply,
        };
        self.send(message).await.ok()?;
        answer.await.ok()
    }

    /// Tells the actor a seat's connection opened or closed (disconnect grace).
    pub async fn connection(&self, seat: Seat, connected: bool) {
        let _ = self.send(ActorMessage::Connection { seat, connected }).await;
    }

    /// The viewer's current view and the events it may see so far.
    pub async fn log(&self, viewer: Viewer) -> Option<(Value, Vec<LogEntryBody>)> {
        let (reply, answer) = oneshot::channel();
        self.send(ActorMessage::Log { viewer, reply }).await.ok()?;
        answer.await.ok()
    }

    pub async fn forfeit(&self, seat: Seat, reason: &str) -> Result<(), CommandError> {
        let (reply, answer) = oneshot::channel();
        let reason = reason.to_string();
        self.send(ActorMessage::Forfeit { seat, reason, reply }).await?;
        answer.await.map_err(|_| self.gone())?
    }

    /// Resolves once the actor has stopped reading its mailbox.
    pub async fn closed(&self) {
        self.sender.closed().await
    }

    /// Asks the actor to stop after the message it is handling; resolves when it has.
    pub async fn shutdown(&self) {
        let _ = self.sender.send(ActorMessage::Shutdown).await;
        self.sender.closed().await;
    }

    async fn send(&self, message: ActorMessage) -> Result<(), CommandError> {
        self.sender.send(message).await.map_err(|_| self.gone())
    }
}
