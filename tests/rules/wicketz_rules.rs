//! Every [SEED] rule of Wicketz, driven with exact values.
//! Rulebook: `../shared/seeds/002_5b76236006f2f885.txt`; spec: `../shared/rules/wicketz.md`.
//!
//! Situations are built by folding chosen events (so the dispenser order, the delivery and
//! the field are exactly what the test says), and ball resolution is driven through
//! `resolve_ball` with exact catch spins.

use crease::rules::wicketz::cards::{Card, CardKind, CardRecord};
use crease::rules::wicketz::data::{deck, ruleset};
use crease::rules::wicketz::decide::{BallSetup, resolve_ball, wide_ball};
use crease::rules::wicketz::events::{Ball, HowOut};
use crease::rules::wicketz::field::{Field, Position};
use crease::rules::wicketz::indicator::{Delivery, Segment, Style, spin};
use crease::rules::wicketz::options::{FieldingRestriction, Reshuffle};
use crease::rules::wicketz::reading::{Reading, catch_rule, read_card};
use crease::rules::wicketz::state::Phase;
use crease::rules::wicketz::strokes::{Line, Stroke};
use crease::rules::wicketz::{Command, Event, Options, State, Wicketz, WicketzReject};
use crease::rules::{Dice, Emitter, Game, Reject, RejectKind, Seat, Seed, emit};

const BAT: Seat = Seat(0);
const BOWL: Seat = Seat(1);

fn at(text: &str) -> Position {
    Position::try_from(text.to_string()).unwrap()
}

fn dice() -> Dice {
    Dice::new(&Seed::from_u64(99))
}

/// The seed's single-player field for pace: A1, Q2, P1, M2, L1, J0, H2, F2, E1, D2, B2.
fn seed_field() -> Field {
    Field {
        keeper: at("A1"),
        bowler: at("J0"),
        fielders: ["Q2", "P1", "M2", "L1", "H2", "F2", "E1", "D2", "B2"]
            .map(at)
            .to_vec(),
    }
}

fn fold(state: &mut State, events: &[Event]) {
    for event in events {
        Wicketz::apply(state, event);
    }
}

/// Seat 0 batting, seat 1 bowling, dispenser in the given order (front first), restriction off.
fn match_with(options: Options, order: Vec<u16>) -> State {
    let mut state = Wicketz::initial_state(&Options {
        fielding_restriction: FieldingRestriction::Off,
        ..options
    })
    .unwrap();
    fold(
        &mut state,
        &[
            Event::DispenserShuffled { order },
            Event::TossWon { seat: BAT },
            Event::InningsChosen { batting_first: BAT },
            Event::InningsOpened {
                number: 1,
                batting: BAT,
            },
        ],
    );
    state
}

fn all_cards() -> Vec<u16> {
    (1..=246).collect()
}

/// `state` mid-over, facing `delivery`.
fn facing(mut state: State, delivery: Delivery, line: Line, good_line: Option<bool>) -> State {
    let mut events = vec![Event::OverStarted {
        number: 0,
        style: Style::Pace,
        line,
        field: seed_field(),
    }];
    if let Some(good) = good_line {
        events.push(Event::LineSpun { good });
    }
    events.push(Event::Delivered { delivery });
    fold(&mut state, &events);
    state
}

/// The rules' answer to `command` on a copy of `state`: its events.
fn decide(
    state: &State,
    seat: Seat,
    command: &Command,
    dice: &mut Dice,
) -> Result<Vec<Event>, WicketzReject> {
    emit::decide::<Wicketz>(state, seat, command, dice).map(|decided| decided.events)
}

fn play(state: &State, stroke: Stroke) -> Result<Vec<Event>, WicketzReject> {
    decide(
        state,
        BAT,
        &Command::Play {
            stroke,
            wild_card: false,
        },
        &mut dice(),
    )
}

/// Card 1 or 2 of the seed with the window a test names (the seed prints no window).
fn printed_card(id: u16, window: u8) -> Card {
    let mut card = deck()[usize::from(id) - 1].clone();
    card.window = window;
    card
}

/// A card whose every row is `[code, text]`.
fn uniform_card(kind: CardKind, window: u8, code: &str, text: &str) -> Card {
    Card::from_record(&CardRecord {
        id: 1,
        kind,
        window,
        printed: None,
        rows: vec![(code.to_string(), text.to_string()); 13],
    })
    .unwrap()
}

fn read(card: &Card, stroke: Stroke, delivery: Delivery) -> Reading {
    read_card(card, stroke, delivery, &seed_field(), ruleset())
}

fn resolve(card: &Card, stroke: Stroke, delivery: Delivery, batter_number: u8, spins: &[bool]) -> Ball {
    let mut spins = spins.iter().copied();
    resolve_ball(
        &BallSetup {
            card,
            stroke,
            delivery,
            field: &seed_field(),
            striker: batter_number - 1,
            wild_card: false,
            no_ball_extra: true,
        },
        ruleset(),
        || spins.next().expect("the test gave too few catch spins"),
    )
}

/// Runs off the bat when `stroke` meets a half volley (nothing in the result column applies).
fn runs_off(card: &Card, stroke: Stroke) -> u8 {
    resolve(card, stroke, Delivery::HalfVolley, 1, &[]).bat_runs
}

// ---- Match set-up -------------------------------------------------------------------------

