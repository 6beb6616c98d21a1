//! The [SEED] rules of `../shared/rules/ctg.md`, each driven with exact die faces.
//!
//! A situation is reached by playing default commands with real dice, then the rule under
//! test runs through `engine::execute` with a [`Faces`] roller that hands out exactly the
//! faces the test names, and fails if the engine draws more or fewer.

use crease::rules::ctg::Ctg;
use crease::rules::ctg::command::Command;
use crease::rules::ctg::engine::{self};
use crease::rules::ctg::event::{Event, RollFor};
use crease::rules::ctg::field::Field;
use crease::rules::ctg::resolve::{self, Contact};
use crease::rules::ctg::state::{Phase, SkillsUsed, State};
use crease::rules::ctg::types::{Attitude, Dismissal, Effect, Format, Role};
use crease::rules::{Dice, Game, Seed};

use crate::ctg_harness::*;

/// Seed: 001_10260e69616bd853.txt "A roll of 6 (or 8 with D8) from the Bowler and a roll of
/// 1 from the Batter results in the Batter being Clean Bowled and OUT! No effect, card
/// ability, or re-roll can alter this result."
#[test]
fn seed_001_clean_bowled_cannot_be_rerolled_or_reviewed() {
    let mut state = at_ball(Format::T10, 0);
    state.skills.reroll_to_hit = 0;
    state.drs_used = false;
    set_field(&mut state, Field::EMPTY);
    let (card, zone) = card_and_zone(&state, 0);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[6, 1]);
    assert!(!events.contains(&Event::Await {
        phase: Phase::RerollToHit
    }));
    assert!(!events.contains(&Event::Await { phase: Phase::Review }));
    assert_eq!(ball_end(&events).wicket, Some(Dismissal::CleanBowled));
    // On a D8 (Inspired), the 8 is the clean-bowled face and a 6 is not.
    assert_eq!(resolve::contact(8, 8, 1, 3), Contact::CleanBowled);
    assert_ne!(resolve::contact(6, 8, 1, 3), Contact::CleanBowled);
}

/// Seed: 001_10260e69616bd853.txt "A roll of 1 from the Bowler and a roll of 6 or higher
/// from the Batter ... results in a FOUR! No adjustment can be made for the Advantage Meter"
/// and "... a roll of 8 from the Batter results in a SIX!".
#[test]
fn seed_001_natural_four_and_six_ignore_advantage() {
    let mut state = at_ball(Format::T10, 0);
    set_field(&mut state, Field::EMPTY);
    striker(&mut state, -1, Role::AllRounder);
    let (card, zone) = card_and_zone(&state, 2);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[1, 6]);
    assert_eq!(advantage_of(&events), -1);
    let ball = ball_end(&events);
    assert_eq!((ball.runs, ball.boundary), (4, 4));
    assert_eq!(resolve::contact(1, 6, 8, -1), Contact::NaturalSix);
    // Advantage -1 would make 1+1 = 2 against 6: still a four.
    assert_eq!(resolve::contact(1, 8, 6, -1), Contact::NaturalFour);
}

/// Seed: 001_10260e69616bd853.txt "Block: An equal result (by dice face-value OR
/// Advantage-adjusted result) means the Batter has Blocked the ball".
#[test]
fn seed_001_block_on_equal_faces_even_with_full_advantage() {
    let mut state = at_ball(Format::T10, 0);
    set_field(&mut state, Field::EMPTY);
    let (card, zone) = card_and_zone(&state, 0);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[4, 4]);
    assert_eq!(advantage_of(&events), 3);
    let ball = ball_end(&events);
    assert_eq!((ball.runs, ball.wicket, ball.legal), (0, None, true));
    assert_eq!(
        resolve::contact(5, 6, 2, 3),
        Contact::Block,
        "adjusted totals equal"
    );
}

/// Seed: 001_10260e69616bd853.txt "the Batter gains full Advantage (3)", "reduces 1
/// advantage point per full Zone away", "The BYE zone is not counted through".
#[test]
fn seed_001_advantage_full_on_match_stepped_per_zone_never_through_bye() {
    let leg_glance_only = 1 << 1;
    let late_cut_only = 1 << 5;
    assert_eq!(resolve::advantage(0, 1, leg_glance_only, false), 3);
    assert_eq!(resolve::advantage(2, 2, leg_glance_only, false), 1);
    assert_eq!(resolve::advantage(2, 3, leg_glance_only, false), 0);
    // Zone 5 to zone 1 is 4 zones along 1-2-3-4-5, not 2 through Bye.
    assert_eq!(resolve::advantage(3, 5, leg_glance_only, false), -1);
    assert_eq!(resolve::advantage(3, 1, late_cut_only, false), -1);
    // Through the engine: a zone one away from the card costs one step.
    let mut state = at_ball(Format::T10, 0);
    set_field(&mut state, Field::EMPTY);
    striker(&mut state, 2, Role::AllRounder);
    let (card, zone) = card_and_zone(&state, 1);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[3, 3]);
    assert_eq!(advantage_of(&events), 1);
}

