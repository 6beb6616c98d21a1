//! A match without I/O: state, dice and the rule that a refused command leaves no trace.
//!
//! The match actor, the simulator and `verify` all drive games through [`MatchCore`], so
//! "the same seed and the same commands give the same events" holds by construction.
//!
//! A command is decided on one copy of the match, through an [`Emitter`] that folds each
//! event into the copy as the rules emit it; the accepted copy becomes the match. So one
//! command costs one copy of the state and one fold of its events.

use super::{Dice, Emitter, Game, Seat, Seed, SetupError};

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

/// A command the rules accepted, not yet adopted: the match it leads to (its events already
/// folded in) and the events. The actor holds it until the journal has committed them.
#[derive(Debug)]
pub struct Accepted<G: Game> {
    pub next: MatchCore<G>,
    pub submitted: Submitted<G::Event>,
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

    /// Runs the game's start, folding its events into this match as they are emitted.
    pub fn start(&mut self) -> Vec<G::Event> {
        self.start_observed(|_, _| {})
    }

    /// [`MatchCore::start`], calling `observe` with the state right after each event.
    pub fn start_observed(&mut self, mut observe: impl FnMut(&G::State, &G::Event)) -> Vec<G::Event> {
        // The start cannot be refused, so it emits straight into the match.
        let mut emitter = Emitter::<G>::observed(&mut self.state, &mut self.dice, &mut observe);
        G::start(&mut emitter);
        emitter.into_events()
    }

    /// Decides and adopts a command. A refused command changes nothing, not even the dice.
    pub fn submit(&mut self, seat: Seat, command: &G::Command) -> Result<Submitted<G::Event>, G::Reject> {
        let accepted = self.decide(seat, command)?;
        *self = accepted.next;
        Ok(accepted.submitted)
    }

    /// Decides a command on a copy of this match, which stays as it is: the copy, with the
    /// events folded in once, is what [`Accepted::next`] holds.
    pub fn decide(&self, seat: Seat, command: &G::Command) -> Result<Accepted<G>, G::Reject> {
        self.decide_observed(seat, command, |_, _| {})
    }

    /// [`MatchCore::decide`], calling `observe` with the copy's state right after each event:
    /// what per-viewer redaction needs, without folding the events a second time. On refusal
    /// whatever `observe` saw must be dropped.
    pub fn decide_observed(
        &self,
        seat: Seat,
        command: &G::Command,
        mut observe: impl FnMut(&G::State, &G::Event),
    ) -> Result<Accepted<G>, G::Reject> {
        let dice_position_before = self.dice.position();
        let mut next = self.clone();
        let mut emitter = Emitter::<G>::observed(&mut next.state, &mut next.dice, &mut observe);
        G::decide(&mut emitter, seat, command)?;
        let events = emitter.into_events();
        Ok(Accepted {
            next,
            submitted: Submitted {
                events,
                dice_position_before,
            },
        })
    }