/// Seed: 002_5b76236006f2f885.txt "The cards should be shuffled prior to the first game" and
/// "Toss a coin for choice of innings".
#[test]
fn seed_002_start_shuffles_all_246_cards_then_tosses() {
    let state = Wicketz::initial_state(&Options::default()).unwrap();
    let mut opened = state.clone();
    let mut start_dice = dice();
    let mut emitter = Emitter::<Wicketz>::new(&mut opened, &mut start_dice);
    Wicketz::start(&mut emitter);
    let events = emitter.into_events();
    let [Event::DispenserShuffled { order }, Event::TossWon { seat }] = events.as_slice() else {
        panic!("unexpected start: {events:?}");
    };
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, all_cards());
    assert_ne!(order, &all_cards(), "the order is shuffled");
    let mut started = state.clone();
    fold(&mut started, &events);
    assert_eq!(Wicketz::pending(&started), vec![*seat]);
    let loser = Seat(1 - seat.0);
    let refused = decide(
        &started,
        loser,
        &Command::ChooseInnings { bat: true },
        &mut dice(),
    );
    assert_eq!(refused.unwrap_err().kind(), RejectKind::NotYourTurn);
    let chosen = decide(
        &started,
        *seat,
        &Command::ChooseInnings { bat: false },
        &mut dice(),
    )
    .unwrap();
    fold(&mut started, &chosen);
    assert_eq!(started.batting_seat(), Some(loser));
    assert_eq!(
        Wicketz::pending(&started),
        vec![*seat],
        "the toss winner bowls and sets the first over"
    );
}

