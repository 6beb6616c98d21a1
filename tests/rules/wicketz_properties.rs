//! Properties over many random Wicketz matches: scoring bounds, replay, determinism, secrecy
//! of the dispenser, and that the timeout default is always legal.

use crease::rules::wicketz::events::Event;
use crease::rules::wicketz::options::FieldingRestriction;
use crease::rules::wicketz::state::{ALL_OUT, BALLS_PER_OVER};
use crease::rules::wicketz::{Options, State, Wicketz};
use crease::rules::{BotPolicy, Dice, Game, MatchCore, Seat, Seed, Viewer};
use proptest::prelude::*;
use std::collections::BTreeSet;

const VIEWERS: [Viewer; 3] = [Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1)), Viewer::Spectator];

fn options_strategy() -> impl Strategy<Value = Options> {
    (
        1u16..=5,
        1u8..=2,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(overs, innings_per_side, bowling_variations, wild_card, no_ball_extra, restricted)| Options {
                overs,
                innings_per_side,
                bowling_variations,
                wild_card,
                no_ball_extra,
                fielding_restriction: if restricted {
                    FieldingRestriction::Agreed {
                        // At most the match's overs: a longer restriction is refused.
                        overs: overs.min(2),
                        max_outside_inner: 2,
                    }
                } else {
                    FieldingRestriction::Off
                },
                ..Options::default()
            },
        )
}

/// Plays a whole match with bots; every `every` commands the timeout default is played
/// instead, so both paths are exercised. Checks per-step properties on the way.
fn play(options: &Options, seed: u64, policy: BotPolicy, every: u64) -> (MatchCore<Wicketz>, Vec<Event>) {
    let mut core = MatchCore::<Wicketz>::new(options, &Seed::from_u64(seed)).unwrap();
    let mut log = core.start();
    let mut bot_dice = Dice::new(&Seed::from_u64(seed.wrapping_mul(31)));
    let mut counter = Counter::default();
    log.iter().for_each(|event| counter.see(event));
    for step in 0.. {
        // The view's cards to come are what a player who counts the redacted events knows.
        for viewer in VIEWERS {
            let view = Wicketz::view(&core.state, viewer);
            assert_eq!(
                view.cards_to_come.ids(),
                counter.to_come().as_slice(),
                "{viewer:?} at step {step}"
            );
        }
        let pending = Wicketz::pending(&core.state);
        let Some(seat) = pending.first().copied() else {
            break;
        };
        assert_eq!(pending.len(), 1, "Wicketz waits for one seat at a time");
        assert!(step < 50_000, "the match does not end");
        let other = Seat(1 - seat.0);
        assert!(Wicketz::default_command(&core.state, other).is_none());
        assert!(
            Wicketz::bot_command(
                &Wicketz::view(&core.state, Viewer::Seat(other)),
                policy,
                &mut bot_dice
            )
            .is_none()
        );
        views_hide_the_dispenser(&core.state);
        let command = if step % every == 0 {
            Wicketz::default_command(&core.state, seat).expect("a pending seat has a default")
        } else {
            let view = Wicketz::view(&core.state, Viewer::Seat(seat));
            Wicketz::bot_command(&view, policy, &mut bot_dice).expect("a bot is asked something")
        };
        let submitted = core
            .submit(seat, &command)
            .unwrap_or_else(|reject| panic!("{command:?} refused: {reject}"));
        for event in &submitted.events {
            for viewer in VIEWERS {
                if let Some(Event::DispenserShuffled { order }) = Wicketz::redact(&core.state, event, viewer)
                {
                    assert!(order.is_empty(), "a redacted shuffle carries no order");
                }
            }
        }
        for event in &submitted.events {
            if let Some(seen) = Wicketz::redact(&core.state, event, Viewer::Spectator) {
                counter.see(&seen);
            }
        }
        log.extend(submitted.events);
        let state = &core.state;
        for innings in &state.innings {
            assert!(innings.wickets <= ALL_OUT);
            assert!(innings.legal_balls <= u32::from(options.overs) * u32::from(BALLS_PER_OVER));
            assert!(innings.striker != innings.non_striker);
        }
        assert!(state.innings.len() <= 2 * usize::from(options.innings_per_side));
        assert_eq!(
            state.dispenser.len() + state.out_this_over.len(),
            246,
            "no card is lost or doubled"
        );
    }
    (core, log)
}

