//! The [SEED] rules of the struck ball, the over cards, the express values and the pitch
//! cards of `../shared/rules/ctg.md`, each driven with exact die faces (harness:
//! `ctg_harness`). Values the spec marks [ASSUMED] are read from the ruleset data, so these
//! tests pin the rule, not the number.

use crease::rules::ctg::command::Command;
use crease::rules::ctg::data::BounceFace;
use crease::rules::ctg::engine;
use crease::rules::ctg::event::{Event, RollFor};
use crease::rules::ctg::field::Field;
use crease::rules::ctg::resolve::{self, Travel};
use crease::rules::ctg::state::{Phase, SkillsUsed, State};
use crease::rules::ctg::types::{Attitude, BowlType, Dismissal, DistanceChoice, Effect, Format, Role};
use crease::rules::{Dice, Seed};

use crate::ctg_harness::*;

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

/// A legal field whose only fielder in `zone` stands in `area`; the other eight stand in the
/// infield of the other zones.
fn field_with_only(zone: u8, area: u8) -> Field {
    let mut field = Field::EMPTY.with(zone, area);
    for other in (1..=5u8).filter(|&z| z != zone) {
        field = field.with(other, 1).with(other, 2);
    }
    field
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

fn bowl_sides_of(events: &[Event]) -> u8 {
    events
        .iter()
        .find_map(|e| match e {
            Event::Delivered { bowl_sides, .. } => Some(*bowl_sides),
            _ => None,
        })
        .expect("delivered")
}

fn confidence_changes(events: &[Event]) -> Vec<i8> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::ConfidenceChanged { confidence, .. } => Some(*confidence),
            _ => None,
        })
        .collect()
}

fn rolled_for(events: &[Event], roll_for: RollFor) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::Roll { roll_for: r, .. } if *r == roll_for))
}

// ---- Pitch cards ---------------------------------------------------------------------------

/// Seed: 000_c44664d019aef0c0.txt pitch cards GREEN PITCH "PACE: ..." and DUSTY PITCH
/// "SPIN: ..." (garbled; the spec reads them as a D8 for that bowling type on the first
/// delivery of each over), DEAD PITCH "NO EFFECT".
#[test]
fn seed_000_pitch_card_gives_its_bowling_type_a_d8_on_the_first_delivery_only() {
    let pitches = at_ball(Format::T10, 0).rules.pitch_cards.clone();
    assert_eq!(pitches.len(), 3);
    for (index, pitch) in pitches.iter().enumerate() {
        for bowl_type in BowlType::ALL {
            let mut state = ball_against(bowl_type, Format::T10);
            state.pitch = Some(index as u8);
            assert!(!state.delivered_this_over, "over 1 has not been bowled to yet");
            let (card, zone) = card_and_zone(&state, 0);
            set_field(&mut state, Field::EMPTY);
            // Equal faces block: a dot whatever the die.
            let events = deliver(&mut state, card, zone, Attitude::Defensive, &[3, 3]);
            let expected = if pitch.d8_first_ball_for == Some(bowl_type) {
                8
            } else {
                6
            };
            assert_eq!(bowl_sides_of(&events), expected, "{} / {bowl_type:?}", pitch.name);
            // The second delivery of the over is back on the D6.
            set_field(&mut state, Field::EMPTY);
            let events = deliver(&mut state, card, zone, Attitude::Defensive, &[3, 3]);
            assert_eq!(bowl_sides_of(&events), 6, "{} / {bowl_type:?} ball 2", pitch.name);
        }
    }
    let names: Vec<&str> = pitches.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Green", "Dusty", "Dead"]);
    assert_eq!(pitches[0].d8_first_ball_for, Some(BowlType::Pace));
    assert_eq!(pitches[1].d8_first_ball_for, Some(BowlType::Spin));
    assert_eq!(pitches[2].d8_first_ball_for, None);
}

// ---- Distance: Pace add one, Spin minus one ----------------------------------------------

