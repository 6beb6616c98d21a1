//! Adjourning by agreement (issue 29), on the toy game over real sockets, on SQLite and
//! PostgreSQL: an accepted offer stops the clocks (nobody times out or forfeits while away),
//! survives a restart, shows in lists and profiles, and resumes once both players are back,
//! the whole story in the log, which still verifies. An adjournment past the server's limit
//! ends the match unrated; an agreed time resumes it by itself; refusals name their reason.
//! The handover to another node of a cluster is in `cluster.rs`.

use crate::common;

use common::{Backend, Client, TestApp, spawn_app_with, sqlite_and_postgres, toy_games};
use crease::protocol::{AdjournmentState, ErrorCode, ServerMessage};
use crease::record::AdjournmentAction;
use serde_json::{Value, json};
use std::time::Duration;

/// One-second clocks: any clock that kept running while adjourned would end the match
/// within the waits below.
fn short_clocks(config: &mut crease::config::ServeConfig) {
    config.turn_clock_secs = 1;
    config.disconnect_grace_secs = 1;
}

async fn snapshot(client: &mut Client) -> crease::protocol::Snapshot {
    match client.recv().await {
        ServerMessage::Snapshot(snapshot) => snapshot,
        other => panic!("snapshot first, got {other:?}"),
    }
}

async fn acked(client: &mut Client, id: &str) {
    match client.answer(id).await {
        ServerMessage::Ack { .. } => {}
        other => panic!("{id} refused: {other:?}"),
    }
}

/// The `(action, seat)` of every adjournment entry of the match's log, in order.
async fn adjournment_entries(app: &TestApp, match_id: &str) -> Vec<(String, Value)> {
    let (status, log) = app.get(&format!("/v1/matches/{match_id}/log"), None).await;
    assert_eq!(status, 200, "{log}");
    log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|entry| entry["kind"] == "adjournment")
        .map(|entry| {
            (
                entry["payload"]["action"].as_str().expect("action").to_string(),
                entry["payload"]["seat"].clone(),
            )
        })
        .collect()
}

/// Offers (home) and accepts (away) on two sockets; both see each step.
async fn adjourn(home: &mut Client, away: &mut Client) {
    let offer = home.adjourn("offer", None).await;
    acked(home, &offer).await;
    let seen = away.adjournment().await;
    assert_eq!(seen.state, AdjournmentState::Offered);
    assert_eq!(
        (seen.action, seen.seat),
        (AdjournmentAction::Offered, Some(crease::rules::Seat(0)))
    );
    assert_eq!(seen.waiting_for, [crease::rules::Seat(1)]);
    let accept = away.adjourn("accept", None).await;
    acked(away, &accept).await;
    let adjourned = home.adjournment().await;
    assert_eq!(adjourned.state, AdjournmentState::Adjourned);
    assert_eq!(adjourned.action, AdjournmentAction::Agreed);
    assert!(
        adjourned.adjourned_at.is_some() && adjourned.expires_at.is_some(),
        "{adjourned:?}"
    );
}

sqlite_and_postgres!(an_adjourned_match_waits_through_a_restart_and_resumes_when_both_are_back);