#[test]
fn options_default_from_an_empty_object_and_refuse_unknown_fields() {
    let options: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(options, Options::default());
    assert_eq!(options.overs, 20);
    assert!(!options.wild_card && !options.bowling_variations);
    assert!(serde_json::from_str::<Options>(r#"{"overz": 20}"#).is_err());
    assert!(
        Wicketz::initial_state(&Options {
            innings_per_side: 3,
            ..Options::default()
        })
        .is_err()
    );
    assert!(
        Wicketz::initial_state(&Options {
            overs: 0,
            ..Options::default()
        })
        .is_err()
    );
}

// ---- Indicator ----------------------------------------------------------------------------

/// Seed: 002_5b76236006f2f885.txt "The segment BOUNCER/GOOGLY shows that one of these apply
/// according to whether pace or spin is being bowled."
#[test]
fn seed_002_bouncer_googly_segment_depends_on_pace_or_spin() {
    let segments = ruleset().segments();
    let index = segments
        .iter()
        .position(|s| *s == Segment::BouncerOrGoogly)
        .unwrap();
    assert_eq!(spin(&segments, index, Style::Pace), Delivery::Bouncer);
    assert_eq!(spin(&segments, index, Style::Spin), Delivery::Googly);
    let good = segments.iter().position(|s| *s == Segment::GoodLength).unwrap();
    assert_eq!(spin(&segments, good, Style::Spin), Delivery::GoodLength);
    assert_eq!(
        ruleset().segment_weights().iter().sum::<u32>(),
        20,
        "the spec's weights are out of 20"
    );
}

// ---- Field --------------------------------------------------------------------------------

/// Seed: 002_5b76236006f2f885.txt "the wicket-keeper must be in A0 or A1 and the bowler in J0 or I0".
#[test]
fn seed_002_keeper_and_bowler_positions_are_enforced() {
    let state = match_with(Options::default(), all_cards());
    let set = |field: Field| {
        decide(
            &state,
            BOWL,
            &Command::SetOver {
                style: Style::Pace,
                field: Some(field),
                line: None,
            },
            &mut dice(),
        )
    };
    let keeper_wrong = Field {
        keeper: at("B0"),
        ..seed_field()
    };
    assert_eq!(set(keeper_wrong).unwrap_err().reason(), "keeper_misplaced");
    let bowler_wrong = Field {
        bowler: at("K0"),
        ..seed_field()
    };
    assert_eq!(set(bowler_wrong).unwrap_err().reason(), "bowler_misplaced");
    let doubled = Field {
        fielders: ["Q2", "Q2", "M2", "L1", "H2", "F2", "E1", "D2", "B2"]
            .map(at)
            .to_vec(),
        ..seed_field()
    };
    assert_eq!(set(doubled).unwrap_err().reason(), "zone_taken_twice");
    let short = Field {
        fielders: seed_field().fielders[..8].to_vec(),
        ..seed_field()
    };
    assert_eq!(set(short).unwrap_err().reason(), "wrong_fielder_count");
    for (keeper, bowler) in [("A0", "I0"), ("A1", "J0")] {
        assert!(
            set(Field {
                keeper: at(keeper),
                bowler: at(bowler),
                ..seed_field()
            })
            .is_ok()
        );
    }
}

/// Seed: 002_5b76236006f2f885.txt "A Set Field For a single player could be: A0 for spin (or A1
/// for pace), Q2, P1, M2, L1, J0 (or I0), H2, F2, E1, D2, B2."
#[test]
fn seed_002_default_field_is_the_printed_set_field() {
    assert_eq!(ruleset().default_field(Style::Pace), seed_field());
    assert_eq!(ruleset().default_field(Style::Spin).keeper, at("A0"));
}

/// Seed: 002_5b76236006f2f885.txt "Fielding - Restrictions": the spec's value, 15 overs of 40
/// with at most 2 outside rings 0 and 1, scaled: overs 0-6 of a 20-over innings.
#[test]
fn seed_002_fielding_restriction_applies_in_the_first_overs_only() {
    let mut state = match_with(Options::default(), all_cards());
    state.options.fielding_restriction = FieldingRestriction::Scaled;
    assert_eq!(state.restriction_for(0), Some(2));
    assert_eq!(state.restriction_for(6), Some(2));
    assert_eq!(state.restriction_for(7), None);
    let set = |state: &State| {
        decide(
            state,
            BOWL,
            &Command::SetOver {
                style: Style::Pace,
                field: Some(seed_field()),
                line: None,
            },
            &mut dice(),
        )
    };
    let refused = set(&state).unwrap_err();
    assert_eq!(
        refused,
        WicketzReject::IllegalField(crease::rules::wicketz::field::FieldError::RestrictionBroken {
            outside: 6,
            max: 2
        })
    );
    // The agreed alternative: first 2 overs, 6 outside allowed.
    state.options.fielding_restriction = FieldingRestriction::Agreed {
        overs: 2,
        max_outside_inner: 6,
    };
    assert!(set(&state).is_ok());
}

/// A `set_over` without a field keeps the side's field, brought in for a restricted over (the
/// view's `suggested_field`), instead of refusing a field the client never sent. The
/// restriction is seed 002_5b76236006f2f885.txt's (see
/// `seed_002_fielding_restriction_applies_in_the_first_overs_only`).
#[test]
fn set_over_without_a_field_in_a_restricted_over_keeps_a_legal_field() {
    let mut state = match_with(Options::default(), all_cards());
    state.options.fielding_restriction = FieldingRestriction::Scaled;
    state.field = seed_field();
    assert!(
        state.field.validate(state.restriction_for(0)).is_err(),
        "6 outside, 2 allowed"
    );
    let events = decide(
        &state,
        BOWL,
        &Command::SetOver {
            style: Style::Pace,
            field: None,
            line: None,
        },
        &mut dice(),
    )
    .expect("a bare set_over is accepted");
    let Event::OverStarted { field, .. } = &events[0] else {
        panic!("{events:?}");
    };
    assert_eq!(field.validate(Some(2)), Ok(()));
    assert_eq!(field, &crease::rules::wicketz::decide::field_to_keep(&state));
    // Outside the restriction the field is kept exactly.
    state.options.fielding_restriction = FieldingRestriction::Off;
    let events = decide(
        &state,
        BOWL,
        &Command::SetOver {
            style: Style::Pace,
            field: None,
            line: None,
        },
        &mut dice(),
    )
    .unwrap();
    assert!(matches!(&events[0], Event::OverStarted { field, .. } if *field == seed_field()));
}

// ---- Strokes ------------------------------------------------------------------------------

/// Seed: 002_5b76236006f2f885.txt "Avoiding Action can be declared ... but only when a bouncer
/// has been bowled."
#[test]
fn seed_002_avoiding_action_only_against_a_bouncer() {
    let base = match_with(Options::default(), all_cards());
    let googly = facing(base.clone(), Delivery::Googly, Line::Wicket, None);
    assert_eq!(
        play(&googly, Stroke::AvoidingAction),
        Err(WicketzReject::AvoidingActionOnlyAgainstBouncer)
    );
    let bouncer = facing(base, Delivery::Bouncer, Line::Wicket, None);
    assert!(play(&bouncer, Stroke::AvoidingAction).is_ok());
}

/// Seed: 002_5b76236006f2f885.txt "After declaring a stroke, a card will be selected": the
/// next card of the dispenser is dealt and the bowler cannot act meanwhile.
#[test]
fn seed_002_a_stroke_deals_the_front_card_of_the_dispenser() {
    let mut order = all_cards();
    order.swap(0, 56); // card 57 (printed Card 1) at the front
    let state = facing(
        match_with(Options::default(), order),
        Delivery::Yorker,
        Line::Wicket,
        None,
    );
    assert_eq!(
        decide(
            &state,
            BOWL,
            &Command::Play {
                stroke: Stroke::Cut,
                wild_card: false
            },
            &mut dice()
        )
        .unwrap_err()
        .kind(),
        RejectKind::NotYourTurn
    );
    let events = play(&state, Stroke::Cut).unwrap();
    assert_eq!(events[0], Event::CardDealt { card: 57 });
    let Event::BallCompleted { ball } = &events[1] else {
        panic!("{events:?}")
    };
    // Card 1, Cut: "Bowled if yorker".
    assert_eq!(ball.dismissal.as_ref().map(|d| d.how), Some(HowOut::Bowled));
}

// ---- Card reading order -------------------------------------------------------------------

/// Seed: 002_5b76236006f2f885.txt "The right-hand column should be read initially, but if this
/// does not apply then the central column is read in conjunction with the numbered 'window'".
#[test]
fn seed_002_result_column_first_then_code_and_window() {
    let card = printed_card(57, 3);
    // Cut: P, "Bowled if yorker".
    assert_eq!(read(&card, Stroke::Cut, Delivery::Yorker), Reading::Bowled);
    assert_eq!(
        read(&card, Stroke::Cut, Delivery::HalfVolley),
        Reading::Runs {
            zone: at("P3"),
            runs: 3
        }
    );
    // Straight Drive: I, "L.B.W. if good length".
    assert_eq!(
        read(&card, Stroke::StraightDrive, Delivery::GoodLength),
        Reading::Lbw
    );
    assert_eq!(
        read(&card, Stroke::StraightDrive, Delivery::LongHop),
        Reading::Runs {
            zone: at("I3"),
            runs: 3
        }
    );
    // Square Cut: ★, "1 bye" applies to every delivery.
    assert_eq!(
        read(&card, Stroke::SquareCut, Delivery::FullToss),
        Reading::Byes { runs: 1 }
    );
    // Pull: ★, "Played and missed".
    assert_eq!(
        read(&card, Stroke::Pull, Delivery::LongHop),
        Reading::PlayedAndMissed
    );
    // Off Drive: L, "- -": code only. Window 1: L1 holds a fielder -> no run (plain card).
    assert_eq!(
        read(&printed_card(57, 1), Stroke::OffDrive, Delivery::HalfVolley),
        Reading::Fielded { zone: at("L1") }
    );
    assert_eq!(
        read(&printed_card(57, 2), Stroke::OffDrive, Delivery::HalfVolley),
        Reading::Runs {
            zone: at("L2"),
            runs: 2
        }
    );
    // Window 0: the ball stays in ring 0: no run.
    assert_eq!(
        read(&printed_card(57, 0), Stroke::OffDrive, Delivery::HalfVolley),
        Reading::Fielded { zone: at("L0") }
    );
}

/// Seed: 002_5b76236006f2f885.txt "Run out if occupied" on Card 1's On Drive (code H).
#[test]
fn seed_002_run_out_if_occupied_reads_the_coded_zone() {
    assert_eq!(
        read(&printed_card(57, 2), Stroke::OnDrive, Delivery::HalfVolley),
        Reading::RunOut { zone: at("H2") }
    );
    assert_eq!(
        read(&printed_card(57, 1), Stroke::OnDrive, Delivery::HalfVolley),
        Reading::Runs {
            zone: at("H1"),
            runs: 1
        }
    );
}

/// Seed: 002_5b76236006f2f885.txt "If there is no fielder in this position then the runs shown
/// on the card are given ... if the card is marked CATCH then the catch rule will be enforced."
#[test]
fn seed_002_a_fielder_in_the_zone_of_a_catch_card_is_a_catch_chance() {
    // Card 2 (CATCH), Cover Drive: M, "- -"; the seed field has M2.
    let card = printed_card(170, 2);
    assert_eq!(card.kind, CardKind::Catch);
    assert_eq!(
        read(&card, Stroke::CoverDrive, Delivery::HalfVolley),
        Reading::CatchChance { zone: at("M2") }
    );
    // Off Drive L: L2 empty -> 2 runs.
    assert_eq!(
        read(&card, Stroke::OffDrive, Delivery::HalfVolley),
        Reading::Runs {
            zone: at("L2"),
            runs: 2
        }
    );
    // On Drive: "Bowled if good length".
    assert_eq!(
        read(&card, Stroke::OnDrive, Delivery::GoodLength),
        Reading::Bowled
    );
}

/// Seed: 002_5b76236006f2f885.txt "Batsmen 1, 2, 3 & 4 are allowed three lives. Batsmen 5, 6 & 7
/// are allowed two lives. Batsmen 8, 9, 10 & 11 are allowed one life."
#[test]
fn seed_002_catch_rule_lives_by_batting_order() {
    let card = printed_card(170, 2);
    let caught = |batter: u8, spins: &[bool]| {
        let ball = resolve(&card, Stroke::CoverDrive, Delivery::HalfVolley, batter, spins);
        (ball.dismissal.map(|d| d.how), ball.catch.map(|c| c.spins.len()))
    };
    let out = Some(HowOut::Caught { zone: at("M2") });
    for batter in 1..=4 {
        assert_eq!(
            caught(batter, &[false, false, true]),
            (None, Some(3)),
            "batter {batter}"
        );
        assert_eq!(
            caught(batter, &[false, false, false]),
            (out, Some(3)),
            "batter {batter}"
        );
    }
    for batter in 5..=7 {
        assert_eq!(caught(batter, &[false, true]), (None, Some(2)), "batter {batter}");
        assert_eq!(caught(batter, &[false, false]), (out, Some(2)), "batter {batter}");
    }
    for batter in 8..=11 {
        assert_eq!(caught(batter, &[true]), (None, Some(1)), "batter {batter}");
        assert_eq!(caught(batter, &[false]), (out, Some(1)), "batter {batter}");
    }
    // A dropped catch stops the spins at once.
    assert_eq!(caught(1, &[true]), (None, Some(1)));
    assert_eq!(catch_rule(3, || true).spins, vec![true]);
}

/// Seed: 002_5b76236006f2f885.txt "when the delivery is a bouncer then only one life is
/// allowed, regardless of the batting order."
#[test]
fn seed_002_against_a_bouncer_one_life_whatever_the_order() {
    let card = printed_card(170, 2);
    let ball = resolve(&card, Stroke::CoverDrive, Delivery::Bouncer, 1, &[false]);
    assert_eq!(
        ball.dismissal.map(|d| d.how),
        Some(HowOut::Caught { zone: at("M2") })
    );
    assert_eq!(ball.catch.map(|c| c.lives), Some(1));
}

/// Seed: 002_5b76236006f2f885.txt "The Overthrow Rule ... occupied by a fielder this will
/// result in one run ... unoccupied ... resulting in 2 runs."
#[test]
fn seed_002_overthrows_one_run_if_occupied_two_if_empty() {
    let card = uniform_card(CardKind::Plain, 2, "M", "add overthrow/s");
    let ball = resolve(&card, Stroke::CoverDrive, Delivery::HalfVolley, 1, &[]);
    assert_eq!(
        (ball.bat_runs, ball.reading),
        (
            1,
            Some(Reading::Overthrows {
                zone: at("M2"),
                occupied: true,
                runs: 1
            })
        )
    );
    let card = uniform_card(CardKind::Plain, 2, "K", "add overthrow/s");
    assert_eq!(runs_off(&card, Stroke::OffDrive), 2);
}

/// Seed: 002_5b76236006f2f885.txt "Fielding - Saving Runs: When a '4' card appears and a fielder
/// occupies the '2' or '3' area in that lettered line ... credited with 1 run."
#[test]
fn seed_002_a_four_is_saved_by_a_deep_fielder_on_the_line() {
    let guarded = uniform_card(CardKind::Catch, 4, "M", "- -");
    assert_eq!(runs_off(&guarded, Stroke::CoverDrive), 1);
    let open = uniform_card(CardKind::Plain, 4, "K", "- -");
    assert_eq!(runs_off(&open, Stroke::OffDrive), 4);
    // P has only P1 (ring 1): not a boundary guard.
    let ring_one = uniform_card(CardKind::Plain, 4, "P", "- -");
    assert_eq!(runs_off(&ring_one, Stroke::Cut), 4);
    // A six is never saved.
    let six = uniform_card(CardKind::Plain, 6, "M", "- -");
    assert_eq!(runs_off(&six, Stroke::CoverDrive), 6);
}

/// Seed: 002_5b76236006f2f885.txt "★ Denotes no score (apart from extras and dismissal decisions)."
#[test]
fn seed_002_star_is_no_score() {
    let card = uniform_card(CardKind::Catch, 3, "★", "- -");
    assert_eq!(
        resolve(&card, Stroke::Leave, Delivery::GoodLength, 1, &[]).reading,
        Some(Reading::NoScore)
    );
}

/// Seed: 002_5b76236006f2f885.txt "No Ball: ... the batsman can only be dismissed by a run out.
/// Add one run to the extras if not scored from. (This part of the rule is subject to change.)"
#[test]
fn seed_002_no_ball_only_run_out_and_one_extra_if_not_scored_from() {
    let card = printed_card(57, 2);
    // Card 1 Cut "Bowled if yorker" cannot apply; the code P2 is read: 2 runs, no extra.
    let ball = resolve(&card, Stroke::Cut, Delivery::NoBall, 1, &[]);
    assert_eq!(
        (ball.dismissal.clone(), ball.bat_runs, ball.extras, ball.legal),
        (None, 2, 0, false)
    );
    // Pull "Played and missed": nothing scored -> one extra.
    let ball = resolve(&card, Stroke::Pull, Delivery::NoBall, 1, &[]);
    assert_eq!((ball.bat_runs, ball.extras), (0, 1));
    // The run out still applies (On Drive H2 occupied).
    let ball = resolve(&card, Stroke::OnDrive, Delivery::NoBall, 1, &[]);
    assert_eq!(
        ball.dismissal.map(|d| d.how),
        Some(HowOut::RunOut { zone: at("H2") })
    );
    // A catch chance is only fielded.
    let ball = resolve(
        &printed_card(170, 2),
        Stroke::CoverDrive,
        Delivery::NoBall,
        1,
        &[],
    );
    assert_eq!((ball.dismissal, ball.catch), (None, None));
    // The extra is an option.
    let no_extra = resolve_ball(
        &BallSetup {
            card: &card,
            stroke: Stroke::Pull,
            delivery: Delivery::NoBall,
            field: &seed_field(),
            striker: 0,
            wild_card: false,
            no_ball_extra: false,
        },
        ruleset(),
        || true,
    );
    assert_eq!(no_extra.extras, 0);
}

// ---- Scoring and ends ---------------------------------------------------------------------

/// Seed: 002_5b76236006f2f885.txt "When an odd number of runs is scored (including byes and
/// leg-byes, but not wides and no-balls) and also at the end of each over, the batsmen will
/// change ends."
#[test]
fn seed_002_ends_change_on_odd_runs_and_at_over_end() {
    let base = facing(
        match_with(Options::default(), all_cards()),
        Delivery::HalfVolley,
        Line::Wicket,
        None,
    );
    let after = |ball: Ball| {
        let mut state = base.clone();
        fold(&mut state, &[Event::BallCompleted { ball }]);
        let innings = state.current().unwrap().clone();
        (innings.striker, innings.runs)
    };
    let card = printed_card(57, 1);
    let one = resolve(&card, Stroke::Cut, Delivery::HalfVolley, 1, &[]);
    assert_eq!(one.bat_runs, 0, "P1 holds a fielder");
    assert_eq!(after(one), (0, 0));
    let one_run = resolve(
        &printed_card(57, 1),
        Stroke::CoverDrive,
        Delivery::HalfVolley,
        1,
        &[],
    );
    assert_eq!(one_run.bat_runs, 1);
    assert_eq!(after(one_run), (1, 1), "one run: the batters cross");
    let two = resolve(
        &printed_card(57, 2),
        Stroke::OffDrive,
        Delivery::HalfVolley,
        1,
        &[],
    );
    assert_eq!(after(two), (0, 2));
    let bye = resolve(&card, Stroke::SquareCut, Delivery::HalfVolley, 1, &[]);
    assert_eq!(after(bye), (1, 1), "a bye changes ends");
    assert_eq!(after(wide_ball(0, ruleset())), (0, 1), "a wide does not");
    let mut state = base.clone();
    fold(&mut state, &[Event::OverCompleted { number: 0, runs: 0 }]);
    assert_eq!(state.current().unwrap().striker, 1, "over end changes ends");
}

/// Seed: 002_5b76236006f2f885.txt "Wide: Add one run to the extras." The ball is bowled again.
#[test]
fn seed_002_wide_is_one_extra_and_not_a_ball_of_the_over() {
    let mut state = facing(
        match_with(Options::default(), all_cards()),
        Delivery::Wide,
        Line::Wicket,
        None,
    );
    fold(
        &mut state,
        &[Event::BallCompleted {
            ball: wide_ball(0, ruleset()),
        }],
    );
    let innings = state.current().unwrap();
    assert_eq!((innings.runs, innings.extras, innings.legal_balls), (1, 1, 0));
    assert_eq!(state.over.as_ref().unwrap().legal_balls, 0);
    assert_eq!(state.dispenser.len(), 246, "no card is dealt for a wide");
}

/// Seed: 002_5b76236006f2f885.txt "The Merit For a 40 over game ... 275 Brilliant, 250 Very Good,
/// 225 Good, 180 Fair, 150 Poor, Below 150 Back to the practice nets!", scaled to the overs.
#[test]
fn seed_002_merit_table_scaled_to_the_overs() {
    let rules = ruleset();
    assert_eq!(rules.merit(275, 40), "Brilliant");
    assert_eq!(rules.merit(274, 40), "Very Good");
    assert_eq!(rules.merit(225, 40), "Good");
    assert_eq!(rules.merit(180, 40), "Fair");
    assert_eq!(rules.merit(150, 40), "Poor");
    assert_eq!(rules.merit(149, 40), "Back to the practice nets!");
    // 20 overs: half the table (137.5 for Brilliant, 75 for Poor).
    assert_eq!(rules.merit(138, 20), "Brilliant");
    assert_eq!(rules.merit(137, 20), "Very Good");
    assert_eq!(rules.merit(74, 20), "Back to the practice nets!");
}

// ---- The dispenser ------------------------------------------------------------------------

/// Seed: 002_5b76236006f2f885.txt "At the conclusion of each over (6 balls), the six cards, or
/// more ... can be placed to the rear of the box."
#[test]
fn seed_002_an_overs_cards_go_to_the_rear_of_the_box() {
    let mut state = facing(
        match_with(Options::default(), all_cards()),
        Delivery::HalfVolley,
        Line::Wicket,
        None,
    );
    fold(
        &mut state,
        &[Event::CardDealt { card: 1 }, Event::CardDealt { card: 2 }],
    );
    assert_eq!(state.dispenser.front(), Some(&3));
    fold(&mut state, &[Event::OverCompleted { number: 0, runs: 0 }]);
    assert_eq!(state.dispenser.len(), 246);
    assert_eq!(
        state.dispenser.iter().rev().take(2).copied().collect::<Vec<_>>(),
        vec![2, 1]
    );
}

/// When every card has been dealt since the last shuffle, the server reshuffles before dealing
/// (default), so recycled cards cannot be predicted; `seed_only` keeps the box's behaviour.
#[test]
fn a_spent_cycle_is_reshuffled_before_the_next_card() {
    let mut state = facing(
        match_with(Options::default(), all_cards()),
        Delivery::HalfVolley,
        Line::Wicket,
        None,
    );
    state.fresh = 0;
    let events = play(&state, Stroke::ForwardDefence).unwrap();
    assert!(matches!(&events[0], Event::DispenserShuffled { order } if order.len() == 246));
    state.options.reshuffle = Reshuffle::SeedOnly;
    let events = play(&state, Stroke::ForwardDefence).unwrap();
    assert_eq!(events[0], Event::CardDealt { card: 1 });
}

// ---- Advanced options ---------------------------------------------------------------------

/// Seed: 002_5b76236006f2f885.txt "Bowling Variations ... If the players are agreed".
#[test]
fn seed_002_bowling_variations_need_the_option_and_pre_spin_off_and_leg_lines() {
    let state = match_with(Options::default(), all_cards());
    let set = |state: &State, line| {
        decide(
            state,
            BOWL,
            &Command::SetOver {
                style: Style::Pace,
                field: None,
                line: Some(line),
            },
            &mut dice(),
        )
    };
    assert_eq!(
        set(&state, Line::OffSide),
        Err(WicketzReject::BowlingVariationsOff { line: Line::OffSide })
    );
    let with = match_with(
        Options {
            bowling_variations: true,
            ..Options::default()
        },
        all_cards(),
    );
    let events = set(&with, Line::OffSide).unwrap();
    assert!(matches!(events[1], Event::LineSpun { .. }), "{events:?}");
    let events = set(&with, Line::Wicket).unwrap();
    assert!(
        !events.iter().any(|e| matches!(e, Event::LineSpun { .. })),
        "on the wicket: no pre-spin"
    );
}

/// Seed: 002_5b76236006f2f885.txt "Providing the line is good then the only attacking strokes
/// the batsmen can play are ... Defensive strokes remain unchanged."
#[test]
fn seed_002_a_good_line_restricts_attacking_strokes_to_its_side() {
    let options = Options {
        bowling_variations: true,
        ..Options::default()
    };
    let off_good = facing(
        match_with(options.clone(), all_cards()),
        Delivery::HalfVolley,
        Line::OffSide,
        Some(true),
    );
    assert_eq!(
        play(&off_good, Stroke::Pull),
        Err(WicketzReject::StrokeOffTheLine {
            stroke: Stroke::Pull,
            line: Line::OffSide
        })
    );
    for stroke in [
        Stroke::Cut,
        Stroke::SquareCut,
        Stroke::CoverDrive,
        Stroke::OffDrive,
        Stroke::StraightDrive,
        Stroke::ForwardDefence,
        Stroke::BackDefence,
        Stroke::Leave,
    ] {
        assert!(play(&off_good, stroke).is_ok(), "{stroke:?}");
    }
    let leg_good = facing(
        match_with(options.clone(), all_cards()),
        Delivery::HalfVolley,
        Line::LegSide,
        Some(true),
    );
    assert!(play(&leg_good, Stroke::Cut).is_err());
    for stroke in [
        Stroke::LegGlance,
        Stroke::Hook,
        Stroke::Pull,
        Stroke::OnDrive,
        Stroke::StraightDrive,
    ] {
        assert!(play(&leg_good, stroke).is_ok(), "{stroke:?}");
    }
    let strayed = facing(
        match_with(options, all_cards()),
        Delivery::HalfVolley,
        Line::OffSide,
        Some(false),
    );
    assert!(
        play(&strayed, Stroke::Pull).is_ok(),
        "a black pre-spin strays: any stroke"
    );
}

/// Seed: 002_5b76236006f2f885.txt "'Wild Card' Variation: Following an over in which only two
/// runs or less have been added ... select a card and place it face up ... use this card at
/// any time during that over."
#[test]
fn seed_002_wild_card_after_a_quiet_over_for_one_ball() {
    let options = Options {
        wild_card: true,
        ..Options::default()
    };
    let mut state = facing(
        match_with(options, all_cards()),
        Delivery::HalfVolley,
        Line::Wicket,
        None,
    );
    fold(&mut state, &[Event::OverCompleted { number: 0, runs: 2 }]);
    assert!(state.wild_card_due);
    let events = decide(
        &state,
        BOWL,
        &Command::SetOver {
            style: Style::Spin,
            field: None,
            line: None,
        },
        &mut dice(),
    )
    .unwrap();
    assert_eq!(events[1], Event::WildCardDrawn { card: 1 });
    fold(&mut state, &events);
    assert_eq!(state.phase, Phase::AwaitStroke);
    let delivery = state.delivery.unwrap();
    let stroke = if delivery == Delivery::Bouncer {
        Stroke::AvoidingAction
    } else {
        Stroke::Leave
    };
    let used = decide(
        &state,
        BAT,
        &Command::Play {
            stroke,
            wild_card: true,
        },
        &mut dice(),
    )
    .unwrap();
    assert!(
        !used.iter().any(|e| matches!(e, Event::CardDealt { .. })),
        "the wild card replaces the dealt card"
    );
    let Some(Event::BallCompleted { ball }) = used.first() else {
        panic!("{used:?}")
    };
    assert_eq!((ball.card, ball.wild_card), (Some(1), true));
    let mut after = state.clone();
    fold(&mut after, &used);
    if after.phase == Phase::AwaitStroke {
        let again = decide(
            &after,
            BAT,
            &Command::Play {
                stroke: Stroke::Leave,
                wild_card: true,
            },
            &mut dice(),
        );
        assert_eq!(again, Err(WicketzReject::WildCardUsed));
    }
    // After a busier over there is no wild card.
    let mut busy = facing(
        match_with(
            Options {
                wild_card: true,
                ..Options::default()
            },
            all_cards(),
        ),
        Delivery::HalfVolley,
        Line::Wicket,
        None,
    );
    fold(&mut busy, &[Event::OverCompleted { number: 0, runs: 3 }]);
    assert!(!busy.wild_card_due);
}

#[test]
fn a_wild_card_cannot_be_played_when_none_was_drawn() {
    let state = facing(
        match_with(
            Options {
                wild_card: true,
                ..Options::default()
            },
            all_cards(),
        ),
        Delivery::HalfVolley,
        Line::Wicket,
        None,
    );
    let refused = decide(
        &state,
        BAT,
        &Command::Play {
            stroke: Stroke::Leave,
            wild_card: true,
        },
        &mut dice(),
    );
    assert_eq!(refused, Err(WicketzReject::NoWildCard));
}

// ---- Innings and match end ----------------------------------------------------------------

/// Seed: 002_5b76236006f2f885.txt "The innings will continue ... until the side is dismissed at
/// the fall of the tenth wicket": the tenth wicket closes the innings with its Merit rating.
#[test]
fn seed_002_the_tenth_wicket_closes_the_innings() {
    let mut order = all_cards();
    order.swap(0, 56); // Card 1 first: Cut is "Bowled if yorker"
    let mut state = facing(
        match_with(Options::default(), order),
        Delivery::Yorker,
        Line::Wicket,
        None,
    );
    state.innings[0].wickets = 9;
    state.innings[0].runs = 40;
    let events = play(&state, Stroke::Cut).unwrap();
    let closed = events.iter().find_map(|e| match e {
        Event::InningsClosed {
            wickets, runs, merit, ..
        } => Some((*wickets, *runs, merit.clone())),
        _ => None,
    });
    assert_eq!(closed, Some((10, 40, "Back to the practice nets!".to_string())));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::InningsOpened {
            number: 2,
            batting: BOWL
        }
    )));
}

