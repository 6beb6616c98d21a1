//! A competition's life: entries while it is open, fixtures at the start, each fixture's
//! match once both its sides are ready, results as the matches finish, a knockout's winners
//! into their next ties, and the end.
//!
//! The state is the database's ([`crate::store`]'s competition tables); every change two
//! callers could race on (two starts, two `ready`s, two nodes recording one result) is a
//! conditional update that exactly one wins, so the same [`Competitions::advance`] can run
//! on every read, on every node's ticker, and after a restart, and nothing happens twice.

use super::fixtures::{round_robin, seeded_bracket};
use super::standings::{self, Innings, Outcome as TableOutcome, Played, PointsRule};
use crate::accounts::Player;
use crate::matches::{GameError, Lobby, LobbyError, Sitter};
use crate::protocol::{
    AddBots, Competition, CompetitionEntry, CompetitionFixture, CompetitionFormat, CreateCompetition,
    FixtureStatus, Standing,
};
use crate::record::{MatchId, MatchStatus, PlayerId};
use crate::rules::scorecard::{GameScorecard, InningsCard, overs};
use crate::rules::{BotLevel, Outcome};
use crate::store::{CompetitionRow, EntryRow, FixtureResult, FixtureRow, MatchRow, Store, StoreError};
use chrono::Utc;
use std::sync::Arc;
use std::time::Duration;

/// Entries a competition may hold: a double round robin of 16 is 240 matches already.
pub const MAX_ENTRIES: usize = 16;
/// A competition's name, in characters once trimmed.
pub const MAX_NAME_CHARS: usize = 60;
/// The longest round against the clock: 30 days.
pub const MAX_ROUND_HOURS: u32 = 720;
/// Bots the creator may add in one request (a competition still holds `MAX_ENTRIES`).
pub const MAX_BOTS_AT_ONCE: u8 = 15;
/// How often every node moves the running competitions on (bot fixtures, results).
pub const TICK: Duration = Duration::from_secs(2);
/// The rating an unrated player (or a bot) is seeded with: Glicko-2's starting rating.
const UNRATED: f64 = 1500.0;