/// Seed: 000_c44664d019aef0c0.txt "Specialist Batters have an ability that does not allow
/// their Advantage reducing below Neutral".
#[test]
fn seed_000_specialist_batters_never_below_neutral() {
    assert_eq!(resolve::advantage(-1, 5, 1 << 1, true), 0);
    assert_eq!(resolve::advantage(-1, 5, 1 << 1, false), -1);
    let mut state = at_ball(Format::T10, 0);
    set_field(&mut state, Field::EMPTY);
    striker(&mut state, 0, Role::Batter);
    let (card, zone) = card_and_zone(&state, 3);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[3, 2]);
    assert_eq!(advantage_of(&events), 0);
}

/// Seed: 000_c44664d019aef0c0.txt "The Batter can still score Runs off the no-ball, but
/// cannot be bowled (including a Clean Bowl roll) or caught out ... followed by a 'free hit
/// extra delivery' ... Play out the additional bowl without the use of an Over card."
#[test]
fn seed_000_no_ball_and_free_hit_protect_the_batter() {
    let mut state = at_ball(Format::T10, 0);
    let no_ball = card_with(&state, Effect::NoBall);
    state.dealt = Some([no_ball; 6]);
    set_field(&mut state, Field::EMPTY);
    let (card, zone) = card_and_zone(&state, 0);
    let wickets = state.score[state.bat_side()].wickets;
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[6, 1]);
    let ball = ball_end(&events);
    assert_eq!((ball.wicket, ball.extras, ball.legal), (None, 1, false));
    assert!(state.free_hit);
    assert_eq!(state.balls_in_over, 0);

    // The free hit: no over card is turned, a clean-bowled roll is still not out, and a
    // fielder in the landing area with a red bounce does not try the catch.
    let slot = state.slot;
    set_field(&mut state, Field::EMPTY.with(zone, 1));
    let events = deliver(&mut state, card, zone, Attitude::Aggressive, &[6, 1]);
    assert_eq!(state.slot, slot, "no over card on a free hit");
    assert!(!events.iter().any(|e| matches!(e, Event::OverCardRevealed { .. })));
    let ball = ball_end(&events);
    assert_eq!((ball.wicket, ball.legal), (None, true));
    assert_eq!(state.score[state.bat_side()].wickets, wickets);
}

/// A struck ball to distance 1 in a fielded area with a red bounce, caught or not.
#[test]
fn seed_001_catch_needs_a_fielder_and_a_red_bounce() {
    let mut state = at_ball(Format::T10, 0);
    let (card, zone) = card_and_zone(&state, 0);
    set_field(&mut state, Field::EMPTY.with(zone, 1));
    // Strike 5 vs 2 with Advantage 3; distance 1; red 1R (face 1 of the red die); catch 6.
    let events = deliver(&mut state, card, zone, Attitude::Aggressive, &[2, 5, 1, 1, 6]);
    assert_eq!(ball_end(&events).wicket, Some(Dismissal::Caught));
}

/// Seed: 000_c44664d019aef0c0.txt "the Batting team will score 1 LESS Run than they were
/// attempting to make ... with the Batters still changing ends as if successful".
#[test]
fn seed_000_run_out_scores_one_fewer_and_batters_cross() {
    let mut state = at_ball(Format::T10, 0);
    let (card, zone) = card_and_zone(&state, 0);
    // Empty field: distance 3 (area 2), green bounce 0G on the green die: stops in area 2.
    set_field(&mut state, Field::EMPTY);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[2, 5, 3, 1]);
    assert_eq!(events.last(), Some(&Event::Await { phase: Phase::Run }));
    let (striker, non_striker) = (state.striker, state.non_striker);
    let batting = state.batting;
    // Empty infield: 1 safe, try 2; D6 5 runs the batter out.
    let events = run(&mut state, batting, Command::Run { attempt: true }, &[5]);
    let ball = ball_end(&events);
    assert_eq!((ball.runs, ball.wicket), (1, Some(Dismissal::RunOut)));
    // Two runs attempted: the batters end where they began, the striker's end is vacant.
    assert_eq!(state.non_striker, non_striker);
    assert!(state.out & (1 << striker) != 0);
}

