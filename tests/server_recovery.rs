//! Reconnecting mid-match with `resume_from`, and restarting the whole server mid-match.

mod common;

use common::toy::Toy;
use common::{Backend, TestApp, spawn_app, spawn_app_on, toy_games};
use crease::protocol::ServerMessage;
use serde_json::json;

#[tokio::test]
async fn a_client_that_reconnects_resumes_from_the_last_seq_it_had() {
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
    let id = info.match_id.clone();
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let ServerMessage::Snapshot(first) = home_client.recv().await else {
        panic!("snapshot first");
    };
    let cid = home_client.command(json!({ "type": "pick", "value": 2 })).await;
    let ServerMessage::Ack { .. } = home_client.answer(&cid).await else {
        panic!("pick accepted");
    };
    let last_seen = home_client
        .events()
        .last()
        .map(|(seq, _)| *seq)
        .expect("an event");
    drop(home_client);

    // While home is away, away picks: that completes the round.
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    away_client.recv().await;
    let cid = away_client.command(json!({ "type": "pick", "value": 1 })).await;
    assert!(matches!(
        away_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));

    let mut back = app.connect(&id, Some(&home.token), Some(last_seen)).await;
    let ServerMessage::Snapshot(snapshot) = back.recv().await else {
        panic!("snapshot first");
    };
    assert!(snapshot.last_seq > first.last_seq);
    assert_eq!(snapshot.view["round"], 2);
    // The backlog: exactly the events after `last_seen`, in order, as home may see them.
    let mut missed = Vec::new();
    while missed.len() < 2 {
        match back.recv().await {
            ServerMessage::Event { seq, event } => missed.push((seq, event)),
            other => panic!("expected the missed events, got {other:?}"),
        }
    }
    assert!(missed.iter().all(|(seq, _)| *seq > last_seen));
    assert_eq!(missed[0].1, json!({ "type": "picked", "seat": 1, "value": null }));
    assert_eq!(missed[1].1["type"], "revealed");
    assert_eq!(missed[1].1["picks"], json!([2, 1]));
    // And it plays on to the end from there.
    let (home_result, away_result) =
        tokio::join!(back.play_to_end::<Toy>(3), away_client.play_to_end::<Toy>(4));
    assert_eq!(home_result, away_result);
    app.stop().await;
}

#[tokio::test]
async fn a_restarted_server_resumes_every_live_match_exactly_where_it_was_on_sqlite() {
    restart_mid_match(spawn_app(toy_games()).await).await;
}

#[tokio::test]
async fn a_restarted_server_resumes_every_live_match_exactly_where_it_was_on_postgres() {
    let Some(app) = spawn_app_on(Backend::Postgres, toy_games()).await else {
        return;
    };
    restart_mid_match(app).await;
}

async fn restart_mid_match(mut app: TestApp) {
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
    let id = info.match_id.clone();
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    home_client.recv().await;
    away_client.recv().await;
    // Round 1 complete, and home has picked (sealed) in round 2.
    for (is_home, value) in [(true, 3), (false, 1), (true, 2)] {
        let client = if is_home {
            &mut home_client
        } else {
            &mut away_client
        };
        let cid = client.command(json!({ "type": "pick", "value": value })).await;
        assert!(matches!(client.answer(&cid).await, ServerMessage::Ack { .. }));
    }
    let before = app
        .get(&format!("/v1/matches/{id}/log"), Some(&home.token))
        .await
        .1;

    app.restart().await;

    let after = app
        .get(&format!("/v1/matches/{id}/log"), Some(&home.token))
        .await
        .1;
    assert_eq!(
        before["entries"], after["entries"],
        "the same events, as home sees them"
    );
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let ServerMessage::Snapshot(snapshot) = home_client.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!(snapshot.view["round"], 2);
    assert_eq!(
        snapshot.view["my_pick"], 2,
        "the sealed pick survived the restart"
    );
    assert_eq!(snapshot.pending, vec![crease::rules::Seat(1)]);
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    let ServerMessage::Snapshot(away_snapshot) = away_client.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!(away_snapshot.view["my_pick"], serde_json::Value::Null);
    // A pick the old server had accepted is still refused as out of turn.
    let cid = home_client.command(json!({ "type": "pick", "value": 1 })).await;
    let ServerMessage::Error(error) = home_client.answer(&cid).await else {
        panic!("home already picked");
    };
    assert_eq!(error.code, crease::protocol::ErrorCode::NotYourTurn);

    let (home_result, away_result) = tokio::join!(
        home_client.play_to_end::<Toy>(7),
        away_client.play_to_end::<Toy>(8)
    );
    assert_eq!(home_result, away_result);
    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
    app.stop().await;
}
