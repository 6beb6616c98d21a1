//! The one way rules produce events: [`Emitter`].
//!
//! A game decides a command by emitting its events one at a time; each is folded into the
//! state at once with [`Game::apply`], so the rules that run after it (the end of an over,
//! the next delivery, a new round) see its effect exactly as a replay of the log will.
//!
//! The state the emitter folds into belongs to the caller. [`MatchCore`] hands it a copy of
//! the match, so once a command is accepted that copy *is* the next state, every event folded
//! exactly once: a command costs one copy of the state and one fold of its events, and
//! nothing folds them again. A refused command's copy is dropped, with whatever it holds.
//!
//! [`MatchCore`]: super::MatchCore

use super::{Game, Roller, Seat};

/// What sees each event with the state right after it (the actor's redaction).
type Observer<'a, G> = &'a mut dyn FnMut(&<G as Game>::State, &<G as Game>::Event);

/// Where a game writes the events of one command (or of the start): the state they fold
/// into, the dice they are drawn with, and the events so far.
pub struct Emitter<'a, G: Game> {
    state: &'a mut G::State,
    dice: &'a mut dyn Roller,
    events: Vec<G::Event>,
    observe: Option<Observer<'a, G>>,
}

impl<'a, G: Game> Emitter<'a, G> {
    /// Emits into `state`, drawing from `dice`. Callers that must be able to refuse the
    /// command without a trace pass a copy (as [`MatchCore`](super::MatchCore) does).
    pub fn new(state: &'a mut G::State, dice: &'a mut dyn Roller) -> Self {
        Emitter {
            state,
            dice,
            events: Vec::new(),
            observe: None,
        }
    }

    /// [`Emitter::new`], calling `observe` with the state right after each event: what
    /// per-viewer redaction needs ([`Game::redact`] takes the state after the event), with
    /// no second fold. If the command is then refused, what `observe` saw must be dropped.
    pub fn observed(state: &'a mut G::State, dice: &'a mut dyn Roller, observe: Observer<'a, G>) -> Self {
        Emitter {
            observe: Some(observe),
            ..Emitter::new(state, dice)
        }
    }

    /// The state with every event so far folded in.
    pub fn state(&self) -> &G::State {
        self.state
    }

    pub fn dice(&mut self) -> &mut (dyn Roller + 'a) {
        self.dice
    }

    /// The state and the dice at once, for a rule that draws while it reads the state.
    pub fn state_and_dice(&mut self) -> (&G::State, &mut (dyn Roller + 'a)) {
        (self.state, self.dice)
    }

    /// Folds `event` into the state and appends it to the events.
    pub fn emit(&mut self, event: G::Event) {
        G::apply(self.state, &event);
        if let Some(observe) = self.observe.as_mut() {
            observe(self.state, &event);
        }
        self.events.push(event);
    }

    /// The events emitted so far, in order.
    pub fn events(&self) -> &[G::Event] {
        &self.events
    }

    pub fn into_events(self) -> Vec<G::Event> {
        self.events
    }
}

/// A command decided on a copy of a bare state: its events and the state they lead to.
#[derive(Debug)]
pub struct Decided<G: Game> {
    pub state: G::State,
    pub events: Vec<G::Event>,
}

/// Decides `command` on a copy of `state`, drawing from `dice`: for tools and tests that
/// hold a state without a match around it (a match goes through [`MatchCore`](super::MatchCore),
/// which also keeps a refused command's draws off its stream).
pub fn decide<G: Game>(
    state: &G::State,
    seat: Seat,
    command: &G::Command,
    dice: &mut dyn Roller,
) -> Result<Decided<G>, G::Reject> {
    let mut state = state.clone();
    let mut emitter = Emitter::<G>::new(&mut state, dice);
    G::decide(&mut emitter, seat, command)?;
    let events = emitter.into_events();
    Ok(Decided { state, events })
}
