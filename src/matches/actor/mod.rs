//! The actor of one live match: the only code that writes its log. This file is its
//! mailbox loop: one [`MatchRequest`] at a time, between the clocks that wake it.
//!
//! Every change follows the same path: decide on a copy of the match ([`MatchCore::decide_observed`],
//! which folds each event into the copy once, as the rules emit it, and redacts it there),
//! append the command and its events in one transaction, and only then adopt the copy,
//! broadcast the redacted events and ack. A refused command or a failed write leaves the
//! match exactly as it was. Clocks are `tokio::time` deadlines, so tests can pause time.
//!
//! * [`fanout`]: each viewer's feeds, and the events and views sent on them.
//! * [`subscribe`]: a socket's start (its snapshot, the backlog a resume missed) and the log.
//! * [`writes`]: appending through the journal, fencing, and writes left in doubt.
//! * [`clocks`]: turn clocks, disconnect grace, and the retries of the server's own moves.
//! * [`bots`]: server-side bots.
//! * [`adjourn`]: adjourning by agreement (offers, the stopped clocks, the resumption), over
//!   [`adjournment`], the pure state it folds from the log.

mod adjourn;
mod adjournment;
mod asks;
mod bots;
mod clocks;
mod fanout;
mod subscribe;
mod writes;

use super::recent::Recent;
use super::{ActorContext, MatchHandle};
use crate::fairness::{self, Mismatch};
use crate::protocol::{
    CommandError, Mail, MatchMailbox, MatchReply, MatchRequest, PROTOCOL_VERSION, Snapshot, ViewerBatch,
};
use crate::record::{CommandSource, LogEntry, MatchStatus};
use crate::rules::{Dice, Game, MatchCore, Outcome, Seat, Seed, Viewer};
use fanout::ViewerFeeds;
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use writes::{InDoubt, Move};

/// Why an actor could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("the stored seed is not 32 hex bytes")]
    BadSeed,
    #[error("the game refuses the stored options: {0}")]
    Setup(String),
    #[error(transparent)]
    Log(#[from] Mismatch),
}

/// One running match, owned by its task: nothing else holds its state.
struct MatchActor<G: Game> {
    context: ActorContext,
    core: MatchCore<G>,
    next_seq: i64,
    needs_start: bool,
    /// With the seed, what re-deriving the log needs (resumes and the log endpoint).
    options: G::Options,
    /// The game's rating pool of `options`, stored with the result.
    rating_pool: String,
    seed: Seed,
    /// One pair of feeds per viewer (index as in [`fanout::RedactedEvent::per_viewer`]).
    feeds: Vec<ViewerFeeds>,
    deadlines: HashMap<Seat, Instant>,
    connections: Vec<usize>,
    disconnected_since: Vec<Option<Instant>>,
    finished: Option<Outcome>,
    /// False once the log ends in an abandonment: the result it finishes with is unrated.
    rated: bool,
    bot_dice: Dice,
    /// The last write, if its outcome is unknown; settled before any other write.
    in_doubt: Option<InDoubt<G>>,
    /// When a server-made move that failed on storage is tried again, and how many tries
    /// have failed in a row (the backoff's exponent).
    retry_at: Option<Instant>,
    retries: u32,
    /// Another node holds the match now (a write was fenced): stop without writing again.
    moved: bool,
    /// Raised when this actor stops while the match is live, for its handles to report.
    moved_flag: Arc<std::sync::atomic::AtomicBool>,
    /// For a match rebuilt from its log: when its last entry was written.
    resumed_since: Option<chrono::DateTime<chrono::Utc>>,
    /// The last events, which resumes read instead of the log.
    recent: Recent<G>,
    /// Per seat, the seq after which its current decision was asked: a command decided
    /// before it (its `after` is lower) answers a closed decision and is refused as stale.
    asked_at: Vec<i64>,
    /// Where the match stands with adjourning, folded from its log.
    adjournment: adjournment::Adjournment,
    /// Per seat, whether its player has opened a socket since the match was adjourned.
    back_since_adjourned: Vec<bool>,
}

