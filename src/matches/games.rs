//! The type-erased table of games. The server only ever talks to games through
//! [`GameKind`], implemented once for every `G: Game` by [`Registered`]; adding a game to
//! the server is one `GameRegistry::register::<NewGame>()` line.

use super::{ActorContext, MatchHandle, actor};
use crate::fairness::{self, Mismatch, VerifyReport};
use crate::protocol::schema::GameSchemas;
use crate::record::{EntryKind, LogEntry};
use crate::rules::scorecard::GameScorecard;
use crate::rules::selfplay::{self, SelfPlayError};
use crate::rules::{
    BotLevel, BotPolicy, CareerView, Dice, Figure, Game, GameExtras, Listing, MatchCore, OperatorViews,
    Outcome, Seed, SetupError, Viewer,
};
use crate::store::MatchRow;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

/// Why the registry could not do what was asked of a game.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// No registered game has this id (a stored row of a game this server does not run).
    #[error("unknown game {0:?}")]
    Unknown(String),
    /// A client's options: the message names the field (`overs: invalid value: integer
    /// 65536, expected u16`) or the rule they break.
    #[error("{0}")]
    Options(String),
    /// A stored match's options no longer read (the row was written by an incompatible
    /// version, or edited by hand).
    #[error("the stored options do not read: {0}")]
    StoredOptions(serde_json::Error),
    #[error("the stored seed is not 32 hex bytes")]
    StoredSeed,
    #[error("the game refuses the stored options: {0}")]
    Setup(SetupError),
    #[error("the log does not replay: {0}")]
    Replay(#[from] Mismatch),
    #[error(transparent)]
    Spawn(#[from] actor::SpawnError),
    /// A view given to a bot is not this game's view.
    #[error("not a view of this game: {0}")]
    View(serde_json::Error),
    #[error("a value could not be serialised: {0}")]
    Serialise(serde_json::Error),
    /// A stored event no longer reads as one of this game's events.
    #[error("the stored event {seq} does not read: {error}")]
    StoredEvent { seq: i64, error: serde_json::Error },
    #[error("the bots could not finish the match: {0}")]
    SelfPlay(#[from] SelfPlayError),
}

/// One bot-vs-bot match played by [`GameKind::simulate`].
#[derive(Clone, Debug, PartialEq)]
pub struct Simulated {
    pub outcome: Outcome,
    pub commands: u32,
    pub events: u32,
    pub figures: Vec<Figure>,
}

/// A game as the server sees it: JSON in, JSON out.
pub trait GameKind: Send + Sync + 'static {
    fn id(&self) -> &'static str;

    /// [`Game::MAX_COMMAND_BYTES`]: a socket on a node that does not run the match (cluster
    /// mode) checks it before routing the command to the match's owner.
    fn max_command_bytes(&self) -> usize;

    /// Reads options (absent = the game's defaults); returns them normalised and the seat count.
    fn check_options(&self, options: Option<Value>) -> Result<(Value, u8), GameError>;

    /// Rebuilds the match from its log (verifying it on the way) and starts its actor.
    fn spawn(
        &self,
        context: ActorContext,
        options: &Value,
        log: Vec<LogEntry>,
    ) -> Result<(MatchHandle, tokio::task::JoinHandle<()>), GameError>;

    /// Checks a finished match's log against its revealed seed.
    fn verify(&self, row: &MatchRow, log: &[LogEntry]) -> VerifyReport;

    /// The view of a match rebuilt from its log (finished matches have no actor); with an
    /// empty log, the view before the start (a match still open).
    fn replayed_view(&self, row: &MatchRow, log: &[LogEntry], viewer: Viewer) -> Result<Value, GameError>;

    /// A bot's move from a view as received over the wire (its JSON text); drives
    /// `crease bot` and `crease load`.
    fn bot_command(&self, view: &str, policy: BotPolicy, dice: &mut Dice)
    -> Result<Option<Value>, GameError>;

    /// [`Game::has_bot`]: whether the game has a bot at `level`.
    fn has_bot(&self, level: BotLevel) -> bool;

    fn schemas(&self) -> GameSchemas;

    // The extras ([`GameExtras`]): what the pages, ratings and tools need of the game.

    fn listing(&self) -> Listing;

    /// [`GameExtras::CLIENT_MODULE`]: the browser module the game ships in its own folder.
    fn client_module(&self) -> Option<&'static str>;

    fn operator_views(&self) -> OperatorViews;

    /// [`GameExtras::RULES_DATA`]: the data files the engine plays by, for the rules reference.
    fn rules_data(&self) -> &'static [(&'static str, &'static str)];

    /// [`GameExtras::engine_rules`]: the rule values the engine holds in code.
    fn engine_rules(&self) -> Option<Value>;

    /// [`GameExtras::TUTORIAL`]: the tutorial match's seed and options, if the game has one.
    fn tutorial(&self) -> Option<&'static str>;

    /// [`GameExtras::CAREER`]: the view a player's career in the game is read from.
    fn career(&self) -> Option<CareerView>;

    /// The rating pool of a match with these (normalised or stored) options.
    fn rating_pool(&self, options: &Value) -> Result<String, GameError>;

    /// [`GameExtras::rating_pools`]: the pools a leaderboard offers, the default first.
    fn rating_pools(&self) -> Vec<String>;

    /// [`GameExtras::innings_quota_balls`] of stored options.
    fn innings_quota_balls(&self, options: &Value) -> Result<Option<u32>, GameError>;

    /// The scorecard of a stored match from its log's events (commands are not play), or
    /// `None` for a game without one. Every event in the log is public once its ball is
    /// over, so live matches get one too.
    fn scorecard(&self, options: &Value, log: &[LogEntry]) -> Result<Option<GameScorecard>, GameError>;

    /// Plays one match in memory with every seat's bot at `level` (`crease simulate`).
    fn simulate(&self, options: &Value, seed: &Seed, level: BotLevel) -> Result<Simulated, GameError>;
}

/// Reads stored (or normalised) options as the game's own type.
fn stored_options<G: Game>(options: &Value) -> Result<G::Options, GameError> {
    G::Options::deserialize(options).map_err(GameError::StoredOptions)
}

/// The [`GameKind`] of a concrete game.
pub struct Registered<G>(PhantomData<fn() -> G>);

impl<G: GameExtras> GameKind for Registered<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn max_command_bytes(&self) -> usize {
        G::MAX_COMMAND_BYTES
    }

    fn check_options(&self, options: Option<Value>) -> Result<(Value, u8), GameError> {
        let options: G::Options = match options {
            None | Some(Value::Null) => G::Options::default(),
            // The error names the field (`overs: invalid value: integer 65536, expected u16`).
            Some(value) => serde_path_to_error::deserialize(value)
                .map_err(|error| GameError::Options(error.to_string()))?,
        };
        let refused = |error: SetupError| GameError::Options(error.to_string());
        let seats = G::seat_count(&options).map_err(refused)?;
        G::initial_state(&options).map_err(refused)?;
        let normalised = serde_json::to_value(&options).map_err(GameError::Serialise)?;
        Ok((normalised, seats))
    }

    fn spawn(
        &self,
        context: ActorContext,
        options: &Value,
        log: Vec<LogEntry>,
    ) -> Result<(MatchHandle, tokio::task::JoinHandle<()>), GameError> {
        let options = stored_options::<G>(options)?;
        let rating_pool = G::rating_pool(&options);
        Ok(actor::spawn::<G>(context, options, rating_pool, log)?)
    }

    fn verify(&self, row: &MatchRow, log: &[LogEntry]) -> VerifyReport {
        match serde_json::from_value::<G::Options>(row.options.0.clone()) {
            Ok(options) => fairness::verify::<G>(&options, &row.seed, &row.seed_commitment, log),
            Err(error) => VerifyReport::Mismatch {
                seq: 0,
                reason: format!("unreadable options: {error}"),
            },
        }
    }

    fn replayed_view(&self, row: &MatchRow, log: &[LogEntry], viewer: Viewer) -> Result<Value, GameError> {
        let options: G::Options =
            serde_json::from_value(row.options.0.clone()).map_err(GameError::StoredOptions)?;
        let seed = Seed::from_hex(&row.seed).ok_or(GameError::StoredSeed)?;
        // An empty log is a match that has not started (a replay would miss its start's events).
        let core = if log.is_empty() {
            MatchCore::<G>::new(&options, &seed).map_err(GameError::Setup)?
        } else {
            fairness::replay::<G>(&options, &seed, log, |_, _, _| {})?.core
        };
        serde_json::to_value(G::view(&core.state, viewer)).map_err(GameError::Serialise)
    }

    fn bot_command(
        &self,
        view: &str,
        policy: BotPolicy,
        dice: &mut Dice,
    ) -> Result<Option<Value>, GameError> {
        let view: G::View = serde_json::from_str(view).map_err(GameError::View)?;
        match G::bot_command(&view, policy, dice) {
            Some(command) => serde_json::to_value(command)
                .map(Some)
                .map_err(GameError::Serialise),
            None => Ok(None),
        }
    }

    fn has_bot(&self, level: BotLevel) -> bool {
        G::has_bot(level)
    }

    fn schemas(&self) -> GameSchemas {
        GameSchemas {
            options: schemars::schema_for!(G::Options),
            command: schemars::schema_for!(G::Command),
            event: schemars::schema_for!(G::Event),
            view: schemars::schema_for!(G::View),
        }
    }

    fn listing(&self) -> Listing {
        G::LISTING
    }

    fn client_module(&self) -> Option<&'static str> {
        G::CLIENT_MODULE
    }

    fn operator_views(&self) -> OperatorViews {
        G::OPERATOR_VIEWS
    }

    fn career(&self) -> Option<CareerView> {
        G::CAREER
    }

    fn rules_data(&self) -> &'static [(&'static str, &'static str)] {
        G::RULES_DATA
    }

    fn engine_rules(&self) -> Option<Value> {
        G::engine_rules()
    }

    fn tutorial(&self) -> Option<&'static str> {
        G::TUTORIAL
    }

    fn rating_pool(&self, options: &Value) -> Result<String, GameError> {
        Ok(G::rating_pool(&stored_options::<G>(options)?))
    }

    fn rating_pools(&self) -> Vec<String> {
        G::rating_pools()
    }

    fn innings_quota_balls(&self, options: &Value) -> Result<Option<u32>, GameError> {
        Ok(G::innings_quota_balls(&stored_options::<G>(options)?))
    }

    fn scorecard(&self, options: &Value, log: &[LogEntry]) -> Result<Option<GameScorecard>, GameError> {
        let options = stored_options::<G>(options)?;
        let events = log
            .iter()
            .filter(|entry| entry.kind == EntryKind::Event)
            .map(|entry| {
                G::Event::deserialize(&entry.payload).map_err(|error| GameError::StoredEvent {
                    seq: entry.seq,
                    error,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        G::scorecard(&options, &events).map_err(GameError::Setup)
    }

    fn simulate(&self, options: &Value, seed: &Seed, level: BotLevel) -> Result<Simulated, GameError> {
        let options = stored_options::<G>(options)?;
        let played = selfplay::play::<G>(&options, seed, level)?;
        let outcome = G::outcome(&played.core.state).ok_or(SelfPlayError::Unfinished)?;
        Ok(Simulated {
            outcome,
            commands: played.commands,
            events: played.events,
            figures: G::figures(&played.core.state),
        })
    }
}

/// Every game the server can run, by id, in the order they were registered (the order the
/// catalogue, and so the lobby, lists them in).
#[derive(Clone, Default)]
pub struct GameRegistry {
    games: BTreeMap<&'static str, Arc<dyn GameKind>>,
    order: Vec<&'static str>,
}

impl GameRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// The games this build ships.
    pub fn standard() -> Self {
        Self::new()
            .register::<crate::rules::ctg::Ctg>()
            .register::<crate::rules::wicketz::Wicketz>()
            .register::<crate::rules::champions::Champions>()
    }

    pub fn register<G: GameExtras>(mut self) -> Self {
        if self
            .games
            .insert(G::ID, Arc::new(Registered::<G>(PhantomData)))
            .is_none()
        {
            self.order.push(G::ID);
        }
        self
    }

    pub fn get(&self, id: &str) -> Option<Arc<dyn GameKind>> {
        self.games.get(id).cloned()
    }

    /// The game `id` names, or [`GameError::Unknown`]: what every request and stored row
    /// that names a game needs (a game this build does not register is an error, never a
    /// panic).
    pub fn require(&self, id: &str) -> Result<Arc<dyn GameKind>, GameError> {
        self.get(id).ok_or_else(|| GameError::Unknown(id.to_string()))
    }

    pub fn ids(&self) -> Vec<&'static str> {
        self.order.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctg() -> Arc<dyn GameKind> {
        GameRegistry::standard()
            .get("ctg")
            .expect("ctg is registered")
            .clone()
    }

    #[test]
    fn require_names_the_unknown_game_and_finds_a_registered_one() {
        let registry = GameRegistry::standard();
        for id in registry.ids() {
            assert_eq!(
                registry.require(id).expect("registered").listing().name,
                registry.get(id).expect("registered").listing().name
            );
        }
        match registry.require("chess") {
            Err(GameError::Unknown(id)) => assert_eq!(id, "chess"),
            Err(other) => panic!("{other}"),
            Ok(_) => panic!("chess is not registered"),
        }
    }

    fn row(options: Value, seed: &str) -> MatchRow {
        MatchRow {
            match_id: crate::record::MatchId::from_uuid(uuid::Uuid::nil()),
            game: "ctg".into(),
            options: sqlx::types::Json(options),
            status: crate::record::MatchStatus::Open,
            seat_count: 2,
            turn_clock_ms: 1,
            disconnect_grace_ms: 1,
            seed_commitment: String::new(),
            seed: seed.into(),
            created_at: chrono::Utc::now(),
            started_at: None,
            finished_at: None,
            result: None,
            adjourned_at: None,
            resume_at: None,
        }
    }

    /// Each game splits its ratings by what changes the game most, read from its typed
    /// options: a client's partial options get the game's defaults for the rest.
    #[test]
    fn rating_pools_come_from_each_games_typed_options() {
        let games = GameRegistry::standard();
        let pool = |game: &str, options: Value| {
            let kind = games.get(game).expect("registered");
            let (normalised, _) = kind.check_options(Some(options)).expect("valid options");
            kind.rating_pool(&normalised).expect("a pool")
        };
        assert_eq!(pool("ctg", json!({"format": "t20"})), "t20");
        assert_eq!(pool("ctg", json!({})), "t10");
        assert_eq!(
            pool("wicketz", json!({"overs": 40, "innings_per_side": 2})),
            "40ov_x2"
        );
        assert_eq!(pool("wicketz", json!({"overs": 5})), "5ov");
        assert_eq!(pool("champions", json!({"players": 3})), "3p");
        for id in games.ids() {
            let kind = games.get(id).expect("registered");
            let (defaults, _) = kind.check_options(None).expect("the defaults");
            assert_eq!(
                kind.rating_pools().first(),
                Some(&kind.rating_pool(&defaults).expect("a pool")),
                "{id}: a leaderboard opens on the default options' pool"
            );
        }
    }

    /// A client's bad options are a 400 naming the field; a stored match that cannot be
    /// rebuilt is a 500 saying why: the error's kind, not its text, decides.
    #[test]
    fn each_failure_is_typed_and_maps_to_its_http_answer() {
        let error = ctg().check_options(Some(json!({ "format": "t50" }))).unwrap_err();
        assert!(
            matches!(&error, GameError::Options(message) if message.contains("format")),
            "{error}"
        );

        let seed = "00".repeat(32);
        let (options, _) = ctg().check_options(None).expect("the defaults");
        assert!(
            ctg()
                .replayed_view(&row(options.clone(), &seed), &[], Viewer::Spectator)
                .is_ok()
        );
        let error = ctg()
            .replayed_view(&row(options, "not hex"), &[], Viewer::Spectator)
            .unwrap_err();
        assert!(matches!(error, GameError::StoredSeed), "{error}");
        let error = ctg()
            .replayed_view(&row(json!({ "format": 7 }), &seed), &[], Viewer::Spectator)
            .unwrap_err();
        assert!(matches!(error, GameError::StoredOptions(_)), "{error}");

        let error = ctg()
            .bot_command("{}", BotPolicy::Heuristic, &mut Dice::new(&Seed::from_u64(1)))
            .unwrap_err();
        assert!(matches!(error, GameError::View(_)), "{error}");
    }
}
