//! Skill-based matchmaking with tickets in the database.
//!
//! A ticket waits in `matchmaking_ticket` with the player's rating for its game and format.
//! A *pass* reads the waiting tickets under row locks (`FOR UPDATE SKIP LOCKED` on
//! PostgreSQL, so several server processes sharing one database each see only tickets no
//! other pass holds), plans matches with [`plan`], writes the matches and marks the tickets
//! matched in the same transaction, and only then starts the matches' actors. A ticket is
//! therefore seated at most once, whichever process runs the pass.
//!
//! Passes run when a ticket arrives and on a timer ([`spawn_ticker`]), because a waiting
//! ticket's acceptable rating window widens with time and may come to cover someone already
//! waiting, and because a ticket may opt into a bot once it has waited long enough.

mod config;
mod plan;

pub use config::MatchmakingConfig;
pub use plan::{Plan, WaitingTicket, plan};

use crate::matches::{GameError, Lobby, LobbyError, Player};
use crate::protocol::{CreateTicket, Ticket};
use crate::record::TicketStatus;
use crate::store::StoreError;
use chrono::Utc;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// The matchmaker of one server process: its settings, and a lock so its own passes run
/// one at a time (passes of other processes are kept apart by the row locks).
pub struct Matchmaker {
    pub config: MatchmakingConfig,
    pass: tokio::sync::Mutex<()>,
}

impl Matchmaker {
    pub fn new(config: MatchmakingConfig) -> Self {
        Matchmaker {
            config,
            pass: tokio::sync::Mutex::new(()),
        }
    }
}

impl Default for Matchmaker {
    fn default() -> Self {
        Matchmaker::new(MatchmakingConfig::default())
    }
}

/// Why a ticket was refused or a pass failed: matchmaking's own words, which the HTTP layer
/// (and only it) turns into status codes.
#[derive(Debug, thiserror::Error)]
pub enum MatchmakingError {
    #[error("ticket not found")]
    TicketNotFound,
    /// The ticket exists but another player opened it.
    #[error("this ticket is not yours")]
    NotYourTicket,
    /// An unknown game or options it refuses.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The options could not be written as the key that groups compatible tickets.
    #[error("the options do not serialise: {0}")]
    OptionsKey(serde_json::Error),
    /// A match the pass paired could not be started.
    #[error("starting a paired match: {0}")]
    Start(#[from] LobbyError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Stores a waiting ticket (with the player's current rating) without pairing it.
pub async fn enqueue(
    lobby: &Lobby,
    player: &Player,
    request: CreateTicket,
) -> Result<String, MatchmakingError> {
    let options = crate::matches::lobby::options_object(request.options)?;
    let game = lobby
        .games
        .get(&request.game)
        .ok_or_else(|| GameError::Unknown(request.game.clone()))?;
    let (options, seat_count) = game.check_options(options)?;
    let format = game.rating_pool(&options)?;
    let rating = lobby
        .store
        .rating(&player.player_id, game.id(), &format)
        .await?
        .unwrap_or_else(|| crate::ratings::Rating::default().rating);
    let ticket = WaitingTicket {
        ticket_id: uuid::Uuid::new_v4().to_string(),
        player_id: player.player_id.clone(),
        game: game.id().to_string(),
        options_key: serde_json::to_string(&options).map_err(MatchmakingError::OptionsKey)?,
        options,
        seat_count,
        rating,
        bot_fallback: request.bot_fallback,
        created_at: Utc::now(),
    };
    lobby.store.insert_ticket(&ticket).await?;
    Ok(ticket.ticket_id)
}

/// One pass: pairs what can be paired now and starts those matches. Returns their ids.
pub async fn run_pass(lobby: &Lobby) -> Result<Vec<String>, MatchmakingError> {
    let _one_at_a_time = lobby.matchmaker.pass.lock().await;
    let config = lobby.matchmaker.config;
    let created = lobby
        .store
        .matchmaking_pass(
            |waiting| {
                let now = Utc::now();
                let plans = plan(waiting, now, &config);
                record_pass(waiting, &plans, now);
                plans
            },
            lobby.clocks,
        )
        .await?;
    for match_id in &created {
        lobby.start(match_id).await?;
    }
    Ok(created)
}

/// The queue's depth after a pass and how long the paired tickets waited (`/metrics`).
fn record_pass(waiting: &[WaitingTicket], plans: &[Plan], now: chrono::DateTime<Utc>) {
    let paired: Vec<usize> = plans
        .iter()
        .flat_map(|plan| match plan {
            Plan::Players(members) => members.clone(),
            Plan::Bot(member) => vec![*member],
        })
        .collect();
    let waits: Vec<Duration> = paired
        .iter()
        .filter_map(|index| waiting.get(*index))
        .map(|ticket| (now - ticket.created_at).to_std().unwrap_or_default())
        .collect();
    crate::telemetry::record_matchmaking_pass(&waits, waiting.len().saturating_sub(paired.len()));
}

/// `POST /v1/matchmaking/tickets`: store the ticket, try to pair at once, report.
pub async fn open_ticket(
    lobby: &Lobby,
    player: &Player,
    request: CreateTicket,
) -> Result<Ticket, MatchmakingError> {
    let ticket_id = enqueue(lobby, player, request).await?;
    run_pass(lobby).await?;
    ticket(lobby, player, &ticket_id).await
}

pub async fn ticket(lobby: &Lobby, player: &Player, ticket_id: &str) -> Result<Ticket, MatchmakingError> {
    let row = lobby
        .store
        .ticket(ticket_id)
        .await?
        .ok_or(MatchmakingError::TicketNotFound)?;
    if row.player_id != player.player_id {
        return Err(MatchmakingError::NotYourTicket);
    }
    Ok(row.into_ticket())
}

/// Cancels a waiting ticket; a matched one stays matched.
pub async fn cancel_ticket(
    lobby: &Lobby,
    player: &Player,
    ticket_id: &str,
) -> Result<Ticket, MatchmakingError> {
    ticket(lobby, player, ticket_id).await?;
    lobby.store.cancel_ticket(ticket_id).await?;
    ticket(lobby, player, ticket_id).await
}

/// Runs a pass every `tick_ms` until `stop` turns true.
pub fn spawn_ticker(lobby: Arc<Lobby>, mut stop: watch::Receiver<bool>) -> tokio::task::JoinHandle<()> {
    let tick = Duration::from_millis(lobby.matchmaker.config.tick_ms.max(10));
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = stop.wait_for(|stop| *stop) => return,
                _ = tokio::time::sleep(tick) => {}
            }
            if let Err(error) = run_pass(&lobby).await {
                tracing::warn!(%error, "matchmaking pass failed");
            }
        }
    })
}

/// A stored ticket as the store reads it back.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TicketRow {
    pub ticket_id: String,
    pub player_id: String,
    pub game: String,
    pub status: TicketStatus,
    pub match_id: Option<String>,
}

impl TicketRow {
    fn into_ticket(self) -> Ticket {
        Ticket {
            ticket_id: self.ticket_id,
            game: self.game,
            status: self.status,
            match_id: self.match_id,
        }
    }
}