#[derive(Debug, thiserror::Error)]
pub enum CompetitionError {
    #[error("no such competition")]
    NotFound,
    #[error("no such fixture")]
    FixtureNotFound,
    #[error("the competition has started: it takes no more entries")]
    NotOpen,
    #[error("you are entered already")]
    AlreadyEntered,
    #[error("you are not entered")]
    NotEntered,
    #[error("only the competition's creator may do this")]
    NotCreator,
    #[error("the creator cannot leave the competition")]
    CreatorCannotLeave,
    #[error("{0}")]
    TooFewEntries(String),
    #[error("{0}")]
    Full(String),
    #[error("{0}")]
    NotPlayable(String),
    #[error("this fixture is not yours to play")]
    NotYourFixture,
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    Lobby(#[from] LobbyError),
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Competitions over the lobby (which makes their matches) and the store (which keeps them).
pub struct Competitions {
    store: Store,
    lobby: Arc<Lobby>,
}

impl Competitions {
    pub fn new(store: Store, lobby: Arc<Lobby>) -> Self {
        Competitions { store, lobby }
    }

    pub async fn create(
        &self,
        player: &Player,
        request: CreateCompetition,
    ) -> Result<Competition, CompetitionError> {
        let name = request.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
            return Err(CompetitionError::BadRequest(format!(
                "`name` must be 1 to {MAX_NAME_CHARS} printable characters"
            )));
        }
        if request
            .round_hours
            .is_some_and(|hours| !(1..=MAX_ROUND_HOURS).contains(&hours))
        {
            return Err(CompetitionError::BadRequest(format!(
                "`round_hours` must be 1 to {MAX_ROUND_HOURS} (30 days)"
            )));
        }
        let game = self.lobby.games().require(&request.game)?;
        let (options, seat_count) = game.check_options(crate::matches::options_object(request.options)?)?;
        if seat_count != 2 {
            return Err(CompetitionError::BadRequest(format!(
                "a competition's fixtures are two-sided: these options seat {seat_count}"
            )));
        }
        let row = CompetitionRow {
            competition_id: uuid::Uuid::new_v4().to_string(),
            name: name.to_string(),
            game: game.id().to_string(),
            options: sqlx::types::Json(options),
            format: request.format.as_str().to_string(),
            // A knockout has no second leg: the flag is a league's and is not kept for one.
            double_round: request.double_round && request.format == CompetitionFormat::League,
            round_hours: request.round_hours.map(|hours| hours as i32),
            status: "open".into(),
            created_by: player.player_id.clone(),
            created_at: Utc::now(),
            started_at: None,
            finished_at: None,
        };
        self.store.insert_competition(&row).await?;
        crate::telemetry::record_competition_created(request.format.as_str());
        self.get(&row.competition_id).await
    }

    async fn row(&self, competition_id: &str) -> Result<CompetitionRow, CompetitionError> {
        self.store
            .competition(competition_id)
            .await?
            .ok_or(CompetitionError::NotFound)
    }

    pub async fn join(&self, player: &Player, competition_id: &str) -> Result<Competition, CompetitionError> {
        let row = self.row(competition_id).await?;
        let entries = self.store.competition_entries(competition_id).await?;
        if entries
            .iter()
            .any(|entry| entry.player_id.as_ref() == Some(&player.player_id))
        {
            return Err(CompetitionError::AlreadyEntered);
        }
        self.add_entry(&row, &entries, Some(&player.player_id), None)
            .await?;
        self.get(competition_id).await
    }

    async fn add_entry(
        &self,
        row: &CompetitionRow,
        entries: &[EntryRow],
        player_id: Option<&PlayerId>,
        bot_level: Option<BotLevel>,
    ) -> Result<(), CompetitionError> {
        if row.status != "open" {
            return Err(CompetitionError::NotOpen);
        }
        if entries.len() >= MAX_ENTRIES {
            return Err(CompetitionError::Full(format!(
                "a competition holds {MAX_ENTRIES} entries at most"
            )));
        }
        match self
            .store
            .add_competition_entry(&row.competition_id, player_id, bot_level.map(BotLevel::name))
            .await
        {
            Ok(true) => Ok(()),
            Ok(false) => Err(CompetitionError::NotOpen),
            // The unique keys: the same player twice, or two entries racing for one number.
            Err(StoreError::Database(sqlx::Error::Database(error))) if error.is_unique_violation() => {
                Err(CompetitionError::AlreadyEntered)
            }
            Err(error) => Err(error.into()),
        }
    }

    pub async fn leave(
        &self,
        player: &Player,
        competition_id: &str,
    ) -> Result<Competition, CompetitionError> {
        let row = self.row(competition_id).await?;
        if row.created_by == player.player_id {
            return Err(CompetitionError::CreatorCannotLeave);
        }
        if row.status != "open" {
            return Err(CompetitionError::NotOpen);
        }
        if !self
            .store
            .remove_competition_entry(competition_id, &player.player_id)
            .await?
        {
            return Err(CompetitionError::NotEntered);
        }
        self.get(competition_id).await
    }

    pub async fn add_bots(
        &self,
        player: &Player,
        competition_id: &str,
        request: AddBots,
    ) -> Result<Competition, CompetitionError> {
        let row = self.row(competition_id).await?;
        if row.created_by != player.player_id {
            return Err(CompetitionError::NotCreator);
        }
        if !(1..=MAX_BOTS_AT_ONCE).contains(&request.count) {
            return Err(CompetitionError::BadRequest(format!(
                "`count` must be 1 to {MAX_BOTS_AT_ONCE}"
            )));
        }
        let game = self.lobby.games().require(&row.game)?;
        if !game.has_bot(request.level) {
            return Err(LobbyError::NoBotAtLevel(format!(
                "{} has no {} bot yet: use easy or normal",
                row.game,
                request.level.name()
            ))
            .into());
        }
        for _ in 0..request.count {
            let entries = self.store.competition_entries(competition_id).await?;
            self.add_entry(&row, &entries, None, Some(request.level)).await?;
        }
        self.get(competition_id).await
    }

    /// Seeds the entries (a knockout by rating in the competition's pool, a league in
    /// entry order) and writes every fixture: a league's whole schedule, a knockout's
    /// bracket with its later rounds waiting for their sides.
    pub async fn start(
        &self,
        player: &Player,
        competition_id: &str,
    ) -> Result<Competition, CompetitionError> {
        let row = self.row(competition_id).await?;
        if row.created_by != player.player_id {
            return Err(CompetitionError::NotCreator);
        }
        if row.status != "open" {
            return Err(CompetitionError::NotOpen);
        }
        let entries = self.store.competition_entries(competition_id).await?;
        let knockout = row.format == "knockout";
        let least = if knockout { 2 } else { 3 };
        if entries.len() < least {
            return Err(CompetitionError::TooFewEntries(format!(
                "a {} needs {least} entries at least; it has {}",
                row.format,
                entries.len()
            )));
        }
        let game = self.lobby.games().require(&row.game)?;
        let pool = game.rating_pool(&row.options.0)?;
        let mut ratings = Vec::with_capacity(entries.len());
        for entry in &entries {
            let rating = match &entry.player_id {
                Some(player_id) => self
                    .store
                    .ratings_of(player_id)
                    .await?
                    .into_iter()
                    .find(|rating| rating.game == row.game && rating.format == pool)
                    .map_or(UNRATED, |rating| rating.rating),
                None => UNRATED,
            };
            ratings.push(rating);
        }
        let (seeds, fixtures) = if knockout {
            knockout_plan(&entries, &ratings)
        } else {
            league_plan(&entries, &ratings, row.double_round)
        };
        if !self
            .store
            .start_competition(competition_id, &seeds, &fixtures, Utc::now())
            .await?
        {
            return Err(CompetitionError::NotOpen);
        }
        self.advance(competition_id).await?;
        self.current(competition_id).await
    }

    /// One side of a fixture is ready to play; once both are (a bot always is), its match
    /// is made and started.
    pub async fn ready(
        &self,
        player: &Player,
        competition_id: &str,
        fixture_id: i32,
    ) -> Result<CompetitionFixture, CompetitionError> {
        let row = self.row(competition_id).await?;
        let entries = self.store.competition_entries(competition_id).await?;
        let fixtures = self.store.competition_fixtures(competition_id).await?;
        let fixture = fixtures
            .iter()
            .find(|fixture| fixture.fixture == fixture_id)
            .ok_or(CompetitionError::FixtureNotFound)?;
        let mine = entries
            .iter()
            .find(|entry| entry.player_id.as_ref() == Some(&player.player_id))
            .map(|entry| entry.entry);
        let home = match mine {
            Some(entry) if fixture.home_entry == Some(entry) => true,
            Some(entry) if fixture.away_entry == Some(entry) => false,
            _ => return Err(CompetitionError::NotYourFixture),
        };
        if fixture.status != "waiting" || fixture.home_entry.is_none() || fixture.away_entry.is_none() {
            return Err(CompetitionError::NotPlayable(match fixture.status.as_str() {
                "waiting" => "its other side is not known yet".into(),
                status => format!("it is {status}"),
            }));
        }
        if row.status != "running" {
            return Err(CompetitionError::NotPlayable(
                "the competition is not running".into(),
            ));
        }
        self.store
            .set_fixture_ready(competition_id, fixture_id, home)
            .await?;
        self.advance(competition_id).await?;
        let competition = self.current(competition_id).await?;
        competition
            .fixtures
            .into_iter()
            .find(|fixture| fixture.fixture_id == fixture_id as u32)
            .ok_or(CompetitionError::FixtureNotFound)
    }

    /// Moves a running competition on: results of the fixtures whose matches finished (a
    /// knockout's winner into its next tie), matches for the fixtures whose sides are both
    /// ready, and the end once every fixture is decided. Safe to run anywhere, any time.
    pub async fn advance(&self, competition_id: &str) -> Result<(), CompetitionError> {
        let row = self.row(competition_id).await?;
        if row.status != "running" {
            return Ok(());
        }
        let entries = self.store.competition_entries(competition_id).await?;
        let knockout = row.format == "knockout";
        // Results first: a knockout's result may make the next tie playable.
        for fixture in self.store.competition_fixtures(competition_id).await? {
            if fixture.status != "live" {
                continue;
            }
            let Some(match_id) = &fixture.match_id else {
                continue;
            };
            let Some(played) = self.store.get_match(match_id).await? else {
                continue;
            };
            if played.status() != MatchStatus::Finished {
                continue;
            }
            let result = self.result_of(&row, &fixture, &played).await?;
            if self
                .store
                .finish_fixture(competition_id, fixture.fixture, &result)
                .await?
            {
                crate::telemetry::record_fixture_finished(&row.format);
                if knockout {
                    self.send_on(competition_id, &fixture, &result, &entries).await?;
                }
            }
        }
        if row.round_hours.is_some() {
            self.walk_over_late(&row, &entries).await?;
        }
        let fixtures = self.store.competition_fixtures(competition_id).await?;
        for fixture in &fixtures {
            let sides_known = fixture.home_entry.is_some() && fixture.away_entry.is_some();
            if fixture.status == "waiting" && sides_known && sides_ready(fixture, &entries) == (true, true) {
                self.start_fixture(&row, fixture, &entries).await?;
            }
        }
        let fixtures = self.store.competition_fixtures(competition_id).await?;
        if fixtures
            .iter()
            .all(|fixture| matches!(fixture.status.as_str(), "finished" | "bye"))
        {
            self.store.finish_competition(competition_id, Utc::now()).await?;
        }
        Ok(())
    }

    /// Decides the fixtures of rounds past their deadline that nobody started: a walkover
    /// to the side that was ready (a bot always is), no result when neither was.
    async fn walk_over_late(
        &self,
        row: &CompetitionRow,
        entries: &[EntryRow],
    ) -> Result<(), CompetitionError> {
        let now = Utc::now();
        for fixture in self.store.competition_fixtures(&row.competition_id).await? {
            let (Some(home), Some(away)) = (fixture.home_entry, fixture.away_entry) else {
                continue;
            };
            if fixture.status != "waiting" || deadline(row, fixture.round).is_none_or(|at| at > now) {
                continue;
            }
            let name = |entry: i32| {
                entries
                    .iter()
                    .find(|e| e.entry == entry)
                    .map(entry_name)
                    .unwrap_or_default()
            };
            let result = match sides_ready(&fixture, entries) {
                (true, false) => FixtureResult {
                    outcome: "home_walkover".into(),
                    winner_entry: Some(home),
                    summary: Some(format!(
                        "{} won by a walkover ({} did not play by the deadline)",
                        name(home),
                        name(away)
                    )),
                    ..FixtureResult::default()
                },
                (false, true) => FixtureResult {
                    outcome: "away_walkover".into(),
                    winner_entry: Some(away),
                    summary: Some(format!(
                        "{} won by a walkover ({} did not play by the deadline)",
                        name(away),
                        name(home)
                    )),
                    ..FixtureResult::default()
                },
                _ => FixtureResult {
                    outcome: "no_result".into(),
                    summary: Some("No result: not played by the deadline".into()),
                    ..FixtureResult::default()
                },
            };
            if self
                .store
                .walk_over(&row.competition_id, fixture.fixture, &result)
                .await?
            {
                crate::telemetry::record_fixture_finished(&row.format);
                if row.format == "knockout" {
                    self.send_on(&row.competition_id, &fixture, &result, entries)
                        .await?;
                }
            }
        }
        Ok(())
    }

    async fn start_fixture(
        &self,
        row: &CompetitionRow,
        fixture: &FixtureRow,
        entries: &[EntryRow],
    ) -> Result<(), CompetitionError> {
        if !self
            .store
            .claim_fixture(&row.competition_id, fixture.fixture)
            .await?
        {
            return Ok(());
        }
        let sitter = |entry: Option<i32>| -> Sitter {
            let entry = entries.iter().find(|e| Some(e.entry) == entry);
            match entry.and_then(|e| e.player_id.clone()) {
                Some(player_id) => Sitter::Player(player_id),
                None => Sitter::Bot(
                    entry
                        .and_then(|e| e.bot_level.as_deref())
                        .and_then(|level| level.parse().ok())
                        .unwrap_or_default(),
                ),
            }
        };
        let sitters = [sitter(fixture.home_entry), sitter(fixture.away_entry)];
        match self
            .lobby
            .create_seated(&row.game, row.options.0.clone(), &sitters)
            .await
        {
            Ok(info) => {
                let match_id = uuid::Uuid::parse_str(&info.match_id)
                    .map(MatchId::from_uuid)
                    .map_err(|error| {
                        CompetitionError::BadRequest(format!("the lobby's match id: {error}"))
                    })?;
                self.store
                    .fixture_started(&row.competition_id, fixture.fixture, Some(&match_id))
                    .await?;
                Ok(())
            }
            Err(error) => {
                self.store
                    .fixture_started(&row.competition_id, fixture.fixture, None)
                    .await?;
                Err(error.into())
            }
        }
    }

    /// What a finished match means for the table: who won, and each side's runs and the
    /// balls counted for the net run rate.
    async fn result_of(
        &self,
        row: &CompetitionRow,
        fixture: &FixtureRow,
        played: &MatchRow,
    ) -> Result<FixtureResult, CompetitionError> {
        let match_id = &played.match_id;
        let outcome: Option<Outcome> = played
            .result
            .as_ref()
            .and_then(|json| serde_json::from_value(json.0.clone()).ok());
        let game = self.lobby.games().require(&row.game)?;
        let log = self.store.log(match_id).await?;
        let abandoned = log
            .last()
            .is_some_and(|entry| entry.kind == crate::record::EntryKind::Abandon);
        let placings = outcome.as_ref().map(|o| o.placings.clone()).unwrap_or_default();
        let table_outcome = match placings.as_slice() {
            _ if abandoned => "no_result",
            [home, away] if home < away => "home",
            [home, away] if away < home => "away",
            [_, _] => "tie",
            _ => "no_result",
        };
        let winner_entry = match table_outcome {
            "home" => fixture.home_entry,
            "away" => fixture.away_entry,
            _ => None,
        };
        let quota = game.innings_quota_balls(&row.options.0)?;
        let mut result = FixtureResult {
            outcome: table_outcome.to_string(),
            winner_entry,
            summary: outcome.map(|o| o.summary),
            ..FixtureResult::default()
        };
        if let (Some(quota), Some(GameScorecard::Cricket { innings })) =
            (quota, game.scorecard(&row.options.0, &log)?)
        {
            let (home_runs, home_balls) = side_figures(&innings, 0, quota, table_outcome == "home");
            let (away_runs, away_balls) = side_figures(&innings, 1, quota, table_outcome == "away");
            result.home_runs = Some(home_runs as i32);
            result.home_balls = Some(home_balls as i32);
            result.away_runs = Some(away_runs as i32);
            result.away_balls = Some(away_balls as i32);
        }
        Ok(result)
    }

    /// A knockout fixture's side that goes through: its winner, or after a tie or no result
    /// the higher seed (a board game has no super over; the seed earned it by rating).
    fn advancing(fixture: &FixtureRow, result_winner: Option<i32>, entries: &[EntryRow]) -> Option<i32> {
        result_winner.or_else(|| {
            let seed_of = |entry: Option<i32>| {
                entries
                    .iter()
                    .find(|e| Some(e.entry) == entry)
                    .and_then(|e| e.seed)
                    .unwrap_or(i32::MAX)
            };
            [fixture.home_entry, fixture.away_entry]
                .into_iter()
                .flatten()
                .min_by_key(|entry| seed_of(Some(*entry)))
        })
    }

    async fn send_on(
        &self,
        competition_id: &str,
        fixture: &FixtureRow,
        result: &FixtureResult,
        entries: &[EntryRow],
    ) -> Result<(), CompetitionError> {
        let Some(through) = Self::advancing(fixture, result.winner_entry, entries) else {
            return Ok(());
        };
        let fixtures = self.store.competition_fixtures(competition_id).await?;
        if let Some(next) = fixtures
            .iter()
            .find(|next| next.round == fixture.round + 1 && next.slot == fixture.slot / 2)
        {
            self.store
                .set_fixture_side(competition_id, next.fixture, fixture.slot % 2 == 0, through)
                .await?;
        }
        Ok(())
    }

    /// A competition as the API shows it, moved on first so a reader sees it as it is now.
    pub async fn get(&self, competition_id: &str) -> Result<Competition, CompetitionError> {
        if let Err(error) = self.advance(competition_id).await {
            // Reading must not fail because a fixture's match could not be made right now:
            // the ticker tries again.
            if matches!(error, CompetitionError::NotFound) {
                return Err(error);
            }
            tracing::warn!(%competition_id, %error, "could not move the competition on");
        }
        self.current(competition_id).await
    }

    /// The competition as it stands, without moving it on (callers that just did).
    async fn current(&self, competition_id: &str) -> Result<Competition, CompetitionError> {
        let row = self.row(competition_id).await?;
        let entries = self.store.competition_entries(competition_id).await?;
        let fixtures = self.store.competition_fixtures(competition_id).await?;
        Ok(view(row, &entries, &fixtures))
    }

    pub async fn list(&self, status: Option<&str>) -> Result<Vec<Competition>, CompetitionError> {
        let mut list = Vec::new();
        for row in self.store.competitions(status, 100).await? {
            let entries = self.store.competition_entries(&row.competition_id).await?;
            let fixtures = self.store.competition_fixtures(&row.competition_id).await?;
            list.push(view(row, &entries, &fixtures));
        }
        Ok(list)
    }

    /// Moves every running competition on, every `every`, until `stop` turns true: bot
    /// fixtures and results need no reader.
    pub fn spawn_ticker(
        self: Arc<Self>,
        every: Duration,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(every) => {}
                    _ = stop.changed() => return,
                }
                if *stop.borrow() {
                    return;
                }
                let running = match self.store.competitions(Some("running"), 1000).await {
                    Ok(running) => running,
                    Err(error) => {
                        tracing::warn!(%error, "competitions: could not list the running ones");
                        continue;
                    }
                };
                for row in running {
                    if let Err(error) = self.advance(&row.competition_id).await {
                        tracing::warn!(competition_id = %row.competition_id, %error, "competition not moved on");
                    }
                }
                if let Ok(counts) = self.store.competition_counts().await {
                    crate::telemetry::record_competitions(&counts);
                }
            }
        })
    }
}

