//! Scorecards folded from the events of many simulated matches agree with the engines' own
//! final scores, and hang together as cricket scorecards do (batters' runs + extras = total,
//! one fall of wicket per wicket, bowlers' runs and wickets account for the innings).

#[path = "../common/toy.rs"]
mod toy;

use crease::matches::{GameError, GameRegistry};
use crease::record::{EntryKind, LogEntry};
use crease::rules::scorecard::{GameScorecard, InningsCard, PointsRow};
use crease::rules::{BotPolicy, Dice, Game, MatchCore, Seed, Viewer};
use serde_json::Value;

/// The scorecard the server serves for a stored match of `game` (`registry`'s game) with
/// these options and events: through the registry, as `/v1/matches/{id}/scorecard` does.
fn render_with(
    registry: &GameRegistry,
    game: &str,
    options: &Value,
    events: &[Value],
) -> Result<Option<GameScorecard>, GameError> {
    let log: Vec<LogEntry> = events
        .iter()
        .enumerate()
        .map(|(index, event)| LogEntry {
            seq: index as i64 + 1,
            at: chrono::Utc::now(),
            kind: EntryKind::Event,
            payload: event.clone(),
        })
        .collect();
    registry.get(game).expect("registered").scorecard(options, &log)
}

fn render(game: &str, options: &Value, events: &[Value]) -> Result<Option<GameScorecard>, GameError> {
    render_with(&GameRegistry::standard(), game, options, events)
}

/// Plays a whole match with bots; returns the final state and every event as JSON.
fn play<G: Game>(options: &G::Options, seed: u64) -> (G::State, Vec<Value>) {
    let mut core = MatchCore::<G>::new(options, &Seed::from_u64(seed)).expect("options");
    let mut events: Vec<Value> = core.start().iter().map(json).collect();
    let mut bots = Dice::new(&Seed::from_u64(seed ^ 0xb075));
    let mut steps = 0;
    while G::outcome(&core.state).is_none() {
        let seat = *G::pending(&core.state).first().expect("someone is awaited");
        let view = G::view(&core.state, Viewer::Seat(seat));
        let policy = if seat.0 == 0 {
            BotPolicy::Heuristic
        } else {
            BotPolicy::Random
        };
        let command = G::bot_command(&view, policy, &mut bots)
            .or_else(|| G::default_command(&core.state, seat))
            .expect("a command");
        let submitted = match core.submit(seat, &command) {
            Ok(submitted) => submitted,
            Err(_) => {
                let fallback = G::default_command(&core.state, seat).expect("a default");
                core.submit(seat, &fallback).expect("the default is legal")
            }
        };
        events.extend(submitted.events.iter().map(json));
        steps += 1;
        assert!(steps < 200_000, "match {seed} does not end");
    }
    (core.state, events)
}

fn json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("events serialise")
}

fn cricket(game: &str, events: &[Value]) -> Vec<InningsCard> {
    match render(game, &serde_json::json!({}), events)
        .expect("events parse")
        .expect("a scorecard")
    {
        GameScorecard::Cricket { innings } => innings,
        other => panic!("not a cricket scorecard: {other:?}"),
    }
}

/// What must hold inside any cricket scorecard.
fn assert_consistent(card: &InningsCard, byes: u32) {
    let batted: u32 = card.batting.iter().map(|line| line.runs).sum();
    assert_eq!(batted + card.extras, card.total, "{card:?}");
    let conceded: u32 = card.bowling.iter().map(|line| line.runs).sum();
    assert_eq!(conceded + byes, card.total, "{card:?}");
    let bowled: u32 = card.bowling.iter().map(|line| line.balls).sum();
    assert_eq!(bowled, card.legal_balls);
    let faced: u32 = card.batting.iter().map(|line| line.balls).sum();
    assert_eq!(faced, card.legal_balls);
    let run_outs = card
        .batting
        .iter()
        .filter(|line| line.how_out.starts_with("run out"))
        .count() as u32;
    let to_bowlers: u32 = card.bowling.iter().map(|line| line.wickets).sum();
    assert_eq!(to_bowlers + run_outs, card.wickets, "{card:?}");
    let out = card
        .batting
        .iter()
        .filter(|line| line.how_out != "not out")
        .count() as u32;
    assert_eq!(out, card.wickets, "every wicket is one batter out: {card:?}");
    assert_eq!(card.fall_of_wickets.len() as u32, card.wickets);
    assert!(
        card.fall_of_wickets
            .windows(2)
            .all(|pair| pair[0].score <= pair[1].score)
    );
    let boundaries: u32 = card
        .batting
        .iter()
        .map(|line| 4 * line.fours + 6 * line.sixes)
        .sum();
    assert!(boundaries <= batted);
}

