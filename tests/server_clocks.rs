//! Turn clocks and disconnect grace, with tokio's clock paused: no test waits in real time.
//!
//! The app is set up in real time and the clock is paused only once the test waits for a
//! clock: a paused clock jumps ahead whenever the runtime idles, including while SQLite works
//! on its own thread, which would otherwise fire unrelated timeouts during setup.

mod common;

use common::{Backend, for_paused_clock, spawn_app_with, toy_games};
use crease::protocol::ServerMessage;
use serde_json::json;
use std::time::Duration;
use tokio::time::Instant;

async fn match_with_clocks(app: &common::TestApp, turn: u64, grace: u64) -> (String, String, String) {
    let (id, [(_, home), (_, away)]) = two_player_match(app, turn, grace).await;
    (id, home, away)
}

#[tokio::test]
async fn a_seat_whose_clock_runs_out_gets_the_default_move_logged_as_a_timeout() {
    let app = spawn_app_with(Backend::Sqlite, toy_games(), for_paused_clock)
        .await
        .expect("SQLite");
    let (id, home, _away) = match_with_clocks(&app, 60, 600).await;
    let mut home_client = app.connect(&id, Some(&home), None).await;
    home_client.timeout = None;
    // A spectator in protocol 2 hears of the timeout in its step.
    let mut watcher = app.connect_with(&id, None, None, Some(2)).await;
    watcher.timeout = None;
    let ServerMessage::Snapshot(snapshot) = home_client.recv().await else {
        panic!("snapshot first");
    };
    assert!(
        snapshot.deadline_ms.is_some_and(|ms| ms <= 60_000 && ms > 55_000),
        "{:?}",
        snapshot.deadline_ms
    );
    let cid = home_client.command(json!({ "type": "pick", "value": 3 })).await;
    assert!(matches!(
        home_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));
    tokio::time::pause();
    let started = Instant::now();
    // Away never moves: its clock plays pick 1 for it. Every update before says nobody's
    // clock ran out; the one with the reveal names away's seat.
    let reveal = loop {
        match home_client.recv().await {
            ServerMessage::Event { event, .. } if event["type"] == "revealed" => break event,
            ServerMessage::Update(update) => assert_eq!(update.timed_out, None, "{update:?}"),
            _ => {}
        }
    };
    let timed_out = loop {
        if let ServerMessage::Update(update) = home_client.recv().await {
            break update.timed_out;
        }
    };
    assert_eq!(
        timed_out,
        Some(crease::rules::Seat(1)),
        "the update says whose clock ran out"
    );
    let stepped = loop {
        match watcher.recv().await {
            ServerMessage::Step(step) if step.events.iter().any(|(_, event)| event["type"] == "revealed") => {
                break step.timed_out;
            }
            ServerMessage::Step(step) => assert_eq!(step.timed_out, None, "{step:?}"),
            _ => {}
        }
    };
    assert_eq!(
        stepped,
        Some(crease::rules::Seat(1)),
        "and so does protocol 2's step"
    );
    let waited = started.elapsed();
    // Real setup took a moment of the 60 s; the paused clock may overshoot while SQLite works.
    assert!(
        waited >= Duration::from_secs(55),
        "the default came after {waited:?}, before the deadline"
    );
    assert!(
        waited < Duration::from_secs(600),
        "the default came after the grace period: {waited:?}"
    );
    assert_eq!(reveal["picks"], json!([3, 1]), "the toy's default move is pick 1");
    let log = app.app().store().log(&common::match_id(&id)).await.expect("log");
    let timeout = log
        .iter()
        .find(|entry| entry.payload["source"] == "timeout")
        .expect("a command logged as a timeout");
    assert_eq!(timeout.payload["seat"], 1);
    assert_eq!(timeout.payload["command"], json!({ "type": "pick", "value": 1 }));
    app.stop().await;
}

#[tokio::test]
async fn a_player_disconnected_longer_than_the_grace_period_forfeits() {
    let app = spawn_app_with(Backend::Sqlite, toy_games(), for_paused_clock)
        .await
        .expect("SQLite");
    let (id, home, _away) = match_with_clocks(&app, 3600, 30).await;
    let mut home_client = app.connect(&id, Some(&home), None).await;
    home_client.timeout = None;
    home_client.recv().await;
    tokio::time::pause();
    let started = Instant::now();
    let result = loop {
        if let ServerMessage::Finished { result, .. } = home_client.recv().await {
            break result;
        }
    };
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_secs(25),
        "forfeited after {waited:?}, inside the grace period"
    );
    assert!(
        waited < Duration::from_secs(3600),
        "the turn clock should not have run out first"
    );
    assert_eq!(result.placings, vec![1, 2], "the absent away seat loses");
    let log = app.app().store().log(&common::match_id(&id)).await.expect("log");
    let last = log.last().expect("entries");
    assert_eq!(last.kind, crease::record::EntryKind::Forfeit);
    assert_eq!(last.payload["seat"], 1);
    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
    app.stop().await;
}

