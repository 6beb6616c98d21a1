//! `crease arena`: the interval it prints, its policy names, and that every shipped exploit
//! only ever plays legal commands over whole matches (the arena refuses to hide a refusal).

use crease::cli::arena::{self, ArenaError, Common, Report, Result3, Z95, champions, ctg, wicketz};
use crease::rules::ctg::{Options as CtgOptions, safe, types::Format};
use crease::rules::wicketz::Options as WicketzOptions;
use crease::rules::{BotPolicy, Seat};

/// One CTG arena match with the shipped bound and a fresh responders' memory.
fn play_ctg(
    options: &CtgOptions,
    deal: &crease::rules::Seed,
    seat: Seat,
    policies: [ctg::CtgPolicy; 2],
) -> Result<Result3, ArenaError> {
    ctg::play(
        options,
        deal,
        seat,
        policies,
        safe::EXPLOIT_BOUND,
        &mut ctg::Memory::default(),
    )
}

fn close(actual: (f64, f64), expected: (f64, f64)) {
    assert!(
        (actual.0 - expected.0).abs() < 5e-4 && (actual.1 - expected.1).abs() < 5e-4,
        "{actual:?} is not {expected:?}"
    );
}

#[test]
fn wilson_interval_matches_known_counts() {
    // Reference values of the Wilson score interval at z = 1.96.
    close(arena::wilson(50.0, 100.0, Z95), (0.4038, 0.5962));
    close(arena::wilson(0.0, 10.0, Z95), (0.0, 0.2775));
    close(arena::wilson(10.0, 10.0, Z95), (0.7225, 1.0));
    close(arena::wilson(1100.0, 2000.0, Z95), (0.5281, 0.5717));
    close(arena::wilson(0.0, 0.0, Z95), (0.0, 1.0));
}

#[test]
fn a_report_counts_ties_as_half_a_win() {
    let mut report = Report::default();
    for _ in 0..6 {
        report.add(Result3::Win, Seat(0));
    }
    for _ in 0..2 {
        report.add(Result3::Tie, Seat(1));
    }
    for _ in 0..2 {
        report.add(Result3::Loss, Seat(1));
    }
    report.finish();
    assert_eq!((report.a_wins, report.ties, report.b_wins), (6, 2, 2));
    assert_eq!(report.a_wins_by_seat, [6, 0]);
    assert!((report.a_score - 0.7).abs() < 1e-12);
    close(
        (report.wilson_low, report.wilson_high),
        arena::wilson(7.0, 10.0, Z95),
    );
}

#[test]
fn unknown_policy_names_are_refused_with_the_known_ones() {
    let error = ctg::CtgPolicy::parse("ctg", "same-stroke").unwrap_err();
    let ArenaError::UnknownPolicy { ref known, .. } = error else {
        panic!("{error}");
    };
    assert!(
        known.contains("same-card") && known.contains("heuristic"),
        "{known}"
    );
    assert!(error.to_string().contains("`same-stroke`"), "{error}");
    assert!(wicketz::WicketzPolicy::parse("wicketz", "same-stroke").is_ok());
    assert!(champions::ChampionsPolicy::parse("champions", "").is_err());
}

/// The policies of issue 30: they solve a game or two every ball, slow in a debug build,
/// so they play fewer deals (in their own test below).
const RESPONDERS: [&str; 3] = ["hard-safe", "best-response", "adaptive"];

/// Plays `pairs` deals of each exploit against the heuristic, both seat orders.
fn every_exploit_plays_legally<P: Copy>(
    names: Vec<&'static str>,
    parse: impl Fn(&str) -> Result<P, ArenaError>,
    heuristic: P,
    pairs: u64,
    play: impl Fn(&crease::rules::Seed, Seat, [P; 2]) -> Result<Result3, ArenaError>,
) {
    let exploits: Vec<&str> = names
        .into_iter()
        .filter(|n| !["random", "heuristic"].contains(n))
        .collect();
    assert!(!exploits.is_empty());
    for name in exploits {
        let exploit = parse(name).unwrap();
        for index in 0..pairs * 2 {
            let deal = arena::deal_seed(11, index);
            let seat = arena::a_seat(index);
            if let Err(error) = play(&deal, seat, [exploit, heuristic]) {
                panic!("{name}, match {index}: {error}");
            }
        }
    }
}