/// Seed: 001_10260e69616bd853.txt "When a Strike against a Pace Bowler is by 3 or more ... the
/// Batter may add 1 to the Distance die roll". Taking it moves the ball one area further: from
/// distance 4 (area 2), where a green 2 stops in area 3, to distance 5 (the outermost area),
/// where the same green 2 is a six.
#[test]
fn seed_001_pace_add_one_when_accepted_moves_the_ball_one_further() {
    for choice in [DistanceChoice::Accept, DistanceChoice::AddOne] {
        let mut state = ball_against(BowlType::Pace, Format::T10);
        let zone = 3;
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_without(zone));
        // 5 + 3 against 2: a strike by 6; distance 4.
        let events = deliver(&mut state, card, zone, Attitude::Defensive, &[2, 5, 4]);
        assert_eq!(
            events.last(),
            Some(&Event::Await {
                phase: Phase::Distance
            })
        );
        let batting = state.batting;
        let events = run(&mut state, batting, Command::Distance { choice }, &[GREEN_2]);
        if choice == DistanceChoice::AddOne {
            assert!(events.contains(&Event::Distance {
                rolled: 4,
                distance: 5,
                rerolled: false,
                added_one: true
            }));
            let ball = ball_end(&events);
            assert_eq!((ball.runs, ball.boundary), (6, 6), "outermost area and a green 2");
        } else {
            assert_eq!(state.ball.distance, 4);
            assert_eq!(state.phase, Phase::Run, "4 + 2 stops in area 3");
            assert_eq!(engine::run_choice(&state).safe, 2, "an empty outfield area");
        }
    }
}

/// The add-one needs a strike by 3 or more and a Pace bowler: a strike by 2 against Pace and
/// a strike by 6 against Medium go straight to the bounce.
#[test]
fn seed_001_pace_add_one_needs_pace_and_a_margin_of_three() {
    // (bowler, bowl die, bat die) with full Advantage 3.
    for (bowl_type, bowl, bat, offered) in [
        (BowlType::Pace, 4u8, 3u8, false), // 3 + 3 against 4: by 2
        (BowlType::Pace, 3, 4, true),      // 4 + 3 against 3: by 4
        (BowlType::Medium, 2, 5, false),   // by 6, but not Pace
        (BowlType::Spin, 2, 5, false),     // by 6, but not Pace
    ] {
        let mut state = ball_against(bowl_type, Format::T10);
        let zone = 3;
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_without(zone));
        // Distance 2; when nothing is offered the bounce (0G) is rolled at once.
        let faces: Vec<u8> = if offered {
            vec![bowl, bat, 2]
        } else {
            vec![bowl, bat, 2, GREEN_0]
        };
        let events = deliver(&mut state, card, zone, Attitude::Defensive, &faces);
        let asked = events.contains(&Event::Await {
            phase: Phase::Distance,
        });
        assert_eq!(asked, offered, "{bowl_type:?} {bowl} v {bat}");
    }
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

/// Seed: 001_10260e69616bd853.txt "When a Strike against a Spin Bowler is by less than 3 ... 1
/// must be deducted from the Distance die roll (minimum distance of 1)".
#[test]
fn seed_001_spin_strike_by_less_than_three_loses_one_distance_never_below_one() {
    // (bowl, bat) with full Advantage 3: 5 v 3+3 is by 1, 4 v 3+3 by 2, 3 v 4+3 by 4.
    for (to_hit, rolled, expected) in [
        ([5u8, 3], 4u8, 3u8),
        ([4, 3], 4, 3),
        ([5, 3], 1, 1),
        ([3, 4], 4, 4),
    ] {
        let mut state = ball_against(BowlType::Spin, Format::T10);
        let zone = 3;
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_without(zone));
        let faces = [to_hit[0], to_hit[1], rolled, GREEN_0];
        let events = deliver(&mut state, card, zone, Attitude::Defensive, &faces);
        assert_eq!(distance_of(&events), (rolled, expected), "{to_hit:?}");
    }
    // Medium is never reduced.
    assert_eq!(resolve::spin_distance(BowlType::Medium, 1, 4), 4);
    assert_eq!(resolve::spin_distance(BowlType::Pace, 1, 4), 4);
}

// ---- Travel: six and four ------------------------------------------------------------------

