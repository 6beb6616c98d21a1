//! The 11 designed Xp cards ([ASSUMED], `data/champions/ruleset.json`, origin "designed"),
//! one test each with exact faces. The six seed cards are in `champions_rules.rs`.

use Face::*;
use crease::rules::champions::cards::{role_mods, roll_limit};
use crease::rules::champions::data::{Origin, ruleset};
use crease::rules::champions::resolve::{BattingSide, BowlingSide, OverResult, RoleMods, resolve_over};
use crease::rules::champions::state::PlayerState;
use crease::rules::champions::{Champions, Command, Event, Face, Options, PowerUse, Role};
use crease::rules::{MatchCore, Seed};

const DESIGNED: [&str; 11] = [
    "nightwatchman",
    "six_machine",
    "yorker",
    "tight_line",
    "safe_hands",
    "sponsor_deal",
    "quick_singles",
    "power_hitter",
    "attacking_field",
    "second_wind",
    "captains_knock",
];

fn holder(card: &str) -> PlayerState {
    PlayerState {
        cards: vec![card.to_string()],
        ..PlayerState::default()
    }
}

fn mods(card: &str, role: Role) -> RoleMods {
    role_mods(ruleset(), &holder(card), role)
}

/// Resolves with `bat_card` held by the batsman and `bowl_card` by the bowler (either may be "").
fn over_with(bat_card: &str, bat: &[Face], bowl_card: &str, bowl: &[Face]) -> OverResult {
    let bat_mods = mods(bat_card, Role::Batting);
    let bowl_mods = mods(bowl_card, Role::Bowling);
    resolve_over(
        ruleset(),
        &BattingSide {
            faces: bat,
            mods: &bat_mods,
            bought_defence: 0,
            wickets_left: 10,
        },
        Some(&BowlingSide {
            faces: bowl,
            mods: &bowl_mods,
        }),
    )
}

/// Plays one over through `decide`: the batsman holds `bat_card` and uses `bat_power`.
fn decided_over(
    bat_card: &str,
    bat: [Face; 6],
    bat_power: Option<u8>,
    bowl_card: &str,
    bowl: [Face; 6],
    bowl_power: Option<u8>,
) -> OverResult {
    let mut core = MatchCore::<Champions>::new(&Options { players: 2 }, &Seed::from_u64(40)).expect("ok");
    core.start();
    let over = core.state.over().cloned().expect("over");
    let bowler = over.bowler.expect("bowler");
    core.state.players[over.batsman.index()]
        .cards
        .push(bat_card.into());
    core.state.players[bowler.index()].cards.push(bowl_card.into());
    let mut events = Vec::new();
    for (seat, role, faces, card, power) in [
        (over.batsman, Role::Batting, bat, bat_card, bat_power),
        (bowler, Role::Bowling, bowl, bowl_card, bowl_power),
    ] {
        core.fold(&[Event::DiceRolled {
            seat,
            role,
            roll: 1,
            dice: (0..6).collect(),
            faces: faces.to_vec(),
        }]);
        let powers = power
            .map(|die| {
                vec![PowerUse::SetDie {
                    card: card.into(),
                    die,
                }]
            })
            .unwrap_or_default();
        events.extend(
            core.submit(seat, &Command::Stop { powers })
                .expect("legal")
                .events,
        );
    }
    events
        .into_iter()
        .find_map(|e| match e {
            Event::OverResolved { result, .. } => Some(result),
            _ => None,
        })
        .expect("resolved")
}

#[test]
fn the_data_has_exactly_these_eleven_designed_cards() {
    let mut designed: Vec<&str> = ruleset()
        .xp_cards
        .iter()
        .filter(|c| c.origin == Origin::Designed)
        .map(|c| c.id.as_str())
        .collect();
    designed.sort();
    let mut expected = DESIGNED.to_vec();
    expected.sort();
    assert_eq!(designed, expected);
    for card in ruleset().xp_cards.iter() {
        assert!((3..=6).contains(&card.cost), "{} costs {}", card.id, card.cost);
    }
}

#[test]
fn nightwatchman_turns_a_batting_die_into_defence() {
    let bowl = [Wicket, Dot, Dot, Dot, Dot, Dot];
    assert_eq!(
        decided_over("nightwatchman", [One; 6], None, "", bowl, None).wickets,
        1
    );
    let r = decided_over("nightwatchman", [One; 6], Some(0), "", bowl, None);
    assert_eq!((r.wickets, r.runs), (0, 5));
}