async fn an_adjourned_match_waits_through_a_restart_and_resumes_when_both_are_back(backend: Backend) {
    let Some(mut app) = spawn_app_with(backend, toy_games(), short_clocks).await else {
        return;
    };
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 2 })).await;
    let id = info.match_id.clone();
    let mut home_socket = app.connect(&id, Some(&home.token), None).await;
    let mut away_socket = app.connect(&id, Some(&away.token), None).await;
    snapshot(&mut home_socket).await;
    snapshot(&mut away_socket).await;
    // Home has picked in round 1; away is asked: its clock runs until the adjournment.
    let pick = home_socket.command(json!({ "type": "pick", "value": 2 })).await;
    acked(&mut home_socket, &pick).await;
    adjourn(&mut home_socket, &mut away_socket).await;

    // Adjourned: moves are refused, not taken.
    let refused = away_socket.command(json!({ "type": "pick", "value": 1 })).await;
    match away_socket.answer(&refused).await {
        ServerMessage::Error(error) => assert_eq!(error.code, ErrorCode::MatchAdjourned),
        other => panic!("a move while adjourned: {other:?}"),
    }
    drop(home_socket);
    drop(away_socket);
    // Both away for longer than the turn clock and the disconnect grace together.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (_, shown) = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(shown["status"], "live", "nobody forfeited: {shown}");
    assert!(shown["adjourned_at"].is_string(), "{shown}");
    let (_, listed) = app.get("/v1/matches?status=live", None).await;
    let row = listed["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .find(|row| row["match_id"] == id.as_str())
        .expect("listed");
    assert_eq!(row["adjourned_at"], shown["adjourned_at"]);
    let (_, profile) = app.get(&format!("/v1/players/{}", home.player_id), None).await;
    let mine = profile["recent_matches"]
        .as_array()
        .expect("the profile lists matches")
        .iter()
        .find(|row| row["match_id"] == id.as_str())
        .expect("in the profile");
    assert!(mine["adjourned_at"].is_string(), "{mine}");

    app.restart().await;
    let (_, after_restart) = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(
        after_restart["adjourned_at"], shown["adjourned_at"],
        "{after_restart}"
    );
    let mut home_socket = app.connect(&id, Some(&home.token), None).await;
    let standing = snapshot(&mut home_socket).await;
    let adjournment = standing.adjournment.expect("the snapshot says it is adjourned");
    assert_eq!(adjournment.state, AdjournmentState::Adjourned);
    assert_eq!(standing.deadline_ms, None, "no clock runs while adjourned");
    // One player back is not enough: still adjourned past every clock.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (_, one_back) = app.get(&format!("/v1/matches/{id}"), None).await;
    assert!(one_back["adjourned_at"].is_string(), "{one_back}");

    let mut away_socket = app.connect(&id, Some(&away.token), None).await;
    let away_standing = snapshot(&mut away_socket).await;
    assert!(away_standing.adjournment.is_some());
    let resumed = away_socket.adjournment().await;
    assert_eq!(
        (resumed.state, resumed.action),
        (AdjournmentState::Playing, AdjournmentAction::Resumed)
    );
    assert_eq!(home_socket.adjournment().await.action, AdjournmentAction::Resumed);
    let (_, playing) = app.get(&format!("/v1/matches/{id}"), None).await;
    assert!(playing.get("adjourned_at").is_none(), "{playing}");
    // Play goes on from where it stood: away's pick completes round 1, then round 2.
    let pick = away_socket.command(json!({ "type": "pick", "value": 1 })).await;
    acked(&mut away_socket, &pick).await;
    Client::play_toy_rounds(&mut home_socket, &mut away_socket, 1, 3).await;

    let (_, finished) = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(finished["status"], "finished", "{finished}");
    let steps = adjournment_entries(&app, &id).await;
    assert_eq!(
        steps,
        [
            ("offered".to_string(), json!(0)),
            ("agreed".to_string(), json!(1)),
            ("resumed".to_string(), Value::Null),
        ]
    );
    // No clock played for anyone, and the log (adjournment entries and all) verifies.
    let (_, log) = app.get(&format!("/v1/matches/{id}/log"), None).await;
    let sources: Vec<&Value> = log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|entry| entry["kind"] == "command")
        .map(|entry| &entry["payload"]["source"])
        .collect();
    assert!(sources.iter().all(|source| *source == "player"), "{sources:?}");
    let (status, verified) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(status, 200, "{verified}");
    assert_eq!(verified["status"], "ok", "{verified}");
    app.stop().await;
}

sqlite_and_postgres!(an_adjournment_past_the_limit_ends_the_match_unrated);