#[test]
fn commands_after_the_match_are_refused_as_match_over() {
    let mut state = match_with(Options::default(), all_cards());
    state.phase = Phase::Finished;
    let refused = play(&state, Stroke::Leave).unwrap_err();
    assert_eq!(refused.kind(), RejectKind::MatchOver);
}

#[test]
fn the_timeout_default_keeps_the_style_and_brings_the_field_in_when_restricted() {
    let mut state = match_with(Options::default(), all_cards());
    state.options.fielding_restriction = FieldingRestriction::Scaled;
    let Some(Command::SetOver {
        style,
        field: Some(field),
        line,
    }) = Wicketz::default_command(&state, BOWL)
    else {
        panic!("the bowler is asked to set the over");
    };
    assert_eq!((style, line), (Style::Pace, None));
    assert_eq!(field.validate(Some(2)), Ok(()));
    assert_eq!(
        Wicketz::default_command(&state, BAT),
        None,
        "the batter is not asked"
    );
    fold(
        &mut state,
        &[
            Event::OverStarted {
                number: 0,
                style: Style::Spin,
                line: Line::Wicket,
                field,
            },
            Event::Delivered {
                delivery: Delivery::HalfVolley,
            },
        ],
    );
    assert_eq!(
        Wicketz::default_command(&state, BAT),
        Some(Command::Play {
            stroke: Stroke::ForwardDefence,
            wild_card: false
        })
    );
    fold(&mut state, &[Event::OverCompleted { number: 0, runs: 5 }]);
    assert!(matches!(
        Wicketz::default_command(&state, BOWL),
        Some(Command::SetOver {
            style: Style::Spin,
            ..
        })
    ));
}

