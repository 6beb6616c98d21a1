//! The lobby: players, matches waiting for seats, matchmaking tickets, and starting a match
//! (spawning its actor) the moment its last seat is taken.
//!
//! Seat changes go through one async lock, so two joins can never take the same seat or
//! start a match twice; play itself never takes this lock (actors are independent).
//! Matchmaking tickets live in the database ([`crate::matchmaking`]).

use super::{ActorContext, GameError, GameRegistry, LiveMatches, MatchHandle};
use crate::cluster::Cluster;
use crate::fairness;
use crate::input::{InputLimits, PlayerName};
use crate::matchmaking::{Matchmaker, MatchmakingConfig};
use crate::protocol::{CreateMatch, MatchInfo, Opponent, SeatInfo};
use crate::record::Clocks;
use crate::record::MatchStatus;
use crate::rules::{BotLevel, Outcome, Seat};
use crate::store::{Fence, GroupPolicy, Journal, Lease, MatchRow, SeatRow, Store, StoreError};
use chrono::Utc;
use serde_json::Value;
use sqlx::types::Json;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinHandle;

/// Why the lobby refused or failed a request: the lobby's own words, which the HTTP layer
/// (and only it) turns into status codes.
#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    #[error("match not found")]
    MatchNotFound,
    /// The match is not waiting for players (it started, finished or was cancelled).
    #[error("the match is not open for joining")]
    NotOpen,
    /// Every seat is taken, or another join took the last free one first.
    #[error("the match has no free seat")]
    NoFreeSeat,
    #[error("the match is not live")]
    NotLive,
    #[error("you already have a seat in this match")]
    AlreadySeated,
    #[error("you have no seat in this match")]
    NotSeated,
    /// A turn clock or disconnect grace outside the server's limits.
    #[error("{0}")]
    Clock(String),
    /// Bot seats asked for in a way that contradicts itself or the seat count.
    #[error("{0}")]
    BotSeats(String),
    /// A bot level the game has no bot for.
    #[error("{0}")]
    NoBotAtLevel(String),
    /// An unknown game, options it refuses, or a stored match it cannot rebuild.
    #[error(transparent)]
    Game(#[from] GameError),
    /// In a cluster, only gateway nodes are up: no node can run a new match yet.
    #[error("no node can run the match")]
    NoNodeToRun,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A player known by a valid token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub player_id: String,
    pub name: String,
}

impl From<crate::store::SessionRow> for Player {
    fn from(session: crate::store::SessionRow) -> Self {
        Player {
            player_id: session.player_id,
            name: session.name,
        }
    }
}

pub struct Lobby {
    pub store: Store,
    /// The single writer every actor appends through (group commit).
    pub journal: Journal,
    pub games: Arc<GameRegistry>,
    pub live: Arc<LiveMatches>,
    pub clocks: Clocks,
    /// The ranges clients may ask for (`--max-turn-clock-secs`, ...).
    pub limits: InputLimits,
    seats_lock: tokio::sync::Mutex<()>,
    pub matchmaker: Matchmaker,
    actors: Mutex<Vec<JoinHandle<()>>>,
    /// This node's membership when it runs as one node of a cluster.
    pub cluster: Option<Arc<Cluster>>,
}

impl Lobby {
    pub fn new(store: Store, games: GameRegistry, clocks: Clocks) -> Self {
        Lobby {
            journal: Journal::spawn(store.clone(), GroupPolicy::for_store(&store)),
            store,
            games: Arc::new(games),
            live: Arc::new(LiveMatches::default()),
            clocks,
            limits: InputLimits::default(),
            seats_lock: tokio::sync::Mutex::new(()),
            matchmaker: Matchmaker::default(),
            actors: Mutex::new(Vec::new()),
            cluster: None,
        }
    }

    /// Runs this lobby as one node of a cluster.
    pub fn with_cluster(mut self, cluster: Option<Arc<Cluster>>) -> Self {
        self.cluster = cluster;
        self
    }