#[test]
fn ctg_scorecards_match_the_engine_score_over_many_matches() {
    use crease::rules::ctg::{Ctg, Options};
    let mut wickets_seen = 0;
    for seed in 0..40 {
        let (state, events) = play::<Ctg>(&Options::default(), seed);
        let cards = cricket("ctg", &events);
        assert_eq!(cards.len(), 2, "seed {seed}: two innings");
        for card in &cards {
            assert_consistent(card, 0);
            // Players are named from the squads the match was set up with, batters from the
            // batting side and bowlers (also inside "how out") from the other side.
            let side = usize::from(card.batting_seat.min(1));
            for line in &card.batting {
                let squad = &state.squads[side];
                let expected = &squad.players[usize::from(line.batter)].name;
                assert_eq!(line.name.as_ref(), Some(expected), "seed {seed}");
            }
            let bowlers: Vec<&String> = state.squads[1 - side].players.iter().map(|p| &p.name).collect();
            for line in &card.bowling {
                assert!(
                    bowlers.contains(&&line.bowler),
                    "seed {seed}: {} bowls",
                    line.bowler
                );
            }
            let score = &state.score[usize::from(card.batting_seat.min(1))];
            assert_eq!(card.total, u32::from(score.runs), "seed {seed}");
            assert_eq!(card.wickets, u32::from(score.wickets), "seed {seed}");
            assert_eq!(card.extras, u32::from(score.extras), "seed {seed}");
            assert_eq!(card.legal_balls, u32::from(score.balls), "seed {seed}");
            wickets_seen += card.wickets;
        }
    }
    assert!(wickets_seen > 0, "the sample must include wickets to test them");
}

#[test]
fn wicketz_scorecards_match_the_engine_score_over_many_matches() {
    use crease::rules::wicketz::{Options, Wicketz};
    let options = Options {
        overs: 6,
        ..Options::default()
    };
    let mut wickets_seen = 0;
    for seed in 0..40 {
        let (state, events) = play::<Wicketz>(&options, seed);
        let cards = cricket("wicketz", &events);
        assert_eq!(cards.len(), state.innings.len(), "seed {seed}");
        for (card, innings) in cards.iter().zip(&state.innings) {
            assert_eq!(card.total, innings.runs, "seed {seed}");
            assert_eq!(card.wickets, u32::from(innings.wickets), "seed {seed}");
            assert_eq!(card.extras, innings.extras, "seed {seed}");
            assert_eq!(card.legal_balls, innings.legal_balls, "seed {seed}");
            assert_eq!(card.batting_seat, innings.batting.0);
            wickets_seen += card.wickets;
        }
        for (number, card) in cards.iter().enumerate() {
            let byes = innings_byes(&events, number);
            assert_consistent(card, byes);
        }
    }
    assert!(wickets_seen > 0, "the sample must include wickets to test them");
}

/// Byes of the `number`-th innings (0-based), read straight from the ball events.
fn innings_byes(events: &[Value], number: usize) -> u32 {
    let mut innings = None;
    let mut byes = 0;
    for event in events {
        match event["type"].as_str() {
            Some("innings_opened") => innings = Some(innings.map_or(0, |n| n + 1)),
            Some("ball_completed") if innings == Some(number) => {
                byes += event["ball"]["byes"].as_u64().unwrap_or(0) as u32;
            }
            _ => {}
        }
    }
    byes
}

#[test]
fn champions_points_tables_match_the_engine_over_many_matches() {
    use crease::rules::champions::{Champions, Options};
    for seed in 0..20 {
        let players = 2 + (seed % 4) as u8;
        let (state, events) = play::<Champions>(&Options { players }, seed);
        let GameScorecard::Points { table } = render("champions", &serde_json::json!({}), &events)
            .expect("parse")
            .expect("card")
        else {
            panic!("not a points table");
        };
        let outcome = Champions::outcome(&state).expect("finished");
        let points = state.final_points.as_ref().expect("final points");
        assert_eq!(table.len(), usize::from(players));
        for row in &table {
            let seat = usize::from(row.seat);
            assert_eq!(row.total, points[seat].total, "seed {seed}");
            assert_eq!(row.placing, Some(outcome.placings[seat]));
            assert_eq!(row.eliminated, state.players[seat].eliminated);
        }
        let places: Vec<Option<u8>> = table.iter().map(|row: &PointsRow| row.placing).collect();
        assert!(places.windows(2).all(|pair| pair[0] <= pair[1]), "best first");
    }
}

#[test]
fn games_without_a_scorecard_and_bad_events_are_reported() {
    let defaults = serde_json::json!({});
    let toy = GameRegistry::new().register::<toy::Toy>();
    assert!(matches!(render_with(&toy, "toy", &defaults, &[]), Ok(None)));
    assert!(matches!(render("ctg", &defaults, &[]), Ok(Some(_))));
    let bad = [serde_json::json!({ "type": "no_such_event" })];
    assert!(matches!(
        render("ctg", &defaults, &bad),
        Err(GameError::StoredEvent { seq: 1, .. })
    ));
    let bad_options = serde_json::json!({ "format": "t99" });
    assert!(matches!(
        render("ctg", &bad_options, &[]),
        Err(GameError::StoredOptions(_))
    ));
}