/// [`every_exploit_plays_legally`] for CTG, in T10 and in T20.
fn ctg_policies_play_legally(names: Vec<&'static str>, opponent: ctg::CtgPolicy, pairs: u64) {
    for format in [Format::T10, Format::T20] {
        let options = CtgOptions {
            format,
            ..CtgOptions::default()
        };
        every_exploit_plays_legally(
            names.clone(),
            |n| ctg::CtgPolicy::parse("ctg", n),
            opponent,
            pairs,
            |deal, seat, policies| play_ctg(&options, deal, seat, policies),
        );
    }
}

#[test]
fn every_ctg_exploit_plays_only_legal_commands_in_both_formats() {
    let names = ctg::CtgPolicy::names()
        .into_iter()
        .filter(|n| !RESPONDERS.contains(n))
        .collect();
    ctg_policies_play_legally(names, ctg::CtgPolicy::Bot(BotPolicy::Heuristic), 10);
}

#[test]
fn the_ctg_responders_play_only_legal_commands_in_both_formats() {
    ctg_policies_play_legally(
        RESPONDERS.to_vec(),
        ctg::CtgPolicy::parse("ctg", "hard").unwrap(),
        2,
    );
}

#[test]
fn every_wicketz_exploit_plays_only_legal_commands_with_every_option() {
    let plain = WicketzOptions {
        overs: 10,
        ..WicketzOptions::default()
    };
    let advanced = WicketzOptions {
        overs: 5,
        innings_per_side: 2,
        bowling_variations: true,
        wild_card: true,
        ..WicketzOptions::default()
    };
    for options in [plain, advanced] {
        every_exploit_plays_legally(
            wicketz::WicketzPolicy::names(),
            |n| wicketz::WicketzPolicy::parse("wicketz", n),
            wicketz::WicketzPolicy::Bot(BotPolicy::Heuristic),
            5,
            |deal, seat, policies| {
                wicketz::play(
                    &options,
                    deal,
                    seat,
                    policies,
                    crease::rules::wicketz::hard::EXPLOIT_BOUND,
                    &mut wicketz::Memory::default(),
                )
            },
        );
    }
}

#[test]
fn every_champions_exploit_plays_only_legal_commands() {
    let names = champions::ChampionsPolicy::names()
        .into_iter()
        .filter(|n| !RESPONDERS.contains(n))
        .collect();
    every_exploit_plays_legally(
        names,
        |n| champions::ChampionsPolicy::parse("champions", n),
        champions::ChampionsPolicy::Bot(BotPolicy::Heuristic),
        10,
        |deal, seat, policies| champions::play(deal, seat, policies, &mut champions::Memory::default()),
    );
}

/// Champions' responders over whole matches against `hard`: legal commands only. The white-box
/// batsman gains nothing over `hard`'s own batting, and the adaptive one counts the replies it
/// faced, carried from match to match.
#[test]
fn the_champions_responders_play_legally_read_hard_and_count_its_replies() {
    let series = |a: &str, b: &str, matches: u64| {
        let policies = [a, b].map(|name| champions::ChampionsPolicy::parse("champions", name).unwrap());
        let mut memory = champions::Memory::default();
        for index in 0..matches {
            let played = champions::play(
                &arena::deal_seed(17, index),
                arena::a_seat(index),
                policies,
                &mut memory,
            );
            if let Err(error) = played {
                panic!("{a} v {b}, match {index}: {error}");
            }
        }
        memory
    };
    let white_box = series("best-response", "hard", 4);
    // Five batting overs a match, fewer only when a batsman is eliminated.
    assert!(white_box.choices >= 12, "{} overs", white_box.choices);
    // `hard` bats by the reader's own prices: it leaves the reader nothing (with the table's
    // prices it left 0.13 points an over; the reply module's tests show the reader finds that).
    let gain = white_box.gain / white_box.choices as f64;
    assert!(gain.abs() < 1e-9, "gain {gain} points an over");
    // Against anyone but `hard` there is no table to measure against.
    assert_eq!(series("best-response", "heuristic", 2).choices, 0);
    let adaptive = series("adaptive", "hard", 4);
    // Every batting over but a match's last one is learnt.
    assert!(
        adaptive.habits.observations() >= 12,
        "{} replies",
        adaptive.habits.observations()
    );
}