/// Rebuilds a match from its log (an empty log means it has not started yet) and runs it.
pub(crate) fn spawn<G: Game>(
    context: ActorContext,
    options: G::Options,
    rating_pool: String,
    log: Vec<LogEntry>,
) -> Result<(MatchHandle, tokio::task::JoinHandle<()>), SpawnError> {
    let seed = Seed::from_hex(&context.seed_hex).ok_or(SpawnError::BadSeed)?;
    let seat_total = context.seats.len();
    let initial = MatchCore::<G>::new(&options, &seed).map_err(|e| SpawnError::Setup(e.to_string()))?;
    let (core, next_seq, ending, asked_at, recent) = if log.is_empty() {
        let recent = Recent::new(initial.state.clone(), 0);
        (initial, 1, None, vec![0; seat_total], recent)
    } else {
        let (replayed, asked_at) = asks::replay::<G>(&options, &seed, &log, seat_total)?;
        let recent = Recent::from_log(initial.state, &log).map_err(|e| SpawnError::Setup(e.to_string()))?;
        (
            replayed.core,
            replayed.last_seq + 1,
            replayed.ending,
            asked_at,
            recent,
        )
    };
    let finished = match &ending {
        Some(ending) => Some(ending.outcome(context.seats.len())),
        None => G::outcome(&core.state),
    };
    let rated = ending.as_ref().is_none_or(fairness::Ending::is_rated);
    let adjournment = adjournment::Adjournment::from_log(&log, seat_total).map_err(SpawnError::Setup)?;
    let now = Instant::now();
    let mut actor = MatchActor::<G> {
        needs_start: log.is_empty(),
        rated,
        core,
        next_seq,
        options,
        rating_pool,
        seed,
        feeds: (0..=seat_total).map(|_| ViewerFeeds::new()).collect(),
        deadlines: HashMap::new(),
        connections: vec![0; seat_total],
        disconnected_since: vec![Some(now); seat_total],
        finished,
        bot_dice: Dice::new(&fairness::new_seed()),
        context,
        in_doubt: None,
        retry_at: None,
        retries: 0,
        moved: false,
        moved_flag: Default::default(),
        resumed_since: log.last().map(|entry| entry.at),
        recent,
        asked_at,
        adjournment,
        back_since_adjourned: vec![false; seat_total],
    };
    let (mailbox, receiver) = MatchMailbox::channel();
    actor.moved_flag = mailbox.moved_flag();
    let handle = MatchHandle::new(mailbox, G::ID, G::MAX_COMMAND_BYTES);
    let join = tokio::spawn(async move {
        let _live = crate::telemetry::GaugeGuard::new(crate::telemetry::LIVE_MATCHES);
        actor.run(receiver).await;
    });
    Ok((handle, join))
}

pub(super) fn viewers(seat_count: usize) -> Vec<Viewer> {
    (0..seat_count)
        .map(|index| Viewer::Seat(Seat(index as u8)))
        .chain(std::iter::once(Viewer::Spectator))
        .collect()
}

pub(super) fn viewer_index(viewer: Viewer, seat_count: usize) -> usize {
    match viewer {
        Viewer::Seat(seat) if seat.index() < seat_count => seat.index(),
        _ => seat_count,
    }
}

/// Counts an answered command. The `type` label is the command's own tag only when the game
/// could read the command, so a client cannot invent label values.
fn record_command<G: Game>(
    kind: Option<String>,
    result: &Result<i64, CommandError>,
    elapsed: std::time::Duration,
) {
    let (label, outcome) = match result {
        Ok(_) => (kind, "ok"),
        Err(error @ CommandError::IllegalMove { .. }) => (kind, error.code().as_str()),
        Err(error) => (None, error.code().as_str()),
    };
    let label = label.unwrap_or_else(|| "unparsed".to_string());
    crate::telemetry::record_command(G::ID, label, outcome, elapsed);
}

/// Answers a request, if anyone waits for the answer (a caller that gave up is fine).
fn send_reply(reply: Option<oneshot::Sender<MatchReply>>, answer: MatchReply) {
    if let Some(reply) = reply {
        let _ = reply.send(answer);
    }
}

pub(super) fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A log row's payload, serialised straight from the typed value.
pub(super) fn to_raw<T: serde::Serialize>(value: &T) -> Result<Box<RawValue>, CommandError> {
    serde_json::value::to_raw_value(value).map_err(|error| CommandError::Internal(error.to_string()))
}