/// Seed: 001_10260e69616bd853.txt "Change the Facing Token as required" (odd runs) and
/// "at the end of each Over, move the FACING Token to the other Batter".
#[test]
fn seed_001_facing_batter_changes_on_odd_runs_and_at_over_end() {
    let mut state = at_ball(Format::T10, 0);
    let (card, zone) = card_and_zone(&state, 0);
    set_field(&mut state, Field::EMPTY);
    let (a, b) = (state.striker, state.non_striker);
    deliver(&mut state, card, zone, Attitude::Defensive, &[2, 5, 3, 1]);
    let batting = state.batting;
    run(&mut state, batting, Command::Run { attempt: false }, &[]);
    assert_eq!((state.striker, state.non_striker), (b, a), "one run swaps");
    set_field(&mut state, Field::EMPTY);
    deliver(&mut state, card, zone, Attitude::Defensive, &[2, 5, 3, 3]);
    run(&mut state, batting, Command::Run { attempt: false }, &[]);
    assert_eq!((state.striker, state.non_striker), (b, a), "two runs do not");
    for _ in 0..4 {
        set_field(&mut state, Field::EMPTY);
        deliver(&mut state, card, zone, Attitude::Defensive, &[3, 3]);
    }
    assert_eq!(state.over, 1);
    assert_eq!((state.striker, state.non_striker), (a, b), "the over's end swaps");
}

fn end_innings_state(format: Format) -> State {
    at_ball(format, 0)
}

/// Seed: 001_10260e69616bd853.txt "until 10 Wickets are taken" and "the second team ...
/// wins if they score more Runs" (the chase ends when it passes the target).
#[test]
fn seed_001_innings_ends_at_ten_wickets_last_over_or_target_passed() {
    // Ten wickets: nine down, a clean bowled ends the innings at once.
    let mut state = end_innings_state(Format::T10);
    state.score[state.bat_side()].wickets = 9;
    set_field(&mut state, Field::EMPTY);
    let (card, zone) = card_and_zone(&state, 0);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[6, 1]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::InningsEnded {
            innings: 0,
            wickets: 10,
            ..
        }
    )));
    assert_eq!(state.innings, 1);

    // Target passed mid-over in the second innings: the match ends on that ball.
    let mut dice = Dice::new(&Seed::from_u64(3));
    play_until(&mut state, &mut dice, |s| {
        s.phase == Phase::SetField && s.innings == 1
    });
    state.skills = SkillsUsed {
        reroll_to_hit: 9,
        reroll_distance: 9,
        reroll_bounce: 9,
        add_one: 9,
        roll_d8: 9,
    };
    let play_on = card_with(&state, Effect::PlayOn);
    state.dealt = Some([play_on; 6]);
    let target = state.target().expect("chasing");
    state.score[state.bat_side()].runs = target - 1;
    state.free_hit = false;
    set_field(&mut state, Field::EMPTY);
    let (card, zone) = card_and_zone(&state, 0);
    let events = deliver(&mut state, card, zone, Attitude::Defensive, &[1, 6]);
    assert!(events.iter().any(|e| matches!(e, Event::MatchEnded { .. })));
    assert_eq!(Ctg::outcome(&state).expect("over").winners(), vec![state.batting]);

    // Last over: the innings ends after its sixth legal ball.
    let mut state = at_ball(Format::T10, 9);
    let (card, zone) = card_and_zone(&state, 0);
    for _ in 0..6 {
        assert_eq!(state.innings, 0);
        set_field(&mut state, Field::EMPTY);
        deliver(&mut state, card, zone, Attitude::Defensive, &[3, 3]);
    }
    assert_eq!(state.innings, 1);
}