#[test]
fn an_arena_repeats_from_its_seed_and_swaps_seats() {
    let common = Common {
        a: "card-per-type".into(),
        b: "heuristic".into(),
        matches: 40,
        seed: 3,
        json: true,
        list: false,
    };
    let options = CtgOptions::default();
    let policies = [
        ctg::CtgPolicy::parse("ctg", &common.a).unwrap(),
        ctg::CtgPolicy::parse("ctg", &common.b).unwrap(),
    ];
    let run = || {
        let mut seats = Vec::new();
        let report = arena::run_matches(&common, "ctg", "a", "b", |deal, seat| {
            seats.push(seat);
            play_ctg(&options, deal, seat, policies)
        })
        .unwrap();
        (report, seats)
    };
    let (first, seats) = run();
    let (second, _) = run();
    assert_eq!(first.matches, 40);
    assert_eq!(first.a_wins + first.ties + first.b_wins, 40);
    assert_eq!(seats.iter().filter(|s| **s == Seat(0)).count(), 20);
    assert_eq!(
        (first.a_wins, first.ties, first.b_wins, first.a_wins_by_seat),
        (second.a_wins, second.ties, second.b_wins, second.a_wins_by_seat)
    );
}

#[test]
fn ctg_hard_plays_only_legal_commands_in_both_formats_and_both_seats() {
    for format in [Format::T10, Format::T20] {
        let options = CtgOptions {
            format,
            ..CtgOptions::default()
        };
        let hard = ctg::CtgPolicy::parse("ctg", "hard").unwrap();
        for opponent in ["hard", "heuristic", "random", "card-per-type"] {
            let opponent = ctg::CtgPolicy::parse("ctg", opponent).unwrap();
            for index in 0..12 {
                let played = play_ctg(
                    &options,
                    &arena::deal_seed(5, index),
                    arena::a_seat(index),
                    [hard, opponent],
                );
                if let Err(error) = played {
                    panic!("{format:?} vs {}, match {index}: {error}", opponent.name());
                }
            }
        }
    }
}

/// Property-style: over many seeded matches, in both seats, with every advanced option and
/// restricted and free fields, Wicketz `hard` never sends a command the rules refuse (the
/// arena turns a refusal into an error).
#[test]
fn wicketz_hard_plays_only_legal_commands_over_many_seeded_matches() {
    use crease::rules::wicketz::options::FieldingRestriction;
    let variants = [
        WicketzOptions {
            overs: 6,
            ..WicketzOptions::default()
        },
        WicketzOptions {
            overs: 5,
            innings_per_side: 2,
            bowling_variations: true,
            wild_card: true,
            fielding_restriction: FieldingRestriction::Agreed {
                overs: 5,
                max_outside_inner: 0,
            },
            ..WicketzOptions::default()
        },
        WicketzOptions {
            overs: 4,
            fielding_restriction: FieldingRestriction::Off,
            stop_when_target_passed: false,
            wild_card: true,
            ..WicketzOptions::default()
        },
    ];
    let hard = wicketz::WicketzPolicy::parse("wicketz", "hard").unwrap();
    for (variant, options) in variants.iter().enumerate() {
        for opponent in ["hard", "heuristic", "random", "same-stroke", "spin-only"] {
            let opponent = wicketz::WicketzPolicy::parse("wicketz", opponent).unwrap();
            // Four deals, two in each seat: the whole set is 60 matches, about a minute in
            // a debug build (the hard bot prices every stroke and field spot each ball).
            for index in 0..4 {
                let played = wicketz::play(
                    options,
                    &arena::deal_seed(9, index),
                    arena::a_seat(index),
                    [hard, opponent],
                    crease::rules::wicketz::hard::EXPLOIT_BOUND,
                    &mut wicketz::Memory::default(),
                );
                if let Err(error) = played {
                    panic!("options {variant} vs {}, match {index}: {error}", opponent.name());
                }
            }
        }
    }
}

