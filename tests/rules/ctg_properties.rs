//! Properties over thousands of random legal matches (seeded loops, so a failure names its
//! seed and repeats).

use crease::rules::ctg::event::Event;
use crease::rules::ctg::resolve::{CONFIDENCE_MAX, CONFIDENCE_MIN};
use crease::rules::ctg::sim;
use crease::rules::ctg::state::{self, NONE, Phase, State};
use crease::rules::ctg::{Ctg, Options};
use crease::rules::{BotPolicy, Game, Seat, Viewer};

fn play(options: &Options, seed: u64, policy: BotPolicy) -> (State, Vec<Event>) {
    let mut events = Vec::new();
    let played = sim::play(options, &sim::match_seed(seed, 0), [policy; 2], |e| {
        events.push(*e)
    })
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    (played.state, events)
}

fn options(seed: u64) -> Options {
    if seed.is_multiple_of(3) {
        Options::t20()
    } else {
        Options::default()
    }
}

/// Re-folds `events` into a fresh state, checking invariants before and after each one.
fn refold_checking(options: &Options, events: &[Event], seed: u64) -> State {
    let mut s = Ctg::initial_state(options).expect("options");
    let mut ball_runs = [0u16; 2];
    for event in events {
        match *event {
            Event::BowlerChosen { bowler } => {
                assert_ne!(bowler, s.last_bowler, "seed {seed}: same bowler twice in a row");
                assert!(
                    state::bowler_ok(&s, bowler),
                    "seed {seed}: bowler {bowler} over the cap or not a bowler"
                );
            }
            Event::FieldSet { field } => {
                assert_eq!(
                    s.field_rules().check(field),
                    Ok(()),
                    "seed {seed}: illegal field set"
                );
            }
            Event::Delivered { .. } => {
                assert_eq!(
                    s.field_rules().check(s.field),
                    Ok(()),
                    "seed {seed}: delivery with a stale field"
                );
            }
            Event::BallEnded { ball } => {
                ball_runs[s.bat_side()] += u16::from(ball.runs) + u16::from(ball.extras);
            }
            _ => {}
        }
        Ctg::apply(&mut s, event);
        for side in s.confidence {
            assert!(
                side.iter().all(|c| (CONFIDENCE_MIN..=CONFIDENCE_MAX).contains(c)),
                "seed {seed}: confidence"
            );
        }
        for side in 0..2 {
            assert!(s.score[side].wickets <= 10, "seed {seed}: more than 10 wickets");
            let cap = s.format.max_overs_per_bowler();
            assert!(
                s.overs_bowled[side].iter().all(|&o| o <= cap),
                "seed {seed}: bowler cap"
            );
        }
    }
    for (score, runs) in s.score.iter().zip(ball_runs) {
        assert_eq!(score.runs, runs, "seed {seed}: score is not the sum of its balls");
    }
    s
}

