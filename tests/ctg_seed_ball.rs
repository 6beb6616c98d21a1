//! The [SEED] rules of the struck ball of `../shared/rules/ctg.md`, each driven with exact die faces (harness:
//! `ctg_harness`). Values the spec marks [ASSUMED] are read from the ruleset data, so these
//! tests pin the rule, not the number.

use crease::rules::ctg::command::Command;
use crease::rules::ctg::data::BounceFace;
use crease::rules::ctg::event::Event;
use crease::rules::ctg::field::Field;
use crease::rules::ctg::resolve;
use crease::rules::ctg::state::{Phase, State};
use crease::rules::ctg::types::{Attitude, BowlType, DistanceChoice, Format, Role};

mod ctg_harness;
use ctg_harness::*;

const GREEN_0: u8 = 1; // face 1 of the green die: 0G
const GREEN_1: u8 = 2; // 1G
const GREEN_2: u8 = 3; // 2G
const RED_1: u8 = 1; // face 1 of the red die: 1R
const RED_2: u8 = 2; // 2R

/// The bounce faces the constants above name, checked against the data so a data edit that
/// moves a face fails here rather than silently changing what the tests below exercise.
fn check_bounce_faces(state: &State) {
    let face = |attitude, n| state.rules.bounce_face(attitude, n);
    let green = |areas| BounceFace { areas, red: false };
    let red = |areas| BounceFace { areas, red: true };
    assert_eq!(face(Attitude::Defensive, GREEN_0), green(0));
    assert_eq!(face(Attitude::Defensive, GREEN_1), green(1));
    assert_eq!(face(Attitude::Defensive, GREEN_2), green(2));
    assert_eq!(face(Attitude::Aggressive, RED_1), red(1));
    assert_eq!(face(Attitude::Aggressive, RED_2), red(2));
}

/// A ball in over 1 of a T10 match with a `bowl_type` bowler, a Dead pitch and all skill
/// cards used; the striker is an all-rounder at confidence 1.
fn ball_against(bowl_type: BowlType, format: Format) -> State {
    let mut state = at_ball(format, 0);
    bowler_of(&mut state, bowl_type);
    striker(&mut state, 1, Role::AllRounder);
    check_bounce_faces(&state);
    state
}

/// A card of the bowler's deck with a shot in `zone`: full Advantage (3) on that zone.
fn card_for_zone(state: &State, zone: u8) -> u8 {
    let deck = &state.rules.bowl_cards[state.bowl_type().index()];
    deck.iter()
        .position(|card| card.zones & (1 << zone) != 0)
        .expect("a card with a shot in the zone") as u8
}

/// A legal field with no fielder in `zone` at all.
fn field_without(zone: u8) -> Field {
    let mut field = Field::EMPTY;
    for other in (1..=5u8).filter(|&z| z != zone) {
        field = field.with(other, 1).with(other, 2);
    }
    let spare = if zone == 3 { 4 } else { 3 };
    field.with(spare, 3)
}

fn distance_of(events: &[Event]) -> (u8, u8) {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Distance { rolled, distance, .. } => Some((*rolled, *distance)),
            _ => None,
        })
        .expect("a distance was rolled")
}

/// Seed: 000_c44664d019aef0c0.txt Pace card "add 1 to the distance roll (maximum total of 6)"
/// and "This can only adjust the Distance die to a maximum distance of 6": in T20 (a D8
/// distance die) the add-one is offered on 1-5 only, never on 6 or 7.
#[test]
fn seed_000_pace_add_one_reaches_at_most_six_in_t20() {
    for (rolled, offered) in [(5u8, true), (6, false), (7, false)] {
        let mut state = ball_against(BowlType::Pace, Format::T20);
        let zone = 3;
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_without(zone));
        let faces: Vec<u8> = if offered {
            vec![2, 5, rolled]
        } else {
            vec![2, 5, rolled, GREEN_0]
        };
        let events = deliver(&mut state, card, zone, Attitude::Defensive, &faces);
        let asked = events.contains(&Event::Await {
            phase: Phase::Distance,
        });
        assert_eq!(asked, offered, "distance {rolled}");
        if offered {
            let batting = state.batting;
            let events = run(
                &mut state,
                batting,
                Command::Distance {
                    choice: DistanceChoice::AddOne,
                },
                &[GREEN_0],
            );
            assert_eq!(distance_of(&events), (5, 6));
        }
    }
    assert!(!resolve::may_add_one(BowlType::Pace, 3, 6, Format::T20));
    assert!(resolve::may_add_one(BowlType::Pace, 3, 5, Format::T20));
    assert!(!resolve::may_add_one(BowlType::Pace, 3, 6, Format::T10));
}