async fn an_adjournment_past_the_limit_ends_the_match_unrated(backend: Backend) {
    let Some(app) = spawn_app_with(backend, toy_games(), |config| {
        short_clocks(config);
        config.matches.adjourn_limit_secs = 1;
    })
    .await
    else {
        return;
    };
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 2 })).await;
    let id = info.match_id.clone();
    let mut home_socket = app.connect(&id, Some(&home.token), None).await;
    let mut away_socket = app.connect(&id, Some(&away.token), None).await;
    snapshot(&mut home_socket).await;
    snapshot(&mut away_socket).await;
    adjourn(&mut home_socket, &mut away_socket).await;
    let finished = loop {
        match home_socket.recv().await {
            ServerMessage::Finished { result, .. } => break result,
            _ => continue,
        }
    };
    assert_eq!(finished.placings, [1, 1], "nobody won: {finished:?}");
    let (_, log) = app.get(&format!("/v1/matches/{id}/log"), None).await;
    let last = log["entries"]
        .as_array()
        .expect("entries")
        .last()
        .expect("an entry")
        .clone();
    assert_eq!(last["kind"], "abandon", "{last}");
    assert_eq!(last["payload"]["by"], "server");
    assert_eq!(
        last["payload"]["reason"], "adjourned for longer than 1 second",
        "{last}"
    );
    let (_, profile) = app.get(&format!("/v1/players/{}", home.player_id), None).await;
    assert_eq!(
        profile["ratings"],
        json!([]),
        "an abandoned match moves no rating: {profile}"
    );
    let row = &profile["recent_matches"][0];
    assert_eq!(
        (&row["match_id"], &row["rating_before"]),
        (&json!(id), &Value::Null),
        "{row}"
    );
    app.stop().await;
}

sqlite_and_postgres!(an_agreed_time_resumes_the_match_by_itself);

async fn an_agreed_time_resumes_the_match_by_itself(backend: Backend) {
    let Some(app) = spawn_app_with(backend, toy_games(), |config| {
        config.turn_clock_secs = 30;
        config.disconnect_grace_secs = 30;
    })
    .await
    else {
        return;
    };
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 2 })).await;
    let id = info.match_id.clone();
    let mut home_socket = app.connect(&id, Some(&home.token), None).await;
    let mut away_socket = app.connect(&id, Some(&away.token), None).await;
    snapshot(&mut home_socket).await;
    snapshot(&mut away_socket).await;
    let at = (chrono::Utc::now() + chrono::Duration::milliseconds(1500)).to_rfc3339();
    let offer = home_socket.adjourn("offer", Some(&at)).await;
    acked(&mut home_socket, &offer).await;
    let offered = away_socket.adjournment().await;
    assert!(offered.resume_at.is_some(), "{offered:?}");
    let accept = away_socket.adjourn("accept", None).await;
    acked(&mut away_socket, &accept).await;
    assert_eq!(home_socket.adjournment().await.action, AdjournmentAction::Agreed);
    // Nobody leaves or comes back: the agreed time alone resumes play, with fresh clocks.
    let resumed = home_socket.adjournment().await;
    assert_eq!(resumed.action, AdjournmentAction::Resumed);
    let update = loop {
        match home_socket.recv().await {
            ServerMessage::Update(update) => break update,
            _ => continue,
        }
    };
    assert!(update.deadline_ms.is_some_and(|ms| ms > 20_000), "{update:?}");
    let pick = home_socket.command(json!({ "type": "pick", "value": 1 })).await;
    acked(&mut home_socket, &pick).await;
    app.stop().await;
}

