//! The lobby: matches waiting for seats, and starting a match the moment its last seat is
//! taken (its [`Placement`] decides where the actor runs).
//!
//! Seat changes go through one async lock, so two joins can never take the same seat or
//! start a match twice; play itself never takes this lock (actors are independent).

use super::placement::{Actors, LocalPlacement, Placement};
use super::{CommandError, GameError, GameRegistry, MatchHandle};
use crate::accounts::Player;
use crate::fairness;
use crate::input::InputLimits;
use crate::protocol::{CreateMatch, MatchInfo, Opponent, SeatInfo};
use crate::record::Clocks;
use crate::record::{MatchId, MatchStatus, PlayerId};
use crate::rules::extras::TutorialSpec;
use crate::rules::{BotLevel, Outcome, Seat, Seed};
use crate::store::{GroupPolicy, Journal, MatchRow, SeatRow, Store, StoreError};
use chrono::Utc;
use serde_json::Value;
use sqlx::types::Json;
use std::sync::Arc;

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
    /// The game ships no tutorial.
    #[error("this game has no tutorial")]
    NoTutorial,
    /// The tutorial's data file does not set up a match (a build-time mistake: its test fails).
    #[error("the tutorial's data is wrong: {0}")]
    BadTutorial(String),
    /// In a cluster, the match is live but no node runs it this moment (it is moving).
    #[error("the match is moving between nodes")]
    Moving,
    /// The match's actor could not write the change (the database is away, or the write is
    /// in doubt): the match goes on as it was, unless an in-doubt write lands.
    #[error("the match could not be changed: {0}")]
    NotWritten(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a match's actor did not write a forfeit or an abandonment: the match ended first, it
/// moved to another node, or the write failed (a ban must not take a failed forfeit for
/// "nothing to forfeit").
fn not_written(error: CommandError) -> LobbyError {
    match error {
        CommandError::MatchNotLive => LobbyError::NotLive,
        CommandError::Moved => LobbyError::Moving,
        other => LobbyError::NotWritten(other.to_string()),
    }
}

/// Matches waiting for seats, and starting each the moment its last seat is taken.
/// Who takes a seat of a match made with every seat filled at once.
#[derive(Clone, Debug, PartialEq)]
pub enum Sitter {
    Player(PlayerId),
    Bot(BotLevel),
}

pub struct Lobby {
    store: Store,
    games: Arc<GameRegistry>,
    /// The clocks of a match that asks for none.
    clocks: Clocks,
    /// The ranges clients may ask for (`--max-turn-clock-secs`, ...).
    limits: InputLimits,
    seats_lock: tokio::sync::Mutex<()>,
    /// Where a started match's actor runs: here, or on a node of the cluster.
    placement: Arc<dyn Placement>,
}

impl Lobby {
    /// A single node's lobby: every match runs here, its actors appending through a journal
    /// with the default settings.
    pub fn new(store: Store, games: GameRegistry, clocks: Clocks) -> Self {
        let games = Arc::new(games);
        let journal = Journal::spawn(store.clone(), GroupPolicy::for_store(&store));
        let actors = Arc::new(Actors::new(store.clone(), journal, games.clone()));
        Lobby::with_placement(store, games, clocks, Arc::new(LocalPlacement::new(actors)))
    }

    /// A lobby whose matches run where `placement` puts them.
    pub fn with_placement(
        store: Store,
        games: Arc<GameRegistry>,
        clocks: Clocks,
        placement: Arc<dyn Placement>,
    ) -> Self {
        Lobby {
            store,
            games,
            clocks,
            limits: InputLimits::default(),
            seats_lock: tokio::sync::Mutex::new(()),
            placement,
        }
    }

    /// Replaces the default input limits.
    pub fn with_limits(mut self, limits: InputLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The games matches may be made of.
    pub fn games(&self) -> &Arc<GameRegistry> {
        &self.games
    }

    /// The clocks of a match that asks for none.
    pub fn clocks(&self) -> Clocks {
        self.clocks
    }

    pub async fn create_match(&self, player: &Player, request: CreateMatch) -> Result<MatchInfo, LobbyError> {
        let game = self.games.require(&request.game)?;
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
        self.insert_and_start(&row, &seats, seat_count).await
    }

    /// A match with every seat taken at once, started at once: a competition's fixture,
    /// made when both its sides are ready. The server's default clocks.
    pub async fn create_seated(
        &self,
        game_id: &str,
        options: Value,
        sitters: &[Sitter],
    ) -> Result<MatchInfo, LobbyError> {
        let game = self.games.require(game_id)?;
        let (options, seat_count) = game.check_options(options_object(Some(options))?)?;
        if sitters.len() != usize::from(seat_count) {
            return Err(LobbyError::BotSeats(format!(
                "{} seats given for a match of {seat_count}",
                sitters.len()
            )));
        }
        if let Some(level) = sitters.iter().find_map(|sitter| match sitter {
            Sitter::Bot(level) if !game.has_bot(*level) => Some(*level),
            _ => None,
        }) {
            return Err(LobbyError::NoBotAtLevel(format!(
                "{} has no {} bot yet: use easy or normal",
                game.id(),
                level.name()
            )));
        }
        let row = new_match_row(game.id(), options, seat_count, self.clocks);
        let seats: Vec<SeatRow> = sitters
            .iter()
            .enumerate()
            .map(|(seat, sitter)| match sitter {
                Sitter::Player(player_id) => seat_row(&row.match_id, seat as u8, Some(player_id)),
                Sitter::Bot(level) => bot_seat_row(&row.match_id, seat as u8, *level),
            })
            .collect();
        self.insert_and_start(&row, &seats, seat_count).await
    }

    /// Writes a new match and its seats and, when they fill it, starts it.
    async fn insert_and_start(
        &self,
        row: &MatchRow,
        seats: &[SeatRow],
        seat_count: u8,
    ) -> Result<MatchInfo, LobbyError> {
        let _guard = self.seats_lock.lock().await;
        self.store.insert_match(row, seats).await?;
        if seats.len() == usize::from(seat_count) {
            self.start(&row.match_id).await?;
        }
        self.match_info(&row.match_id).await
    }

    /// The game's tutorial: a match against its bot with the tutorial's fixed seed and
    /// short options (`data/<game>/tutorial.json`), started at once. Bot matches are never
    /// rated, so a public seed gives nobody an edge that counts; the turn clock is the
    /// server's default, as a newcomer reading the guide needs time.
    pub async fn create_tutorial(&self, player: &Player, game_id: &str) -> Result<MatchInfo, LobbyError> {
        let game = self.games.require(game_id)?;
        let spec = game.tutorial().ok_or(LobbyError::NoTutorial)?;
        let spec: TutorialSpec =
            serde_json::from_str(spec).map_err(|error| LobbyError::BadTutorial(error.to_string()))?;
        let seed = Seed::from_hex(&spec.seed)
            .ok_or_else(|| LobbyError::BadTutorial("the seed is not 64 hex digits".into()))?;
        let (options, seat_count) = game.check_options(options_object(Some(spec.options))?)?;
        if spec.bots == 0 || spec.bots >= seat_count || !game.has_bot(spec.bot_level) {
            return Err(LobbyError::BadTutorial(format!(
                "{} bot seats at level {} in a match of {seat_count}",
                spec.bots,
                spec.bot_level.name()
            )));
        }
        let row = match_row_with_seed(game.id(), options, seat_count, self.clocks, seed);
        let mut seats = vec![seat_row(&row.match_id, 0, Some(&player.player_id))];
        seats.extend((1..=spec.bots).map(|seat| bot_seat_row(&row.match_id, seat, spec.bot_level)));
        self.insert_and_start(&row, &seats, seat_count).await
    }

    pub async fn join(&self, player: &Player, match_id: &MatchId) -> Result<MatchInfo, LobbyError> {
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
            .any(|seat| seat.player_id.as_ref() == Some(&player.player_id))
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
        let taken = if self.placement.spans_nodes() {
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
    pub async fn leave(&self, player: &Player, match_id: &MatchId) -> Result<MatchInfo, LobbyError> {
        self.leave_because(player, match_id, "left the match").await
    }

    /// Takes `player` out of every match it holds a seat in that is not over, as if it left
    /// each (a live one is forfeited for `reason`): a ban. Returns the matches it left. A
    /// match that ended or moved meanwhile is skipped; a database failure stops the sweep.
    pub async fn leave_all(&self, player: &Player, reason: &str) -> Result<Vec<MatchId>, LobbyError> {
        let mut left = Vec::new();
        for match_id in self.store.unfinished_matches_of(&player.player_id).await? {
            match self.leave_because(player, &match_id, reason).await {
                Ok(_) => left.push(match_id),
                Err(LobbyError::NotLive | LobbyError::NotSeated | LobbyError::MatchNotFound) => {}
                Err(error) => return Err(error),
            }
        }
        Ok(left)
    }

    /// Ends a live match at an operator's request: its actor logs an `abandon` entry (who:
    /// `by`) and finishes it with nobody winning and nothing rated.
    pub async fn abandon(&self, match_id: &MatchId, reason: &str, by: &str) -> Result<MatchInfo, LobbyError> {
        let row = self
            .store
            .get_match(match_id)
            .await?
            .ok_or(LobbyError::MatchNotFound)?;
        if row.status() != MatchStatus::Live {
            return Err(LobbyError::NotLive);
        }
        let handle = self.handle_for(&row).ok_or(LobbyError::Moving)?;
        handle.abandon(reason, by).await.map_err(not_written)?;
        self.match_info(match_id).await
    }

    async fn leave_because(
        &self,
        player: &Player,
        match_id: &MatchId,
        reason: &str,
    ) -> Result<MatchInfo, LobbyError> {
        let guard = self.seats_lock.lock().await;
        let row = self
            .store
            .get_match(match_id)
            .await?
            .ok_or(LobbyError::MatchNotFound)?;
        let seats = self.store.seats(match_id).await?;
        let mine = seats
            .iter()
            .find(|seat| seat.player_id.as_ref() == Some(&player.player_id))
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
                    .forfeit(Seat(mine.seat as u8), reason)
                    .await
                    .map_err(not_written)?;
            }
            MatchStatus::Finished | MatchStatus::Cancelled => return Err(LobbyError::NotLive),
        }
        self.match_info(match_id).await
    }

    /// Marks the match live and has the placement run its actor, which logs the game's
    /// start. Returns once the start is durably logged.
    pub async fn start(&self, match_id: &MatchId) -> Result<(), LobbyError> {
        self.store
            .set_status(match_id, MatchStatus::Live, Utc::now())
            .await?;
        self.placement.start(match_id).await
    }

    /// The handle of a live match: its actor here, or in a cluster a route to the node that
    /// runs it. `None` if it is not live (or, single-node, not running here).
    pub fn handle_for(&self, row: &MatchRow) -> Option<MatchHandle> {
        self.placement.handle_for(row)
    }

    /// Whether other nodes run matches too (a live match may then be between nodes).
    pub fn spans_nodes(&self) -> bool {
        self.placement.spans_nodes()
    }

    /// Resumes the live matches this process should run, from their logs (after a restart).
    pub async fn recover(&self) -> Result<usize, LobbyError> {
        self.placement.recover().await
    }

    /// Hands this node's matches to the cluster's other nodes (a single node does nothing).
    pub async fn drain(&self) {
        self.placement.drain().await
    }

    /// Stops every actor after the message it is handling, so no write is cut in half.
    pub async fn shutdown(&self) {
        self.placement.shutdown().await
    }

    pub async fn match_row(&self, match_id: &MatchId) -> Result<MatchRow, LobbyError> {
        self.store
            .get_match(match_id)
            .await?
            .ok_or(LobbyError::MatchNotFound)
    }

    pub async fn match_info(&self, match_id: &MatchId) -> Result<MatchInfo, LobbyError> {
        let row = self.match_row(match_id).await?;
        Ok(self.info_of(row).await?)
    }

    async fn info_of(&self, row: MatchRow) -> Result<MatchInfo, StoreError> {
        let seats = self.store.seats_with_names(&row.match_id).await?;
        let competition_id = self.store.competition_of_match(&row.match_id).await?;
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
            match_id: row.match_id.into_string(),
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
            adjourned_at: row.adjourned_at,
            resume_at: row.resume_at,
            competition_id,
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
    pub async fn seat_of(&self, player: &Player, match_id: &MatchId) -> Result<Option<Seat>, StoreError> {
        let seats = self.store.seats(match_id).await?;
        Ok(seats
            .iter()
            .find(|seat| seat.player_id.as_ref() == Some(&player.player_id))
            .map(|seat| Seat(seat.seat as u8)))
    }
}

/// A game's options must be a JSON object (or absent / `null` for the defaults): serde would
/// otherwise read `[]` as a struct with every field defaulted.
pub fn options_object(options: Option<Value>) -> Result<Option<Value>, GameError> {
    match options {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(map)) => Ok(Some(Value::Object(map))),
        Some(_) => Err(GameError::Options(
            "`options` must be a JSON object (or absent for the game's defaults)".into(),
        )),
    }
}

/// The row of a new open match: a fresh id, and a fresh seed of which only the commitment
/// is shown until the match is over.
pub fn new_match_row(game: &str, options: Value, seat_count: u8, clocks: Clocks) -> MatchRow {
    match_row_with_seed(game, options, seat_count, clocks, fairness::new_seed())
}

/// The row of a new open match with a given seed (a tutorial's, which is public).
fn match_row_with_seed(game: &str, options: Value, seat_count: u8, clocks: Clocks, seed: Seed) -> MatchRow {
    MatchRow {
        match_id: MatchId::from_uuid(uuid::Uuid::new_v4()),
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
        adjourned_at: None,
        resume_at: None,
    }
}

/// A seat for `player_id`, or for a `normal` bot when there is none (matchmaking's fallback).
pub fn seat_row(match_id: &MatchId, seat: u8, player_id: Option<&PlayerId>) -> SeatRow {
    match player_id {
        Some(player_id) => SeatRow {
            match_id: match_id.clone(),
            seat: i32::from(seat),
            player_id: Some(player_id.clone()),
            bot: false,
            bot_level: None,
        },
        None => bot_seat_row(match_id, seat, BotLevel::Normal),
    }
}

fn bot_seat_row(match_id: &MatchId, seat: u8, level: BotLevel) -> SeatRow {
    SeatRow {
        match_id: match_id.clone(),
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
