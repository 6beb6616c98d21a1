//! Whole matches over real sockets, on the toy game the server does not know at compile
//! time (so these also prove the server is generic over `Game`), on SQLite and Postgres.

use crate::common;

use common::toy::Toy;
use common::{TestApp, spawn_app, spawn_app_on, toy_games};
use crease::protocol::ServerMessage;
use crease::rules::Seed;
use serde_json::json;

/// Two clients play to the end; every view came over the wire; the log is durable, the
/// seed is revealed and matches its commitment, and verify says ok.
async fn full_match(app: TestApp) {
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 4 })).await;
    assert!(
        info.seed.is_none(),
        "the seed must stay secret while the match runs"
    );
    let id = info.match_id.clone();
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    let (home_result, away_result) = tokio::join!(
        home_client.play_to_end::<Toy>(1),
        away_client.play_to_end::<Toy>(2)
    );
    assert_eq!(home_result, away_result);

    let (status, finished) = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(finished["status"], "finished");
    let seed = Seed::from_hex(finished["seed"].as_str().expect("seed revealed")).expect("hex seed");
    assert_eq!(seed.commitment(), info.seed_commitment);
    assert_eq!(finished["result"]["placings"], json!(home_result.placings));

    let (_, log) = app.get(&format!("/v1/matches/{id}/log"), None).await;
    let entries = log["entries"].as_array().expect("entries");
    let commands = entries.iter().filter(|entry| entry["kind"] == "command").count();
    assert_eq!(commands, 8, "4 rounds x 2 seats");
    let seqs: Vec<i64> = entries
        .iter()
        .map(|entry| entry["seq"].as_i64().unwrap_or(-1))
        .collect();
    assert_eq!(
        seqs,
        (1..=seqs.len() as i64).collect::<Vec<_>>(),
        "gapless seqs from 1"
    );
    assert_eq!(entries[0]["kind"], "event", "the start comes before any command");

    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
    assert_eq!(verify["commands"], 8);

    let (_, scorecard) = app.get(&format!("/v1/matches/{id}/scorecard"), None).await;
    assert_eq!(scorecard["view"]["round"], 5);
    app.stop().await;
}

common::sqlite_and_postgres! {
    a_full_match_between_two_websocket_clients(backend) {
        let Some(app) = spawn_app_on(backend, toy_games()).await else {
            return;
        };
        full_match(app).await;
    }
}

/// The opponent's sealed pick never reaches the other client (event or view) before the
/// reveal; the picker sees its own.
#[tokio::test]
async fn a_sealed_choice_is_not_sent_to_the_other_seat_before_the_reveal() {
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 1 })).await;
    let mut home_client = app.connect(&info.match_id, Some(&home.token), None).await;
    let mut away_client = app.connect(&info.match_id, Some(&away.token), None).await;
    let mut spectator = app.connect(&info.match_id, None, None).await;
    for client in [&mut home_client, &mut away_client, &mut spectator] {
        assert!(matches!(client.recv().await, ServerMessage::Snapshot(_)));
    }
    let id = home_client.command(json!({ "type": "pick", "value": 3 })).await;
    assert!(matches!(home_client.answer(&id).await, ServerMessage::Ack { .. }));
    // The away client and the spectator get the pick event and an update: both without the value.
    for client in [&mut away_client, &mut spectator] {
        let ServerMessage::Event { event, .. } = client.recv().await else {
            panic!("expected the pick event");
        };
        assert_eq!(event, json!({ "type": "picked", "seat": 0, "value": null }));
        let ServerMessage::Update(update) = client.recv().await else {
            panic!("expected an update");
        };
        assert_eq!(update.view["my_pick"], json!(null));
        assert_eq!(update.view["picked"], json!([true, false]));
        assert!(!update.view.to_string().contains("\"value\":3"));
    }
    let home_events = home_client.events();
    assert_eq!(
        home_events[0].1,
        json!({ "type": "picked", "seat": 0, "value": 3 })
    );

    let id = away_client.command(json!({ "type": "pick", "value": 1 })).await;
    assert!(matches!(away_client.answer(&id).await, ServerMessage::Ack { .. }));
    let revealed = away_client
        .events()
        .into_iter()
        .find(|(_, event)| event["type"] == "revealed")
        .expect("the reveal");
    assert_eq!(revealed.1["picks"], json!([3, 1]));
    // Up to the reveal, no message to the away seat carried the home pick.
    let before_reveal: Vec<String> = away_client
        .transcript
        .iter()
        .take_while(
            |message| !matches!(message, ServerMessage::Event { event, .. } if event["type"] == "revealed"),
        )
        .map(|message| serde_json::to_string(message).unwrap_or_default())
        .collect();
    assert!(
        before_reveal.iter().all(|text| !text.contains("\"value\":3")),
        "{before_reveal:?}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_player_can_play_a_server_side_bot() {
    let app = spawn_app(toy_games()).await;
    let player = app.player("solo").await;
    let body = json!({ "game": "toy", "options": { "rounds": 3 }, "opponent": "bot" });
    let (status, created) = app.post("/v1/matches", Some(&player.token), body).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["status"], "live");
    assert_eq!(created["seats"][1]["bot"], true);
    let id = created["match_id"].as_str().unwrap_or_default().to_string();
    let mut client = app.connect(&id, Some(&player.token), None).await;
    client.play_to_end::<Toy>(5).await;
    let (_, log) = app.get(&format!("/v1/matches/{id}/log"), None).await;
    let bot_moves = log["entries"]
        .as_array()
        .map(|entries| entries.iter().filter(|e| e["payload"]["source"] == "bot").count())
        .unwrap_or(0);
    assert_eq!(bot_moves, 3);
    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok");
    app.stop().await;
}
