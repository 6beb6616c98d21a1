//! Skill-based matchmaking with tickets in the database.
//!
//! A ticket waits in `matchmaking_ticket` with the player's rating for its game and format.
//! A *pass* reads the waiting tickets under row locks (`FOR UPDATE SKIP LOCKED` on
//! PostgreSQL, so several server processes sharing one database each see only tickets no
//! other pass holds), plans matches with [`plan`], writes the matches' rows and marks the tickets
//! matched in the same transaction, and only then starts the matches' actors. A ticket is
//! therefore seated at most once, whichever process runs the pass.
//!
//! Passes run when a ticket arrives and on a timer ([`Matchmaker::spawn_ticker`]), because a waiting
//! ticket's acceptable rating window widens with time and may come to cover someone already
//! waiting, and because a ticket may opt into a bot once it has waited long enough.

mod config;
mod plan;

pub use config::MatchmakingConfig;
pub use plan::{Plan, plan};

use crate::accounts::Player;
use crate::matches::{GameError, Lobby, LobbyError, new_match_row, options_object, seat_row};
use crate::protocol::{CreateTicket, Ticket};
use crate::record::{Clocks, MatchId, TicketId};
use crate::store::{PairedMatch, Store, StoreError, TicketRow, WaitingTicket};
use chrono::Utc;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// The matchmaker of one server process: it turns tickets into matches and has its lobby
/// start them. A lock keeps its own passes one at a time (passes of other processes are
/// kept apart by the row locks).
pub struct Matchmaker {
    lobby: Arc<Lobby>,
    store: Store,
    config: MatchmakingConfig,
    pass: tokio::sync::Mutex<()>,
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

impl Matchmaker {
    pub fn new(lobby: Arc<Lobby>, store: Store, config: MatchmakingConfig) -> Self {
        Matchmaker {
            lobby,
            store,
            config,
            pass: tokio::sync::Mutex::new(()),
        }
    }

    /// Stores a waiting ticket (with the player's current rating) without pairing it.
    pub async fn enqueue(
        &self,
        player: &Player,
        request: CreateTicket,
    ) -> Result<TicketId, MatchmakingError> {
        let options = options_object(request.options)?;
        let game = self.lobby.games().require(&request.game)?;
        let (options, seat_count) = game.check_options(options)?;
        let format = game.rating_pool(&options)?;
        let rating = self
            .store
            .rating(&player.player_id, game.id(), &format)
            .await?
            .unwrap_or_else(|| crate::ratings::Rating::default().rating);
        let ticket = WaitingTicket {
            ticket_id: TicketId::from_uuid(uuid::Uuid::new_v4()),
            player_id: player.player_id.clone(),
            game: game.id().to_string(),
            options_key: serde_json::to_string(&options).map_err(MatchmakingError::OptionsKey)?,
            options,
            seat_count,
            rating,
            bot_fallback: request.bot_fallback,
            created_at: Utc::now(),
        };
        self.store.insert_ticket(&ticket).await?;
        Ok(ticket.ticket_id)
    }

    /// One pass: pairs what can be paired now and starts those matches. Returns their ids.
    pub async fn run_pass(&self) -> Result<Vec<MatchId>, MatchmakingError> {
        let _one_at_a_time = self.pass.lock().await;
        let config = self.config;
        let clocks = self.lobby.clocks();
        let created = self
            .store
            .matchmaking_pass(|waiting| {
                let now = Utc::now();
                let plans = plan(waiting, now, &config);
                record_pass(waiting, &plans, now);
                paired_matches(waiting, &plans, clocks)
            })
            .await?;
        for match_id in &created {
            self.lobby.start(match_id).await?;
        }
        Ok(created)
    }

    /// `POST /v1/matchmaking/tickets`: store the ticket, try to pair at once, report.
    pub async fn open_ticket(
        &self,
        player: &Player,
        request: CreateTicket,
    ) -> Result<Ticket, MatchmakingError> {
        let ticket_id = self.enqueue(player, request).await?;
        self.run_pass().await?;
        self.ticket(player, &ticket_id).await
    }

    pub async fn ticket(&self, player: &Player, ticket_id: &TicketId) -> Result<Ticket, MatchmakingError> {
        let row = self
            .store
            .ticket(ticket_id)
            .await?
            .ok_or(MatchmakingError::TicketNotFound)?;
        if row.player_id != player.player_id {
            return Err(MatchmakingError::NotYourTicket);
        }
        Ok(ticket_body(row))
    }

    /// Cancels a waiting ticket; a matched one stays matched.
    pub async fn cancel_ticket(
        &self,
        player: &Player,
        ticket_id: &TicketId,
    ) -> Result<Ticket, MatchmakingError> {
        self.ticket(player, ticket_id).await?;
        self.store.cancel_ticket(ticket_id).await?;
        self.ticket(player, ticket_id).await
    }

    /// Runs a pass every `tick_ms` until `stop` turns true.
    pub fn spawn_ticker(self: Arc<Self>, mut stop: watch::Receiver<bool>) -> tokio::task::JoinHandle<()> {
        let tick = Duration::from_millis(self.config.tick_ms.max(10));
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = stop.wait_for(|stop| *stop) => return,
                    _ = tokio::time::sleep(tick) => {}
                }
                if let Err(error) = self.run_pass().await {
                    tracing::warn!(%error, "matchmaking pass failed");
                }
            }
        })
    }
}

/// The rows of the matches `plans` make of `waiting`: each an open match with the first
/// ticket's game and options and the server's default `clocks`, its seats the tickets'
/// players in order and a `normal` bot in any seat left (a bot fallback).
pub fn paired_matches(waiting: &[WaitingTicket], plans: &[Plan], clocks: Clocks) -> Vec<PairedMatch> {
    let mut paired = Vec::new();
    for plan in plans {
        let members = match plan {
            Plan::Players(members) => members.clone(),
            Plan::Bot(member) => vec![*member],
        };
        let Some(first) = members.first().and_then(|index| waiting.get(*index)) else {
            continue;
        };
        let row = new_match_row(&first.game, first.options.clone(), first.seat_count, clocks);
        let seats = (0..first.seat_count)
            .map(|seat| {
                let player = members
                    .get(usize::from(seat))
                    .map(|index| &waiting[*index].player_id);
                seat_row(&row.match_id, seat, player)
            })
            .collect();
        let ticket_ids = members
            .iter()
            .map(|index| waiting[*index].ticket_id.clone())
            .collect();
        paired.push(PairedMatch {
            row,
            seats,
            ticket_ids,
        });
    }
    paired
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

fn ticket_body(row: TicketRow) -> Ticket {
    Ticket {
        ticket_id: row.ticket_id.into_string(),
        game: row.game,
        status: row.status,
        match_id: row.match_id.map(MatchId::into_string),
    }
}
