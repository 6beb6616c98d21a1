//! The game-independent side of a match actor: a cloneable handle on its mailbox, local or,
//! in a cluster, a proxy of another node's. Its methods are the [`MatchRequest`]s, typed.

pub use crate::protocol::{CommandError, Subscription, ViewerBatch};

use crate::protocol::{AdjournAsk, LogEntryBody, MatchMailbox, MatchReply, MatchRequest, Protocol};
use crate::rules::{Seat, Viewer};
use serde_json::Value;

/// A cloneable address of one running match.
#[derive(Clone)]
pub struct MatchHandle {
    mailbox: MatchMailbox,
    pub game: &'static str,
    /// The game's [`crate::rules::Game::MAX_COMMAND_BYTES`], checked by the gateway.
    pub max_command_bytes: usize,
}

impl MatchHandle {
    pub(crate) fn new(mailbox: MatchMailbox, game: &'static str, max_command_bytes: usize) -> Self {
        MatchHandle {
            mailbox,
            game,
            max_command_bytes,
        }
    }

    /// Submits a seat's command, decided after seeing seq `after`; resolves once its events
    /// are durable (or it was refused).
    pub async fn command(&self, seat: Seat, after: Option<i64>, command: Value) -> Result<i64, CommandError> {
        match self
            .mailbox
            .ask(MatchRequest::Command { seat, after, command })
            .await
        {
            Some(MatchReply::Command(result)) => result,
            _ => Err(self.mailbox.gone()),
        }
    }

    /// Opens a viewer's feed in `protocol` (full views, or JSON Patches of them).
    pub async fn subscribe(
        &self,
        viewer: Viewer,
        resume_from: Option<i64>,
        protocol: Protocol,
    ) -> Option<Subscription> {
        let request = MatchRequest::Subscribe {
            viewer,
            resume_from,
            protocol,
        };
        match self.mailbox.ask(request).await {
            Some(MatchReply::Subscribed(subscription)) => Some(subscription),
            _ => None,
        }
    }

    /// Tells the actor a seat's connection opened or closed (disconnect grace).
    pub async fn connection(&self, seat: Seat, connected: bool) {
        self.mailbox
            .tell(MatchRequest::Connection { seat, connected })
            .await
    }

    /// The viewer's current view and the events it may see so far.
    pub async fn log(&self, viewer: Viewer) -> Option<(Value, Vec<LogEntryBody>)> {
        match self.mailbox.ask(MatchRequest::Log { viewer }).await {
            Some(MatchReply::Log(view, entries)) => Some((view, entries)),
            _ => None,
        }
    }

    pub async fn forfeit(&self, seat: Seat, reason: &str) -> Result<(), CommandError> {
        let reason = reason.to_string();
        match self.mailbox.ask(MatchRequest::Forfeit { seat, reason }).await {
            Some(MatchReply::Forfeit(result)) => result,
            _ => Err(self.mailbox.gone()),
        }
    }

    /// Ends the match at an operator's request (`by`: the admin token's label), through the
    /// actor like a forfeit: an `abandon` entry ends the log, unrated.
    pub async fn abandon(&self, reason: &str, by: &str) -> Result<(), CommandError> {
        let request = MatchRequest::Abandon {
            reason: reason.to_string(),
            by: by.to_string(),
        };
        match self.mailbox.ask(request).await {
            Some(MatchReply::Abandon(result)) => result,
            _ => Err(self.mailbox.gone()),
        }
    }

    /// A seat's step in adjourning the match by agreement: the adjournment entry's seq once
    /// durable, or why it was refused.
    pub async fn adjourn(
        &self,
        seat: Seat,
        action: AdjournAsk,
        resume_at: Option<chrono::DateTime<chrono::Utc>>,
    ) -> Result<i64, CommandError> {
        let request = MatchRequest::Adjourn {
            seat,
            action,
            resume_at,
        };
        match self.mailbox.ask(request).await {
            Some(MatchReply::Adjourn(result)) => result,
            _ => Err(self.mailbox.gone()),
        }
    }

    /// Resolves once the actor has stopped reading its mailbox.
    pub async fn closed(&self) {
        self.mailbox.closed().await
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.mailbox.is_closed()
    }

    /// Asks the actor to stop after the message it is handling; resolves when it has.
    pub async fn shutdown(&self) {
        self.mailbox.shutdown().await
    }
}

/// What the cluster serves a match through: the mailbox, whoever's it is.
impl From<MatchHandle> for MatchMailbox {
    fn from(handle: MatchHandle) -> MatchMailbox {
        handle.mailbox
    }
}