    /// Replaces the default input limits.
    pub fn with_limits(mut self, limits: InputLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Replaces the default matchmaking settings.
    pub fn with_matchmaking(mut self, config: MatchmakingConfig) -> Self {
        self.matchmaker = Matchmaker::new(config);
        self
    }

    /// Bounds the journal's transactions and the actors' waits by `settings` (the writer
    /// started by [`Lobby::new`] stops when its last sender, the one replaced here, drops).
    pub fn with_db_settings(mut self, settings: crate::store::DbSettings) -> Self {
        let policy = crate::store::GroupPolicy::for_store(&self.store);
        self.journal = Journal::spawn_with(self.store.clone(), policy, settings);
        self
    }

    pub async fn create_player(&self, name: PlayerName) -> Result<(Player, String), StoreError> {
        let token = fairness::new_token();
        let player = Player {
            player_id: uuid::Uuid::new_v4().to_string(),
            name: name.into_string(),
        };
        let hash = fairness::token_hash(&token);
        self.store
            .insert_player(&player.player_id, &player.name, &hash, Utc::now())
            .await?;
        Ok((player, token))
    }

    /// The player a bearer token opens: a session that exists and has not expired (see
    /// [`crate::accounts`]). Expiry is compared here, on this clock, so both backends agree.
    pub async fn authenticate(&self, token: &str) -> Result<Option<Player>, StoreError> {
        let found = self.store.session(&fairness::token_hash(token)).await?;
        let now = Utc::now();
        Ok(found.filter(|session| session.is_open_at(now)).map(Player::from))
    }

    pub async fn create_match(&self, player: &Player, request: CreateMatch) -> Result<MatchInfo, LobbyError> {
        let game = self
            .games
            .get(&request.game)
            .ok_or_else(|| GameError::Unknown(request.game.clone()))?;
        let (options, seat_count) = game.check_options(options_object(request.options)?)?;
        let clocks = Clocks {
            turn: match request.turn_clock_secs {
                None => self.clocks.turn,
                Some(secs) => self.limits.turn_clock(secs).map_err(LobbyError::Clock)?,
            },
            disconnect_grace: match request.disconnect_grace_secs {
                None => self.clocks.disconnect_grace,
                Some(secs) => self.limits.disconnect_grace(secs).map_err(LobbyError::Clock)?,
            },
        };
        let bots = bot_seats(request.opponent, request.bots, seat_count)?;
        let level = match request.bot_level {
            Some(_) if bots == 0 => {
                return Err(LobbyError::BotSeats(
                    "`bot_level` is for bot seats: ask for `opponent: \"bot\"` or `bots`".into(),
                ));
            }
            Some(level) if !game.has_bot(level) => {
                return Err(LobbyError::NoBotAtLevel(format!(
                    "{} has no {} bot yet: use easy or normal",
                    game.id(),
                    level.name()
                )));
            }
            level => level,
        };
        let row = new_match_row(game.id(), options, seat_count, clocks);
        let mut seats = vec![seat_row(&row.match_id, 0, Some(&player.player_id))];
        seats.extend((1..=bots).map(|seat| bot_seat_row(&row.match_id, seat, level.unwrap_or_default())));
        let _guard = self.seats_lock.lock().await;
        self.store.insert_match(&row, &seats).await?;
        if seats.len() == usize::from(seat_count) {
            self.start(&row.match_id).await?;
        }
        self.match_info(&row.match_id).await
    }

    pub async fn join(&self, player: &Player, match_id: &str) -> Result<MatchInfo, LobbyError> {
        let _guard = self.seats_lock.lock().await;
        let row = self
            .store
            .get_match(match_id)
            .await?
            .ok_or(LobbyError::MatchNotFound)?;
        if row.status() != MatchStatus::Open {
            return Err(LobbyError::NotOpen);
        }
        let seats = self.store.seats(match_id).await?;
        if seats
            .iter()
            .any(|seat| seat.player_id.as_deref() == Some(&player.player_id))
        {
            return Err(LobbyError::AlreadySeated);
        }
        let free = (0..row.seat_count).find(|index| seats.iter().all(|seat| seat.seat != *index));
        let free = free.ok_or(LobbyError::NoFreeSeat)?;
        // The lock above is this process's: in a cluster another node may take the same seat
        // at the same moment, and the seat's primary key lets only one of them have it.
        if let Err(error) = self
            .store
            .insert_seat(&seat_row(match_id, free as u8, Some(&player.player_id)))
            .await
        {
            return Err(match error {
                StoreError::Database(sqlx::Error::Database(taken)) if taken.is_unique_violation() => {
                    LobbyError::NoFreeSeat
                }
                error => error.into(),
            });
        }
        // Counted again after the insert: joins on two nodes may each have seen one seat free.
        let taken = if self.cluster.is_some() {
            self.store.seats(match_id).await?.len()
        } else {
            seats.len() + 1
        };
        if taken == row.seat_count as usize {
            self.start(match_id).await?;
        }
        self.match_info(match_id).await
    }

    /// Leaving an open match frees the seat (the last one out cancels it); leaving a live
    /// match forfeits it.
    pub async fn leave(&self, player: &Player, match_id: &str) -> Result<MatchInfo, LobbyError> {
        let guard = self.seats_lock.lock().await;
        let row = self
            .store
            .get_match(match_id)
            .await?
            .ok_or(LobbyError::MatchNotFound)?;
        let seats = self.store.seats(match_id).await?;
        let mine = seats
            .iter()
            .find(|seat| seat.player_id.as_deref() == Some(&player.player_id))
            .ok_or(LobbyError::NotSeated)?;
        match row.status() {
            MatchStatus::Open => {
                self.store.delete_seat(match_id, mine.seat).await?;
                if seats.iter().all(|seat| seat.bot || seat.seat == mine.seat) {
                    self.store
                        .set_status(match_id, MatchStatus::Cancelled, Utc::now())
                        .await?;
                }
            }
            MatchStatus::Live => {
                let handle = self.handle_for(&row).ok_or(LobbyError::NotLive)?;
                drop(guard);
                handle
                    .forfeit(Seat(mine.seat as u8), "left the match")
                    .await
                    .map_err(|_| LobbyError::NotLive)?;
            }
            MatchStatus::Finished | MatchStatus::Cancelled => return Err(LobbyError::NotLive),
        }
        self.match_info(match_id).await
    }

    /// Marks the match live and spawns its actor, which logs the game's start. In a cluster
    /// the match is placed on the least-loaded node instead, which may be this one.
    pub(crate) async fn start(&self, match_id: &str) -> Result<(), LobbyError> {
        self.store
            .set_status(match_id, MatchStatus::Live, Utc::now())
            .await?;
        if let Some(cluster) = &self.cluster {
            return self.place(cluster, match_id).await;
        }
        let row = self.match_row(match_id).await?;
        let handle = self.spawn_actor(&row, Vec::new(), None).await?;
        // The actor logs the start before it reads its mailbox, so this answer means the
        // match is durably started when the caller hears it is live.
        handle.log(crate::rules::Viewer::Spectator).await;
        Ok(())
    }

    /// Gives a match that just went live its first lease, on the least-loaded node, and has
    /// that node start it. If the chosen node does not confirm, this node takes it over.
    async fn place(&self, cluster: &Cluster, match_id: &str) -> Result<(), LobbyError> {
        let me = cluster.node_id();
        let target = match self.store.least_loaded_node().await? {
            Some(node) => node,
            None if cluster.node.runs_matches => me.to_string(),
            // Only gateway nodes are up: nobody can run the match yet; a node that joins
            // claims it (it is live and unleased).
            None => return Err(LobbyError::NoNodeToRun),
        };
        let Some(lease) = self.store.place_match(match_id, &target).await? else {
            return Ok(()); // another node placed it first
        };
        crate::telemetry::record_claims(1);
        if target == me {
            return self.run_placed(lease, true).await;
        }
        match cluster.ask_to_start(&target, match_id).await {
            Ok(()) => Ok(()),
            Err(error) => {
                tracing::warn!(%match_id, node = %target, %error, "the chosen node did not start the match; running it here");
                match self.store.take_over(&lease, &target, me).await? {
                    Some(lease) => self.run_placed(lease, true).await,
                    None => Ok(()),
                }
            }
        }
    }

    /// Runs a match under a lease this node holds: rebuilt from its log (empty for a match
    /// that has not started), its writes fenced by the lease's epoch. With `wait_for_start`,
    /// returns once the game's start is durably logged.
    pub(crate) async fn run_placed(&self, lease: Lease, wait_for_start: bool) -> Result<(), LobbyError> {
        let row = self.match_row(&lease.match_id).await?;
        let log = self.store.log(&lease.match_id).await?;
        let fresh = log.is_empty();
        let handle = self.spawn_actor(&row, log, Some(Fence(lease.epoch))).await?;
        if wait_for_start && fresh {
            handle.log(crate::rules::Viewer::Spectator).await;
        }
        Ok(())
    }

    /// The handle of a live match: its actor here, or in a cluster a route to the node that
    /// runs it. `None` if it is not live (or, single-node, not running here).
    pub fn handle_for(&self, row: &MatchRow) -> Option<MatchHandle> {
        if let Some(handle) = self.live.get(&row.match_id) {
            return Some(handle);
        }
        let cluster = self.cluster.as_ref()?;
        if row.status() != MatchStatus::Live {
            return None;
        }
        let game = self.games.get(&row.game)?;
        Some(cluster.remote_match(&row.match_id, game.id(), game.max_command_bytes()))
    }

    async fn spawn_actor(
        &self,
        row: &MatchRow,
        log: Vec<crate::record::LogEntry>,
        fence: Option<Fence>,
    ) -> Result<MatchHandle, LobbyError> {
        let game = self
            .games
            .get(&row.game)
            .ok_or_else(|| GameError::Unknown(row.game.clone()))?;
        let seats = self.store.seats(&row.match_id).await?;
        let context = ActorContext {
            store: self.store.clone(),
            journal: self.journal.clone(),
            live: self.live.clone(),
            match_id: row.match_id.clone(),
            clocks: Clocks {
                turn: Duration::from_millis(row.turn_clock_ms.max(1) as u64),
                disconnect_grace: Duration::from_millis(row.disconnect_grace_ms.max(0) as u64),
            },
            seats,
            seed_commitment: row.seed_commitment.clone(),
            seed_hex: row.seed.clone(),
            fence,
        };
        let (handle, join) = game.spawn(context, &row.options.0, log)?;
        self.live.insert(row.match_id.clone(), handle.clone());
        if let Some(cluster) = &self.cluster {
            cluster.serve_match(&row.match_id, handle.clone()).await;
        }
        let mut actors = self.lock_actors();
        // Finished matches' handles are dropped here, so the list tracks live actors only and
        // does not grow with every match the server has ever run.
        actors.retain(|actor| !actor.is_finished());
        actors.push(join);
        Ok(handle)
    }

    /// Restarts every live match from its log. A log that does not replay is reported and
    /// left alone rather than resumed wrongly. In a cluster the nodes claim live matches by
    /// lease instead ([`crate::cluster::node::claim`]).
    pub async fn recover(&self) -> Result<usize, LobbyError> {
        if let Some(cluster) = &self.cluster {
            return Ok(crate::cluster::node::claim(self, cluster).await);
        }
        let mut resumed = 0;
        for row in self
            .store
            .matches_with_status(MatchStatus::Live, i64::MAX)
            .await?
        {
            let log = self.store.log(&row.match_id).await?;
            match self.spawn_actor(&row, log, None).await {
                Ok(_) => resumed += 1,
                Err(error) => tracing::error!(match_id = %row.match_id, %error, "could not resume match"),
            }
        }
        Ok(resumed)
    }

    /// Stops every actor after the message it is handling, so no write is cut in half.
    pub async fn shutdown(&self) {
        for handle in self.live.drain() {
            handle.shutdown().await;
        }
        let joins: Vec<_> = self.lock_actors().drain(..).collect();
        for join in joins {
            let _ = join.await;
        }
    }

    /// Leaves the cluster without waiting for the lease TTL: marks this node draining (no new
    /// matches are placed here, `/readyz` fails), stops every actor (their sockets are told
    /// the match moved), releases the leases and tells the other nodes to claim them now.
    /// A single node just shuts down.
    pub async fn drain(&self) {
        let Some(cluster) = &self.cluster else {
            return self.shutdown().await;
        };
        cluster.set_draining();
        if let Err(error) = self.store.heartbeat(&cluster.node, true).await {
            tracing::warn!(%error, "could not mark the node draining");
        }
        let matches = self.live.len();
        self.shutdown().await;
        // Leaving the node table ends this node's lease on every match it owned.
        match self.store.leave_cluster(cluster.node_id()).await {
            Ok(()) => tracing::info!(matches, "drained: left the cluster"),
            Err(error) => {
                tracing::warn!(%error, "could not leave the cluster; the leases expire with the TTL")
            }
        }
        cluster.announce_orphans().await;
    }

    fn lock_actors(&self) -> std::sync::MutexGuard<'_, Vec<JoinHandle<()>>> {
        self.actors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub async fn match_row(&self, match_id: &str) -> Result<MatchRow, LobbyError> {
        self.store
            .get_match(match_id)
            .await?
            .ok_or(LobbyError::MatchNotFound)
    }

    pub async fn match_info(&self, match_id: &str) -> Result<MatchInfo, LobbyError> {
        let row = self.match_row(match_id).await?;
        Ok(self.info_of(row).await?)
    }

    async fn info_of(&self, row: MatchRow) -> Result<MatchInfo, StoreError> {
        let seats = self.store.seats_with_names(&row.match_id).await?;
        let status = row.status();
        let result = row
            .result
            .as_ref()
            .and_then(|Json(value)| serde_json::from_value::<Outcome>(value.clone()).ok());
        Ok(MatchInfo {
            seats: seats
                .into_iter()
                .map(|(seat, player_id, name, bot)| SeatInfo {
                    seat: Seat(seat as u8),
                    player_id,
                    name,
                    bot,
                })
                .collect(),
            // The seed stays secret until the match is over: it predicts every die.
            seed: (status == MatchStatus::Finished).then(|| row.seed.clone()),
            match_id: row.match_id,
            game: row.game,
            options: row.options.0,
            status,
            seat_count: row.seat_count as u8,
            turn_clock_ms: row.turn_clock_ms,
            disconnect_grace_ms: row.disconnect_grace_ms,
            seed_commitment: row.seed_commitment,
            created_at: row.created_at,
            started_at: row.started_at,
            finished_at: row.finished_at,
            result,
        })
    }

    pub async fn list(&self, status: Option<MatchStatus>) -> Result<Vec<MatchInfo>, StoreError> {
        let statuses = match status {
            Some(status) => vec![status],
            None => vec![MatchStatus::Open, MatchStatus::Live, MatchStatus::Finished],
        };
        let mut infos = Vec::new();
        for status in statuses {
            for row in self.store.matches_with_status(status, 100).await? {
                infos.push(self.info_of(row).await?);
            }
        }
        Ok(infos)
    }

    /// The seat a player holds in a match, if any.
    pub async fn seat_of(&self, player: &Player, match_id: &str) -> Result<Option<Seat>, StoreError> {
        let seats = self.store.seats(match_id).await?;
        Ok(seats
            .iter()
            .find(|seat| seat.player_id.as_deref() == Some(&player.player_id))
            .map(|seat| Seat(seat.seat as u8)))
    }
}

/// A game's options must be a JSON object (or absent / `null` for the defaults): serde would
/// otherwise read `[]` as a struct with every field defaulted.
pub(crate) fn options_object(options: Option<Value>) -> Result<Option<Value>, GameError> {
    match options {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(map)) => Ok(Some(Value::Object(map))),
        Some(_) => Err(GameError::Options(
            "`options` must be a JSON object (or absent for the game's defaults)".into(),
        )),
    }
}

