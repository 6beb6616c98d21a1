//! Reconnecting mid-match with `resume_from`, and restarting the whole server mid-match.

use crate::common;

use common::toy::Toy;
use common::{TestApp, spawn_app, spawn_app_on, toy_games};
use crease::protocol::ServerMessage;
use serde_json::json;
use std::time::Duration;

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
    // The snapshot is home's match as of `last_seen` (round 1, its own pick made), so the
    // backlog that follows holds nothing it already counts.
    assert!(snapshot.last_seq > first.last_seq);
    assert_eq!(snapshot.last_seq, last_seen);
    assert_eq!(snapshot.view["round"], 1);
    assert_eq!(snapshot.view["my_pick"], 2);
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
    // Then the update to now: round 2.
    let ServerMessage::Update(now) = back.recv().await else {
        panic!("an update closes the backlog");
    };
    assert_eq!((now.last_seq, &now.view["round"]), (missed[1].0, &json!(2)));
    // And it plays on to the end from there.
    let (home_result, away_result) =
        tokio::join!(back.play_to_end::<Toy>(3), away_client.play_to_end::<Toy>(4));
    assert_eq!(home_result, away_result);
    app.stop().await;
}

common::sqlite_and_postgres! {
    a_restarted_server_resumes_every_live_match_exactly_where_it_was(backend) {
        let Some(app) = spawn_app_on(backend, toy_games()).await else {
            return;
        };
        restart_mid_match(app).await;
    }
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
    // Away was asked round 2 by its own round-1 pick: the change just before home's round-2
    // command entry ended there.
    let stored = app.app().store().log(&common::match_id(&id)).await.expect("log");
    let home_round_2 = stored
        .iter()
        .rev()
        .find(|entry| entry.kind == crease::record::EntryKind::Command)
        .expect("home's round-2 command");
    let away_asked_at = home_round_2.seq - 1;

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
    // The rebuilt match knows when away's decision was asked, exactly: a pick decided before
    // it is stale, one decided on it (though the log has moved on since: home's sealed pick)
    // is taken.
    let pick = json!({ "type": "pick", "value": 2 });
    let cid = away_client.command_after(pick.clone(), away_asked_at - 1).await;
    let ServerMessage::Error(error) = away_client.answer(&cid).await else {
        panic!("a pick decided before round 2 was asked");
    };
    assert_eq!(error.code, crease::protocol::ErrorCode::StaleCommand);
    let cid = away_client.command_after(pick, away_asked_at).await;
    assert!(matches!(
        away_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));

    let (home_result, away_result) = tokio::join!(
        home_client.play_to_end::<Toy>(7),
        away_client.play_to_end::<Toy>(8)
    );
    assert_eq!(home_result, away_result);
    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
    app.stop().await;
}

/// Reads until the update that brings `client` to `last_seq` (if it has not had it yet).
async fn catch_up(client: &mut common::Client, last_seq: i64) {
    let had_it = client
        .transcript
        .iter()
        .any(|message| matches!(message, ServerMessage::Update(update) if update.last_seq >= last_seq));
    if had_it {
        return;
    }
    loop {
        if let ServerMessage::Update(update) = client.recv().await
            && update.last_seq >= last_seq
        {
            return;
        }
    }
}

/// The actor keeps no history: a resume re-derives the events from the durable log. For every
/// viewer, that backlog must be exactly what a socket connected all along was sent, sealed
/// choices hidden the same way.
#[tokio::test]
async fn a_resume_from_zero_replays_exactly_what_a_live_socket_saw_for_every_viewer() {
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
    let id = info.match_id.clone();
    let mut live = [
        app.connect(&id, Some(&home.token), Some(0)).await,
        app.connect(&id, Some(&away.token), Some(0)).await,
        app.connect(&id, None, Some(0)).await,
    ];
    // Round one complete, round two half played: the last pick is still sealed.
    let mut last_seq = 0;
    for (seat, value) in [(0, 2), (1, 1), (0, 3)] {
        let cid = live[seat]
            .command(json!({ "type": "pick", "value": value }))
            .await;
        assert!(matches!(live[seat].answer(&cid).await, ServerMessage::Ack { .. }));
        last_seq = live[seat]
            .transcript
            .iter()
            .rev()
            .find_map(|message| match message {
                ServerMessage::Update(update) => Some(update.last_seq),
                _ => None,
            })
            .expect("an update before the ack");
    }
    let tokens = [Some(home.token.as_str()), Some(away.token.as_str()), None];
    for (client, token) in live.iter_mut().zip(tokens) {
        catch_up(client, last_seq).await;
        let mut resumed = app.connect(&id, token, Some(0)).await;
        catch_up_backlog(&mut resumed, client.events().len()).await;
        assert_eq!(resumed.events(), client.events(), "viewer with token {token:?}");
    }
    // The away seat and the spectator did not see home's sealed second pick.
    let sealed = |events: Vec<(i64, serde_json::Value)>| events.last().map(|(_, event)| event.clone());
    assert_eq!(
        sealed(live[1].events()),
        Some(json!({ "type": "picked", "seat": 0, "value": null }))
    );
    assert_eq!(
        sealed(live[0].events()),
        Some(json!({ "type": "picked", "seat": 0, "value": 3 }))
    );
    app.stop().await;
}

/// Reads the snapshot and then `count` backlog events.
async fn catch_up_backlog(client: &mut common::Client, count: usize) {
    assert!(matches!(client.recv().await, ServerMessage::Snapshot(_)));
    while client.events().len() < count {
        client.recv().await;
    }
}

/// A match rebuilt from its log keeps the turn time its seats had already used: the clock is
/// counted from the last logged entry, not restarted in full (a restart, or in a cluster a
/// takeover, must not hand a slow player a new clock).
#[tokio::test]
async fn a_restart_keeps_the_turn_time_already_used() {
    let mut app = spawn_app(toy_games()).await;
    let (home, away) = (app.player("home").await, app.player("away").await);
    let body = json!({ "game": "toy", "options": { "rounds": 2 }, "turn_clock_secs": 6 });
    let (status, created) = app.post("/v1/matches", Some(&home.token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("match id").to_string();
    let (status, _) = app
        .post(&format!("/v1/matches/{id}/join"), Some(&away.token), json!({}))
        .await;
    assert_eq!(status, 200);
    let deadline = |message: ServerMessage| match message {
        ServerMessage::Snapshot(snapshot) => snapshot.deadline_ms.expect("home is asked to pick"),
        other => panic!("expected a snapshot, got {other:?}"),
    };
    let mut client = app.connect(&id, Some(&home.token), None).await;
    let fresh = deadline(client.recv().await);
    assert!(fresh > 5_000, "a fresh clock: {fresh} ms");
    drop(client);
    tokio::time::sleep(Duration::from_secs(3)).await;

    app.restart().await;
    let mut client = app.connect(&id, Some(&home.token), None).await;
    let resumed = deadline(client.recv().await);
    assert!(
        resumed <= 3_200,
        "the clock went on from the log's last entry, not afresh: {resumed} ms left"
    );
    app.stop().await;
}