/// Seed: 001_10260e69616bd853.txt "A Four-run Boundary is scored if the combined value of the
/// Distance and Bounce dice moves the ball beyond the highest value of the Outfield" and "A
/// Six-run Boundary is scored if the outermost Area is reached with the distance dice, and a
/// Green 2 is rolled on the bounce dice".
#[test]
fn seed_001_six_and_four_by_travel() {
    let green = |areas| BounceFace { areas, red: false };
    let red = |areas| BounceFace { areas, red: true };
    // T10: outermost area 3 is distance 5-6; the maximum is 6.
    assert_eq!(resolve::travel(Format::T10, 5, green(2)), Travel::Six);
    assert_eq!(resolve::travel(Format::T10, 6, green(2)), Travel::Six);
    assert_eq!(
        resolve::travel(Format::T10, 5, red(2)),
        Travel::Four,
        "a red 2 is no six"
    );
    assert_eq!(resolve::travel(Format::T10, 4, green(3)), Travel::Four, "7 > 6");
    assert_eq!(
        resolve::travel(Format::T10, 4, green(2)),
        Travel::Stops(3),
        "6 is not beyond"
    );
    assert_eq!(resolve::travel(Format::T10, 6, green(0)), Travel::Stops(3));
    // T20: the outermost area 4 is distance 7-8; 6 and a green 2 reach 8 and stop there.
    assert_eq!(resolve::travel(Format::T20, 7, green(2)), Travel::Six);
    assert_eq!(resolve::travel(Format::T20, 6, green(2)), Travel::Stops(4));
    assert_eq!(resolve::travel(Format::T20, 8, green(1)), Travel::Four);

    // Through the engine, into an empty zone: distance 5 and a green 2 is six; distance 6
    // and a green 1 travels to 7, beyond 6, and is four.
    for (distance, bounce, runs) in [(5u8, GREEN_2, 6u8), (6, GREEN_1, 4)] {
        let mut state = ball_against(BowlType::Medium, Format::T10);
        let zone = 3;
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_without(zone));
        let events = deliver(
            &mut state,
            card,
            zone,
            Attitude::Defensive,
            &[2, 5, distance, bounce],
        );
        let ball = ball_end(&events);
        assert_eq!((ball.runs, ball.boundary, ball.wicket), (runs, runs, None));
    }
}

/// Seed: 001_10260e69616bd853.txt "Any time a Batter hits a Boundary, their Confidence
/// increases by 1", and 000_c44664d019aef0c0.txt confidence "cannot go above 3".
#[test]
fn seed_001_a_boundary_raises_confidence_by_one_up_to_three() {
    for (before, after) in [(-1i8, Some(0i8)), (1, Some(2)), (3, None)] {
        let mut state = ball_against(BowlType::Medium, Format::T10);
        striker(&mut state, before, Role::AllRounder);
        let zone = 3;
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_without(zone));
        let batter = state.striker;
        let events = deliver(&mut state, card, zone, Attitude::Defensive, &[2, 5, 6, GREEN_1]);
        assert_eq!(ball_end(&events).boundary, 4);
        assert_eq!(confidence_changes(&events), after.into_iter().collect::<Vec<_>>());
        let side = state.bat_side();
        assert_eq!(
            state.confidence[side][usize::from(batter)],
            after.unwrap_or(before)
        );
    }
    // A natural four counts too; a ball that stops does not.
    let mut state = ball_against(BowlType::Medium, Format::T10);
    let (card, zone) = card_and_zone(&state, 0);
    set_field(&mut state, Field::EMPTY);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[1, 6]);
    assert_eq!(confidence_changes(&events), vec![2]);
    let mut state = ball_against(BowlType::Medium, Format::T10);
    set_field(&mut state, field_without(3));
    let card = card_for_zone(&state, 3);
    let events = deliver(&mut state, card, 3, Attitude::Defensive, &[2, 5, 3, GREEN_0]);
    assert_eq!(events.last(), Some(&Event::Await { phase: Phase::Run }));
    assert!(confidence_changes(&events).is_empty());
}

// ---- Catches: the red outline and Great Catch ----------------------------------------------