pub(crate) fn new_match_row(game: &str, options: Value, seat_count: u8, clocks: Clocks) -> MatchRow {
    let seed = fairness::new_seed();
    MatchRow {
        match_id: uuid::Uuid::new_v4().to_string(),
        game: game.to_string(),
        options: Json(options),
        status: MatchStatus::Open,
        seat_count: i32::from(seat_count),
        // Saturating: requests and `crease serve`'s defaults are range-checked before this,
        // but a lobby built in code may be handed any clock, and none may wrap negative.
        turn_clock_ms: i64::try_from(clocks.turn.as_millis()).unwrap_or(i64::MAX),
        disconnect_grace_ms: i64::try_from(clocks.disconnect_grace.as_millis()).unwrap_or(i64::MAX),
        seed_commitment: seed.commitment(),
        seed: seed.to_hex(),
        created_at: Utc::now(),
        started_at: None,
        finished_at: None,
        result: None,
    }
}

/// A seat for `player_id`, or for a `normal` bot when there is none (matchmaking's fallback).
pub(crate) fn seat_row(match_id: &str, seat: u8, player_id: Option<&str>) -> SeatRow {
    match player_id {
        Some(player_id) => SeatRow {
            match_id: match_id.to_string(),
            seat: i32::from(seat),
            player_id: Some(player_id.to_string()),
            bot: false,
            bot_level: None,
        },
        None => bot_seat_row(match_id, seat, BotLevel::Normal),
    }
}

fn bot_seat_row(match_id: &str, seat: u8, level: BotLevel) -> SeatRow {
    SeatRow {
        match_id: match_id.to_string(),
        seat: i32::from(seat),
        player_id: None,
        bot: true,
        bot_level: Some(level.name().to_string()),
    }
}

/// How many seats after the creator's go to server-side bots: all of them for
/// `opponent: "bot"`, `bots` of them otherwise (the creator always keeps a seat).
fn bot_seats(opponent: Option<Opponent>, bots: Option<u8>, seat_count: u8) -> Result<u8, LobbyError> {
    let others = seat_count.saturating_sub(1);
    match (opponent, bots) {
        (Some(Opponent::Bot), None) => Ok(others),
        (Some(Opponent::Bot), Some(bots)) if bots == others => Ok(others),
        (Some(Opponent::Bot), Some(_)) => Err(LobbyError::BotSeats(
            "`opponent: \"bot\"` fills every other seat; leave out `bots` or make it match".into(),
        )),
        (None, Some(bots)) if bots > others => Err(LobbyError::BotSeats(format!(
            "`bots` must be at most {others}: this match has {seat_count} seats, one is yours"
        ))),
        (None, bots) => Ok(bots.unwrap_or(0)),
    }
}