/// A player who counts the cards, from the events a viewer is sent (shuffles without their
/// order): the cards dealt since the last shuffle and those out of the box this over.
#[derive(Default)]
struct Counter {
    shuffled: bool,
    dealt_since_shuffle: BTreeSet<u16>,
    out_this_over: BTreeSet<u16>,
}

impl Counter {
    fn see(&mut self, event: &Event) {
        match event {
            Event::DispenserShuffled { .. } => {
                // What was out of the box this over is not shuffled in.
                self.shuffled = true;
                self.dealt_since_shuffle = self.out_this_over.clone();
            }
            Event::CardDealt { card } | Event::WildCardDrawn { card } => {
                self.dealt_since_shuffle.insert(*card);
                self.out_this_over.insert(*card);
            }
            Event::OverCompleted { .. } | Event::InningsClosed { .. } => self.out_this_over.clear(),
            _ => {}
        }
    }

    /// The cards the next deal comes from: those not dealt since the shuffle, or, once all
    /// were, whatever is in the box.
    fn to_come(&self) -> Vec<u16> {
        if !self.shuffled {
            return Vec::new();
        }
        let fresh: Vec<u16> = (1..=246)
            .filter(|c| !self.dealt_since_shuffle.contains(c))
            .collect();
        if fresh.is_empty() {
            (1..=246).filter(|c| !self.out_this_over.contains(c)).collect()
        } else {
            fresh
        }
    }
}

/// Two states that differ only in the dispenser's order look the same to everyone. Which
/// cards have not been dealt since the shuffle is public (every dealt card is face up), so
/// the order is changed within those and within the rest.
fn views_hide_the_dispenser(state: &State) {
    let mut reordered = state.clone();
    let fresh = reordered.fresh;
    let cards = reordered.dispenser.make_contiguous();
    cards[..fresh].reverse();
    cards[fresh..].reverse();
    for viewer in VIEWERS {
        let seen = serde_json::to_string(&Wicketz::view(state, viewer)).unwrap();
        let other = serde_json::to_string(&Wicketz::view(&reordered, viewer)).unwrap();
        assert_eq!(seen, other, "the view depends on the dispenser order");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_matches_keep_the_rules_and_replay(
        options in options_strategy(),
        seed in any::<u64>(),
        random in any::<bool>(),
        every in 2u64..9,
    ) {
        let policy = if random { BotPolicy::Random } else { BotPolicy::Heuristic };
        let (core, log) = play(&options, seed, policy, every);
        let outcome = Wicketz::outcome(&core.state).expect("the match finished");
        prop_assert_eq!(outcome.placings.len(), 2);
        prop_assert!(outcome.placings.contains(&1));
        let innings = &core.state.innings;
        prop_assert!(!innings.is_empty());
        for closed in innings {
            prop_assert!(closed.closed && closed.merit.is_some());
        }
        // Sides alternate: A, B (, A, B).
        for pair in innings.windows(2) {
            prop_assert_ne!(pair[0].batting, pair[1].batting);
        }

        // Re-folding the log from the initial state rebuilds the same state.
        let mut rebuilt = Wicketz::initial_state(&options).unwrap();
        for event in &log {
            Wicketz::apply(&mut rebuilt, event);
        }
        prop_assert_eq!(format!("{rebuilt:?}"), format!("{:?}", core.state));

        // The same seed and the same commands give the same match.
        let (again, again_log) = play(&options, seed, policy, every);
        prop_assert_eq!(&again_log, &log);
        prop_assert_eq!(format!("{:?}", again.state), format!("{:?}", core.state));
    }
}

#[test]
fn different_seeds_give_different_matches() {
    let options = Options {
        overs: 2,
        ..Options::default()
    };
    let (_, first) = play(&options, 1, BotPolicy::Heuristic, 1000);
    let (_, second) = play(&options, 2, BotPolicy::Heuristic, 1000);
    assert_ne!(first, second);
}

#[test]
fn a_refused_command_changes_nothing() {
    let options = Options::default();
    let mut core = MatchCore::<Wicketz>::new(&options, &Seed::from_u64(5)).unwrap();
    core.start();
    let waiting = Wicketz::pending(&core.state)[0];
    let wrong = Seat(1 - waiting.0);
    let before = (format!("{:?}", core.state), core.dice.position());
    let command = Wicketz::default_command(&core.state, waiting).unwrap();
    assert!(core.submit(wrong, &command).is_err());
    assert_eq!((format!("{:?}", core.state), core.dice.position()), before);
}
