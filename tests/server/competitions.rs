//! Competitions (issue 29) over the HTTP API, on SQLite and PostgreSQL, with real CTG
//! matches (one over a side, so they are short): a league of four, two players and two
//! bots, played to the end, whose table (net run rate included) agrees with the operators'
//! `competition_standings` view; a Wicketz league long enough that a side is bowled out,
//! whose table and view count that innings at its full quota of overs; a knockout of three
//! whose top seed by rating gets the bye; and the refusals.

use crate::common;

use common::{Backend, TestApp, spawn_app_on, sqlite_and_postgres};
use crease::matches::GameRegistry;
use crease::rules::Game;
use crease::rules::ctg::Ctg;
use crease::rules::wicketz::Wicketz;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::time::Duration;

/// A T10 match cut to one over a side.
fn short_ctg() -> Value {
    json!({ "format": "t10", "overs": 1 })
}

/// Plays every fixture a human of `players` (`(player_id, token)`) is in, as it becomes
/// playable (ready, then both seats' moves from the views), until the competition finishes.
async fn drive<G: Game>(app: &TestApp, id: &str, players: &[(String, String)]) -> Value {
    let token_of = |player_id: &str| {
        players
            .iter()
            .find(|(id, _)| id == player_id)
            .map(|(_, token)| token.clone())
    };
    let mut played: HashSet<String> = HashSet::new();
    for _ in 0..600 {
        let (status, competition) = app.get(&format!("/v1/competitions/{id}"), None).await;
        assert_eq!(status, 200, "{competition}");
        if competition["status"] == "finished" {
            return competition;
        }
        for fixture in competition["fixtures"].as_array().expect("fixtures") {
            let sides: Vec<&str> = ["home", "away"]
                .iter()
                .filter_map(|side| fixture[side].as_str())
                .collect();
            if fixture["status"] == "waiting" && sides.len() == 2 {
                for side in &sides {
                    if let Some(token) = token_of(side) {
                        let path = format!("/v1/competitions/{id}/fixtures/{}/ready", fixture["fixture_id"]);
                        let (status, body) = app.post(&path, Some(&token), json!({})).await;
                        assert!(status == 200 || status == 409, "{status} {body}");
                    }
                }
            }
            let Some(match_id) = fixture["match_id"].as_str() else {
                continue;
            };
            if fixture["status"] != "live" || played.contains(match_id) {
                continue;
            }
            played.insert(match_id.to_string());
            let mut games = Vec::new();
            for (index, side) in sides.iter().enumerate() {
                if let Some(token) = token_of(side) {
                    let mut socket = app.connect(match_id, Some(&token), None).await;
                    socket.recv().await;
                    games.push(tokio::spawn(async move {
                        socket.play_to_end::<G>(7 + index as u64).await
                    }));
                }
            }
            for game in games {
                game.await.expect("a seat's play");
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the competition did not finish");
}

async fn create(app: &TestApp, token: &str, body: Value) -> String {
    let (status, created) = app.post("/v1/competitions", Some(token), body).await;
    assert_eq!(status, 201, "{created}");
    created["competition_id"].as_str().expect("id").to_string()
}

/// Posts `body` to the competition's `action` (`join`, `bots`, `start`) as `token`, which
/// must succeed; the competition as the answer shows it.
async fn act(app: &TestApp, id: &str, action: &str, token: &str, body: Value) -> Value {
    let (status, answer) = app
        .post(&format!("/v1/competitions/{id}/{action}"), Some(token), body)
        .await;
    assert_eq!(status, 200, "{action}: {answer}");
    answer
}

sqlite_and_postgres!(a_league_of_four_plays_out_to_the_table_the_sql_view_agrees_with);

async fn a_league_of_four_plays_out_to_the_table_the_sql_view_agrees_with(backend: Backend) {
    let Some(app) = spawn_app_on(backend, GameRegistry::standard()).await else {
        return;
    };
    let ana = app.player("ana").await;
    let bea = app.player("bea").await;
    let body = json!({ "name": "Friday league", "game": "ctg", "options": short_ctg(), "format": "league" });
    let id = create(&app, &ana.token, body).await;
    act(&app, &id, "join", &bea.token, json!({})).await;
    let (status, again) = app
        .post(
            &format!("/v1/competitions/{id}/join"),
            Some(&bea.token),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, again["error"]["code"].as_str()),
        (409, Some("already_entered"))
    );
    let (status, refused) = app
        .post(
            &format!("/v1/competitions/{id}/bots"),
            Some(&bea.token),
            json!({ "count": 2 }),
        )
        .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (403, Some("not_creator"))
    );
    let with_bots = act(
        &app,
        &id,
        "bots",
        &ana.token,
        json!({ "count": 2, "level": "easy" }),
    )
    .await;
    assert_eq!(with_bots["entries"].as_array().expect("entries").len(), 4);
    let started = act(&app, &id, "start", &ana.token, json!({})).await;
    assert_eq!(started["rounds"], 3);
    assert_eq!(started["fixtures"].as_array().expect("fixtures").len(), 6);
    let (status, late) = app
        .post(
            &format!("/v1/competitions/{id}/join"),
            Some(&app.player("cy").await.token),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, late["error"]["code"].as_str()),
        (409, Some("competition_not_open"))
    );

    let players = [
        (ana.player_id.clone(), ana.token.clone()),
        (bea.player_id.clone(), bea.token.clone()),
    ];
    let finished = drive::<Ctg>(&app, &id, &players).await;
    let table = finished["standings"].as_array().expect("a table");
    assert_eq!(table.len(), 4);
    let played: u64 = table
        .iter()
        .map(|row| row["played"].as_u64().expect("played"))
        .sum();
    assert_eq!(played, 12, "six fixtures, two sides each: {table:?}");
    // Every fixture hands out two points (a win, or one each for a tie or no result).
    let points: u64 = table
        .iter()
        .map(|row| row["points"].as_u64().expect("points"))
        .sum();
    assert_eq!(points, 12, "{table:?}");
    assert_eq!(finished["champion"], table[0]["player_id"]);
    let positions: Vec<u64> = table
        .iter()
        .map(|row| row["position"].as_u64().expect("position"))
        .collect();
    assert_eq!(positions, [1, 2, 3, 4]);
    // Rank order: points never rise down the table.
    assert!(
        table
            .windows(2)
            .all(|pair| pair[0]["points"].as_u64() >= pair[1]["points"].as_u64())
    );
    // Runs scored by all equal runs conceded by all, and so do the balls.
    let sum = |key: &str| -> u64 { table.iter().map(|row| row[key].as_u64().expect(key)).sum() };
    assert_eq!(sum("runs_for"), sum("runs_against"));

    // The operators' view holds the same figures for every entry, and the rate follows.
    let view = app
        .app()
        .store()
        .competition_standings(&id)
        .await
        .expect("the view");
    assert_eq!(view.len(), 4);
    let entries = finished["entries"].as_array().expect("entries");
    for row in &view {
        let entry = &entries[row.entry as usize];
        let shown = table
            .iter()
            .find(|standing| standing["player_id"] == entry["player_id"])
            .expect("every entry is in the table");
        assert_eq!(shown["played"].as_i64(), Some(row.played), "{shown} {row:?}");
        assert_eq!(shown["won"].as_i64(), Some(row.won));
        assert_eq!(shown["lost"].as_i64(), Some(row.lost));
        assert_eq!(shown["points"].as_i64(), Some(row.points));
        assert_eq!(shown["runs_for"].as_i64(), Some(row.runs_for));
        assert_eq!(shown["runs_against"].as_i64(), Some(row.runs_against));
        let overs = |balls: i64| format!("{}.{}", balls / 6, balls % 6);
        assert_eq!(shown["overs_faced"], overs(row.balls_faced));
        assert_eq!(shown["overs_bowled"], overs(row.balls_bowled));
        let rate = |runs: i64, balls: i64| {
            if balls == 0 {
                0.0
            } else {
                runs as f64 * 6.0 / balls as f64
            }
        };
        let nrr = rate(row.runs_for, row.balls_faced) - rate(row.runs_against, row.balls_bowled);
        let shown_nrr = shown["net_run_rate"].as_f64().expect("nrr");
        assert!((shown_nrr - nrr).abs() < 0.001, "{shown_nrr} vs {nrr}");
    }
    // Each fixture's match says which competition it belongs to; a human's was rated.
    let fixture = finished["fixtures"]
        .as_array()
        .expect("fixtures")
        .iter()
        .find(|fixture| {
            [&fixture["home"], &fixture["away"]]
                .iter()
                .all(|side| players.iter().any(|(id, _)| side.as_str() == Some(id)))
        })
        .expect("ana v bea")
        .clone();
    let match_id = fixture["match_id"].as_str().expect("played as a match");
    let (_, info) = app.get(&format!("/v1/matches/{match_id}"), None).await;
    assert_eq!(info["competition_id"], id.as_str());
    let (_, profile) = app.get(&format!("/v1/players/{}", ana.player_id), None).await;
    assert!(
        profile["ratings"]
            .as_array()
            .is_some_and(|ratings| !ratings.is_empty()),
        "the players' fixture is rated like any match: {profile}"
    );
    app.stop().await;
}