#[test]
fn wire_types_have_json_schemas_and_commands_round_trip() {
    for schema in [
        serde_json::to_value(schemars::schema_for!(crease::rules::wicketz::View)).unwrap(),
        serde_json::to_value(schemars::schema_for!(Command)).unwrap(),
        serde_json::to_value(schemars::schema_for!(Event)).unwrap(),
        serde_json::to_value(schemars::schema_for!(Options)).unwrap(),
        serde_json::to_value(schemars::schema_for!(WicketzReject)).unwrap(),
    ] {
        assert!(schema.is_object());
    }
    let command: Command = serde_json::from_str(
        r#"{"type":"set_over","style":"spin","field":{"keeper":"A0","bowler":"I0","fielders":["Q2","P1","M2","L1","H2","F2","E1","D2","B2"]}}"#,
    )
    .unwrap();
    assert!(matches!(
        command,
        Command::SetOver {
            style: Style::Spin,
            field: Some(_),
            line: None
        }
    ));
    assert!(serde_json::from_str::<Command>(r#"{"type":"play","stroke":"reverse_sweep"}"#).is_err());
    let reject = serde_json::to_value(WicketzReject::IllegalField(
        crease::rules::wicketz::field::FieldError::KeeperMisplaced { at: at("B0") },
    ))
    .unwrap();
    assert_eq!(reject["reason"], "illegal_field");
    assert_eq!(reject["problem"], "keeper_misplaced");
}

/// Seed: 002_5b76236006f2f885.txt "or if the prescribed number of previously agreed overs has
/// been bowled": the last legal ball of the agreed overs closes the innings, and the other
/// side bats next.
#[test]
fn seed_002_the_agreed_overs_close_the_innings() {
    let options = Options {
        overs: 1,
        ..Options::default()
    };
    let mut state = facing(
        match_with(options, all_cards()),
        Delivery::HalfVolley,
        Line::Wicket,
        None,
    );
    state.innings[0].legal_balls = 5;
    state.over.as_mut().unwrap().legal_balls = 5;
    let events = play(&state, Stroke::ForwardDefence).unwrap();
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::InningsClosed {
                number: 1,
                legal_balls: 6,
                ..
            }
        )),
        "{events:?}"
    );
    assert!(!events.iter().any(|e| matches!(e, Event::OverCompleted { .. })));
    let mut after = state.clone();
    fold(&mut after, &events);
    assert_eq!(
        (after.batting_seat(), after.phase),
        (Some(BOWL), Phase::AwaitOverSetup)
    );
    assert_eq!(after.target(), Some(after.innings[0].runs + 1));
}

