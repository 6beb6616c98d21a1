//! Bot-vs-bot matches straight on the state, for the simulator, benches and property tests.
//!
//! This is the fast path: no view is built and no state is cloned, but each decision is
//! made by the same [`bot::choose`] on the same [`view::ask`] a view would carry.

use super::command::Command;
use super::event::Event;
use super::options::Options;
use super::reject::CtgReject;
use super::state::Phase;
use super::state::State;
use super::view::{Ask, Situation};
use super::{Ctg, bot, engine, view};
use crate::rules::{BotPolicy, Dice, Game, Seat, Seed, SetupError};
use serde::Serialize;

/// Totals of one or many matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub matches: u64,
    pub innings: u64,
    /// Every delivery, express balls, no-balls and free hits included.
    pub deliveries: u64,
    pub legal_balls: u64,
    pub runs: u64,
    pub extras: u64,
    pub wickets: u64,
    pub dot_balls: u64,
    pub boundary_balls: u64,
    pub first_innings_runs: u64,
    pub batting_first_wins: u64,
    pub ties: u64,
    pub commands: u64,
}

impl Tally {
    /// Counts a finished match's result: a tie, or a win for the side that batted first
    /// (the side not batting at the end).
    fn count_result(&mut self, state: &State) {
        match state.winner {
            Some(None) => self.ties += 1,
            Some(Some(seat)) if seat != state.batting => self.batting_first_wins += 1,
            _ => {}
        }
    }

    pub fn add(&mut self, other: &Tally) {
        self.matches += other.matches;
        self.innings += other.innings;
        self.deliveries += other.deliveries;
        self.legal_balls += other.legal_balls;
        self.runs += other.runs;
        self.extras += other.extras;
        self.wickets += other.wickets;
        self.dot_balls += other.dot_balls;
        self.boundary_balls += other.boundary_balls;
        self.first_innings_runs += other.first_innings_runs;
        self.batting_first_wins += other.batting_first_wins;
        self.ties += other.ties;
        self.commands += other.commands;
    }

    fn count(&mut self, event: &Event) {
        match event {
            Event::BallEnded { ball } => {
                self.deliveries += 1;
                self.runs += u64::from(ball.runs) + u64::from(ball.extras);
                self.extras += u64::from(ball.extras);
                self.wickets += u64::from(ball.wicket.is_some());
                if ball.legal {
                    self.legal_balls += 1;
                    self.dot_balls += u64::from(ball.runs == 0 && ball.extras == 0);
                    self.boundary_balls += u64::from(ball.boundary > 0);
                }
            }
            Event::InningsEnded { innings, runs, .. } => {
                self.innings += 1;
                if *innings == 0 {
                    self.first_innings_runs += u64::from(*runs);
                }
            }
            _ => {}
        }
    }
}

/// One match's final state and tally.
pub struct Played {
    pub state: State,
    pub tally: Tally,
}

/// Plays a whole match. `visit` sees every event in order (for replay checks); pass
/// `|_| {}` when only the tally matters.
pub fn play(
    options: &Options,
    seed: &Seed,
    policies: [BotPolicy; 2],
    mut visit: impl FnMut(&Event),
) -> Result<Played, SetupError> {
    let mut state = Ctg::initial_state(options)?;
    let mut dice = Dice::new(seed);
    let mut bot_seed = seed.0;
    bot_seed[0] ^= 0x5a;
    let mut bots = Dice::new(&Seed(bot_seed));
    let mut tally = Tally {
        matches: 1,
        ..Tally::default()
    };
    let mut out = Vec::with_capacity(32);
    engine::start(&mut state, &mut out);
    loop {
        for event in out.drain(..) {
            tally.count(&event);
            visit(&event);
        }
        let mask = state.pending_mask();
        if mask == 0 {
            break;
        }
        let seat = Seat(mask.trailing_zeros() as u8);
        let Some(ask) = view::ask(&state, seat) else { break };
        let situation = view::situation(&state, seat);
        let command = bot::choose(&ask, &situation, policies[seat.index()], &mut bots);
        tally.commands += 1;
        if engine::execute(&mut state, seat, &command, &mut dice, &mut out).is_err() {
            // A bot must never be refused; fall back to the default so the match ends.
            let command = bot::default_command(&ask);
            if engine::execute(&mut state, seat, &command, &mut dice, &mut out).is_err() {
                return Err(SetupError(format!(
                    "no legal command for {seat} in {:?}",
                    state.phase
                )));
            }
        }
    }
    tally.count_result(&state);
    Ok(Played { state, tally })
}

/// Why a strict match ([`play_strict`]) stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum StrictError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("{seat} played {command:?} in {phase:?}, refused: {reject}")]
    Refused {
        seat: Seat,
        command: Command,
        phase: Phase,
        reject: CtgReject,
    },
}

/// Plays a whole match with one chooser per seat, each with its own dice (so one seat's
/// choices never shift the other's random draws), and stops at the first refused command
/// instead of falling back: the arena uses it, where a refusal is a bug in a policy.
pub fn play_strict(
    options: &Options,
    seed: &Seed,
    choose: impl FnMut(Seat, &Ask, &Situation, &mut Dice) -> Command,
) -> Result<Played, StrictError> {
    play_strict_visiting(options, seed, choose, |_| {})
}

/// [`play_strict`], with `visit` seeing every event in order (the calibration follows the
/// striker's Confidence through them).
pub fn play_strict_visiting(
    options: &Options,
    seed: &Seed,
    mut choose: impl FnMut(Seat, &Ask, &Situation, &mut Dice) -> Command,
    mut visit: impl FnMut(&Event),
) -> Result<Played, StrictError> {
    let mut state = Ctg::initial_state(options)?;
    let mut dice = Dice::new(seed);
    let mut seat_dice = [0x5a_u8, 0xa5].map(|salt| {
        let mut bot_seed = seed.0;
        bot_seed[0] ^= salt;
        Dice::new(&Seed(bot_seed))
    });
    let mut tally = Tally {
        matches: 1,
        ..Tally::default()
    };
    let mut out = Vec::with_capacity(32);
    engine::start(&mut state, &mut out);
    loop {
        for event in out.drain(..) {
            tally.count(&event);
            visit(&event);
        }
        let mask = state.pending_mask();
        if mask == 0 {
            break;
        }
        let seat = Seat(mask.trailing_zeros() as u8);
        let Some(ask) = view::ask(&state, seat) else { break };
        let situation = view::situation(&state, seat);
        let command = choose(seat, &ask, &situation, &mut seat_dice[seat.index() & 1]);
        tally.commands += 1;
        if let Err(reject) = engine::execute(&mut state, seat, &command, &mut dice, &mut out) {
            return Err(StrictError::Refused {
                seat,
                command,
                phase: state.phase,
                reject,
            });
        }
    }
    tally.count_result(&state);
    Ok(Played { state, tally })
}

/// The seed of match `index` of a simulation seeded with `seed`.
pub fn match_seed(seed: u64, index: u64) -> Seed {
    Seed::from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(index))
}