#[tokio::test]
async fn refusals_name_their_reason_and_a_bot_agrees_at_once() {
    let app = common::spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 2 })).await;
    let id = info.match_id.clone();
    let mut home_socket = app.connect(&id, Some(&home.token), None).await;
    let mut away_socket = app.connect(&id, Some(&away.token), None).await;
    let mut spectator = app.connect(&id, None, None).await;
    snapshot(&mut home_socket).await;
    snapshot(&mut away_socket).await;
    snapshot(&mut spectator).await;
    async fn reason(client: &mut Client, action: &str, at: Option<&str>) -> (ErrorCode, Option<String>) {
        let id = client.adjourn(action, at).await;
        match client.answer(&id).await {
            ServerMessage::Error(error) => (error.code, error.reason),
            other => panic!("{action} was not refused: {other:?}"),
        }
    }
    let refused = |reason: &str| (ErrorCode::AdjournRefused, Some(reason.to_string()));
    assert_eq!(
        reason(&mut away_socket, "accept", None).await,
        refused("no_offer")
    );
    assert_eq!(
        reason(&mut home_socket, "withdraw", None).await,
        refused("no_offer")
    );
    let past = (chrono::Utc::now() - chrono::Duration::minutes(1)).to_rfc3339();
    assert_eq!(
        reason(&mut home_socket, "offer", Some(&past)).await,
        refused("resume_at_past")
    );
    let late = (chrono::Utc::now() + chrono::Duration::days(400)).to_rfc3339();
    assert_eq!(
        reason(&mut home_socket, "offer", Some(&late)).await,
        refused("resume_at_late")
    );
    assert_eq!(
        reason(&mut spectator, "offer", None).await.0,
        ErrorCode::NotSeated,
        "a spectator cannot adjourn"
    );
    let offer = home_socket.adjourn("offer", None).await;
    acked(&mut home_socket, &offer).await;
    assert_eq!(
        reason(&mut home_socket, "offer", None).await,
        refused("already_offered")
    );
    assert_eq!(
        reason(&mut home_socket, "accept", None).await,
        refused("own_offer")
    );
    let decline = away_socket.adjourn("decline", None).await;
    acked(&mut away_socket, &decline).await;
    assert_eq!(reason(&mut home_socket, "offer", None).await, refused("too_soon"));
    // A malformed message is the envelope's error, echoing its id.
    away_socket
        .send_text(
            json!({ "type": "adjourn", "id": "x1", "action": "offer", "resume_at": "tomorrow" }).to_string(),
        )
        .await;
    match away_socket.answer("x1").await {
        ServerMessage::Error(error) => assert_eq!(error.code, ErrorCode::BadMessage),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        adjournment_entries(&app, &id).await,
        [
            ("offered".to_string(), json!(0)),
            ("declined".to_string(), json!(1))
        ],
        "refusals write nothing"
    );

    // Against a bot: the offer is agreed in the same write, and the match waits for the
    // player to come back.
    let (status, created) = app
        .post(
            "/v1/matches",
            Some(&home.token),
            json!({ "game": "toy", "options": { "rounds": 2 }, "opponent": "bot" }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let bot_match = created["match_id"].as_str().expect("match id").to_string();
    let mut solo = app.connect(&bot_match, Some(&home.token), None).await;
    snapshot(&mut solo).await;
    let offer = solo.adjourn("offer", None).await;
    acked(&mut solo, &offer).await;
    // One frame per step, before the ack: the offer, then the bot's agreement.
    let shown: Vec<AdjournmentAction> = solo
        .transcript
        .iter()
        .filter_map(|message| match message {
            ServerMessage::Adjournment(view) => Some(view.action),
            _ => None,
        })
        .collect();
    assert_eq!(shown, [AdjournmentAction::Offered, AdjournmentAction::Agreed]);
    let steps = adjournment_entries(&app, &bot_match).await;
    assert_eq!(
        steps,
        [
            ("offered".to_string(), json!(0)),
            ("agreed".to_string(), json!(1))
        ]
    );
    drop(solo);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut back = app.connect(&bot_match, Some(&home.token), None).await;
    snapshot(&mut back).await;
    assert_eq!(back.adjournment().await.action, AdjournmentAction::Resumed);
    app.stop().await;
}
