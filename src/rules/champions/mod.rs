//! Cricket Champions (2-5 players). Spec: `../shared/rules/champions.md`; seed:
//! `../shared/seeds/003_a3e523365b63d62b.txt`; rules as implemented: `docs/rules/champions.md`.
//!
//! Everything in this game is public except the order of the Xp draw pile, so `redact` only
//! strips that order from the setup event, and views show the pile's size.

pub mod bots;
pub mod cards;
pub mod commands;
pub mod data;
pub mod errors;
pub mod events;
pub mod exploits;
pub mod extras;
pub mod faces;
pub mod flow;
pub mod fold;
pub mod hard;
pub mod market;
pub mod options;
pub mod resolve;
pub mod rounds;
pub mod scorecard;
pub mod scoring;
pub mod state;
pub mod view;

pub use commands::Command;
pub use errors::ChampionsReject;
pub use events::{Event, HiddenPile, PowerUse};
pub use faces::{Face, Role};
pub use options::Options;
pub use state::{Phase, State};
pub use view::{Ask, View};

use crate::rules::levels::{LevelBlends, Voice};
use crate::rules::{BotLevel, BotPolicy, Dice, Emitter, Game, Outcome, Seat, SetupError, Viewer};
use std::sync::LazyLock;

/// The committed blends of `easy` and `normal`.
pub static BOT_LEVELS: LazyLock<LevelBlends> = LazyLock::new(|| {
    LevelBlends::parse(include_str!("../../../data/champions/bot_levels.json"))
        .unwrap_or_else(|e| panic!("data/champions/bot_levels.json: {e}"))
});

pub struct Champions;

impl Game for Champions {
    const ID: &'static str = "champions";
    /// Compact JSON: the largest legal one, `stop` using all 17 Xp cards of the ruleset
    /// (at most about 70 bytes a power), is under 1.2 KiB.
    const MAX_COMMAND_BYTES: usize = 2048;
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;
    type Reject = ChampionsReject;

    fn seat_count(options: &Options) -> Result<u8, SetupError> {
        options.validated_players()
    }

    fn initial_state(options: &Options) -> Result<State, SetupError> {
        Ok(State::new(options.validated_players()?))
    }

    fn start(emitter: &mut Emitter<'_, Champions>) {
        flow::start(emitter);
    }

    fn decide(
        emitter: &mut Emitter<'_, Champions>,
        seat: Seat,
        command: &Command,
    ) -> Result<(), ChampionsReject> {
        flow::decide(emitter, seat, command)
    }

    fn apply(state: &mut State, event: &Event) {
        fold::apply(state, event)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn redact(_state: &State, event: &Event, _viewer: Viewer) -> Option<Event> {
        Some(match event {
            Event::DeckShuffled { market, draw_pile } => Event::DeckShuffled {
                market: market.clone(),
                draw_pile: HiddenPile {
                    size: draw_pile.size,
                    order: None,
                },
            },
            other => other.clone(),
        })
    }

    fn pending(state: &State) -> Vec<Seat> {
        flow::pending(state)
    }

    /// Roll if not yet rolled, otherwise stop without powers; pass when buying.
    fn default_command(state: &State, seat: Seat) -> Option<Command> {
        if !flow::pending(state).contains(&seat) {
            return None;
        }
        match &state.phase {
            Phase::Over(over) if over.turn(over.active_role()).rolls_used == 0 => {
                Some(Command::Roll { dice: Vec::new() })
            }
            Phase::Over(_) => Some(Command::Stop { powers: Vec::new() }),
            Phase::Buying { .. } => Some(Command::Pass {}),
            Phase::Between | Phase::Finished => None,
        }
    }

    fn bot_command(view: &View, policy: BotPolicy, rng: &mut Dice) -> Option<Command> {
        bots::bot_command(view, policy, rng)
    }

    fn has_bot(_: BotLevel) -> bool {
        true
    }

    /// `hard` alone, or the level's blend of `hard`, the heuristic and chance
    /// (`data/champions/bot_levels.json`, [`crate::rules::levels`]).
    fn bot_command_at(view: &View, level: BotLevel, rng: &mut Dice) -> Option<Command> {
        match BOT_LEVELS.voice(level, rng) {
            Voice::Policy(policy) => bots::bot_command(view, policy, rng),
            Voice::Hard => hard::bot_command(view),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }
}