/// Seed: 001_10260e69616bd853.txt "the Fielder must roll a D6 to get a result equal to or
/// higher than the required value for the Area ... except for areas with a Red outline, which
/// require one less" (places [ASSUMED]: data `red_outlines`).
#[test]
fn seed_001_red_outlined_areas_need_one_less_to_catch() {
    let probe = ball_against(BowlType::Medium, Format::T10);
    let value = probe.rules.catch_values[0];
    let (outlined, plain): (Vec<u8>, Vec<u8>) = (1..=5u8).partition(|&z| probe.rules.red_outlines.has(z, 1));
    assert!(!outlined.is_empty() && !plain.is_empty());
    for (zone, caught) in [(outlined[0], true), (plain[0], false)] {
        let mut state = ball_against(BowlType::Medium, Format::T10);
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_with_only(zone, 1));
        // Distance 1 into the fielder's area, a red 1R, the catch die one below the value.
        let events = deliver(
            &mut state,
            card,
            zone,
            Attitude::Aggressive,
            &[2, 5, 1, RED_1, value - 1],
        );
        assert!(rolled_for(&events, RollFor::Catch));
        if caught {
            assert_eq!(ball_end(&events).wicket, Some(Dismissal::Caught), "zone {zone}");
        } else {
            // Dropped: the ball goes on 1 area and stops in area 1 with the dropping fielder,
            // who may not run the batter out, so it is an empty area for the runs.
            assert_eq!(state.phase, Phase::Run, "zone {zone}");
            let choice = engine::run_choice(&state);
            assert_eq!((choice.safe, choice.run_out_min), (1, 5));
        }
    }
}

/// Seed: 000_c44664d019aef0c0.txt Great Catch "catch batter OUT on a 4+ (D6)": with the card,
/// a fielder in the landing area tries the catch even off a green bounce, and needs 4+
/// instead of the area's value.
#[test]
fn seed_000_great_catch_catches_on_four_even_with_a_green_bounce() {
    for (effect, catch_face, out) in [
        (Effect::GreatCatch, Some(4u8), true),
        (Effect::GreatCatch, Some(3), false),
        (Effect::PlayOn, None, false),
    ] {
        let mut state = ball_against(BowlType::Medium, Format::T10);
        let great = card_with(&state, effect);
        state.dealt = Some([great; 6]);
        let zone = 3;
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_with_only(zone, 1));
        // Distance 1 into the fielder's area, a green 0G: no catch without the card.
        let mut faces = vec![2, 5, 1, GREEN_0];
        faces.extend(catch_face);
        let events = deliver(&mut state, card, zone, Attitude::Defensive, &faces);
        assert_eq!(
            rolled_for(&events, RollFor::Catch),
            catch_face.is_some(),
            "{effect:?}"
        );
        if out {
            assert_eq!(ball_end(&events).wicket, Some(Dismissal::Caught));
        } else {
            assert_eq!(state.phase, Phase::Run, "{effect:?} {catch_face:?}");
        }
    }
}

// ---- Over cards: Great Shot, Boundary, Run Out?, Inspired ----------------------------------

/// Seed: 000_c44664d019aef0c0.txt Great Shot "play if hit by 2 or more ... D - 3 RUNS, A - 4
/// RUNS": the runs replace the distance roll; they are not a boundary.
#[test]
fn seed_000_great_shot_scores_three_or_four_when_hit_by_two_or_more() {
    for (attitude, to_hit, runs) in [
        (Attitude::Defensive, [2u8, 5], Some(3u8)),
        (Attitude::Aggressive, [2, 5], Some(4)),
        (Attitude::Defensive, [5, 4], Some(3)), // 4 + 3 against 5: by 2
        (Attitude::Defensive, [5, 3], None),    // 3 + 3 against 5: by 1, the distance is rolled
    ] {
        let mut state = ball_against(BowlType::Medium, Format::T10);
        let great = card_with(&state, Effect::GreatShot);
        state.dealt = Some([great; 6]);
        let zone = 3;
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_without(zone));
        match runs {
            Some(runs) => {
                let events = deliver(&mut state, card, zone, attitude, &to_hit);
                let ball = ball_end(&events);
                assert_eq!((ball.runs, ball.boundary), (runs, 0), "{attitude:?} {to_hit:?}");
                assert!(!events.iter().any(|e| matches!(e, Event::Distance { .. })));
                assert!(confidence_changes(&events).is_empty(), "no boundary confidence");
            }
            None => {
                let faces = [to_hit[0], to_hit[1], 3, GREEN_0];
                let events = deliver(&mut state, card, zone, attitude, &faces);
                assert_eq!(distance_of(&events), (3, 3));
            }
        }
    }
}

