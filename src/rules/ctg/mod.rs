//! Cricket: The Game (T10 / T20). Spec: `../shared/rules/ctg.md`; rules as implemented:
//! `docs/rules/ctg.md`.
//!
//! * [`types`], [`options`], [`data`]: vocabulary, per-match options, the [ASSUMED] ruleset.
//! * [`state`]: the state and the fold of events; [`event`], [`command`], [`reject`].
//! * [`field`]: fielder placement and its restrictions.
//! * [`resolve`]: the arithmetic of a ball as pure functions of die faces.
//! * [`engine`]: the rules: checks commands, draws dice, emits events.
//! * [`view`]: what a seat may see and what it is asked; [`bot`]: the bot policies.
//! * [`hard`]: the strongest bot: [`sealed`] prices a ball's card against shot as a game,
//!   [`safe`] plays its equilibrium, [`calibration`] corrects its prices from the table
//!   [`calibrate`] simulates, [`hard_field`] places its fielders; [`levels`]: easy and normal.
//! * [`sim`]: bot-vs-bot matches straight on the state (simulator, benches, property tests).

pub mod bot;
pub mod calibrate;
pub mod calibration;
pub mod command;
pub mod data;
pub mod engine;
pub mod event;
pub mod exploits;
pub mod extras;
pub mod field;
pub mod hard;
pub mod hard_field;
pub mod levels;
pub mod options;
pub mod phase;
pub mod reject;
pub mod resolve;
pub mod safe;
pub mod scorecard;
pub mod sealed;
pub mod sim;
pub mod state;
pub mod types;
pub mod view;

pub use command::Command;
pub use event::Event;
pub use options::Options;
pub use reject::CtgReject;
pub use state::State;
pub use view::View;

use crate::rules::{BotLevel, BotPolicy, Dice, Emitter, Game, Outcome, Seat, SetupError, Viewer};

/// Cricket: The Game.
pub struct Ctg;

impl Game for Ctg {
    const ID: &'static str = "ctg";
    /// Compact JSON: the largest, `select_squad`, is under 100 bytes.
    const MAX_COMMAND_BYTES: usize = 512;
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;
    type Reject = CtgReject;

    fn seat_count(options: &Options) -> Result<u8, SetupError> {
        options.validate().map_err(SetupError)?;
        Ok(2)
    }

    fn initial_state(options: &Options) -> Result<State, SetupError> {
        options.validate().map_err(SetupError)?;
        let rules = data::ruleset().map_err(SetupError)?;
        Ok(State::new(options, rules))
    }

    fn start(emitter: &mut Emitter<'_, Ctg>) {
        engine::emit_start(emitter);
    }

    fn decide(emitter: &mut Emitter<'_, Ctg>, seat: Seat, command: &Command) -> Result<(), CtgReject> {
        engine::decide(emitter, seat, command)
    }

    fn apply(state: &mut State, event: &Event) {
        state::apply(state, event);
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn redact(state: &State, event: &Event, viewer: Viewer) -> Option<Event> {
        view::redact(state, event, viewer)
    }

    fn pending(state: &State) -> Vec<Seat> {
        view::pending(state)
    }

    fn default_command(state: &State, seat: Seat) -> Option<Command> {
        view::ask(state, seat).map(|ask| bot::default_command(&ask))
    }

    fn bot_command(view: &View, policy: BotPolicy, rng: &mut Dice) -> Option<Command> {
        let ask = view.ask.as_ref()?;
        Some(bot::choose(ask, &view.situation, policy, rng))
    }

    fn has_bot(_: BotLevel) -> bool {
        true
    }

    fn bot_command_at(view: &View, level: BotLevel, rng: &mut Dice) -> Option<Command> {
        let ask = view.ask.as_ref()?;
        Some(levels::choose(level, ask, &view.situation, rng))
    }

    fn outcome(state: &State) -> Option<Outcome> {
        let winner = state.winner?;
        let runs = |seat: Seat| state.score[seat.index()].runs;
        Some(match winner {
            None => Outcome {
                placings: vec![1, 1],
                summary: format!("Tie on {} runs", runs(Seat(0))),
            },
            Some(seat) => {
                let loser = Seat(1 - seat.0);
                let margin = if seat == state.batting {
                    format!(
                        "by {} wickets",
                        10u8.saturating_sub(state.score[seat.index()].wickets)
                    )
                } else {
                    format!("by {} runs", runs(seat).saturating_sub(runs(loser)))
                };
                let mut placings = vec![2, 2];
                placings[seat.index()] = 1;
                Outcome {
                    placings,
                    summary: format!("Seat {} won {margin}", seat.0),
                }
            }
        })
    }
}