    /// Folds events that already happened (a log, a test's setup) into this match.
    pub fn fold(&mut self, events: &[G::Event]) {
        for event in events {
            G::apply(&mut self.state, event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BotPolicy, Outcome, Reject, RejectKind, Viewer, champions, ctg, wicketz};
    use std::cell::Cell;

    thread_local! {
        /// Calls of [`Counting::apply`] on this thread.
        static FOLDS: Cell<usize> = const { Cell::new(0) };
    }

    fn folds() -> usize {
        FOLDS.with(Cell::get)
    }

    /// A game whose fold counts its calls: command `n` emits `n` die faces.
    struct Counting;

    #[derive(Clone, Debug, serde::Serialize, thiserror::Error)]
    #[error("a command must emit at least one face")]
    struct NothingToEmit;

    impl Reject for NothingToEmit {
        fn kind(&self) -> RejectKind {
            RejectKind::IllegalMove
        }
        fn reason(&self) -> &'static str {
            "nothing_to_emit"
        }
    }

    impl Game for Counting {
        const ID: &'static str = "counting";
        const MAX_COMMAND_BYTES: usize = 8;
        type Options = ();
        type State = Vec<u8>;
        type Command = u8;
        type Event = u8;
        type View = usize;
        type Reject = NothingToEmit;

        fn seat_count(_: &()) -> Result<u8, SetupError> {
            Ok(1)
        }
        fn initial_state(_: &()) -> Result<Vec<u8>, SetupError> {
            Ok(Vec::new())
        }
        fn start(emitter: &mut Emitter<'_, Self>) {
            let face = emitter.dice().roll(6);
            emitter.emit(face);
        }
        fn decide(emitter: &mut Emitter<'_, Self>, _: Seat, count: &u8) -> Result<(), NothingToEmit> {
            if *count == 0 {
                return Err(NothingToEmit);
            }
            for _ in 0..*count {
                let face = emitter.dice().roll(6);
                emitter.emit(face);
            }
            Ok(())
        }
        fn apply(state: &mut Vec<u8>, event: &u8) {
            FOLDS.with(|folds| folds.set(folds.get() + 1));
            state.push(*event);
        }
        fn view(state: &Vec<u8>, _: Viewer) -> usize {
            state.len()
        }
        fn redact(_: &Vec<u8>, event: &u8, _: Viewer) -> Option<u8> {
            Some(*event)
        }
        fn pending(_: &Vec<u8>) -> Vec<Seat> {
            vec![Seat(0)]
        }
        fn default_command(_: &Vec<u8>, _: Seat) -> Option<u8> {
            Some(1)
        }
        fn bot_command(_: &usize, _: BotPolicy, _: &mut Dice) -> Option<u8> {
            Some(1)
        }
        fn outcome(_: &Vec<u8>) -> Option<Outcome> {
            None
        }
    }

    #[test]
    fn an_accepted_command_folds_each_of_its_events_exactly_once() {
        let mut core = MatchCore::<Counting>::new(&(), &Seed::from_u64(1)).expect("setup");
        let before = folds();
        let started = core.start();
        assert_eq!((started.len(), folds() - before), (1, 1));

        let before = folds();
        let submitted = core.submit(Seat(0), &3).expect("legal");
        assert_eq!(submitted.events.len(), 3);
        assert_eq!(folds() - before, 3, "one fold per event, none repeated");
        assert_eq!(core.state[1..], submitted.events[..]);

        // The actor's path: the copy is the next match, and the live one is untouched.
        let before = folds();
        let mut observed = Vec::new();
        let accepted = core
            .decide_observed(Seat(0), &2, |state, event| observed.push((state.len(), *event)))
            .expect("legal");
        assert_eq!(folds() - before, 2);
        assert_eq!(core.state.len(), 4);
        assert_eq!(accepted.next.state.len(), 6);
        let events = &accepted.submitted.events;
        assert_eq!(
            observed,
            vec![(5, events[0]), (6, events[1])],
            "each seen right after its fold"
        );
    }

    #[test]
    fn a_refused_command_leaves_the_match_and_its_dice_as_they_were() {
        let mut core = MatchCore::<Counting>::new(&(), &Seed::from_u64(2)).expect("setup");
        core.start();
        let (state, position) = (core.state.clone(), core.dice.position());
        assert!(core.submit(Seat(0), &0).is_err());
        assert_eq!((core.state.clone(), core.dice.position()), (state, position));
    }

    /// Over whole seeded bot matches of every game: the state the emitter hands back is the
    /// old state with the command's events folded onto it, so adopting it loses nothing.
    fn emitted_state_is_the_fold_of_the_events<G: Game>(options: &G::Options, seed: u64) {
        let mut core = MatchCore::<G>::new(options, &Seed::from_u64(seed)).expect("setup");
        core.start();
        let mut bots = Dice::new(&Seed::from_u64(seed + 1));
        let mut commands = 0;
        while G::outcome(&core.state).is_none() && commands < 5_000 {
            let seat = G::pending(&core.state)[0];
            let view = G::view(&core.state, Viewer::Seat(seat));
            let command = G::bot_command(&view, BotPolicy::Random, &mut bots).expect("asked");
            let accepted = core.decide(seat, &command).expect("bots play legal commands");
            let mut folded = core.state.clone();
            for event in &accepted.submitted.events {
                G::apply(&mut folded, event);
            }
            assert_eq!(format!("{:?}", accepted.next.state), format!("{folded:?}"));
            core = accepted.next;
            commands += 1;
        }
        assert!(G::outcome(&core.state).is_some(), "{} match finished", G::ID);
    }

    #[test]
    fn every_game_hands_back_the_state_its_events_fold_to() {
        emitted_state_is_the_fold_of_the_events::<ctg::Ctg>(&ctg::Options::default(), 21);
        emitted_state_is_the_fold_of_the_events::<wicketz::Wicketz>(&wicketz::Options::default(), 22);
        emitted_state_is_the_fold_of_the_events::<champions::Champions>(
            &champions::Options { players: 3 },
            23,
        );
    }
}