/// Seed: 000_c44664d019aef0c0.txt Boundary "play if shot is hit ... D - 4 runs A - 1-4 4 runs
/// 5-6 6 runs"; its runs are a boundary (+1 confidence, the spec's reading).
#[test]
fn seed_000_boundary_card_four_defensive_four_or_six_aggressive() {
    for (attitude, faces, runs) in [
        (Attitude::Defensive, vec![2u8, 5], 4u8),
        (Attitude::Aggressive, vec![2, 5, 4], 4),
        (Attitude::Aggressive, vec![2, 5, 5], 6),
        (Attitude::Aggressive, vec![5, 3, 6], 6), // hit by 1 is enough
    ] {
        let mut state = ball_against(BowlType::Medium, Format::T10);
        let boundary = card_with(&state, Effect::Boundary);
        state.dealt = Some([boundary; 6]);
        let zone = 3;
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_with_only(zone, 1));
        let events = deliver(&mut state, card, zone, attitude, &faces);
        let ball = ball_end(&events);
        assert_eq!((ball.runs, ball.boundary), (runs, runs), "{attitude:?} {faces:?}");
        assert_eq!(
            rolled_for(&events, RollFor::BoundaryCard),
            attitude == Attitude::Aggressive
        );
        assert_eq!(confidence_changes(&events), vec![2]);
    }
    // A miss is not a hit: the card does nothing.
    let mut state = ball_against(BowlType::Medium, Format::T10);
    let boundary = card_with(&state, Effect::Boundary);
    state.dealt = Some([boundary; 6]);
    let (card, zone) = card_and_zone(&state, 0);
    set_field(&mut state, Field::EMPTY);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[5, 1]);
    assert_eq!(ball_end(&events).runs, 0);
}

/// Seed: 000_c44664d019aef0c0.txt Run Out? "PLAY if BALL IS FIELDED ... A - Subtract 1 from
/// batter's confidence 4+ RUN OUT": an attempted run off a fielded ball is out on 4+, and an
/// Aggressive batter who runs loses 1 confidence.
#[test]
fn seed_000_run_out_card_makes_a_fielded_run_out_on_four() {
    for (attitude, faces) in [
        // Distance 3 into the fielder's area 2, green 0G: fielded.
        (Attitude::Defensive, [2u8, 5, 3, GREEN_0]),
        // Distance 1 (empty area 1), red 2R on to the fielder in area 2: fielded, no catch.
        (Attitude::Aggressive, [2, 5, 1, RED_2]),
    ] {
        let mut state = ball_against(BowlType::Medium, Format::T10);
        let run_out = card_with(&state, Effect::RunOut);
        state.dealt = Some([run_out; 6]);
        let zone = 3;
        let card = card_for_zone(&state, zone);
        set_field(&mut state, field_with_only(zone, 2));
        deliver(&mut state, card, zone, attitude, &faces);
        assert_eq!(state.phase, Phase::Run);
        assert_eq!(engine::run_choice(&state).run_out_min, 4, "{attitude:?}");
        let before = state.striker_confidence();
        let batting = state.batting;
        let events = run(&mut state, batting, Command::Run { attempt: true }, &[4]);
        assert_eq!(ball_end(&events).wicket, Some(Dismissal::RunOut));
        let lost = if attitude == Attitude::Aggressive {
            vec![before - 1]
        } else {
            vec![]
        };
        assert_eq!(confidence_changes(&events), lost, "{attitude:?}");
    }
    // Not fielded (an empty area): the card does not apply, the extra run is the usual 5+.
    let mut state = ball_against(BowlType::Medium, Format::T10);
    let run_out = card_with(&state, Effect::RunOut);
    state.dealt = Some([run_out; 6]);
    set_field(&mut state, field_without(3));
    let card = card_for_zone(&state, 3);
    deliver(&mut state, card, 3, Attitude::Defensive, &[2, 5, 3, GREEN_0]);
    assert_eq!(engine::run_choice(&state).run_out_min, 5);
    let batting = state.batting;
    let events = run(&mut state, batting, Command::Run { attempt: true }, &[4]);
    assert_eq!(ball_end(&events).wicket, None);
}