/// Whether each side of a fixture is ready to play: its player said so, or it is a bot (a
/// bot always is). What makes a fixture's match, decides a walkover and is shown.
fn sides_ready(fixture: &FixtureRow, entries: &[EntryRow]) -> (bool, bool) {
    let is_bot = |entry: Option<i32>| {
        entry.is_some_and(|entry| entries.iter().any(|e| e.entry == entry && e.bot_level.is_some()))
    };
    (
        fixture.home_ready || is_bot(fixture.home_entry),
        fixture.away_ready || is_bot(fixture.away_entry),
    )
}

/// When round `round` of a competition against the clock closes.
fn deadline(row: &CompetitionRow, round: i32) -> Option<chrono::DateTime<Utc>> {
    let hours = i64::from(row.round_hours?) * i64::from(round);
    Some(row.started_at? + chrono::Duration::hours(hours))
}

/// One side's runs, and the legal balls its innings count for the net run rate: an innings
/// that stopped short of the quota ended all out (counted at the full quota), unless it was
/// the match's last and its side won (the target reached).
fn side_figures(innings: &[InningsCard], seat: u8, quota: u32, won: bool) -> (u32, u32) {
    let last = innings.len();
    innings
        .iter()
        .enumerate()
        .filter(|(_, card)| card.batting_seat == seat)
        .fold((0, 0), |(runs, balls), (index, card)| {
            let chased = won && index + 1 == last;
            let batted = Innings {
                runs: card.total,
                balls: card.legal_balls,
                all_out: card.legal_balls < quota && !chased,
            };
            (runs + card.total, balls + standings::counted_balls(batted, quota))
        })
}

