//! The type-erased table of games. The server only ever talks to games through
//! [`GameKind`], implemented once for every `G: Game` by [`Registered`]; adding a game to
//! the server is one `GameRegistry::register::<NewGame>()` line.

use super::{ActorContext, MatchHandle, actor};
use crate::fairness::{self, VerifyReport};
use crate::rules::{BotPolicy, Dice, Game, MatchCore, Seed, Viewer};
use crate::store::{LogEntry, MatchRow};
use serde_json::Value;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

/// JSON Schemas of one game's payloads, for `proto/<game>/`.
pub struct GameSchemas {
    pub options: schemars::Schema,
    pub command: schemars::Schema,
    pub event: schemars::Schema,
    pub view: schemars::Schema,
}

/// A game as the server sees it: JSON in, JSON out.
pub trait GameKind: Send + Sync + 'static {
    fn id(&self) -> &'static str;

    /// [`Game::MAX_COMMAND_BYTES`]: a socket on a node that does not run the match (cluster
    /// mode) checks it before routing the command to the match's owner.
    fn max_command_bytes(&self) -> usize;

    /// Reads options (absent = the game's defaults); returns them normalised and the seat count.
    fn check_options(&self, options: Option<Value>) -> Result<(Value, u8), String>;

    /// Rebuilds the match from its log (verifying it on the way) and starts its actor.
    fn spawn(
        &self,
        context: ActorContext,
        options: &Value,
        log: Vec<LogEntry>,
    ) -> Result<(MatchHandle, tokio::task::JoinHandle<()>), String>;

    /// Checks a finished match's log against its revealed seed.
    fn verify(&self, row: &MatchRow, log: &[LogEntry]) -> VerifyReport;

    /// The view of a match rebuilt from its log (finished matches have no actor); with an
    /// empty log, the view before the start (a match still open).
    fn replayed_view(&self, row: &MatchRow, log: &[LogEntry], viewer: Viewer) -> Result<Value, String>;

    /// A bot's move from a view as received over the wire (its JSON text); drives
    /// `crease bot` and `crease load`.
    fn bot_command(&self, view: &str, policy: BotPolicy, dice: &mut Dice) -> Result<Option<Value>, String>;

    fn schemas(&self) -> GameSchemas;
}

/// The [`GameKind`] of a concrete game.
pub struct Registered<G>(PhantomData<fn() -> G>);

impl<G: Game> GameKind for Registered<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn max_command_bytes(&self) -> usize {
        G::MAX_COMMAND_BYTES
    }

    fn check_options(&self, options: Option<Value>) -> Result<(Value, u8), String> {
        let options: G::Options = match options {
            None | Some(Value::Null) => G::Options::default(),
            // The error names the field (`overs: invalid value: integer 65536, expected u16`).
            Some(value) => serde_path_to_error::deserialize(value).map_err(|error| error.to_string())?,
        };
        let seats = G::seat_count(&options).map_err(|error| error.to_string())?;
        G::initial_state(&options).map_err(|error| error.to_string())?;
        let normalised = serde_json::to_value(&options).map_err(|error| error.to_string())?;
        Ok((normalised, seats))
    }

    fn spawn(
        &self,
        context: ActorContext,
        options: &Value,
        log: Vec<LogEntry>,
    ) -> Result<(MatchHandle, tokio::task::JoinHandle<()>), String> {
        let options: G::Options =
            serde_json::from_value(options.clone()).map_err(|error| error.to_string())?;
        actor::spawn::<G>(context, options, log).map_err(|error| error.to_string())
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

    fn replayed_view(&self, row: &MatchRow, log: &[LogEntry], viewer: Viewer) -> Result<Value, String> {
        let options: G::Options = serde_json::from_value(row.options.0.clone()).map_err(|e| e.to_string())?;
        let seed = Seed::from_hex(&row.seed).ok_or("the stored seed is not 32 hex bytes")?;
        // An empty log is a match that has not started (a replay would miss its start's events).
        let core = if log.is_empty() {
            MatchCore::<G>::new(&options, &seed).map_err(|e| e.to_string())?
        } else {
            fairness::replay::<G>(&options, &seed, log, |_, _, _| {})
                .map_err(|e| e.to_string())?
                .core
        };
        serde_json::to_value(G::view(&core.state, viewer)).map_err(|e| e.to_string())
    }

    fn bot_command(&self, view: &str, policy: BotPolicy, dice: &mut Dice) -> Result<Option<Value>, String> {
        let view: G::View = serde_json::from_str(view).map_err(|error| error.to_string())?;
        match G::bot_command(&view, policy, dice) {
            Some(command) => serde_json::to_value(command)
                .map(Some)
                .map_err(|error| error.to_string()),
            None => Ok(None),
        }
    }

    fn schemas(&self) -> GameSchemas {
        GameSchemas {
            options: schemars::schema_for!(G::Options),
            command: schemars::schema_for!(G::Command),
            event: schemars::schema_for!(G::Event),
            view: schemars::schema_for!(G::View),
        }
    }
}

/// Every game the server can run, by id.
#[derive(Clone, Default)]
pub struct GameRegistry {
    games: BTreeMap<&'static str, Arc<dyn GameKind>>,
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

    pub fn register<G: Game>(mut self) -> Self {
        self.games.insert(G::ID, Arc::new(Registered::<G>(PhantomData)));
        self
    }

    pub fn get(&self, id: &str) -> Option<Arc<dyn GameKind>> {
        self.games.get(id).cloned()
    }

    pub fn ids(&self) -> Vec<&'static str> {
        self.games.keys().copied().collect()
    }
}