/// Seed: 000_c44664d019aef0c0.txt GAME LENGTH: express play on the first two balls of every
/// over but the first and last ("The first and last Overs are played in full"); express 3 is
/// "Two runs are scored" and a single express 6 is a dot (the two-sixes rule is tested below).
#[test]
fn seed_000_express_play_only_in_its_overs_on_the_first_two_balls() {
    let over = |format: Format, over: u8| {
        let mut state = at_ball(format, 0);
        state.over = over;
        state
    };
    for format in [Format::T10, Format::T20] {
        assert!(!over(format, 0).express_over(), "never the first over");
        assert!(over(format, 1).express_over());
        assert!(over(format, format.overs() - 2).express_over());
        assert!(
            !over(format, format.overs() - 1).express_over(),
            "never the last over"
        );
    }

    // The first and the last over start with a delivery; over 2 with two express balls.
    let state = at_ball(Format::T10, 0);
    assert_eq!((state.balls_in_over, state.phase), (0, Phase::SetField));
    let state = at_ball(Format::T10, 9);
    assert_eq!((state.balls_in_over, state.phase), (0, Phase::SetField));
    let mut dice = Dice::new(&Seed::from_u64(11));
    let mut state = at_ball(Format::T10, 0);
    play_until(&mut state, &mut dice, |s| {
        s.phase == Phase::ChooseBowler && s.over == 1 && s.innings == 0
    });
    let fielding = state.fielding();
    let bowler = engine::legal_bowlers(&state).trailing_zeros() as u8;
    let deck_type = state.cards[state.field_side()][usize::from(bowler)]
        .bowl_type
        .expect("bowler");
    let deck = &state.rules.over_decks[deck_type.index()];
    let six = deck.iter().position(|c| c.express == 6).expect("an express 6") as u8;
    let two_runs = deck.iter().position(|c| c.express == 3).expect("an express 3") as u8;
    // A deal the shuffle can make: distinct cards, the rest of the over "play on".
    let mut rest = (0..deck.len() as u8).filter(|&c| c != six && c != two_runs);
    let mut next = || rest.next().expect("15 cards");
    state.dealt = Some([two_runs, six, next(), next(), next(), next()]);
    let runs = state.score[state.bat_side()].runs;
    let out = run(&mut state, fielding, Command::ChooseBowler { bowler }, &[]);
    assert_eq!(
        out.iter()
            .filter(|e| matches!(e, Event::BallEnded { ball } if ball.express))
            .count(),
        2
    );
    assert_eq!(
        state.balls_in_over, 2,
        "two express balls before the first delivery"
    );
    assert_eq!(
        state.score[state.bat_side()].runs,
        runs + 2,
        "express 3 is two runs, one six is a dot"
    );
}

/// The express "two sixes" rule, seed 000_c44664d019aef0c0.txt "6 If two subsequent Balls are
/// drawn in express play, Bowler rolls a D6: 5+ Batter out - BOWLED", on both readings of the
/// [FIX] option `express_sixes`. Every over deals distinct cards and each shipped over deck
/// holds one express 6, so `same_over` (the default) can never see two; `across_overs` counts
/// the last express ball of one over and the first of the next express over as subsequent.
#[test]
fn fix_express_two_sixes_same_over_is_inert_across_overs_is_reachable() {
    use crease::rules::ctg::options::ExpressSixes;
    let rules = crease::rules::ctg::data::ruleset().expect("ruleset");
    for deck in &rules.over_decks {
        assert_eq!(
            deck.iter().filter(|c| c.express == 6).count(),
            1,
            "one express 6 per deck"
        );
    }
    for (rule, bowled) in [(ExpressSixes::SameOver, false), (ExpressSixes::AcrossOvers, true)] {
        // Over 2 (an express over) of a T20 innings (no Power Play call in between): its
        // second express card is the deck's six.
        let mut state = at_ball(Format::T20, 0);
        state.express_sixes_rule = rule;
        let mut dice = Dice::new(&Seed::from_u64(11));
        let before_over =
            |n: u8| move |s: &State| s.phase == Phase::ChooseBowler && s.over == n && s.innings == 0;
        play_until(&mut state, &mut dice, before_over(1));
        let deal_with_six_at = |state: &mut State, slot: usize| -> u8 {
            let bowler = engine::legal_bowlers(state).trailing_zeros() as u8;
            let bowl_type = state.cards[state.field_side()][usize::from(bowler)]
                .bowl_type
                .expect("a bowler");
            let deck = &state.rules.over_decks[bowl_type.index()];
            let six = deck.iter().position(|c| c.express == 6).expect("an express 6") as u8;
            // A deal a shuffle can make: six distinct cards, the six in `slot`, the other
            // express card a dot (express 1).
            let mut cards: Vec<u8> = (0..deck.len() as u8).filter(|&c| c != six).collect();
            cards.sort_by_key(|&c| deck[usize::from(c)].express != 1);
            cards.truncate(5);
            cards.insert(slot, six);
            let cards: [u8; 6] = cards.try_into().expect("six cards");
            let mut distinct = cards.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), 6, "a deal the shuffle can make");
            state.dealt = Some(cards);
            bowler
        };
        let bowler = deal_with_six_at(&mut state, 1);
        let fielding = state.fielding();
        let out = run(&mut state, fielding, Command::ChooseBowler { bowler }, &[]);
        assert!(
            !out.iter().any(|e| matches!(e, Event::Roll { .. })),
            "one six is a dot"
        );
        assert_eq!(state.express_six_run, 1);

        // The next express over opens with the six of its own deck.
        play_until(&mut state, &mut dice, before_over(2));
        let bowler = deal_with_six_at(&mut state, 0);
        let wickets = state.score[state.bat_side()].wickets;
        let fielding = state.fielding();
        let faces: &[u8] = if bowled { &[5] } else { &[] };
        let out = run(&mut state, fielding, Command::ChooseBowler { bowler }, faces);
        let chance = out.iter().any(|e| {
            matches!(
                e,
                Event::Roll {
                    roll_for: RollFor::ExpressSixes,
                    ..
                }
            )
        });
        assert_eq!(chance, bowled, "{rule:?}");
        let after = state.score[state.bat_side()].wickets;
        assert_eq!(after, wickets + u8::from(bowled), "{rule:?}: D6 5 bowls");
    }
}