/// The name an entry shows: its player's, or its bot's.
fn entry_name(entry: &EntryRow) -> String {
    match (&entry.name, &entry.bot_level) {
        (Some(name), _) => name.clone(),
        (None, level) => format!(
            "Bot {} ({})",
            entry.entry + 1,
            level.as_deref().unwrap_or("normal")
        ),
    }
}

/// An entry's id on the wire: its player's, or `bot-<n>`.
fn entry_id(entry: &EntryRow) -> String {
    match &entry.player_id {
        Some(player_id) => player_id.to_string(),
        None => format!("bot-{}", entry.entry + 1),
    }
}

/// A league's schedule: entry order is the seed; the circle method's rounds.
fn league_plan(
    entries: &[EntryRow],
    ratings: &[f64],
    double: bool,
) -> (Vec<(i32, i32, f64)>, Vec<FixtureRow>) {
    let seeds = entries
        .iter()
        .zip(ratings)
        .enumerate()
        .map(|(index, (entry, rating))| (entry.entry, index as i32 + 1, *rating))
        .collect();
    let mut fixtures = Vec::new();
    for (round, planned) in round_robin(entries.len(), double).into_iter().enumerate() {
        for (slot, pair) in planned.fixtures.into_iter().enumerate() {
            fixtures.push(FixtureRow {
                fixture: fixtures.len() as i32 + 1,
                round: round as i32 + 1,
                slot: slot as i32,
                home_entry: Some(entries[pair.home].entry),
                away_entry: Some(entries[pair.away].entry),
                status: "waiting".into(),
                ..FixtureRow::default()
            });
        }
    }
    (seeds, fixtures)
}

