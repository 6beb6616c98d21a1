//! Learning a game in the app, as the server serves it: the rules data the browser's
//! reference draws from (`GET /v1/games/{game}/rules`) is the engine's own, and a game's
//! tutorial (`POST /v1/games/{game}/tutorial`) is the same short match against the bot for
//! everyone (one seed, so one dice stream; the bot's own choices are private and vary): its fixed seed is public, it is never rated, and it plays to its end.

use crate::common::{self, Backend};
use crease::matches::GameRegistry;
use crease::rules::ctg::Ctg;
use serde_json::{Value, json};
use std::path::Path;

fn data_file(game: &str, name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("data/{game}/{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("the data file")).expect("JSON")
}

#[tokio::test]
async fn the_rules_endpoint_serves_the_files_the_engine_plays_by() {
    let app = common::spawn_app(GameRegistry::standard()).await;
    let expected = [
        ("ctg", vec!["ruleset", "squads"]),
        ("wicketz", vec!["ruleset", "cards", "printed_cards", "outcomes"]),
        ("champions", vec!["ruleset"]),
    ];
    for (game, files) in expected {
        let (status, body) = app.get(&format!("/v1/games/{game}/rules"), None).await;
        assert_eq!(status, 200, "{game}: {body}");
        assert_eq!(body["game"], game);
        let served = body["data"].as_object().expect("data by file");
        let engine = usize::from(served.contains_key("engine"));
        assert_eq!(
            served.len(),
            files.len() + engine,
            "{game}: {:?}",
            served.keys().collect::<Vec<_>>()
        );
        for file in files {
            assert_eq!(
                served[file],
                data_file(game, file),
                "{game}/{file}.json as served"
            );
        }
    }
    // CTG's seed rules held in code, as the engine plays them.
    let (_, ctg) = app.get("/v1/games/ctg/rules", None).await;
    let engine = &ctg["data"]["engine"];
    assert_eq!(engine["formats"]["t10"]["overs"], 10);
    assert_eq!(engine["formats"]["t20"]["distance_sides"], 8);
    assert_eq!(engine["formats"]["t10"]["max_overs_per_bowler"], 2);
    assert_eq!(engine["howzat_min"], crease::rules::ctg::resolve::HOWZAT_MIN);
    assert_eq!(
        engine["great_catch_min"],
        crease::rules::ctg::resolve::GREAT_CATCH_MIN
    );
    let (status, body) = app.get("/v1/games/cricket/rules", None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("unknown_game"))
    );
}

#[tokio::test]
async fn a_tutorial_is_the_same_short_match_against_the_bot_for_everyone() {
    tutorial_played_to_its_end(Backend::Sqlite).await;
}

#[tokio::test]
async fn a_tutorial_is_the_same_short_match_against_the_bot_for_everyone_on_postgres() {
    tutorial_played_to_its_end(Backend::Postgres).await;
}

async fn tutorial_played_to_its_end(backend: Backend) {
    let Some(app) = common::spawn_app_on(backend, GameRegistry::standard()).await else {
        return;
    };
    let spec = data_file("ctg", "tutorial");
    let ann = app.player("Ann").await;
    let bob = app.player("Bob").await;
    let (status, first) = app
        .post("/v1/games/ctg/tutorial", Some(&ann.token), json!({}))
        .await;
    assert_eq!(status, 201, "{first}");
    let (status, second) = app
        .post("/v1/games/ctg/tutorial", Some(&bob.token), json!({}))
        .await;
    assert_eq!(status, 201, "{second}");
    // One seed for everyone: the same commitment, and a live match against the bot at once.
    assert_eq!(first["seed_commitment"], second["seed_commitment"]);
    assert_eq!(first["status"], "live");
    assert_eq!(first["options"]["overs"], 2);
    assert_eq!(first["options"], second["options"]);
    assert_eq!(first["seats"][1]["bot"], true);
    assert_eq!(first["seats"][0]["name"], "Ann");

    let match_id = first["match_id"].as_str().expect("an id").to_string();
    let mut client = app.connect(&match_id, Some(&ann.token), None).await;
    client.play_to_end::<Ctg>(27).await;

    // The end reveals the tutorial's seed, verify re-derives every roll from it, and the
    // short match really was two overs a side.
    let (status, finished) = app.get(&format!("/v1/matches/{match_id}"), None).await;
    assert_eq!(status, 200, "{finished}");
    assert_eq!(finished["status"], "finished");
    assert_eq!(finished["seed"], spec["seed"]);
    let (status, verified) = app.get(&format!("/v1/matches/{match_id}/verify"), None).await;
    assert_eq!(status, 200, "{verified}");
    assert_eq!(verified["status"], "ok", "{verified}");
    let (status, card) = app.get(&format!("/v1/matches/{match_id}/scorecard"), None).await;
    assert_eq!(status, 200, "{card}");
    let innings = card["card"]["innings"].as_array().expect("innings");
    assert_eq!(innings.len(), 2, "{card}");
    for one in innings {
        let balls = one["legal_balls"].as_u64().expect("balls faced");
        assert!(balls <= 12, "two overs are at most 12 legal balls: {one}");
    }
    // A bot match: Ann has no rating from it.
    let (_, profile) = app.get(&format!("/v1/players/{}", ann.player_id), None).await;
    let rated = profile["ratings"].as_array().map_or(0, Vec::len);
    assert_eq!(rated, 0, "{profile}");
    app.stop().await;
}

#[tokio::test]
async fn every_shipped_tutorial_starts_and_a_game_without_one_says_so() {
    let app = common::spawn_app(GameRegistry::standard()).await;
    let ann = app.player("Ann").await;
    for game in ["wicketz", "champions"] {
        let (status, started) = app
            .post(&format!("/v1/games/{game}/tutorial"), Some(&ann.token), json!({}))
            .await;
        assert_eq!(status, 201, "{game}: {started}");
        assert_eq!(started["status"], "live", "{game}");
        let spec = data_file(game, "tutorial");
        for (key, value) in spec["options"].as_object().expect("options") {
            assert_eq!(&started["options"][key], value, "{game} option {key}");
        }
    }
    let (status, body) = app.post("/v1/games/ctg/tutorial", None, json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("unauthorized"))
    );
    let (status, body) = app
        .post("/v1/games/cricket/tutorial", Some(&ann.token), json!({}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("unknown_game"))
    );
    app.stop().await;

    // The toy game ships no tutorial.
    let toy = common::spawn_app(common::toy_games()).await;
    let tess = toy.player("Tess").await;
    let (status, body) = toy
        .post("/v1/games/toy/tutorial", Some(&tess.token), json!({}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("not_found")),
        "{body}"
    );
    toy.stop().await;
}