impl<G: Game> MatchActor<G> {
    async fn run(mut self, mut mailbox: mpsc::Receiver<Mail>) {
        if self.needs_start {
            match self.start().await {
                Ok(_) => {}
                Err(error) if error.is_storage() => self.retry_later(&error),
                Err(error) => {
                    tracing::error!(match_id = %self.context.match_id, %error, "could not start the match");
                    return;
                }
            }
        } else if let Some(outcome) = self.finished.clone() {
            // Only reachable if a crash separated the last events from the result; finish now.
            let _ = self.commit(Vec::new(), Some(outcome), self.rated).await;
        }
        self.resume_clocks();
        self.refresh_clocks();
        self.play_automatic_moves().await;
        while self.finished.is_none() && !self.moved {
            let wake = self.next_wake();
            tokio::select! {
                mail = mailbox.recv() => match mail.inspect(|_| {
                    metrics::histogram!(crate::telemetry::MAILBOX_DEPTH).record(mailbox.len() as f64);
                }) {
                    None => return,
                    // A stop while the match is live (shutdown, drain, a lost lease): the
                    // match goes on from its log elsewhere, so its sockets are told to resume.
                    Some(Mail::Shutdown) => return self.tell_moved(),
                    Some(Mail::Request { request, reply }) => self.handle(request, reply).await,
                },
                _ = tokio::time::sleep_until(wake.unwrap_or_else(Instant::now)), if wake.is_some() => {
                    self.on_clock().await;
                }
            }
        }
        if self.moved {
            tracing::warn!(match_id = %self.context.match_id, "another node took the match over; stopped");
            self.tell_moved();
            mailbox.close();
            self.context.live.remove_closed(&self.context.match_id);
            return;
        }
        self.context.live.remove(&self.context.match_id);
        tracing::info!(match_id = %self.context.match_id, "match finished");
    }

    /// Sends every listening viewer the last batch of this actor: the match moved.
    fn tell_moved(&self) {
        self.moved_flag.store(true, std::sync::atomic::Ordering::SeqCst);
        self.tell_resume();
    }

    /// Closes every listening socket with 1001 so that its client resumes (with
    /// `resume_from`) from the log, here or on whichever node runs the match now.
    fn tell_resume(&self) {
        let last_seq = self.next_seq - 1;
        for feeds in &self.feeds {
            let moved = Arc::new(ViewerBatch::moved(last_seq));
            let _ = feeds.full.send(moved.clone());
            let _ = feeds.delta.send(moved);
        }
    }

    async fn handle(&mut self, request: MatchRequest, reply: Option<oneshot::Sender<MatchReply>>) {
        match request {
            MatchRequest::Command { seat, after, command } => {
                let started = std::time::Instant::now();
                let kind = command.get("type").and_then(Value::as_str).map(str::to_string);
                let result = self
                    .submit(seat, Move::Sent { command, after }, CommandSource::Player)
                    .await;
                record_command::<G>(kind, &result, started.elapsed());
                send_reply(reply, MatchReply::Command(result));
                if self.in_doubt.is_some() && self.retry_at.is_none() {
                    // Settle the doubt without waiting for the player: if the write landed,
                    // the match must move on (bots, clocks) by itself.
                    self.retry_later(&CommandError::Unavailable("a write is in doubt".into()));
                }
                self.play_automatic_moves().await;
            }
            MatchRequest::Subscribe {
                viewer,
                resume_from,
                protocol,
            } => {
                let subscription = self.subscribe(viewer, resume_from, protocol).await;
                send_reply(reply, MatchReply::Subscribed(subscription));
            }
            MatchRequest::Connection { seat, connected } => {
                self.on_connection(seat, connected);
                if connected {
                    self.on_back(seat).await;
                }
            }
            MatchRequest::Log { viewer } => {
                let (view, entries) = self.log(viewer).await;
                send_reply(reply, MatchReply::Log(view, entries));
            }
            MatchRequest::Forfeit { seat, reason } => {
                let result = self.forfeit(seat, &reason).await;
                send_reply(reply, MatchReply::Forfeit(result));
            }
            MatchRequest::Abandon { reason, by } => {
                let result = self.abandon(&reason, &by).await;
                send_reply(reply, MatchReply::Abandon(result));
            }
            MatchRequest::Adjourn {
                seat,
                action,
                resume_at,
            } => {
                let result = self.adjourn(seat, action, resume_at).await;
                send_reply(reply, MatchReply::Adjourn(result));
            }
        }
    }

    pub(super) fn seat_count(&self) -> usize {
        self.context.seats.len()
    }

    pub(super) fn pending(&self) -> Vec<Seat> {
        if self.finished.is_some() {
            Vec::new()
        } else {
            G::pending(&self.core.state)
        }
    }

    pub(super) fn snapshot(&self, viewer: Viewer) -> Snapshot {
        Snapshot {
            protocol: PROTOCOL_VERSION,
            match_id: self.context.match_id.to_string(),
            game: G::ID.to_string(),
            status: if self.finished.is_some() {
                MatchStatus::Finished
            } else {
                MatchStatus::Live
            },
            seat: match viewer {
                Viewer::Seat(seat) => Some(seat),
                Viewer::Spectator => None,
            },
            view: to_json(&G::view(&self.core.state, viewer)),
            pending: self.pending(),
            last_seq: self.next_seq - 1,
            deadline_ms: self.deadline_ms(viewer),
            seed_commitment: self.context.seed_commitment.clone(),
            result: self.finished.clone(),
            adjournment: self.adjournment_view().map(Box::new),
        }
    }
}