#[test]
fn hard_is_offered_only_where_a_game_has_one() {
    assert!(ctg::CtgPolicy::names().contains(&"hard"));
    assert!(wicketz::WicketzPolicy::names().contains(&"hard"));
    assert_eq!(
        wicketz::WicketzPolicy::parse("wicketz", "hard").unwrap(),
        wicketz::WicketzPolicy::Level(crease::rules::BotLevel::Hard)
    );
    assert_eq!(
        champions::ChampionsPolicy::parse("champions", "hard").ok(),
        Some(champions::ChampionsPolicy::Level(crease::rules::BotLevel::Hard))
    );
}

#[test]
fn the_committed_level_blends_load_and_normal_hands_hard_more_decisions_than_easy() {
    use crease::rules::BotLevel;
    for (game, blends) in [
        ("wicketz", &*crease::rules::wicketz::BOT_LEVELS),
        ("champions", &*crease::rules::champions::BOT_LEVELS),
    ] {
        let easy = blends.of(BotLevel::Easy).expect("easy blends");
        let normal = blends.of(BotLevel::Normal).expect("normal blends");
        assert!(easy.hard < normal.hard, "{game}: {easy:?} {normal:?}");
        assert_eq!(blends.of(BotLevel::Hard), None, "{game}");
    }
}

#[test]
fn bot_levels_parse_and_bad_ones_are_refused_clearly() {
    use crease::rules::{BotLevel, BotLevelError};
    assert_eq!("easy".parse(), Ok(BotLevel::Easy));
    assert_eq!("normal".parse(), Ok(BotLevel::Normal));
    assert_eq!("hard".parse(), Ok(BotLevel::Hard));
    assert_eq!(BotLevel::default(), BotLevel::Normal);
    for bad in ["", "Hard", "expert", "normal "] {
        let error: BotLevelError = bad.parse::<BotLevel>().unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("unknown bot level `{bad}`: expected easy, normal or hard")
        );
    }
    // Serialized as the same names, and unknown names refused.
    assert_eq!(serde_json::to_string(&BotLevel::Hard).unwrap(), "\"hard\"");
    assert!(serde_json::from_str::<BotLevel>("\"expert\"").is_err());
    // The arena takes levels as policy names, and plays them as the server does; the bare
    // policies keep their own names.
    for level in [BotLevel::Easy, BotLevel::Normal, BotLevel::Hard] {
        let name = serde_json::to_value(level).unwrap();
        let policy = ctg::CtgPolicy::parse("ctg", name.as_str().unwrap()).unwrap();
        assert_eq!(policy, ctg::CtgPolicy::Level(level));
        assert_eq!(Some(policy.name()), name.as_str());
    }
    assert_eq!(
        ctg::CtgPolicy::parse("ctg", "random").unwrap(),
        ctg::CtgPolicy::Bot(BotPolicy::Random)
    );
}

#[test]
fn ctg_habit_counts_are_the_revealed_balls_and_every_seat_sees_the_same() {
    use crease::rules::ctg::{Ctg, Event, sim};
    use crease::rules::{Game, Seed, Viewer};
    let options = CtgOptions::default();
    let mut revealed = [0u64; 2];
    let mut batting = Seat(0);
    let played = sim::play(
        &options,
        &Seed::from_u64(21),
        [BotPolicy::Heuristic; 2],
        |event| match event {
            Event::InningsStarted { batting: side, .. } => batting = *side,
            Event::Revealed { .. } => revealed[usize::from(1 - batting.0)] += 1,
            _ => {}
        },
    )
    .unwrap();
    let state = &played.state;
    for (side, revealed) in revealed.into_iter().enumerate() {
        let bowled: u64 = state.cards_bowled[side]
            .iter()
            .flatten()
            .map(|c| u64::from(*c))
            .sum();
        let played: u64 = state.zones_played[1 - side]
            .iter()
            .flatten()
            .map(|c| u64::from(*c))
            .sum();
        assert_eq!(bowled, revealed, "side {side} bowled");
        assert_eq!(played, revealed, "side {} batted", 1 - side);
        assert!(bowled > 0);
    }
    let views = [Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1)), Viewer::Spectator]
        .map(|viewer| Ctg::view(state, viewer).situation);
    for situation in &views[..2] {
        assert_eq!(situation.card_counts, views[2].card_counts);
        assert_eq!(situation.zone_counts, views[2].zone_counts);
    }
}

