//! Properties over many random 2-5 player Cricket Champions matches played by a mix of
//! random and heuristic bots: the log rebuilds the state, the same seed gives the same
//! match, points are the sum of their parts, eliminated players stop playing, and every
//! step offers a legal default and hides the draw pile.

use crease::rules::champions::data::ruleset;
use crease::rules::champions::{Champions, Command, Event, Options, View};
use crease::rules::{BotPolicy, Dice, Game, MatchCore, Seat, Seed, Viewer};
use proptest::prelude::*;

struct Played {
    core: MatchCore<Champions>,
    log: Vec<Event>,
}

fn play(players: u8, seed: u64, heuristic: &[bool]) -> Played {
    let options = Options { players };
    let mut core = MatchCore::<Champions>::new(&options, &Seed::from_u64(seed)).expect("options");
    let mut log = core.start();
    let mut bot_dice = Dice::new(&Seed::from_u64(seed.wrapping_add(1)));
    let mut steps = 0;
    while Champions::outcome(&core.state).is_none() {
        let pending = Champions::pending(&core.state);
        assert_eq!(pending.len(), 1, "exactly one seat is awaited at a time");
        let seat = pending[0];
        // default_command is legal at every step (tried on a copy).
        let default = Champions::default_command(&core.state, seat).expect("a default");
        core.decide(seat, &default).expect("default_command is legal");
        for other in 0..players {
            let viewer = Viewer::Seat(Seat(other));
            let view = Champions::view(&core.state, viewer);
            assert_eq!(
                view.ask.is_some(),
                Seat(other) == seat,
                "only the awaited seat is asked"
            );
        }
        let spectator =
            serde_json::to_string(&Champions::view(&core.state, Viewer::Spectator)).expect("json");
        for hidden in &core.state.draw_pile {
            assert!(
                !spectator.contains(&format!("\"{hidden}\"")),
                "draw pile card {hidden} leaked"
            );
        }
        let policy = if heuristic[seat.index()] {
            BotPolicy::Heuristic
        } else {
            BotPolicy::Random
        };
        let view = Champions::view(&core.state, Viewer::Seat(seat));
        // Remote bots get the view over the wire: it must survive JSON unchanged.
        let wire: View = serde_json::from_str(&serde_json::to_string(&view).expect("json")).expect("parse");
        assert_eq!(wire, view);
        let command = Champions::bot_command(&wire, policy, &mut bot_dice).expect("asked, so a command");
        let wire: Command =
            serde_json::from_str(&serde_json::to_string(&command).expect("json")).expect("parse");
        assert_eq!(wire, command);
        let submitted = core.submit(seat, &command).expect("bots choose legal commands");
        for event in &submitted.events {
            let wire: Event =
                serde_json::from_str(&serde_json::to_string(event).expect("json")).expect("parse");
            assert_eq!(&wire, event);
        }
        log.extend(submitted.events);
        steps += 1;
        assert!(steps < 5_000, "the match ends");
    }
    Played { core, log }
}

fn setup() -> impl Strategy<Value = (u8, u64, Vec<bool>)> {
    (2u8..=5, any::<u64>(), proptest::collection::vec(any::<bool>(), 5))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn refolding_the_log_rebuilds_the_state((players, seed, mix) in setup()) {
        let played = play(players, seed, &mix);
        let mut rebuilt = Champions::initial_state(&Options { players }).expect("state");
        for event in &played.log {
            Champions::apply(&mut rebuilt, event);
        }
        prop_assert_eq!(rebuilt, played.core.state);
    }

    #[test]
    fn same_seed_same_match((players, seed, mix) in setup()) {
        let a = play(players, seed, &mix);
        let b = play(players, seed, &mix);
        prop_assert_eq!(a.log, b.log);
    }

    #[test]
    fn points_are_the_sum_of_their_parts((players, seed, mix) in setup()) {
        let played = play(players, seed, &mix);
        let rules = ruleset();
        let n = usize::from(players);
        let (mut runs, mut taken, mut lost, mut cards) = (vec![0; n], vec![0; n], vec![0; n], vec![0; n]);
        let mut xp = vec![rules.start_xp; n];
        for event in &played.log {
            match event {
                Event::OverResolved { batsman, bowler, result } => {
                    runs[batsman.index()] += result.runs;
                    lost[batsman.index()] += result.wickets;
                    xp[batsman.index()] += result.batsman_xp;
                    if let Some(b) = bowler {
                        taken[b.index()] += result.wickets;
                        xp[b.index()] += result.bowler_xp;
                    }
                }
                Event::TurnEnded { seat, xp_spent, .. } => xp[seat.index()] -= xp_spent,
                Event::CardBought { seat, cost, .. } => xp[seat.index()] -= cost,
                Event::ChampionshipWon { seat, card } => {
                    cards[seat.index()] += rules.championship(card).expect("known card").points;
                }
                _ => {}
            }
        }
        let points = played.core.state.final_points.clone().expect("final points");
        prop_assert_eq!(lost.iter().sum::<u32>(), taken.iter().sum::<u32>());
        for i in 0..n {
            let p = &points[i];
            prop_assert_eq!(p.total, p.runs + p.wickets + p.championship + p.unused_xp);
            prop_assert_eq!(p.runs, runs[i]);
            prop_assert_eq!(p.wickets, taken[i]);
            prop_assert_eq!(p.championship, cards[i]);
            prop_assert_eq!(p.unused_xp, xp[i] / rules.xp_per_point);
            prop_assert!(lost[i] <= rules.elimination_wickets);
            prop_assert_eq!(played.core.state.players[i].eliminated, lost[i] >= rules.elimination_wickets);
        }
        let outcome = Champions::outcome(&played.core.state).expect("outcome");
        let best = (0..n).filter(|i| !played.core.state.players[*i].eliminated).map(|i| points[i].total).max();
        for winner in outcome.winners() {
            prop_assert!(!played.core.state.players[winner.index()].eliminated);
            prop_assert_eq!(Some(points[winner.index()].total), best);
        }
    }

    #[test]
    fn eliminated_players_stop_batting_bowling_and_buying((players, seed, mix) in setup()) {
        let played = play(players, seed, &mix);
        let mut out: Vec<Seat> = Vec::new();
        for event in &played.log {
            match event {
                Event::PlayerEliminated { seat, .. } => out.push(*seat),
                Event::OverStarted { batsman, bowler, .. } => {
                    prop_assert!(!out.contains(batsman), "{batsman} batted after elimination");
                    if let Some(b) = bowler {
                        prop_assert!(!out.contains(b), "{b} bowled after elimination");
                    }
                }
                Event::DiceRolled { seat, .. } | Event::BuyTurn { seat } => {
                    prop_assert!(!out.contains(seat), "{seat} played after elimination");
                }
                Event::RoundStarted { order, .. } => {
                    prop_assert!(order.iter().all(|s| !out.contains(s)));
                }
                _ => {}
            }
        }
    }
}