sqlite_and_postgres!(a_side_bowled_out_counts_its_full_quota_of_overs_in_the_table_and_the_view);

/// The net run rate's cricket rule, end to end: a Wicketz league of three (two players and
/// a bot) played at 100 overs, where a side is bowled out long before its quota (about 15
/// balls a wicket when played at random, 7.8 wickets in 20 overs: docs/rules/wicketz.md).
/// The table and the operators' view must count such an innings at the full 600 balls, not
/// at the balls it lasted.
async fn a_side_bowled_out_counts_its_full_quota_of_overs_in_the_table_and_the_view(backend: Backend) {
    let Some(app) = spawn_app_on(backend, GameRegistry::standard()).await else {
        return;
    };
    const QUOTA: u64 = 100 * 6;
    let ana = app.player("ana").await;
    let bea = app.player("bea").await;
    let body =
        json!({ "name": "Long day", "game": "wicketz", "options": { "overs": 100 }, "format": "league" });
    let id = create(&app, &ana.token, body).await;
    act(&app, &id, "join", &bea.token, json!({})).await;
    act(&app, &id, "bots", &ana.token, json!({ "count": 1 })).await;
    act(&app, &id, "start", &ana.token, json!({})).await;
    let players = [
        (ana.player_id.clone(), ana.token.clone()),
        (bea.player_id.clone(), bea.token.clone()),
    ];
    let finished = drive::<Wicketz>(&app, &id, &players).await;

    // What the matches themselves say, summed by entry: runs for and against, and the balls
    // each innings counts (the quota when its side lost all ten wickets).
    #[derive(Default, Debug)]
    struct Sums {
        runs_for: u64,
        runs_against: u64,
        balls_faced: u64,
        balls_bowled: u64,
    }
    let mut sums: std::collections::HashMap<String, Sums> = Default::default();
    let mut bowled_out = Vec::new();
    for fixture in finished["fixtures"].as_array().expect("fixtures") {
        let match_id = fixture["match_id"].as_str().expect("played as a match");
        let (status, card) = app.get(&format!("/v1/matches/{match_id}/scorecard"), None).await;
        assert_eq!(status, 200, "{card}");
        let sides = ["home", "away"].map(|side| fixture[side].as_str().expect("a side").to_string());
        for innings in card["card"]["innings"].as_array().expect("a cricket scorecard") {
            let seat = innings["batting_seat"].as_u64().expect("seat") as usize;
            let runs = innings["total"].as_u64().expect("total");
            let lasted = innings["legal_balls"].as_u64().expect("balls");
            let counted = if innings["wickets"] == 10 {
                bowled_out.push((sides[seat].clone(), lasted));
                QUOTA
            } else {
                lasted
            };
            let batting = sums.entry(sides[seat].clone()).or_default();
            batting.runs_for += runs;
            batting.balls_faced += counted;
            let bowling = sums.entry(sides[1 - seat].clone()).or_default();
            bowling.runs_against += runs;
            bowling.balls_bowled += counted;
        }
    }
    assert!(
        bowled_out.iter().any(|(_, lasted)| *lasted < QUOTA),
        "a side bowled out before 100 overs: {bowled_out:?}"
    );

    let table = finished["standings"].as_array().expect("a table");
    assert_eq!(table.len(), 3, "{table:?}");
    let view = app
        .app()
        .store()
        .competition_standings(&id)
        .await
        .expect("the view");
    let entries = finished["entries"].as_array().expect("entries");
    let overs = |balls: u64| format!("{}.{}", balls / 6, balls % 6);
    let rate = |runs: u64, balls: u64| runs as f64 * 6.0 / balls as f64;
    for standing in table {
        let side = standing["player_id"].as_str().expect("an entry id");
        let sum = &sums[side];
        assert_eq!(
            standing["runs_for"].as_u64(),
            Some(sum.runs_for),
            "{standing} {sum:?}"
        );
        assert_eq!(
            standing["runs_against"].as_u64(),
            Some(sum.runs_against),
            "{standing} {sum:?}"
        );
        assert_eq!(
            standing["overs_faced"],
            overs(sum.balls_faced),
            "{standing} {sum:?}"
        );
        assert_eq!(
            standing["overs_bowled"],
            overs(sum.balls_bowled),
            "{standing} {sum:?}"
        );
        let nrr = rate(sum.runs_for, sum.balls_faced) - rate(sum.runs_against, sum.balls_bowled);
        let shown = standing["net_run_rate"].as_f64().expect("nrr");
        assert!((shown - nrr).abs() < 0.001, "{shown} vs {nrr}: {standing}");

        let row = view
            .iter()
            .find(|row| entries[row.entry as usize]["player_id"] == side)
            .expect("every entry is in the view");
        assert_eq!(row.balls_faced as u64, sum.balls_faced, "{row:?} {sum:?}");
        assert_eq!(row.balls_bowled as u64, sum.balls_bowled, "{row:?} {sum:?}");
        assert_eq!(row.runs_for as u64, sum.runs_for, "{row:?} {sum:?}");
        assert_eq!(row.runs_against as u64, sum.runs_against, "{row:?} {sum:?}");
    }
    app.stop().await;
}