/// Seed: 000_c44664d019aef0c0.txt Inspired (the spec: "bowler rolls a D8 this ball"), with
/// 001_10260e69616bd853.txt "A roll of 6 (or 8 with D8) ... Clean Bowled": on the D8 the 8 is
/// the clean-bowled face.
#[test]
fn seed_000_inspired_card_gives_the_bowler_a_d8() {
    let mut state = ball_against(BowlType::Medium, Format::T10);
    let inspired = card_with(&state, Effect::Inspired);
    state.dealt = Some([inspired; 6]);
    let (card, zone) = card_and_zone(&state, 0);
    set_field(&mut state, Field::EMPTY);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[8, 1]);
    assert_eq!(bowl_sides_of(&events), 8);
    assert_eq!(ball_end(&events).wicket, Some(Dismissal::CleanBowled));
    // Without the card the same ball is on a D6.
    let mut state = ball_against(BowlType::Medium, Format::T10);
    let (card, zone) = card_and_zone(&state, 0);
    set_field(&mut state, Field::EMPTY);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[3, 3]);
    assert_eq!(bowl_sides_of(&events), 6);
}

// ---- Express values 5, 7, 8, 9 -------------------------------------------------------------

/// The fielding side about to choose the bowler of over 2 (an express over) of a T10 innings,
/// with a Dead pitch and every skill card used. Returns the state and a legal bowler of
/// `bowl_type`.
fn before_express_over(bowl_type: BowlType) -> (State, u8) {
    let mut state = at_ball(Format::T10, 0);
    let mut dice = Dice::new(&Seed::from_u64(11));
    play_until(&mut state, &mut dice, |s| {
        s.phase == Phase::ChooseBowler && s.over == 1 && s.innings == 0
    });
    let side = state.field_side();
    let legal = engine::legal_bowlers(&state);
    let bowler = (0..12u8)
        .find(|&p| legal & (1 << p) != 0 && state.cards[side][usize::from(p)].bowl_type == Some(bowl_type))
        .expect("a legal bowler of the type");
    let dead = state
        .rules
        .pitch_cards
        .iter()
        .position(|p| p.d8_first_ball_for.is_none())
        .expect("a Dead pitch") as u8;
    state.pitch = Some(dead);
    state.skills = SkillsUsed {
        reroll_to_hit: 9,
        reroll_distance: 9,
        reroll_bounce: 9,
        add_one: 9,
        roll_d8: 9,
    };
    state.drs_used = true;
    (state, bowler)
}

/// Deals an over whose two express cards show `values` (the rest "play on") and chooses the
/// bowler, handing the engine `faces`.
fn express_over(
    state: &mut State,
    bowler: u8,
    bowl_type: BowlType,
    values: [u8; 2],
    faces: &[u8],
) -> Vec<Event> {
    let deck = &state.rules.over_decks[bowl_type.index()];
    let with_value = |v: u8| {
        deck.iter()
            .position(|c| c.express == v)
            .expect("express value in deck") as u8
    };
    let play_on = deck
        .iter()
        .position(|c| c.effect == Effect::PlayOn)
        .expect("a play-on card") as u8;
    state.dealt = Some([
        with_value(values[0]),
        with_value(values[1]),
        play_on,
        play_on,
        play_on,
        play_on,
    ]);
    let fielding = state.fielding();
    run(state, fielding, Command::ChooseBowler { bowler }, faces)
}

fn express_balls(events: &[Event]) -> Vec<crease::rules::ctg::event::BallEnd> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::BallEnded { ball } if ball.express => Some(*ball),
            _ => None,
        })
        .collect()
}