#[test]
fn six_machine_turns_a_batting_die_into_a_six() {
    let r = decided_over(
        "six_machine",
        [Six, Six, Six, One, One, One],
        Some(3),
        "",
        [Dot; 6],
        None,
    );
    assert_eq!((r.runs, r.sixes), (6 + 2, 4));
}

#[test]
fn yorker_turns_a_bowling_die_into_a_wicket() {
    let bat = [One, One, One, One, One, Xp];
    assert_eq!(
        decided_over("", bat, None, "yorker", [Dot; 6], Some(2)).wickets,
        1
    );
    assert_eq!(decided_over("", bat, None, "yorker", [Dot; 6], None).wickets, 0);
}

#[test]
fn tight_line_wides_give_no_runs() {
    let bowl = [Wide, Wide, Dot, Dot, Dot, Dot];
    assert_eq!(over_with("", &[One; 6], "", &bowl).runs, 8);
    assert_eq!(over_with("", &[One; 6], "tight_line", &bowl).runs, 6);
}

#[test]
fn safe_hands_adds_a_save_only_after_a_save() {
    assert_eq!(
        over_with("", &[One; 6], "safe_hands", &[Save, Dot, Dot, Dot, Dot, Dot]).saved,
        2
    );
    assert_eq!(over_with("", &[One; 6], "safe_hands", &[Dot; 6]).saved, 0);
}

#[test]
fn sponsor_deal_pays_one_xp_every_over_in_both_roles() {
    let r = over_with("sponsor_deal", &[One; 6], "sponsor_deal", &[Dot; 6]);
    assert_eq!((r.batsman_xp, r.bowler_xp), (1, 1));
    let r = over_with("sponsor_deal", &[Xp, One, One, One, One, One], "", &[Dot; 6]);
    assert_eq!(r.batsman_xp, 2);
}

#[test]
fn quick_singles_score_the_unpaired_two() {
    let bat = [Two, Two, Two, Xp, Xp, Xp];
    assert_eq!(over_with("", &bat, "", &[Dot; 6]).runs, 2);
    assert_eq!(over_with("quick_singles", &bat, "", &[Dot; 6]).runs, 3);
}

#[test]
fn power_hitter_scores_four_for_a_pair_of_fours() {
    let bat = [Four, Four, Four, Four, Xp, Xp];
    assert_eq!(over_with("", &bat, "", &[Dot; 6]).runs, 4);
    assert_eq!(over_with("power_hitter", &bat, "", &[Dot; 6]).runs, 8);
}

#[test]
fn attacking_field_ignores_one_defence() {
    let bat = [Defence, Defence, One, One, One, One];
    let bowl = [Wicket, Wicket, Dot, Dot, Dot, Dot];
    assert_eq!(over_with("", &bat, "", &bowl).wickets, 0);
    assert_eq!(over_with("", &bat, "attacking_field", &bowl).wickets, 1);
}

#[test]
fn second_wind_gives_an_extra_roll_in_both_roles_but_not_in_a_last_over() {
    let p = holder("second_wind");
    let base = ruleset().rolls_per_turn;
    assert_eq!(roll_limit(ruleset(), &p, Role::Batting, false), base + 1);
    assert_eq!(roll_limit(ruleset(), &p, Role::Bowling, false), base + 1);
    assert_eq!(
        roll_limit(ruleset(), &p, Role::Batting, true),
        ruleset().last_over_rolls
    );
    assert_eq!(
        roll_limit(ruleset(), &PlayerState::default(), Role::Batting, false),
        base
    );
}

#[test]
fn captains_knock_adds_two_runs_from_six_after_saves() {
    let bat = [One; 6];
    assert_eq!(over_with("captains_knock", &bat, "", &[Dot; 6]).runs, 8);
    assert_eq!(
        over_with("captains_knock", &bat, "", &[Save, Dot, Dot, Dot, Dot, Dot]).runs,
        5
    );
}

/// The colour validation in the data loader: a green card's power never helps a batsman.
#[test]
fn green_cards_do_nothing_for_a_batsman_and_black_nothing_for_a_bowler() {
    assert_eq!(mods("tight_line", Role::Batting), RoleMods::default());
    assert_eq!(mods("captains_knock", Role::Bowling), RoleMods::default());
    assert_ne!(mods("sponsor_deal", Role::Batting), RoleMods::default());
}
