//! Pure game rules: no tokio, no sqlx, no axum, no clock.
//!
//! A game is `state + command + dice -> events`; events fold into state; a per-seat view
//! hides what that seat may not see. Every game of the server implements [`Game`], and the
//! match actor, the store, the simulator and `verify` are generic over it, so a new game
//! plugs in without touching them.
//!
//! The split between [`Game::decide`] and [`Game::apply`] is what makes matches
//! event-sourced: `decide` is the only place rules are checked and dice drawn, `apply` only
//! folds facts that already happened. Rebuilding a match is folding its log. `decide` writes
//! its events through an [`Emitter`], which folds each into a copy of the state as it is
//! emitted, and that copy becomes the match: one copy and one fold per command.

pub mod dice;
pub mod emit;
pub mod extras;
pub mod levels;
pub mod matrix_game;
pub mod runner;
pub mod scorecard;
pub mod selfplay;

pub mod champions;
pub mod ctg;
pub mod wicketz;

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::fmt::Debug;

pub use dice::{Dice, Roller, Seed};
pub use emit::Emitter;
pub use extras::{CareerFigure, CareerView, Figure, GameExtras, Listing, OperatorViews};
pub use runner::{Accepted, MatchCore, Submitted};

/// A place at the table, numbered from 0 in the order seats were created.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Who is looking: a seated player, or anyone else (spectators, the public log).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind", content = "seat")]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// How bad a refused command is, so the server can pick the wire error code without
/// knowing the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RejectKind {
    /// The game is not waiting for this seat right now.
    NotYourTurn,
    /// The seat may act, but not with this command (wrong phase, card not in hand, ...).
    IllegalMove,
    /// The match is over.
    MatchOver,
}

/// Why a command was refused. Every game has its own typed reasons; the server only needs
/// the kind and a sentence for the player.
pub trait Reject: std::error::Error + Clone + Debug + Send + Sync + 'static {
    fn kind(&self) -> RejectKind;
    /// A stable, snake_case name of the reason (e.g. `bowler_bowled_last_over`).
    fn reason(&self) -> &'static str;
}

/// Why a match could not be set up with the given options.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// The final result of a match, game-independent so ratings and the lobby can use it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Outcome {
    /// Place of each seat, by seat index: 1 is best; equal places are a tie.
    pub placings: Vec<u8>,
    /// One line for people: "Seat 0 won by 12 runs".
    pub summary: String,
}

impl Outcome {
    /// The seats that came first (more than one on a tie or a shared win).
    pub fn winners(&self) -> Vec<Seat> {
        self.placings
            .iter()
            .enumerate()
            .filter(|(_, place)| **place == 1)
            .map(|(index, _)| Seat(index as u8))
            .collect()
    }
}

/// How a bot chooses among legal commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BotPolicy {
    /// Uniformly random among legal commands: the baseline and the fuzzer.
    Random,
    /// Plays like a sensible person; the default opponent.
    #[default]
    Heuristic,
}

/// How strongly a bot plays, as a player picks it: by default `easy` is the random policy,
/// `normal` the heuristic (the server's default bot), `hard` the game's strongest bot, solved
/// from its ruleset (`ctg::hard`, `wicketz::hard`, `champions::hard`); a game without one
/// refuses it. A game may play its levels its own way, so that no fixed policy farms them:
/// CTG's `easy` and `normal` blend `hard`'s equilibrium with chance (`ctg::levels`), Wicketz's
/// and Champions' take each decision from `hard`, the heuristic or chance (`levels`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    Easy,
    #[default]
    Normal,
    Hard,
}

/// A bot level that is not one of `easy`, `normal`, `hard`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot level `{0}`: expected easy, normal or hard")]
pub struct BotLevelError(pub String);

impl BotLevel {
    pub const ALL: [BotLevel; 3] = [BotLevel::Easy, BotLevel::Normal, BotLevel::Hard];

    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Easy => "easy",
            BotLevel::Normal => "normal",
            BotLevel::Hard => "hard",
        }
    }

    /// The [`BotPolicy`] of this level, or `None` for `hard`, which is not a `BotPolicy`:
    /// each game that has one provides it itself.
    pub fn policy(self) -> Option<BotPolicy> {
        match self {
            BotLevel::Easy => Some(BotPolicy::Random),
            BotLevel::Normal => Some(BotPolicy::Heuristic),
            BotLevel::Hard => None,
        }
    }
}

impl std::str::FromStr for BotLevel {
    type Err = BotLevelError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        BotLevel::ALL
            .into_iter()
            .find(|level| level.name() == text)
            .ok_or_else(|| BotLevelError(text.chars().take(32).collect()))
    }
}