/// A knockout's bracket: seeded by rating, byes to the top seeds (finished at once, the
/// seed through), the later rounds' fixtures with their sides to come.
fn knockout_plan(entries: &[EntryRow], ratings: &[f64]) -> (Vec<(i32, i32, f64)>, Vec<FixtureRow>) {
    let bracket = seeded_bracket(ratings);
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|a, b| ratings[*b].total_cmp(&ratings[*a]).then(a.cmp(b)));
    let seeds = order
        .iter()
        .enumerate()
        .map(|(seed, index)| (entries[*index].entry, seed as i32 + 1, ratings[*index]))
        .collect();
    let mut fixtures = Vec::new();
    for (slot, pair) in bracket.slots.chunks(2).enumerate() {
        let (home, away) = match (pair[0], pair[1]) {
            (Some(a), b) => (Some(a), b),
            (None, b) => (b, None),
        };
        let bye = away.is_none();
        fixtures.push(FixtureRow {
            fixture: fixtures.len() as i32 + 1,
            round: 1,
            slot: slot as i32,
            home_entry: home.map(|index| entries[index].entry),
            away_entry: away.map(|index| entries[index].entry),
            status: if bye { "bye" } else { "waiting" }.into(),
            winner_entry: if bye {
                home.map(|index| entries[index].entry)
            } else {
                None
            },
            ..FixtureRow::default()
        });
    }
    let rounds = bracket.rounds() as i32;
    for round in 2..=rounds {
        for slot in 0..(bracket.slots.len() >> round) {
            fixtures.push(FixtureRow {
                fixture: fixtures.len() as i32 + 1,
                round,
                slot: slot as i32,
                status: "waiting".into(),
                ..FixtureRow::default()
            });
        }
    }
    // Byes send their seed on at once.
    let through: Vec<(i32, i32)> = fixtures
        .iter()
        .filter(|fixture| fixture.status == "bye")
        .filter_map(|fixture| Some((fixture.slot, fixture.winner_entry?)))
        .collect();
    for (slot, entry) in through {
        if let Some(next) = fixtures
            .iter_mut()
            .find(|next| next.round == 2 && next.slot == slot / 2)
        {
            if slot % 2 == 0 {
                next.home_entry = Some(entry);
            } else {
                next.away_entry = Some(entry);
            }
        }
    }
    (seeds, fixtures)
}

