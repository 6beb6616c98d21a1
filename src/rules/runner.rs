//! A match without I/O: state, dice and the rule that a refused command leaves no trace.
//!
//! The match actor, the simulator and `verify` all drive games through [`MatchCore`], so
//! "the same seed and the same commands give the same events" holds by construction.

use super::{Dice, Game, Seat, Seed, SetupError};

/// The events one accepted command produced, with where the dice stream stood before it.
#[derive(Debug, Clone, PartialEq)]
pub struct Submitted<E> {
    pub events: Vec<E>,
    pub dice_position_before: u128,
}

#[derive(Debug)]
pub struct MatchCore<G: Game> {
    pub state: G::State,
    pub dice: Dice,
}

// Written by hand because a derive would demand `G: Clone`, and a game's marker type need
// not be: only its state and the dice are copied.
impl<G: Game> Clone for MatchCore<G> {
    fn clone(&self) -> Self {
        MatchCore {
            state: self.state.clone(),
            dice: self.dice.clone(),
        }
    }
}

impl<G: Game> MatchCore<G> {
    /// A match before `start`: the deterministic initial state and a fresh stream.
    pub fn new(options: &G::Options, seed: &Seed) -> Result<Self, SetupError> {
        Ok(MatchCore {
            state: G::initial_state(options)?,
            dice: Dice::new(seed),
        })
    }

    /// Runs the game's start and folds its events.
    pub fn start(&mut self) -> Vec<G::Event> {
        self.start_observed(|_, _| {})
    }

    /// [`MatchCore::start`], calling `observe` with the state right after each event.
    pub fn start_observed(&mut self, observe: impl FnMut(&G::State, &G::Event)) -> Vec<G::Event> {
        let events = G::start(&self.state, &mut self.dice);
        self.fold_observed(&events, observe);
        events
    }

    /// Decides and folds a command. A refused command draws nothing from the real stream:
    /// the game decides on a fork, and the fork is kept only on success.
    pub fn submit(&mut self, seat: Seat, command: &G::Command) -> Result<Submitted<G::Event>, G::Reject> {
        self.submit_observed(seat, command, |_, _| {})
    }

    /// [`MatchCore::submit`], calling `observe` with the state right after each event: what
    /// per-viewer redaction needs, without a second copy of the state to fold again.
    pub fn submit_observed(
        &mut self,
        seat: Seat,
        command: &G::Command,
        observe: impl FnMut(&G::State, &G::Event),
    ) -> Result<Submitted<G::Event>, G::Reject> {
        let dice_position_before = self.dice.position();
        let mut fork = self.dice.clone();
        let events = G::decide(&self.state, seat, command, &mut fork)?;
        self.dice = fork;
        self.fold_observed(&events, observe);
        Ok(Submitted {
            events,
            dice_position_before,
        })
    }

    pub fn fold(&mut self, events: &[G::Event]) {
        self.fold_observed(events, |_, _| {});
    }

    fn fold_observed(&mut self, events: &[G::Event], mut observe: impl FnMut(&G::State, &G::Event)) {
        for event in events {
            G::apply(&mut self.state, event);
            observe(&self.state, event);
        }
    }
}
