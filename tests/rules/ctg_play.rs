//! Full matches through `MatchCore`, driven only by what each seat's view shows, exactly as
//! the server's bots and WebSocket tests drive them.

use crease::rules::ctg::{Ctg, Options};
use crease::rules::{BotPolicy, Dice, Game, MatchCore, Seed, Viewer};

/// Plays one match; returns the number of commands and the final core.
fn play(options: &Options, seed: u64, policies: [BotPolicy; 2]) -> (usize, MatchCore<Ctg>) {
    let mut core = MatchCore::<Ctg>::new(options, &Seed::from_u64(seed)).expect("valid options");
    core.start();
    let mut bots = [
        Dice::new(&Seed::from_u64(seed ^ 0xb0)),
        Dice::new(&Seed::from_u64(seed ^ 0xb1)),
    ];
    let mut commands = 0;
    while Ctg::outcome(&core.state).is_none() {
        let pending = Ctg::pending(&core.state);
        assert!(!pending.is_empty(), "nothing pending before the match is over");
        for seat in pending {
            let view = Ctg::view(&core.state, Viewer::Seat(seat));
            let command = Ctg::bot_command(&view, policies[seat.index()], &mut bots[seat.index()])
                .expect("a pending seat is asked something");
            core.submit(seat, &command)
                .unwrap_or_else(|e| panic!("bot command {command:?} refused: {e}"));
            commands += 1;
        }
        assert!(commands < 100_000, "match does not end");
    }
    (commands, core)
}

#[test]
fn t10_and_t20_matches_play_to_a_result_with_both_policies() {
    for (options, seeds) in [(Options::default(), 0..20u64), (Options::t20(), 20..40)] {
        for seed in seeds {
            for policies in [
                [BotPolicy::Random; 2],
                [BotPolicy::Heuristic; 2],
                [BotPolicy::Random, BotPolicy::Heuristic],
            ] {
                let (_, core) = play(&options, seed, policies);
                let outcome = Ctg::outcome(&core.state).expect("finished");
                assert_eq!(outcome.placings.len(), 2);
            }
        }
    }
}

#[test]
fn default_commands_are_always_legal() {
    for seed in 0..10u64 {
        let options = if seed % 2 == 0 {
            Options::default()
        } else {
            Options::t20()
        };
        let mut core = MatchCore::<Ctg>::new(&options, &Seed::from_u64(seed)).expect("valid options");
        core.start();
        let mut steps = 0;
        while Ctg::outcome(&core.state).is_none() {
            for seat in Ctg::pending(&core.state) {
                let command = Ctg::default_command(&core.state, seat).expect("pending seat has a default");
                core.submit(seat, &command)
                    .unwrap_or_else(|e| panic!("default {command:?} refused: {e}"));
            }
            steps += 1;
            assert!(steps < 100_000);
        }
    }
}

#[test]
fn options_json_defaults() {
    let t10: Options = serde_json::from_str("{}").expect("empty options");
    assert_eq!(t10, Options::default());
    let t20: Options = serde_json::from_str(r#"{"format":"t20"}"#).expect("t20 options");
    assert_eq!(t20, Options::t20());
    assert!(serde_json::from_str::<Options>(r#"{"formt":"t20"}"#).is_err());
}

#[test]
fn views_survive_json_and_bots_play_from_the_decoded_view() {
    let options = Options::t20();
    let mut core = MatchCore::<Ctg>::new(&options, &Seed::from_u64(77)).expect("valid options");
    core.start();
    let mut rng = Dice::new(&Seed::from_u64(78));
    let mut steps = 0;
    while Ctg::outcome(&core.state).is_none() && steps < 400 {
        for seat in Ctg::pending(&core.state) {
            let json =
                serde_json::to_string(&Ctg::view(&core.state, Viewer::Seat(seat))).expect("view to json");
            let view: <Ctg as Game>::View = serde_json::from_str(&json).expect("view from json");
            let command = Ctg::bot_command(&view, BotPolicy::Heuristic, &mut rng).expect("asked");
            let wire = serde_json::to_string(&command).expect("command to json");
            let command: <Ctg as Game>::Command = serde_json::from_str(&wire).expect("command from json");
            core.submit(seat, &command).expect("legal");
            steps += 1;
        }
    }
    assert!(steps >= 400, "played 400 decisions through JSON");
    let spectator = serde_json::to_value(Ctg::view(&core.state, Viewer::Spectator)).expect("json");
    assert!(spectator["ask"].is_null());
}

#[test]
fn custom_squads_are_validated_with_the_bad_field_named() {
    let rules = crease::rules::ctg::data::ruleset().expect("ruleset");
    let mut squads = rules.squads.to_vec();
    squads[1].players[3].confidence = 5;
    let options = Options {
        squads: Some(squads.clone()),
        ..Options::default()
    };
    let error = Ctg::initial_state(&options).expect_err("confidence 5 is refused");
    assert!(error.0.contains("squads[1].players[3].confidence"), "{}", error.0);
    squads[1].players[3].confidence = 1;
    squads[0].players.pop();
    let error = Ctg::seat_count(&Options {
        squads: Some(squads),
        ..Options::default()
    })
    .expect_err("11 cards");
    assert!(error.0.contains("squads[0].players"), "{}", error.0);
    let margin: Result<Options, _> =
        serde_json::from_str(r#"{"bowled_chance_margin": 4, "tie": "chaser_loses"}"#);
    assert!(Ctg::initial_state(&margin.expect("json")).is_ok());
    let bad = Options {
        bowled_chance_margin: 7,
        ..Options::default()
    };
    assert!(Ctg::initial_state(&bad).is_err());
}

/// The `overs` option shortens every innings (the tutorial plays two a side) and keeps the
/// format's dice and quotas; a length outside the format's is refused before a match starts.
#[test]
fn a_shorter_match_bowls_only_its_overs_in_either_format() {
    use crease::rules::ctg::types::Format;
    for (format, overs) in [(Format::T10, 2u8), (Format::T10, 1), (Format::T20, 5)] {
        let options = Options {
            format,
            overs: Some(overs),
            ..Options::default()
        };
        let mut longest = 0;
        for seed in 0..12u64 {
            let (_, core) = play(&options, seed, [BotPolicy::Heuristic, BotPolicy::Random]);
            for side in 0..2 {
                let balls = core.state.score[side].balls;
                assert!(
                    balls <= u16::from(overs) * 6,
                    "{format:?} {overs} overs: {balls} balls"
                );
                longest = longest.max(balls);
            }
        }
        // Some innings lasts its full length: the limit is the option's, not something shorter.
        assert_eq!(longest, u16::from(overs) * 6, "{format:?} {overs} overs");
    }
    for (format, overs) in [(Format::T10, 0u8), (Format::T10, 11), (Format::T20, 21)] {
        let options = Options {
            format,
            overs: Some(overs),
            ..Options::default()
        };
        let refused = options.validate().expect_err("out of range");
        assert!(refused.contains("`overs`"), "{refused}");
    }
}
