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
