//! A CTG match played through the server against a server bot: `GET /scorecard` returns a
//! cricket scorecard that agrees with the engine's innings totals, and the operators'
//! `ctg_player_career` view agrees with the scorecard, on SQLite and Postgres.

use crate::common;

use common::{Backend, spawn_app_on};
use crease::matches::GameRegistry;
use crease::rules::ctg::Ctg;
use crease::store::Store;
use serde_json::{Value, json};

const CAREER: &str = "SELECT matches, runs, balls_faced, wickets, runs_conceded, balls_bowled, \
     CAST(strike_rate AS TEXT), CAST(economy AS TEXT) FROM ctg_player_career WHERE player_id = $1";

type Career = (i64, i64, i64, i64, i64, i64, Option<String>, Option<String>);

async fn ctg_scorecard_and_career(backend: Backend) {
    let Some(app) = spawn_app_on(backend, GameRegistry::standard()).await else {
        return;
    };
    let solo = app.player("solo").await;
    let body = json!({ "game": "ctg", "options": { "format": "t10" }, "opponent": "bot" });
    let (status, created) = app.post("/v1/matches", Some(&solo.token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("id").to_string();
    let mut client = app.connect(&id, Some(&solo.token), None).await;
    client.play_to_end::<Ctg>(5).await;

    let (status, scorecard) = app.get(&format!("/v1/matches/{id}/scorecard"), None).await;
    assert_eq!(status, 200, "{scorecard}");
    assert_eq!(scorecard["card"]["kind"], "cricket");
    let cards = scorecard["card"]["innings"].as_array().expect("innings").clone();
    let (_, log) = app.get(&format!("/v1/matches/{id}/log"), None).await;
    let ended: Vec<Value> = log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|entry| entry["payload"].clone())
        .filter(|event| event["type"] == "innings_ended")
        .collect();
    assert_eq!(cards.len(), ended.len());
    for (card, ended) in cards.iter().zip(&ended) {
        assert_eq!(card["total"], ended["runs"], "{card}");
        assert_eq!(card["wickets"], ended["wickets"], "{card}");
        assert!(card["batting"].as_array().is_some_and(|lines| !lines.is_empty()));
        assert!(card["bowling"].as_array().is_some_and(|lines| !lines.is_empty()));
    }

    let number = |value: &Value| value.as_i64().expect("a number");
    let (mine, theirs): (Vec<&Value>, Vec<&Value>) = cards.iter().partition(|card| card["batting_seat"] == 0);
    let runs: i64 = mine
        .iter()
        .map(|card| number(&card["total"]) - number(&card["extras"]))
        .sum();
    let faced: i64 = mine.iter().map(|card| number(&card["legal_balls"])).sum();
    let conceded: i64 = theirs.iter().map(|card| number(&card["total"])).sum();
    let bowled: i64 = theirs.iter().map(|card| number(&card["legal_balls"])).sum();
    let taken: i64 = theirs
        .iter()
        .flat_map(|card| card["bowling"].as_array().cloned().unwrap_or_default())
        .map(|line| number(&line["wickets"]))
        .sum();
    let career: Career = match app.app().store() {
        Store::Sqlite(pool) => sqlx::query_as(CAREER).bind(&solo.player_id).fetch_one(pool).await,
        Store::Postgres(pool) => sqlx::query_as(CAREER).bind(&solo.player_id).fetch_one(pool).await,
    }
    .expect("the career view");
    assert_eq!(career.0, 1);
    assert_eq!((career.1, career.2), (runs, faced));
    assert_eq!((career.3, career.4, career.5), (taken, conceded, bowled));
    let strike_rate: f64 = career.6.expect("balls were faced").parse().expect("a number");
    assert!((strike_rate - 100.0 * runs as f64 / faced as f64).abs() < 0.01);
    let economy: f64 = career.7.expect("balls were bowled").parse().expect("a number");
    assert!((economy - 6.0 * conceded as f64 / bowled as f64).abs() < 0.01);
    app.stop().await;
}

common::sqlite_and_postgres!(ctg_scorecard_and_career);

/// Wicketz and Champions through the server (registered here, as the server is generic):
/// their scorecards come back, and the career views agree with them.
async fn other_games_scorecards_and_careers(backend: Backend) {
    use crease::rules::champions::Champions;
    use crease::rules::wicketz::Wicketz;
    let games = GameRegistry::new().register::<Wicketz>().register::<Champions>();
    let Some(app) = spawn_app_on(backend, games).await else {
        return;
    };
    let solo = app.player("solo").await;
    let mut cards = Vec::new();
    for (game, options) in [
        ("wicketz", json!({ "overs": 2 })),
        ("champions", json!({ "players": 3 })),
    ] {
        let body = json!({ "game": game, "options": options, "opponent": "bot" });
        let (status, created) = app.post("/v1/matches", Some(&solo.token), body).await;
        assert_eq!(status, 201, "{created}");
        let id = created["match_id"].as_str().expect("id").to_string();
        let mut client = app.connect(&id, Some(&solo.token), None).await;
        if game == "wicketz" {
            client.play_to_end::<Wicketz>(3).await;
        } else {
            client.play_to_end::<Champions>(3).await;
        }
        let (_, scorecard) = app.get(&format!("/v1/matches/{id}/scorecard"), None).await;
        cards.push(scorecard["card"].clone());
    }
    let number = |value: &Value| value.as_i64().expect("a number");
    let innings = cards[0]["innings"].as_array().expect("wicketz innings");
    let runs: i64 = innings
        .iter()
        .filter(|card| card["batting_seat"] == 0)
        .map(|card| number(&card["total"]) - number(&card["extras"]))
        .sum();
    let table = cards[1]["table"].as_array().expect("champions table");
    let seat_zero = table.iter().find(|row| row["seat"] == 0).expect("seat 0");
    const WICKETZ: &str = "SELECT matches, runs FROM wicketz_player_career WHERE player_id = $1";
    const CHAMPIONS: &str = "SELECT matches, points FROM champions_player_career WHERE player_id = $1";
    let (wicketz, champions): ((i64, i64), (i64, i64)) = match app.app().store() {
        Store::Sqlite(pool) => (
            sqlx::query_as(WICKETZ)
                .bind(&solo.player_id)
                .fetch_one(pool)
                .await
                .expect("view"),
            sqlx::query_as(CHAMPIONS)
                .bind(&solo.player_id)
                .fetch_one(pool)
                .await
                .expect("view"),
        ),
        Store::Postgres(pool) => (
            sqlx::query_as(WICKETZ)
                .bind(&solo.player_id)
                .fetch_one(pool)
                .await
                .expect("view"),
            sqlx::query_as(CHAMPIONS)
                .bind(&solo.player_id)
                .fetch_one(pool)
                .await
                .expect("view"),
        ),
    };
    assert_eq!(wicketz, (1, runs));
    assert_eq!(champions, (1, number(&seat_zero["total"])));
    app.stop().await;
}

common::sqlite_and_postgres!(other_games_scorecards_and_careers);