sqlite_and_postgres!(a_knockout_of_three_seeds_by_rating_and_gives_the_top_seed_the_bye);

async fn a_knockout_of_three_seeds_by_rating_and_gives_the_top_seed_the_bye(backend: Backend) {
    let Some(app) = spawn_app_on(backend, GameRegistry::standard()).await else {
        return;
    };
    let ana = app.player("ana").await;
    let bea = app.player("bea").await;
    // Bea is the better rated in the pool these options count in (`t10-1ov`).
    common::set_rating(&app, &bea.player_id, "ctg", "t10-1ov", 1720.0).await;
    let body = json!({ "name": "Cup", "game": "ctg", "options": short_ctg(), "format": "knockout" });
    let id = create(&app, &ana.token, body).await;
    act(&app, &id, "join", &bea.token, json!({})).await;
    act(
        &app,
        &id,
        "bots",
        &ana.token,
        json!({ "count": 1, "level": "easy" }),
    )
    .await;
    let started = act(&app, &id, "start", &ana.token, json!({})).await;
    assert_eq!(started["rounds"], 2);
    let seed_of = |competition: &Value, player: &str| {
        competition["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .find(|entry| entry["player_id"] == player)
            .and_then(|entry| entry["seed"].as_u64())
    };
    assert_eq!(seed_of(&started, &bea.player_id), Some(1));
    assert_eq!(
        seed_of(&started, &ana.player_id),
        Some(2),
        "unrated, entered first"
    );
    let fixtures = started["fixtures"].as_array().expect("fixtures");
    let bye = fixtures
        .iter()
        .find(|fixture| fixture["status"] == "bye")
        .expect("a bye");
    assert_eq!(
        (bye["round"].as_u64(), bye["home"].as_str()),
        (Some(1), Some(bea.player_id.as_str()))
    );
    assert!(bye.get("away").is_none());
    let final_tie = fixtures
        .iter()
        .find(|fixture| fixture["round"] == 2)
        .expect("a final");
    assert!(
        [&final_tie["home"], &final_tie["away"]].contains(&&json!(bea.player_id)),
        "the bye sends the top seed to the final: {final_tie}"
    );
    // Bea cannot play the final before its other side is known.
    let path = format!("/v1/competitions/{id}/fixtures/{}/ready", final_tie["fixture_id"]);
    let (status, early) = app.post(&path, Some(&bea.token), json!({})).await;
    assert_eq!(
        (status, early["error"]["code"].as_str()),
        (409, Some("fixture_not_playable"))
    );
    // Nor can anyone play a fixture that is not theirs.
    let semi = fixtures
        .iter()
        .find(|fixture| fixture["round"] == 1 && fixture["status"] == "waiting")
        .expect("the other tie");
    let path = format!("/v1/competitions/{id}/fixtures/{}/ready", semi["fixture_id"]);
    let (status, not_mine) = app.post(&path, Some(&bea.token), json!({})).await;
    assert_eq!(
        (status, not_mine["error"]["code"].as_str()),
        (403, Some("not_your_fixture"))
    );

    let players = [
        (ana.player_id.clone(), ana.token.clone()),
        (bea.player_id.clone(), bea.token.clone()),
    ];
    let finished = drive::<Ctg>(&app, &id, &players).await;
    let final_tie = finished["fixtures"]
        .as_array()
        .expect("fixtures")
        .iter()
        .find(|fixture| fixture["round"] == 2)
        .expect("a final")
        .clone();
    assert_eq!(final_tie["status"], "finished", "{final_tie}");
    assert_eq!(finished["champion"], final_tie["advances"]);
    assert!(finished["standings"].as_array().expect("standings").is_empty());
    app.stop().await;
}

#[tokio::test]
async fn bad_requests_are_refused_before_anything_is_written() {
    let app = common::spawn_app(GameRegistry::standard()).await;
    let ana = app.player("ana").await;
    let cases = [
        (
            json!({ "name": "", "game": "ctg", "format": "league" }),
            "bad_request",
        ),
        (
            json!({ "name": "x", "game": "chess", "format": "league" }),
            "unknown_game",
        ),
        (
            json!({ "name": "x", "game": "ctg", "format": "league", "round_hours": 721 }),
            "bad_request",
        ),
        (
            json!({ "name": "x", "game": "ctg", "options": { "format": "t30" }, "format": "league" }),
            "bad_options",
        ),
        (
            json!({ "name": "x", "game": "champions", "options": { "players": 3 }, "format": "league" }),
            "bad_request",
        ),
    ];
    for (body, code) in cases {
        let (status, refused) = app.post("/v1/competitions", Some(&ana.token), body.clone()).await;
        assert_eq!(
            (status, refused["error"]["code"].as_str()),
            (400, Some(code)),
            "{body}"
        );
    }
    let (status, _) = app
        .post(
            "/v1/competitions",
            None,
            json!({ "name": "x", "game": "ctg", "format": "league" }),
        )
        .await;
    assert_eq!(status, 401);
    let (_, list) = app.get("/v1/competitions", None).await;
    assert_eq!(list["competitions"], json!([]), "nothing was written");
    let (status, _) = app.get("/v1/competitions/not-a-uuid", None).await;
    assert_eq!(status, 400);
    let (status, _) = app
        .get(&format!("/v1/competitions/{}", uuid::Uuid::new_v4()), None)
        .await;
    assert_eq!(status, 404);
    // A league needs three entries.
    let id = create(
        &app,
        &ana.token,
        json!({ "name": "Two", "game": "ctg", "format": "league" }),
    )
    .await;
    let (status, few) = app
        .post(
            &format!("/v1/competitions/{id}/start"),
            Some(&ana.token),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, few["error"]["code"].as_str()),
        (409, Some("too_few_entries"))
    );
    let (status, creator) = app
        .post(
            &format!("/v1/competitions/{id}/leave"),
            Some(&ana.token),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, creator["error"]["code"].as_str()),
        (409, Some("creator_cannot_leave"))
    );
    let (_, open) = app.get("/v1/competitions?status=open", None).await;
    assert_eq!(open["competitions"].as_array().map(Vec::len), Some(1));
    let (status, _) = app.get("/v1/competitions?status=later", None).await;
    assert_eq!(status, 400);
    app.stop().await;
}