/// One game's rules. Implementations live in `rules/<game>/` and are pure.
pub trait Game: Sized + Send + Sync + 'static {
    /// Stable id used in URLs, the database and the wire: `ctg`, `wicketz`, `champions`.
    const ID: &'static str;

    /// Largest command, in bytes of JSON as the client sent it, the server passes to this
    /// game's parser; larger ones are refused unread. Each game sets it from its largest
    /// legal command with room for whitespace, so a client cannot make the parser chew on
    /// a frame's worth of padding.
    const MAX_COMMAND_BYTES: usize;

    /// Per-match options chosen at creation (format, [FIX] alternatives, clocks live in the
    /// server). Unknown fields are refused so typos do not silently fall back to defaults.
    type Options: Serialize
        + DeserializeOwned
        + schemars::JsonSchema
        + Clone
        + Debug
        + Default
        + PartialEq
        + Send
        + Sync;
    /// Everything, including sealed choices and face-down cards. Never sent to a client.
    type State: Clone + Debug + Send + Sync;
    /// What a seat asks for.
    type Command: Serialize + DeserializeOwned + schemars::JsonSchema + Clone + Debug + Send + Sync;
    /// What happened, including every die value drawn.
    type Event: Serialize + DeserializeOwned + schemars::JsonSchema + Clone + Debug + PartialEq + Send + Sync;
    /// What one viewer may see of the state, plus what that seat is asked to decide.
    type View: Serialize + DeserializeOwned + schemars::JsonSchema + Clone + Debug + Send + Sync;
    type Reject: Reject + Serialize;

    /// How many seats a match with these options has (validated: e.g. Champions 2-5).
    fn seat_count(options: &Self::Options) -> Result<u8, SetupError>;

    /// The state before anything happened. Deterministic: no dice, so a match can always
    /// be rebuilt from its options and its log.
    fn initial_state(options: &Self::Options) -> Result<Self::State, SetupError>;

    /// What the server does when every seat is filled (pitch card, toss, first shuffle),
    /// emitted into `emitter`, whose state is the match before it.
    fn start(emitter: &mut Emitter<'_, Self>);

    /// Checks a command against the rules and emits what happens into `emitter`, whose state
    /// is the match before it and, as each event is emitted, after it. The only place dice
    /// are drawn after `start`. On refusal the caller drops the emitter's state, so a rule
    /// may check late; the engines still check before they emit, which lets the simulators
    /// decide on their live state.
    fn decide(
        emitter: &mut Emitter<'_, Self>,
        seat: Seat,
        command: &Self::Command,
    ) -> Result<(), Self::Reject>;

    /// Folds one event into the state. Never fails, never draws dice. The only fold: the
    /// emitter calls it as events are emitted, replays call it on logged events.
    fn apply(state: &mut Self::State, event: &Self::Event);

    /// What `viewer` may see now, including the decisions asked of that seat.
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;

    /// `event` as `viewer` may see it, or `None` if it must not see it at all. Called with
    /// the state *after* the event was applied.
    fn redact(state: &Self::State, event: &Self::Event, viewer: Viewer) -> Option<Self::Event>;

    /// The seats the game is waiting for now (several at once for sealed choices).
    fn pending(state: &Self::State) -> Vec<Seat>;

    /// The move played for a seat whose turn clock ran out. Must be legal.
    fn default_command(state: &Self::State, seat: Seat) -> Option<Self::Command>;

    /// A bot's move, chosen only from what its seat can see, so the same code drives
    /// server-side bots and `crease bot` clients over the wire. `None` when nothing is asked.
    fn bot_command(view: &Self::View, policy: BotPolicy, rng: &mut Dice) -> Option<Self::Command>;

    /// Whether this game has a bot at `level`: `easy` and `normal` are the random and the
    /// heuristic policy every game has; `hard` only where the game provides one.
    fn has_bot(level: BotLevel) -> bool {
        level != BotLevel::Hard
    }

    /// A server-side bot's move at `level`, from its seat's view alone. A game with a `hard`
    /// bot or its own levels overrides this (and [`Game::has_bot`]); elsewhere `hard` plays
    /// `normal`.
    fn bot_command_at(view: &Self::View, level: BotLevel, rng: &mut Dice) -> Option<Self::Command> {
        Self::bot_command(view, level.policy().unwrap_or_default(), rng)
    }

    /// The result, once the match is over.
    fn outcome(state: &Self::State) -> Option<Outcome>;
}
