//! Refused messages: each gets its typed code, the socket survives (or closes cleanly for
//! floods and oversize frames), and nothing of a refused command reaches the log.

use crate::common;

use common::{Received, TestApp, spawn_app, toy_games};
use crease::protocol::{ErrorCode, ServerMessage};
use serde_json::{Value, json};

async fn log_len(app: &TestApp, id: &str, token: &str) -> usize {
    let (_, log) = app.get(&format!("/v1/matches/{id}/log"), Some(token)).await;
    log["entries"].as_array().map_or(0, Vec::len)
}

async fn stored_rows(app: &TestApp, id: &str) -> usize {
    app.app()
        .store()
        .log(&common::match_id(id))
        .await
        .expect("log")
        .len()
}

fn error_of(message: ServerMessage) -> crease::protocol::ErrorMessage {
    match message {
        ServerMessage::Error(error) => error,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn illegal_out_of_turn_other_seat_and_malformed_commands_are_refused_with_their_codes() {
    let app = spawn_app(toy_games()).await;
    let (info, home, _away) = app.live_match("toy", json!({ "rounds": 2 })).await;
    let id = info.match_id.clone();
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    assert!(matches!(home_client.recv().await, ServerMessage::Snapshot(_)));
    let rows_at_start = stored_rows(&app, &id).await;

    // Illegal: the engine's reason comes through.
    let cid = home_client.command(json!({ "type": "pick", "value": 9 })).await;
    let error = error_of(home_client.answer(&cid).await);
    assert_eq!(error.code, ErrorCode::IllegalMove);
    assert_eq!(error.reason.as_deref(), Some("pick_out_of_range"));
    assert!(error.message.contains("1, 2 or 3"), "{}", error.message);

    // A command the game cannot read.
    let cid = home_client.command(json!({ "type": "swing" })).await;
    assert_eq!(
        error_of(home_client.answer(&cid).await).code,
        ErrorCode::BadMessage
    );

    // Nothing of the refused commands was stored.
    assert_eq!(stored_rows(&app, &id).await, rows_at_start);

    // Legal, then again in the same round: out of turn.
    let cid = home_client.command(json!({ "type": "pick", "value": 2 })).await;
    assert!(matches!(
        home_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));
    let rows_after_pick = stored_rows(&app, &id).await;
    assert_eq!(rows_after_pick, rows_at_start + 2, "one command and one event");
    let cid = home_client.command(json!({ "type": "pick", "value": 1 })).await;
    assert_eq!(
        error_of(home_client.answer(&cid).await).code,
        ErrorCode::NotYourTurn
    );
    assert_eq!(stored_rows(&app, &id).await, rows_after_pick);

    // Not JSON, an unknown type, a binary frame: bad_message, and the socket stays usable.
    home_client.send_text("{not json".into()).await;
    assert_eq!(error_of(home_client.recv().await).code, ErrorCode::BadMessage);
    home_client
        .send_text(json!({ "type": "teleport" }).to_string())
        .await;
    assert_eq!(error_of(home_client.recv().await).code, ErrorCode::BadMessage);
    home_client.send_binary(vec![1, 2, 3]).await;
    assert_eq!(error_of(home_client.recv().await).code, ErrorCode::BadMessage);
    home_client
        .send_text(json!({ "type": "ping", "id": "p1" }).to_string())
        .await;
    assert_eq!(
        home_client.recv().await,
        ServerMessage::Pong {
            id: Some("p1".into())
        }
    );
    assert_eq!(stored_rows(&app, &id).await, rows_after_pick);
    app.stop().await;
}

/// A command names the decision it answers by `after`, the last seq its client had seen: one
/// decided before its seat was asked again (late, replayed, or answered twice) is refused as
/// `stale_command` and writes nothing, while a decision that stays open as the other seat
/// acts is still answered with the older `after`. (issue 25: a held command must never land
/// on a decision the player has not seen.)
#[tokio::test]
async fn a_command_decided_before_its_decision_was_asked_is_refused_as_stale() {
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
    let id = info.match_id.clone();
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    let ServerMessage::Snapshot(snapshot) = home_client.recv().await else {
        panic!("snapshot first")
    };
    let round_1_asked = snapshot.last_seq;
    let pick = |value: u8| json!({ "type": "pick", "value": value });

    // Round 1: home answers; away answers with the same `after`, although the log moved on
    // (home's sealed pick): both seats were asked at once and away's decision is still open.
    let cid = home_client.command_after(pick(1), round_1_asked).await;
    assert!(matches!(
        home_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));
    let cid = away_client.command_after(pick(2), round_1_asked).await;
    assert!(matches!(
        away_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));
    let round_2_asked = stored_rows(&app, &id).await as i64;
    assert!(round_2_asked > round_1_asked);

    // A copy of home's round-1 pick arriving now (held in a partition, or sent again after an
    // in-doubt answer) must not become its round-2 pick.
    let rows = stored_rows(&app, &id).await;
    let cid = home_client.command_after(pick(3), round_1_asked).await;
    let error = error_of(home_client.answer(&cid).await);
    assert_eq!(error.code, ErrorCode::StaleCommand, "{error:?}");
    assert_eq!(
        stored_rows(&app, &id).await,
        rows,
        "a stale command writes nothing"
    );

    // Decided on what the client has now seen: accepted. And without `after`, the server
    // takes what it sent this socket, which is round 2 too.
    let cid = home_client.command_after(pick(3), round_2_asked).await;
    assert!(matches!(
        home_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));
    let cid = away_client.command(pick(1)).await;
    assert!(matches!(
        away_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));

    // Precedence: a seat that is not asked at all hears not_your_turn, whatever its `after`.
    let round_3_asked = stored_rows(&app, &id).await as i64;
    let cid = home_client.command_after(pick(1), round_3_asked).await;
    assert!(matches!(
        home_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));
    let cid = home_client.command_after(pick(1), round_1_asked).await;
    assert_eq!(
        error_of(home_client.answer(&cid).await).code,
        ErrorCode::NotYourTurn
    );

    // `after` is a seq: negative or not a number is a bad message, the id echoed.
    for after in [json!(-1), json!("5"), json!(1.5)] {
        let frame = json!({ "type": "command", "id": "x", "after": after, "command": pick(1) });
        away_client.send_text(frame.to_string()).await;
        let error = error_of(away_client.recv_until_error().await);
        assert_eq!(
            (error.code, error.id.as_deref()),
            (ErrorCode::BadMessage, Some("x")),
            "{after}"
        );
    }
    app.stop().await;
}

/// A token acts only for its own seat; a spectator (or another match's player) cannot act.
#[tokio::test]
async fn a_token_cannot_act_for_another_seat_and_spectators_cannot_play() {
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({})).await;
    let id = info.match_id.clone();
    let stranger = app.player("stranger").await;
    for token in [None, Some(stranger.token.as_str())] {
        let mut watcher = app.connect(&id, token, None).await;
        let ServerMessage::Snapshot(snapshot) = watcher.recv().await else {
            panic!("snapshot first");
        };
        assert_eq!(snapshot.seat, None);
        let cid = watcher.command(json!({ "type": "pick", "value": 1 })).await;
        assert_eq!(error_of(watcher.answer(&cid).await).code, ErrorCode::NotSeated);
    }
    // The away player's socket plays seat 1 whatever it sends: its pick lands on seat 1.
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    let ServerMessage::Snapshot(snapshot) = away_client.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!(snapshot.seat, Some(crease::rules::Seat(1)));
    let cid = away_client.command(json!({ "type": "pick", "value": 2 })).await;
    assert!(matches!(
        away_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));
    let (_, log) = app.get(&format!("/v1/matches/{id}/log"), Some(&home.token)).await;
    let picked: Vec<&Value> = log["entries"]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .filter(|e| e["payload"]["type"] == "picked")
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(picked.len(), 1);
    assert_eq!(picked[0]["payload"]["seat"], 1);
    assert_eq!(
        picked[0]["payload"]["value"],
        Value::Null,
        "home must not see away's pick"
    );
    // A wrong token is refused before the upgrade.
    let url = format!(
        "{}/v1/matches/{id}/ws?token=wrong",
        app.base.replacen("http", "ws", 1)
    );
    match tokio_tungstenite::connect_async(url.as_str()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => assert_eq!(response.status(), 401),
        other => panic!("a wrong token was not refused: {:?}", other.map(|_| ())),
    }
    app.stop().await;
}

#[tokio::test]
async fn oversize_frames_and_floods_end_in_an_error_or_a_clean_close_never_a_crash() {
    let app = spawn_app(toy_games()).await;
    let (info, home, _) = app.live_match("toy", json!({})).await;
    let id = info.match_id.clone();
    let before = stored_rows(&app, &id).await;

    let mut client = app.connect(&id, Some(&home.token), None).await;
    assert!(matches!(client.recv().await, ServerMessage::Snapshot(_)));
    let huge = json!({ "type": "command", "id": "big", "command": { "type": "pick", "value": 1, "pad": "x".repeat(70 * 1024) } });
    client.send_text(huge.to_string()).await;
    match client.next().await {
        Received::Closed(_) => {}
        Received::Message(message) => match *message {
            ServerMessage::Error(error) => assert_eq!(error.code, ErrorCode::BadMessage),
            other => panic!("an oversize frame was answered with {other:?}"),
        },
    }

    let mut flooder = app.connect(&id, Some(&home.token), None).await;
    assert!(matches!(flooder.recv().await, ServerMessage::Snapshot(_)));
    for _ in 0..200 {
        flooder.send_text(json!({ "type": "ping" }).to_string()).await;
    }
    let (mut pongs, mut limited) = (0, 0);
    let closed = loop {
        match flooder.next().await {
            Received::Message(message) => match *message {
                ServerMessage::Pong { .. } => pongs += 1,
                ServerMessage::Error(error) if error.code == ErrorCode::RateLimited => limited += 1,
                other => panic!("unexpected {other:?}"),
            },
            Received::Closed(code) => break code,
        }
    };
    assert!(
        pongs >= 1 && limited >= 1,
        "pongs {pongs}, rate limited {limited}"
    );
    assert_eq!(closed, Some(1008), "a flood ends with a policy close");

    // The server is fine and nothing was written.
    let (status, _) = app.get("/healthz", None).await;
    assert_eq!(status, 200);
    assert_eq!(stored_rows(&app, &id).await, before);
    assert_eq!(log_len(&app, &id, &home.token).await, 1, "only the start event");
    app.stop().await;
}