/// The competition as the API shows it: entries, fixtures, and a league's table.
fn view(row: CompetitionRow, entries: &[EntryRow], fixtures: &[FixtureRow]) -> Competition {
    let id_of = |entry: Option<i32>| {
        entry
            .and_then(|entry| entries.iter().find(|e| e.entry == entry))
            .map(entry_id)
    };
    let knockout = row.format == "knockout";
    let wire_fixtures: Vec<CompetitionFixture> = fixtures
        .iter()
        .map(|fixture| {
            let advances = (knockout && matches!(fixture.status.as_str(), "finished" | "bye"))
                .then(|| Competitions::advancing(fixture, fixture.winner_entry, entries))
                .flatten();
            CompetitionFixture {
                fixture_id: fixture.fixture as u32,
                round: fixture.round as u32,
                slot: fixture.slot as u32,
                home: id_of(fixture.home_entry),
                away: id_of(fixture.away_entry),
                status: match fixture.status.as_str() {
                    "starting" => FixtureStatus::Ready,
                    "live" => FixtureStatus::Live,
                    "finished" => FixtureStatus::Finished,
                    "bye" => FixtureStatus::Bye,
                    _ => FixtureStatus::Waiting,
                },
                home_ready: sides_ready(fixture, entries).0,
                away_ready: sides_ready(fixture, entries).1,
                match_id: fixture.match_id.as_ref().map(ToString::to_string),
                winner: id_of(fixture.winner_entry),
                advances: id_of(advances),
                summary: fixture.summary.clone(),
                deadline: deadline(&row, fixture.round),
            }
        })
        .collect();
    let standings = if knockout || row.status == "open" {
        Vec::new()
    } else {
        table(entries, fixtures)
    };
    let rounds = fixtures.iter().map(|fixture| fixture.round).max().unwrap_or(0) as u32;
    let champion = (row.status == "finished")
        .then(|| {
            if knockout {
                wire_fixtures
                    .iter()
                    .find(|fixture| fixture.round == rounds)
                    .and_then(|fixture| fixture.advances.clone())
            } else {
                standings.first().map(|standing| standing.player_id.clone())
            }
        })
        .flatten();
    Competition {
        competition_id: row.competition_id,
        name: row.name,
        game: row.game,
        options: row.options.0,
        format: if knockout {
            CompetitionFormat::Knockout
        } else {
            CompetitionFormat::League
        },
        double_round: row.double_round,
        round_hours: row.round_hours.map(|hours| hours as u32),
        status: row.status,
        created_by: row.created_by.to_string(),
        created_at: row.created_at,
        started_at: row.started_at,
        finished_at: row.finished_at,
        entries: entries
            .iter()
            .map(|entry| CompetitionEntry {
                player_id: entry_id(entry),
                name: entry_name(entry),
                bot: entry.bot_level.is_some(),
                seed: entry.seed.map(|seed| seed as u32),
                rating: entry.rating,
            })
            .collect(),
        fixtures: wire_fixtures,
        standings,
        rounds,
        champion,
    }
}