/// Two players, both seated: their ids and tokens, and the match (turn clock `turn`, grace
/// `grace`).
async fn two_player_match(app: &common::TestApp, turn: u64, grace: u64) -> (String, [(String, String); 2]) {
    let (home, away) = (app.player("home").await, app.player("away").await);
    let body = json!({ "game": "toy", "options": { "rounds": 2 }, "turn_clock_secs": turn, "disconnect_grace_secs": grace });
    let (status, created) = app.post("/v1/matches", Some(&home.token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().unwrap_or_default().to_string();
    let (status, _) = app
        .post(&format!("/v1/matches/{id}/join"), Some(&away.token), json!({}))
        .await;
    assert_eq!(status, 200);
    (id, [(home.player_id, home.token), (away.player_id, away.token)])
}

/// Issue 26: when both players leave, the match is no result (abandoned by the server,
/// nobody rated), not a rated loss for whoever happened to leave a moment earlier.
#[tokio::test]
async fn when_every_player_leaves_the_match_is_abandoned_unrated() {
    let app = spawn_app_with(Backend::Sqlite, toy_games(), for_paused_clock)
        .await
        .expect("SQLite");
    let (id, [(home_id, home), (away_id, away)]) = two_player_match(&app, 3600, 30).await;
    let mut watcher = app.connect(&id, None, None).await;
    watcher.timeout = None;
    {
        let mut home_client = app.connect(&id, Some(&home), None).await;
        let mut away_client = app.connect(&id, Some(&away), None).await;
        home_client.recv().await;
        away_client.recv().await;
        // Home leaves first, away a moment later.
        drop(home_client);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::pause();
    let started = Instant::now();
    let result = loop {
        if let ServerMessage::Finished { result, .. } = watcher.recv().await {
            break result;
        }
    };
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_secs(25),
        "ended after {waited:?}, inside the grace"
    );
    assert_eq!(result.placings, vec![1, 1], "no result: {result:?}");
    let log = app.app().store().log(&common::match_id(&id)).await.expect("log");
    let last = log.last().expect("entries");
    assert_eq!(last.kind, crease::record::EntryKind::Abandon, "{last:?}");
    assert_eq!(last.payload["by"], "server");
    assert_eq!(last.payload["reason"], "every player left");
    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
    for player in [home_id, away_id] {
        let (_, profile) = app.get(&format!("/v1/players/{player}"), None).await;
        assert_eq!(profile["ratings"], json!([]), "no rating moved: {profile}");
    }
    app.stop().await;
}

/// Both leave, and one comes back after the other's grace ran out but within its own: the
/// one who stayed away forfeits to the one who came back. In real time (10 s graces, 2.5 s
/// margins): with the clock paused, a reconnect's database work lets the clock leap past
/// both graces.
#[tokio::test]
async fn a_player_who_comes_back_wins_when_the_other_stays_away() {
    let app = spawn_app_with(Backend::Sqlite, toy_games(), |_| {})
        .await
        .expect("SQLite");
    let (id, [(_, home), (_, away)]) = two_player_match(&app, 3600, 10).await;
    let mut watcher = app.connect(&id, None, None).await;
    watcher.timeout = None;
    let mut home_client = app.connect(&id, Some(&home), None).await;
    home_client.recv().await;
    {
        let mut away_client = app.connect(&id, Some(&away), None).await;
        away_client.recv().await;
    }
    // Away left at 0 s; home leaves at 5 s and comes back at 12.5 s: past away's grace (10 s),
    // inside its own (15 s).
    tokio::time::sleep(Duration::from_secs(5)).await;
    drop(home_client);
    tokio::time::sleep(Duration::from_millis(7500)).await;
    let mut home_client = app.connect(&id, Some(&home), None).await;
    home_client.timeout = None;
    let result = loop {
        if let ServerMessage::Finished { result, .. } = watcher.recv().await {
            break result;
        }
    };
    assert_eq!(
        result.placings,
        vec![1, 2],
        "away, who stayed away, forfeits: {result:?}"
    );
    let log = app.app().store().log(&common::match_id(&id)).await.expect("log");
    let last = log.last().expect("entries");
    assert_eq!(last.kind, crease::record::EntryKind::Forfeit, "{last:?}");
    assert_eq!(last.payload["seat"], 1);
    drop(home_client);
    app.stop().await;
}