#[test]
fn random_matches_keep_every_invariant_and_refold_to_the_same_state() {
    for seed in 0..1500u64 {
        let options = options(seed);
        let policy = if seed.is_multiple_of(5) {
            BotPolicy::Heuristic
        } else {
            BotPolicy::Random
        };
        let (final_state, events) = play(&options, seed, policy);
        assert_eq!(final_state.phase, Phase::MatchOver, "seed {seed}");
        let rebuilt = refold_checking(&options, &events, seed);
        assert_eq!(
            rebuilt, final_state,
            "seed {seed}: re-folding the log gives another state"
        );
        // The innings ended for a reason the rules allow.
        for side in 0..2 {
            let score = final_state.score[side];
            let overs_done = score.balls == u16::from(final_state.format.overs()) * 6;
            let chased = side == final_state.batting.index() && score.runs > final_state.score[1 - side].runs;
            assert!(
                score.wickets == 10 || overs_done || chased,
                "seed {seed}: innings ended early {score:?}"
            );
            assert!(score.balls <= u16::from(final_state.format.overs()) * 6);
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_match() {
    for seed in 0..50u64 {
        let options = options(seed);
        let (a, events_a) = play(&options, seed, BotPolicy::Random);
        let (b, events_b) = play(&options, seed, BotPolicy::Random);
        assert_eq!(events_a, events_b, "seed {seed}");
        assert_eq!(a, b);
    }
    let (_, one) = play(&Options::default(), 1, BotPolicy::Random);
    let (_, two) = play(&Options::default(), 2, BotPolicy::Random);
    assert_ne!(one, two, "different seeds should differ");
}

#[test]
fn views_and_redacted_events_never_leak_sealed_choices_or_over_cards() {
    for seed in 0..40u64 {
        let options = options(seed);
        let (_, events) = play(&options, seed, BotPolicy::Random);
        let mut s = Ctg::initial_state(&options).expect("options");
        for event in &events {
            Ctg::apply(&mut s, event);
            let batting = s.batting;
            let fielding = s.fielding();
            for viewer in [Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1)), Viewer::Spectator] {
                let redacted = Ctg::redact(&s, event, viewer).expect("events are shown redacted");
                match redacted {
                    Event::OverDealt { cards } => assert_eq!(cards, None, "face-down cards leaked"),
                    Event::BowlSealed { card } => {
                        assert_eq!(
                            card.is_some(),
                            viewer == Viewer::Seat(fielding),
                            "bowl card leaked"
                        )
                    }
                    Event::ShotSealed { shot } => {
                        assert_eq!(shot.is_some(), viewer == Viewer::Seat(batting), "shot leaked")
                    }
                    Event::SquadChosen { seat, choice } => {
                        assert_eq!(choice.is_some(), viewer == Viewer::Seat(seat), "squad leaked")
                    }
                    _ => {}
                }
            }
            if s.phase == Phase::Sealed && !s.ball.revealed {
                let field_view = Ctg::view(&s, Viewer::Seat(fielding));
                let bat_view = Ctg::view(&s, Viewer::Seat(batting));
                let spectator = Ctg::view(&s, Viewer::Spectator);
                assert_eq!(
                    field_view.ball.shot, None,
                    "seed {seed}: fielding side saw the sealed shot"
                );
                assert_eq!(
                    bat_view.ball.card, None,
                    "seed {seed}: batting side saw the sealed card"
                );
                assert_eq!((spectator.ball.card, spectator.ball.shot), (None, None));
                assert!(spectator.ask.is_none());
            }
            if s.phase == Phase::SelectSquad {
                for seat in [Seat(0), Seat(1)] {
                    let v = Ctg::view(&s, Viewer::Seat(seat));
                    assert_eq!(v.selections[1 - seat.index()], None, "squad choice leaked");
                }
            }
            if s.dealt.is_some() && s.striker != NONE {
                let v = Ctg::view(&s, Viewer::Spectator);
                assert!(
                    v.over_cards.len() <= usize::from(s.slot),
                    "unrevealed over cards in a view"
                );
            }
        }
    }
}

#[test]
fn pending_matches_the_views_asks() {
    for seed in 0..20u64 {
        let options = options(seed);
        let (_, events) = play(&options, seed, BotPolicy::Random);
        let mut s = Ctg::initial_state(&options).expect("options");
        for event in &events {
            Ctg::apply(&mut s, event);
            if matches!(event, Event::Await { .. }) {
                let pending = Ctg::pending(&s);
                for seat in [Seat(0), Seat(1)] {
                    let asked = Ctg::view(&s, Viewer::Seat(seat)).ask.is_some();
                    assert_eq!(asked, pending.contains(&seat), "seed {seed}: {:?}", s.phase);
                }
                if s.phase == Phase::Sealed && s.ball.sealed_card.is_none() && s.ball.sealed_shot.is_none() {
                    assert_eq!(pending.len(), 2, "both seats seal at once");
                }
            }
        }
    }
}

mod pure_rules {
    use crease::rules::ctg::field::{Field, FieldRules};
    use crease::rules::ctg::resolve::{self, Contact};
    use crease::rules::ctg::types::Format;
    use proptest::prelude::*;

    proptest! {
        /// Clean bowled depends only on the faces; natural boundaries ignore Advantage.
        #[test]
        fn contact_rules_ignore_advantage_where_the_seed_says(
            eight in any::<bool>(), bowl in 1u8..=8, bat in 1u8..=8, advantage in -1i8..=3, other in -1i8..=3,
        ) {
            let sides = if eight { 8 } else { 6 };
            let bowl = bowl.min(sides);
            let c = resolve::contact(bowl, sides, bat, advantage);
            prop_assert_eq!(c == Contact::CleanBowled, bowl == sides && bat == 1);
            if bowl == 1 && bat >= 6 {
                prop_assert_eq!(c, resolve::contact(bowl, sides, bat, other));
            }
            if bat == bowl && !(bowl == sides && bat == 1) && !(bowl == 1 && bat >= 6) {
                prop_assert_eq!(c, Contact::Block);
            }
        }

        /// Advantage stays on the meter; specialists never go below neutral.
        #[test]
        fn advantage_stays_on_the_meter(confidence in -1i8..=3, zone in 1u8..=5, zones in 1u8..=31, specialist in any::<bool>()) {
            let card = zones << 1;
            let a = resolve::advantage(confidence, zone, card, specialist);
            prop_assert!((-1..=3).contains(&a));
            if specialist { prop_assert!(a >= 0); }
            if card & (1 << zone) != 0 { prop_assert_eq!(a, 3); }
        }

        /// Repair turns any wish into a legal field.
        #[test]
        fn repaired_fields_are_legal(wanted in any::<u32>(), t20 in any::<bool>(), limit in prop::sample::select(vec![2u8, 5]), slips in any::<bool>()) {
            let rules = FieldRules { format: if t20 { Format::T20 } else { Format::T10 }, outfield_limit: limit, slips_allowed: slips };
            prop_assert_eq!(rules.check(rules.repair(Field(wanted & 0x00ff_ffff))), Ok(()));
        }
    }
}

#[test]
fn the_same_simulation_seed_gives_the_same_numbers() {
    let tally = |seed: u64| {
        let mut total = sim::Tally::default();
        for index in 0..30 {
            let played = sim::play(
                &Options::t20(),
                &sim::match_seed(seed, index),
                [BotPolicy::Heuristic; 2],
                |_| {},
            )
            .expect("plays");
            total.add(&played.tally);
        }
        total
    };
    assert_eq!(tally(5), tally(5));
    assert_ne!(tally(5), tally(6));
}