/// A league's table from its finished fixtures, by [`standings::table`].
fn table(entries: &[EntryRow], fixtures: &[FixtureRow]) -> Vec<Standing> {
    let index_of = |entry: Option<i32>| entry.and_then(|entry| entries.iter().position(|e| e.entry == entry));
    let results: Vec<Played> = fixtures
        .iter()
        .filter(|fixture| fixture.status == "finished")
        .filter_map(|fixture| {
            let home = index_of(fixture.home_entry)?;
            let away = index_of(fixture.away_entry)?;
            let outcome = match fixture.outcome.as_deref() {
                Some("home") => TableOutcome::HomeWon,
                Some("away") => TableOutcome::AwayWon,
                Some("tie") => TableOutcome::Tied,
                Some("home_walkover") => TableOutcome::Walkover { home_won: true },
                Some("away_walkover") => TableOutcome::Walkover { home_won: false },
                _ => TableOutcome::NoResult,
            };
            // The balls are stored as counted (a side bowled out at its quota already).
            let innings = |runs: Option<i32>, balls: Option<i32>| {
                Some(Innings {
                    runs: runs? as u32,
                    balls: balls? as u32,
                    all_out: false,
                })
            };
            Some(Played {
                home,
                away,
                outcome,
                home_innings: innings(fixture.home_runs, fixture.home_balls),
                away_innings: innings(fixture.away_runs, fixture.away_balls),
                quota_balls: 0,
            })
        })
        .collect();
    standings::table(entries.len(), &results, PointsRule::default())
        .into_iter()
        .enumerate()
        .map(|(position, row)| {
            let entry = &entries[row.entrant];
            Standing {
                position: position as u32 + 1,
                player_id: entry_id(entry),
                name: entry_name(entry),
                played: row.played,
                won: row.won,
                lost: row.lost,
                tied: row.tied,
                no_result: row.no_result,
                points: row.points,
                runs_for: row.runs_for,
                overs_faced: overs(row.balls_faced),
                runs_against: row.runs_against,
                overs_bowled: overs(row.balls_bowled),
                net_run_rate: (row.net_run_rate * 1000.0).round() / 1000.0,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(seat: u8, total: u32, legal_balls: u32) -> InningsCard {
        InningsCard {
            number: 1,
            batting_seat: seat,
            batting: Vec::new(),
            bowling: Vec::new(),
            extras: 0,
            total,
            wickets: 0,
            legal_balls,
            overs: overs(legal_balls),
            fall_of_wickets: Vec::new(),
        }
    }

    #[test]
    fn a_side_bowled_out_counts_its_quota_and_a_winning_chase_its_balls() {
        // Seat 0 bowled out for 80 in 14.2 overs of 20; seat 1 chased 81 in 12 overs.
        let innings = [card(0, 80, 86), card(1, 81, 72)];
        assert_eq!(side_figures(&innings, 0, 120, false), (80, 120));
        assert_eq!(side_figures(&innings, 1, 120, true), (81, 72));
        // Had seat 1 fallen short in 12 overs, it was bowled out: the full quota.
        assert_eq!(side_figures(&innings, 1, 120, false), (81, 120));
        // A full innings is its balls either way.
        let full = [card(0, 150, 120), card(1, 140, 120)];
        assert_eq!(side_figures(&full, 0, 120, true), (150, 120));
    }

    fn entry(entry: i32, bot: bool) -> EntryRow {
        EntryRow {
            entry,
            player_id: None,
            name: None,
            bot_level: bot.then(|| "normal".to_string()),
            seed: None,
            rating: None,
        }
    }

    #[test]
    fn a_knockout_of_three_gives_the_top_seed_a_bye_into_the_final() {
        let entries: Vec<EntryRow> = (0..3).map(|index| entry(index, true)).collect();
        let (seeds, fixtures) = knockout_plan(&entries, &[1500.0, 1700.0, 1600.0]);
        // Seeds by rating: entry 1, then 2, then 0.
        assert_eq!(seeds, [(1, 1, 1700.0), (2, 2, 1600.0), (0, 3, 1500.0)]);
        let round_one: Vec<_> = fixtures.iter().filter(|f| f.round == 1).collect();
        assert_eq!(round_one.len(), 2);
        let bye = round_one.iter().find(|f| f.status == "bye").expect("a bye");
        assert_eq!(
            (bye.home_entry, bye.away_entry, bye.winner_entry),
            (Some(1), None, Some(1))
        );
        let tie = round_one.iter().find(|f| f.status == "waiting").expect("a tie");
        assert_eq!((tie.home_entry, tie.away_entry), (Some(2), Some(0)));
        let final_tie = fixtures.iter().find(|f| f.round == 2).expect("a final");
        // The top seed waits in the final for the other tie's winner.
        assert_eq!(final_tie.home_entry.or(final_tie.away_entry), Some(1));
        assert_eq!(fixtures.len(), 3);
    }

    #[test]
    fn a_league_of_four_plays_everyone_once_or_twice() {
        let entries: Vec<EntryRow> = (0..4).map(|index| entry(index, false)).collect();
        let (_, single) = league_plan(&entries, &[1500.0; 4], false);
        assert_eq!(single.len(), 6);
        assert_eq!(single.iter().map(|f| f.round).max(), Some(3));
        let (_, double) = league_plan(&entries, &[1500.0; 4], true);
        assert_eq!(double.len(), 12);
        for a in 0..4 {
            for b in 0..4 {
                if a != b {
                    let home_games = double
                        .iter()
                        .filter(|f| f.home_entry == Some(a) && f.away_entry == Some(b))
                        .count();
                    assert_eq!(home_games, 1, "{a} hosts {b} once in a double round");
                }
            }
        }
    }
}