/// Seed: 000_c44664d019aef0c0.txt "5 Bowler rolls a D8 on next non-express bowl": the express
/// ball itself is a dot; the first delivery after it is on a D8, the next one on a D6.
#[test]
fn seed_000_express_five_gives_the_bowler_a_d8_on_the_next_delivery() {
    let (mut state, bowler) = before_express_over(BowlType::Medium);
    let events = express_over(&mut state, bowler, BowlType::Medium, [5, 1], &[]);
    let balls = express_balls(&events);
    assert_eq!(balls.len(), 2);
    assert_eq!((balls[0].runs, balls[0].wicket, balls[0].legal), (0, None, true));
    assert!(state.d8_next);
    let (card, zone) = card_and_zone(&state, 0);
    set_field(&mut state, Field::EMPTY);
    // A 7 only exists on the D8 (the batter's 3 + 3 misses it by 1: a dot).
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[7, 3]);
    assert_eq!(bowl_sides_of(&events), 8);
    set_field(&mut state, Field::EMPTY);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[3, 3]);
    assert_eq!(bowl_sides_of(&events), 6);
}

/// Seed: 000_c44664d019aef0c0.txt "7 Batter rolls a D8, refer to current bowling deck rules
/// card for result", Pace card "EXPRESS PLAY: 1-5 = 1 Run 6-7 = 3 Runs 8 = 6 Runs"; a 6 is a
/// boundary (+1 confidence, the project's reading).
#[test]
fn seed_000_express_seven_reads_the_pace_rules_card() {
    for (face, runs) in [(1u8, 1u8), (5, 1), (6, 3), (7, 3), (8, 6)] {
        let (mut state, bowler) = before_express_over(BowlType::Pace);
        let striker = state.striker;
        let side = state.bat_side();
        state.confidence[side][usize::from(striker)] = 1;
        let events = express_over(&mut state, bowler, BowlType::Pace, [7, 1], &[face]);
        let seven = express_balls(&events)[0];
        assert_eq!(seven.runs, runs, "D8 face {face}");
        assert_eq!(seven.boundary, if runs == 6 { 6 } else { 0 });
        assert_eq!(seven.swap, runs % 2 == 1);
        assert_eq!(
            state.confidence[side][usize::from(striker)],
            if runs == 6 { 2 } else { 1 },
            "face {face}"
        );
    }
}

/// Seed: 000_c44664d019aef0c0.txt "8 Patience" (effect [ASSUMED], data `patience_confidence`):
/// a dot ball that changes the facing batter's confidence by attitude.
#[test]
fn seed_000_express_eight_patience_changes_confidence_by_attitude() {
    for attitude in [Attitude::Defensive, Attitude::Aggressive] {
        let (mut state, bowler) = before_express_over(BowlType::Medium);
        let striker = state.striker;
        let side = state.bat_side();
        state.attitude[usize::from(striker)] = attitude;
        state.confidence[side][usize::from(striker)] = 1;
        let delta = state.rules.patience[attitude.index()];
        assert_ne!(delta, 0, "the data makes patience matter");
        let events = express_over(&mut state, bowler, BowlType::Medium, [8, 1], &[]);
        let patience = express_balls(&events)[0];
        assert_eq!((patience.runs, patience.wicket, patience.swap), (0, None, false));
        assert_eq!(
            state.confidence[side][usize::from(striker)],
            1 + delta,
            "{attitude:?}"
        );
    }
}

/// Seed: 000_c44664d019aef0c0.txt "9 Run Out" (chance [ASSUMED], data `express_run_out_min`):
/// one run is attempted; at the data's face or more the batter is run out, no run scored,
/// and the batters cross either way.
#[test]
fn seed_000_express_nine_is_a_run_with_a_run_out_chance() {
    let (probe, _) = before_express_over(BowlType::Medium);
    let min = probe.rules.express_run_out_min;
    assert!((2..=6).contains(&min));
    for (face, out) in [(min, true), (min - 1, false)] {
        let (mut state, bowler) = before_express_over(BowlType::Medium);
        let wickets = state.score[state.bat_side()].wickets;
        let events = express_over(&mut state, bowler, BowlType::Medium, [9, 1], &[face]);
        assert!(rolled_for(&events, RollFor::ExpressRunOut));
        let nine = express_balls(&events)[0];
        assert!(nine.swap, "the batters cross");
        if out {
            assert_eq!((nine.runs, nine.wicket), (0, Some(Dismissal::RunOut)));
            assert_eq!(state.score[state.bat_side()].wickets, wickets + 1);
        } else {
            assert_eq!((nine.runs, nine.wicket), (1, None));
        }
    }
}