/// The same two readings over whole random matches, with real shuffles: `same_over` never
/// rolls the two-sixes chance, `across_overs` does.
#[test]
fn fix_express_two_sixes_in_real_matches() {
    use crease::rules::ctg::options::ExpressSixes;
    use crease::rules::ctg::{Options, sim};
    let policies = [crease::rules::BotPolicy::Random; 2];
    for (rule, reachable) in [(ExpressSixes::SameOver, false), (ExpressSixes::AcrossOvers, true)] {
        let options = Options {
            express_sixes: rule,
            ..Options::t20()
        };
        let mut chances = 0;
        for index in 0..150 {
            sim::play(&options, &sim::match_seed(5, index), policies, |event| {
                if matches!(
                    event,
                    Event::Roll {
                        roll_for: RollFor::ExpressSixes,
                        ..
                    }
                ) {
                    chances += 1;
                }
            })
            .expect("plays");
        }
        assert_eq!(
            chances > 0,
            reachable,
            "{rule:?}: {chances} chances in 150 matches"
        );
    }
}

/// A legal field (9 fielders, no outfielder beyond `area`) whose only fielder in `zone` stands
/// in `area`: the other four zones' infield areas hold the other eight.
fn field_with_only(zone: u8, area: u8) -> Field {
    let mut field = Field::EMPTY.with(zone, area);
    for other in (1..=5u8).filter(|&z| z != zone) {
        field = field.with(other, 1).with(other, 2);
    }
    assert_eq!(field.count(), 9);
    field
}

/// Seed: 000_c44664d019aef0c0.txt "FIELDED / RUN-OUT": on a fielded ball "If the Bounce die is
/// Green, the Batter will take 1 Run, unless they decide to attempt an Extra Run (see below)",
/// and "EXTRA RUNS ... a result of 5 or 6 being a Run-Out"; a red bounce to a fielder is the
/// "standard Run-out attempt ... requiring a roll of 6".
#[test]
fn seed_000_fielded_green_extra_run_uses_the_extra_runs_roll_red_the_standard_six() {
    // Green: distance 3 (area 2, fielded), green 0G stays there: 1 safe, 2 tried, out on 5+.
    let mut state = at_ball(Format::T10, 0);
    let (card, zone) = card_and_zone(&state, 0);
    set_field(&mut state, Field::EMPTY.with(zone, 2));
    assert!(state.field.has(zone, 2));
    deliver(&mut state, card, zone, Attitude::Defensive, &[2, 5, 3, 1]);
    assert_eq!(state.phase, Phase::Run);
    let choice = engine::run_choice(&state);
    assert_eq!((choice.safe, choice.attempt, choice.run_out_min), (1, 2, 5));
    let batting = state.batting;
    let events = run(&mut state, batting, Command::Run { attempt: true }, &[5]);
    let ball = ball_end(&events);
    assert_eq!((ball.runs, ball.wicket), (1, Some(Dismissal::RunOut)));

    // Red: distance 1 (area 1, empty, so no catch), red 2R carries it to the fielder in area 2:
    // 0 safe, 1 tried, and a 5 does not run the batter out.
    let mut state = at_ball(Format::T10, 0);
    let (card, zone) = card_and_zone(&state, 0);
    set_field(&mut state, field_with_only(zone, 2));
    assert!(!state.field.has(zone, 1));
    deliver(&mut state, card, zone, Attitude::Aggressive, &[2, 5, 1, 2]);
    assert_eq!(state.phase, Phase::Run);
    let choice = engine::run_choice(&state);
    assert_eq!((choice.safe, choice.attempt, choice.run_out_min), (0, 1, 6));
    let batting = state.batting;
    let events = run(&mut state, batting, Command::Run { attempt: true }, &[5]);
    let ball = ball_end(&events);
    assert_eq!((ball.runs, ball.wicket), (1, None));
}