/// The last innings stops once the target is passed (option `stop_when_target_passed`).
#[test]
fn passing_the_target_ends_the_match_with_a_wickets_margin() {
    let mut order = all_cards();
    order.swap(0, 56); // Card 1 first; Square Cut is "1 bye" whatever the window
    let mut state = facing(
        match_with(Options::default(), order.clone()),
        Delivery::HalfVolley,
        Line::Wicket,
        None,
    );
    fold(
        &mut state,
        &[
            Event::InningsClosed {
                number: 1,
                runs: 0,
                wickets: 10,
                legal_balls: 30,
                merit: "x".into(),
            },
            Event::InningsOpened {
                number: 2,
                batting: BOWL,
            },
            Event::OverStarted {
                number: 0,
                style: Style::Pace,
                line: Line::Wicket,
                field: seed_field(),
            },
            Event::Delivered {
                delivery: Delivery::HalfVolley,
            },
        ],
    );
    assert_eq!(state.target(), Some(1));
    let events = decide(
        &state,
        BAT,
        &Command::Play {
            stroke: Stroke::SquareCut,
            wild_card: false,
        },
        &mut dice(),
    );
    assert_eq!(
        events.unwrap_err().kind(),
        RejectKind::NotYourTurn,
        "seat 1 bats now"
    );
    let events = decide(
        &state,
        BOWL,
        &Command::Play {
            stroke: Stroke::SquareCut,
            wild_card: false,
        },
        &mut dice(),
    )
    .unwrap();
    let finished = events.iter().find_map(|e| match e {
        Event::MatchFinished { outcome } => Some(outcome.clone()),
        _ => None,
    });
    let outcome = finished.expect("the match ends at once");
    assert_eq!(outcome.placings, vec![2, 1]);
    assert_eq!(outcome.summary, "Seat 1 won by 10 wickets (1 to 0)");
}