/// Moves a competition's start `minutes` into the past, as if its rounds' clocks had run.
async fn backdate(app: &TestApp, id: &str, minutes: i64) {
    const SQL: &str = "UPDATE competition SET started_at = $1 WHERE competition_id = $2";
    let (_, competition) = app.get(&format!("/v1/competitions/{id}"), None).await;
    let started: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(competition["started_at"].clone()).expect("started");
    let earlier = started - chrono::Duration::minutes(minutes);
    match app.app().store() {
        crease::store::Store::Sqlite(pool) => {
            sqlx::query(SQL)
                .bind(earlier)
                .bind(id)
                .execute(pool)
                .await
                .expect("backdate");
        }
        crease::store::Store::Postgres(pool) => {
            sqlx::query(SQL)
                .bind(earlier)
                .bind(id)
                .execute(pool)
                .await
                .expect("backdate");
        }
    }
}

sqlite_and_postgres!(a_fixture_not_played_by_its_rounds_deadline_is_a_walkover_to_the_side_that_was_ready);

async fn a_fixture_not_played_by_its_rounds_deadline_is_a_walkover_to_the_side_that_was_ready(
    backend: Backend,
) {
    let Some(app) = spawn_app_on(backend, GameRegistry::standard()).await else {
        return;
    };
    let ana = app.player("ana").await;
    let bea = app.player("bea").await;
    let body = json!({
        "name": "Against the clock", "game": "ctg", "options": short_ctg(),
        "format": "league", "round_hours": 1
    });
    let id = create(&app, &ana.token, body).await;
    act(&app, &id, "join", &bea.token, json!({})).await;
    act(&app, &id, "bots", &ana.token, json!({ "count": 1 })).await;
    let started = act(&app, &id, "start", &ana.token, json!({})).await;
    let first = started["fixtures"]
        .as_array()
        .expect("fixtures")
        .iter()
        .find(|fixture| fixture["round"] == 1)
        .expect("a first round")
        .clone();
    assert!(first["deadline"].is_string(), "{first}");
    let sides = [first["home"].clone(), first["away"].clone()];
    let humans = [json!(ana.player_id), json!(bea.player_id)];
    // Between the two players Ana turns up and Bea does not; against the bot (always ready)
    // the player does not turn up.
    let expected_winner = if sides.iter().all(|side| humans.contains(side)) {
        let path = format!("/v1/competitions/{id}/fixtures/{}/ready", first["fixture_id"]);
        let (status, ready) = app.post(&path, Some(&ana.token), json!({})).await;
        assert_eq!(status, 200, "{ready}");
        json!(ana.player_id)
    } else {
        sides
            .iter()
            .find(|side| !humans.contains(side))
            .expect("the bot")
            .clone()
    };
    // Half an hour before the deadline nothing happens; half an hour after, the walkover.
    backdate(&app, &id, 30).await;
    let (status, before) = app.get(&format!("/v1/competitions/{id}"), None).await;
    assert_eq!(status, 200, "{before}");
    let waiting = &before["fixtures"].as_array().expect("fixtures")[0];
    assert_eq!(waiting["status"], "waiting", "{waiting}");
    backdate(&app, &id, 60).await;
    let (status, after) = app.get(&format!("/v1/competitions/{id}"), None).await;
    assert_eq!(status, 200, "{after}");
    let fixtures = after["fixtures"].as_array().expect("fixtures");
    let decided = fixtures
        .iter()
        .find(|fixture| fixture["fixture_id"] == first["fixture_id"])
        .expect("the first round's fixture");
    assert_eq!(decided["status"], "finished", "{decided}");
    assert_eq!(decided["winner"], expected_winner, "{decided}");
    assert!(
        decided["summary"].as_str().expect("summary").contains("walkover"),
        "{decided}"
    );
    assert!(
        decided.get("match_id").is_none(),
        "no match was played: {decided}"
    );
    // The second round's clock has not run out.
    assert!(
        fixtures
            .iter()
            .filter(|fixture| fixture["round"] == 2)
            .all(|fixture| fixture["status"] == "waiting")
    );
    // The walkover counts two points and no run rate.
    let table = after["standings"].as_array().expect("a table");
    let top = &table[0];
    assert_eq!(
        (&top["player_id"], top["points"].as_u64(), top["played"].as_u64()),
        (&expected_winner, Some(2), Some(1))
    );
    assert_eq!(
        (
            top["runs_for"].as_u64(),
            top["overs_faced"].as_str(),
            top["net_run_rate"].as_f64()
        ),
        (Some(0), Some("0.0"), Some(0.0))
    );
    let view = app
        .app()
        .store()
        .competition_standings(&id)
        .await
        .expect("the view");
    assert_eq!(view.iter().map(|row| row.points).sum::<i64>(), 2, "{view:?}");
    app.stop().await;
}
