//! A player's profile carries career figures per game, read from the operators' career
//! views: after one CTG match against the bot, they agree with the match's scorecard, on
//! SQLite and (with `TEST_DATABASE_URL`) Postgres.

use crate::common;

use common::{Backend, spawn_app_on};
use crease::matches::GameRegistry;
use crease::rules::ctg::Ctg;
use serde_json::{Value, json};

fn number(value: &Value) -> i64 {
    value.as_i64().unwrap_or_else(|| panic!("a number, not {value}"))
}

async fn career_figures_agree_with_the_scorecard(backend: Backend) {
    let Some(app) = spawn_app_on(backend, GameRegistry::standard()).await else {
        return;
    };
    let solo = app.player("solo").await;
    let (_, before) = app.get(&format!("/v1/players/{}", solo.player_id), None).await;
    assert_eq!(before["careers"], json!([]), "no finished match, no career");

    let body = json!({ "game": "ctg", "options": { "format": "t10" }, "opponent": "bot" });
    let (status, created) = app.post("/v1/matches", Some(&solo.token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("id").to_string();
    let mut client = app.connect(&id, Some(&solo.token), None).await;
    client.play_to_end::<Ctg>(11).await;

    let (_, scorecard) = app.get(&format!("/v1/matches/{id}/scorecard"), None).await;
    let cards = scorecard["card"]["innings"].as_array().expect("innings").clone();
    let (mine, theirs): (Vec<&Value>, Vec<&Value>) = cards.iter().partition(|card| card["batting_seat"] == 0);
    let runs: i64 = mine
        .iter()
        .map(|card| number(&card["total"]) - number(&card["extras"]))
        .sum();
    let faced: i64 = mine.iter().map(|card| number(&card["legal_balls"])).sum();
    let conceded: i64 = theirs.iter().map(|card| number(&card["total"])).sum();
    let bowled: i64 = theirs.iter().map(|card| number(&card["legal_balls"])).sum();

    let (status, profile) = app.get(&format!("/v1/players/{}", solo.player_id), None).await;
    assert_eq!(status, 200, "{profile}");
    let careers = profile["careers"].as_array().expect("careers");
    assert_eq!(careers.len(), 1, "one game played: {profile}");
    let ctg = &careers[0];
    assert_eq!(ctg["game"], "ctg");
    assert_eq!(ctg["matches"], 1);
    assert_eq!(
        (number(&ctg["runs"]), number(&ctg["balls_faced"])),
        (runs, faced),
        "{ctg}"
    );
    assert_eq!(
        (number(&ctg["runs_conceded"]), number(&ctg["balls_bowled"])),
        (conceded, bowled),
        "{ctg}"
    );
    if faced > 0 {
        let strike_rate = ctg["strike_rate"].as_f64().expect("a strike rate");
        assert!(
            (strike_rate - 100.0 * runs as f64 / faced as f64).abs() < 0.01,
            "{ctg}"
        );
    }
    assert_eq!(ctg["wins"], Value::Null, "wins are a Champions figure");
    assert_eq!(profile["recent_matches"][0]["match_id"], id.as_str());
    app.stop().await;
}

common::sqlite_and_postgres!(career_figures_agree_with_the_scorecard);