// ---- Two-innings matches: the aggregate chase ----------------------------------------------

/// Folds closed innings with the given runs, in order A, B, A, ... (seat 0 first), then opens
/// the next innings and starts an over facing `delivery`.
fn two_innings_after(closed_runs: &[u32], delivery: Delivery, order: Vec<u16>) -> State {
    let options = Options {
        innings_per_side: 2,
        ..Options::default()
    };
    let mut state = match_with(options, order);
    for (i, runs) in closed_runs.iter().enumerate() {
        state.innings[i].runs = *runs;
        let number = i as u8 + 1;
        fold(
            &mut state,
            &[
                Event::InningsClosed {
                    number,
                    runs: *runs,
                    wickets: 10,
                    legal_balls: 60,
                    merit: "x".into(),
                },
                Event::InningsOpened {
                    number: number + 1,
                    batting: if i % 2 == 0 { BOWL } else { BAT },
                },
            ],
        );
    }
    facing(state, delivery, Line::Wicket, None)
}

/// Spec `../shared/rules/wicketz.md` corrections [SEED] (seed 002_5b76236006f2f885.txt "including
/// a two-innings game"): the side batting last chases the aggregate of both innings,
/// target = opponent's two innings + 1 - its own first innings.
#[test]
fn seed_002_two_innings_last_side_chases_the_aggregate() {
    let mut order = all_cards();
    order.swap(0, 56); // Card 1 first; Square Cut is "1 bye" whatever the window
    // Seat 0: 120 and 80; seat 1 made 150 in its first innings and now needs 120 + 80 + 1 - 150.
    let mut state = two_innings_after(&[120, 150, 80], Delivery::HalfVolley, order);
    assert_eq!(state.batting_seat(), Some(BOWL));
    assert_eq!(state.target(), Some(51));
    // One short of the target, the bye passes the aggregate and ends the match at once.
    state.innings[3].runs = 50;
    let events = decide(
        &state,
        BOWL,
        &Command::Play {
            stroke: Stroke::SquareCut,
            wild_card: false,
        },
        &mut dice(),
    )
    .unwrap();
    let outcome = events
        .iter()
        .find_map(|e| match e {
            Event::MatchFinished { outcome } => Some(outcome.clone()),
            _ => None,
        })
        .expect("passing the aggregate ends the match");
    assert_eq!(outcome.placings, vec![2, 1]);
    assert_eq!(outcome.summary, "Seat 1 won by 10 wickets (201 to 200)");
}

/// The same rule with the chasing side already ahead after the third innings: there is
/// nothing left to chase, so the fourth innings is not opened and the leader wins by an innings.
#[test]
fn seed_002_a_side_ahead_on_aggregate_wins_by_an_innings() {
    let mut order = all_cards();
    order.swap(0, 56); // Card 1 first: Cut is "Bowled if yorker"
    let mut state = two_innings_after(&[100, 300], Delivery::Yorker, order);
    assert_eq!(state.batting_seat(), Some(BAT));
    assert_eq!(state.target(), None, "only the last innings has a target");
    state.innings[2].runs = 150;
    state.innings[2].wickets = 9;
    let events = play(&state, Stroke::Cut).unwrap();
    assert!(
        !events.iter().any(|e| matches!(e, Event::InningsOpened { .. })),
        "{events:?}"
    );
    let outcome = events
        .iter()
        .find_map(|e| match e {
            Event::MatchFinished { outcome } => Some(outcome.clone()),
            _ => None,
        })
        .expect("the match ends with the third innings");
    assert_eq!(outcome.placings, vec![2, 1]);
    assert_eq!(
        outcome.summary,
        "Seat 1 won by an innings and 50 runs (300 to 250)"
    );
}
