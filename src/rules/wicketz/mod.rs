//! Wicketz. Spec: `../shared/rules/wicketz.md`; rulebook: `../shared/seeds/002_5b76236006f2f885.txt`;
//! the project's own rules: `docs/rules/wicketz.md`.
//!
//! Two seats. The server tosses the coin, spins the bowling and catch indicators and deals the
//! result cards from a shuffled 246-card dispenser. Per ball, the bowling side's only
//! decisions are made between overs (pace/spin, field, line), so the engine bowls each ball
//! itself and asks the batting side for a stroke to a delivery it has already seen.
//!
//! Layout: [`options`], [`data`] (ruleset and deck), [`field`], [`indicator`], [`strokes`],
//! [`cards`], [`reading`] (card reading order and catch rule, pure), [`state`] (fold),
//! [`events`], [`commands`], [`errors`], [`decide`] (the only dice), [`view`] (views and
//! redaction; [`card_set`] is how a view sends the cards still to come), [`bots`], [`hard`] (the `hard` bot), [`outcomes`] (its stroke x delivery
//! table, solved offline), [`generator`] (the deck's documented generator).

pub mod bots;
pub mod card_set;
pub mod cards;
pub mod commands;
pub mod data;
pub mod decide;
pub mod errors;
pub mod events;
pub mod exploits;
pub mod extras;
pub mod field;
pub mod generator;
pub mod hard;
pub mod indicator;
pub mod options;
pub mod outcomes;
pub mod reading;
pub mod scorecard;
pub mod state;
pub mod strokes;
pub mod view;

pub use commands::Command;
pub use errors::WicketzReject;
pub use events::Event;
pub use options::Options;
pub use state::State;
pub use view::View;

use crate::rules::levels::{LevelBlends, Voice};
use crate::rules::{BotLevel, BotPolicy, Dice, Emitter, Game, Outcome, Seat, SetupError, Viewer};
use std::sync::LazyLock;

/// The committed blends of `easy` and `normal`.
pub static BOT_LEVELS: LazyLock<LevelBlends> = LazyLock::new(|| {
    LevelBlends::parse(include_str!("../../../data/wicketz/bot_levels.json"))
        .unwrap_or_else(|e| panic!("data/wicketz/bot_levels.json: {e}"))
});

pub struct Wicketz;

/// Upper bound on agreed overs: past it the seed's card cycle and the UI stop making sense.
const MAX_OVERS: u16 = 100;

impl Game for Wicketz {
    const ID: &'static str = "wicketz";
    /// Compact JSON: the largest, `set_over` with a whole field and a line, is under 200 bytes.
    const MAX_COMMAND_BYTES: usize = 1024;
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;
    type Reject = WicketzReject;

    fn seat_count(options: &Options) -> Result<u8, SetupError> {
        validate(options)?;
        Ok(2)
    }

    fn initial_state(options: &Options) -> Result<State, SetupError> {
        validate(options)?;
        Ok(State::new(options.clone()))
    }

    fn start(emitter: &mut Emitter<'_, Wicketz>) {
        decide::start(emitter);
    }

    fn decide(
        emitter: &mut Emitter<'_, Wicketz>,
        seat: Seat,
        command: &Command,
    ) -> Result<(), WicketzReject> {
        decide::decide(emitter, seat, command)
    }

    fn apply(state: &mut State, event: &Event) {
        state.apply(event);
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn redact(_state: &State, event: &Event, viewer: Viewer) -> Option<Event> {
        view::redact(event, viewer)
    }

    fn pending(state: &State) -> Vec<Seat> {
        decide::pending(state)
    }

    fn default_command(state: &State, seat: Seat) -> Option<Command> {
        if !decide::pending(state).contains(&seat) {
            return None;
        }
        match state.phase {
            state::Phase::AwaitToss => Some(Command::ChooseInnings { bat: true }),
            state::Phase::AwaitOverSetup => Some(Command::SetOver {
                style: state.last_style.unwrap_or(indicator::Style::Pace),
                field: Some(decide::field_to_keep(state)),
                line: None,
            }),
            // Defensive strokes are legal against every delivery and on every line.
            state::Phase::AwaitStroke => Some(Command::Play {
                stroke: strokes::Stroke::ForwardDefence,
                wild_card: false,
            }),
            state::Phase::NotStarted | state::Phase::Finished => None,
        }
    }

    fn bot_command(view: &View, policy: BotPolicy, rng: &mut Dice) -> Option<Command> {
        bots::bot_command(view, policy, rng)
    }

    fn has_bot(_: BotLevel) -> bool {
        true
    }

    /// `hard` alone, or the level's blend of `hard`, the heuristic and chance
    /// (`data/wicketz/bot_levels.json`, [`crate::rules::levels`]).
    fn bot_command_at(view: &View, level: BotLevel, rng: &mut Dice) -> Option<Command> {
        match BOT_LEVELS.voice(level, rng) {
            Voice::Policy(policy) => bots::bot_command(view, policy, rng),
            Voice::Hard => hard::choose(view, rng),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }
}

fn validate(options: &Options) -> Result<(), SetupError> {
    if options.overs == 0 || options.overs > MAX_OVERS {
        return Err(SetupError(format!(
            "`overs` must be 1 to {MAX_OVERS}, not {}",
            options.overs
        )));
    }
    if !(1..=2).contains(&options.innings_per_side) {
        return Err(SetupError(format!(
            "`innings_per_side` must be 1 or 2, not {}",
            options.innings_per_side
        )));
    }
    if let options::FieldingRestriction::Agreed {
        overs,
        max_outside_inner,
    } = options.fielding_restriction
    {
        // Restricted overs beyond the innings would be a rule that can never apply.
        if overs > options.overs {
            return Err(SetupError(format!(
                "`fielding_restriction.overs` must be 0 to {} (the match's `overs`), not {overs}",
                options.overs
            )));
        }
        if usize::from(max_outside_inner) > field::OUTFIELDERS {
            return Err(SetupError(format!(
                "`fielding_restriction.max_outside_inner` must be 0 to {}, not {max_outside_inner}",
                field::OUTFIELDERS
            )));
        }
    }
    Ok(())
}