#[test]
fn the_responders_are_offered_where_a_game_has_them_and_refused_with_why_elsewhere() {
    for name in RESPONDERS {
        assert_eq!(ctg::CtgPolicy::parse("ctg", name).unwrap().name(), name);
        assert!(ctg::CtgPolicy::names().contains(&name));
    }
    for name in RESPONDERS {
        assert_eq!(
            wicketz::WicketzPolicy::parse("wicketz", name).unwrap().name(),
            name
        );
        assert!(wicketz::WicketzPolicy::names().contains(&name));
    }
    for name in ["best-response", "adaptive"] {
        let policy = champions::ChampionsPolicy::parse("champions", name).unwrap();
        assert_eq!(policy.name(), name);
        assert!(champions::ChampionsPolicy::names().contains(&name));
    }
    let error = champions::ChampionsPolicy::parse("champions", "hard-safe").unwrap_err();
    assert!(matches!(error, ArenaError::NotForGame { .. }), "{error}");
    assert!(error.to_string().contains("no lean to bound"), "{error}");
    assert!(!champions::ChampionsPolicy::names().contains(&"hard-safe"));
}

/// Wicketz' responders over whole matches against `hard`, with every option: legal
/// commands only. What `hard`'s fields give the best responder over the minimax field stays
/// within `hard`'s bound, and is large against a `hard-safe` free to lean all the way: the
/// tally reads the field it answers.
#[test]
fn the_wicketz_responders_play_legally_and_gain_no_more_than_the_bound() {
    use crease::rules::wicketz::hard::EXPLOIT_BOUND;
    let options = WicketzOptions {
        overs: 5,
        innings_per_side: 2,
        bowling_variations: true,
        wild_card: true,
        ..WicketzOptions::default()
    };
    let series = |a: &str, b: &str, bound: f64| {
        let policies = [a, b].map(|name| wicketz::WicketzPolicy::parse("wicketz", name).unwrap());
        let mut memory = wicketz::Memory::default();
        for index in 0..4 {
            let played = wicketz::play(
                &options,
                &arena::deal_seed(13, index),
                arena::a_seat(index),
                policies,
                bound,
                &mut memory,
            );
            if let Err(error) = played {
                panic!("{a} v {b}, match {index}: {error}");
            }
        }
        memory
    };
    series("adaptive", "hard", EXPLOIT_BOUND);
    let shipped = series("best-response", "hard", EXPLOIT_BOUND);
    assert!(shipped.choices >= 16, "{} overs", shipped.choices);
    let gain = shipped.gain / shipped.choices as f64;
    assert!(
        (0.0..=EXPLOIT_BOUND).contains(&gain),
        "gain {gain} a ball against hard"
    );
    let greedy = series("hard-safe", "best-response", f64::INFINITY);
    let gain = greedy.gain / greedy.choices as f64;
    assert!(
        gain > EXPLOIT_BOUND,
        "gain {gain} a ball against an unbounded lean"
    );
}

/// The white-box responder's tallied gain: within the bound it reads (none for `hard`), and
/// large against a `hard-safe` allowed to lean all the way (a pure reply to habits), which
/// proves it reads the plan it answers.
#[test]
fn the_white_box_responder_gains_no_more_than_the_bound_it_reads() {
    let options = CtgOptions {
        format: Format::T10,
        ..CtgOptions::default()
    };
    let responder = ctg::CtgPolicy::parse("ctg", "best-response").unwrap();
    let gain_against = |bot: &str, bound: f64| {
        let policies = [responder, ctg::CtgPolicy::parse("ctg", bot).unwrap()];
        let mut memory = ctg::Memory::default();
        for index in 0..4 {
            ctg::play(
                &options,
                &arena::deal_seed(9, index),
                arena::a_seat(index),
                policies,
                bound,
                &mut memory,
            )
            .unwrap();
        }
        assert!(memory.choices > 200, "{} sealed choices", memory.choices);
        memory.gain / memory.choices as f64
    };
    let bounded = gain_against("hard-safe", 0.008);
    assert!(
        (-1e-9..=0.008 + safe::TOLERANCE).contains(&bounded),
        "gain {bounded} a ball against the bound"
    );
    let greedy = gain_against("hard-safe", 10.0);
    assert!(greedy > 0.04, "gain {greedy} a ball against an unbounded lean");
    let shipped = gain_against("hard", 0.008);
    assert!(shipped <= safe::TOLERANCE, "gain {shipped} a ball against hard");
}
