//! The socket protocol's ordering promises, on the toy game: what a resume sends after its
//! snapshot, where the ack of a match-ending command goes, which errors echo the frame's id,
//! and a seat's socket opened before the match starts.

use crate::common;

use common::toy::Toy;
use common::{Received, spawn_app, toy_games};
use crease::protocol::{ErrorCode, ServerMessage};
use crease::record::MatchStatus;
use serde_json::json;

/// The frame types a client received, in order (`event:<seq>` for events).
fn kinds(transcript: &[ServerMessage]) -> Vec<String> {
    transcript
        .iter()
        .map(|message| match message {
            ServerMessage::Snapshot(_) => "snapshot".to_string(),
            ServerMessage::Event { seq, .. } => format!("event:{seq}"),
            ServerMessage::Update(_) => "update".into(),
            ServerMessage::Step(step) => {
                let seqs: Vec<String> = step.events.iter().map(|(seq, _)| seq.to_string()).collect();
                format!("step:{}", seqs.join(","))
            }
            ServerMessage::Ack { .. } => "ack".into(),
            ServerMessage::Error(_) => "error".into(),
            ServerMessage::Finished { .. } => "finished".into(),
            ServerMessage::Pong { .. } => "pong".into(),
            ServerMessage::Adjournment(_) => "adjournment".into(),
        })
        .collect()
}

/// The command that ends the match is acked before `finished`, and `finished` is the last
/// frame before the normal close.
#[tokio::test]
async fn the_ack_of_a_match_ending_command_comes_before_finished() {
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 1 })).await;
    let mut home_client = app.connect(&info.match_id, Some(&home.token), None).await;
    let mut away_client = app.connect(&info.match_id, Some(&away.token), None).await;
    home_client.recv().await;
    away_client.recv().await;
    let id = home_client.command(json!({ "type": "pick", "value": 2 })).await;
    assert!(matches!(home_client.answer(&id).await, ServerMessage::Ack { .. }));
    // Away's pick completes the only round: the match ends with away's command.
    let id = away_client.command(json!({ "type": "pick", "value": 3 })).await;
    let closed = loop {
        match away_client.next().await {
            Received::Message(_) => continue,
            Received::Closed(code) => break code,
        }
    };
    assert_eq!(closed, Some(1000));
    let kinds = kinds(&away_client.transcript);
    let tail: Vec<&str> = kinds.iter().rev().take(3).rev().map(String::as_str).collect();
    assert_eq!(tail, ["update", "ack", "finished"], "{kinds:?}");
    assert!(
        matches!(&away_client.transcript[away_client.transcript.len() - 2], ServerMessage::Ack { id: got, .. } if *got == id)
    );
    app.stop().await;
}

/// `resume_from=N`: the snapshot is the viewer's match as of N (`last_seq` N, nobody asked),
/// then each event after N exactly once, then an update to now. Folding the events onto the
/// snapshot gives the current view: nothing is counted twice.
#[tokio::test]
async fn a_resume_sends_only_events_after_its_snapshot_then_an_update_to_now() {
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
    let id = info.match_id.clone();
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    home_client.recv().await;
    away_client.recv().await;
    // Round 1, seen live by home.
    for (client, value) in [(&mut home_client, 2), (&mut away_client, 1)] {
        let cid = client.command(json!({ "type": "pick", "value": value })).await;
        assert!(matches!(client.answer(&cid).await, ServerMessage::Ack { .. }));
    }
    // Home's view after away's pick: the batch's events, then its update.
    let seen = loop {
        if let ServerMessage::Update(update) = home_client.recv().await {
            break update;
        }
    };
    let last_event = home_client.events().last().map(|(seq, _)| *seq).expect("events");
    drop(home_client);
    // Round 2 is played while home is away: home picks from another socket, then away.
    let mut other = app.connect(&id, Some(&home.token), None).await;
    other.recv().await;
    let cid = other.command(json!({ "type": "pick", "value": 3 })).await;
    assert!(matches!(other.answer(&cid).await, ServerMessage::Ack { .. }));
    drop(other);
    let cid = away_client.command(json!({ "type": "pick", "value": 1 })).await;
    assert!(matches!(
        away_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));

    let mut back = app.connect(&id, Some(&home.token), Some(last_event)).await;
    let ServerMessage::Snapshot(snapshot) = back.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!(snapshot.last_seq, last_event);
    assert_eq!(snapshot.view, seen.view, "the view home had at {last_event}");
    assert!(snapshot.pending.is_empty() && snapshot.deadline_ms.is_none());
    let mut missed = Vec::new();
    let update = loop {
        match back.recv().await {
            ServerMessage::Event { seq, event } => missed.push((seq, event)),
            ServerMessage::Update(update) => break update,
            other => panic!("expected events then an update, got {other:?}"),
        }
    };
    let seqs: Vec<i64> = missed.iter().map(|(seq, _)| *seq).collect();
    assert!(seqs.iter().all(|seq| *seq > snapshot.last_seq), "{seqs:?}");
    assert!(seqs.windows(2).all(|pair| pair[0] < pair[1]), "{seqs:?}");
    let types: Vec<&str> = missed
        .iter()
        .map(|(_, event)| event["type"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(types, ["picked", "picked", "revealed"], "{missed:?}");
    // Folding: round 1's totals plus round 2's reveal are the current totals, once each.
    assert_eq!(snapshot.view["round"], 2);
    assert_eq!(update.view["round"], 3);
    assert_eq!(update.view["totals"], missed[2].1["totals"]);
    assert_eq!(update.pending.len(), 2, "both seats pick in round 3");
    assert_eq!(update.last_seq, seqs[2]);
    // Resuming from where it is now: the current snapshot, and the same closing update.
    let mut again = app.connect(&id, Some(&home.token), Some(update.last_seq)).await;
    let ServerMessage::Snapshot(now) = again.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!((now.last_seq, &now.view), (update.last_seq, &update.view));
    assert!(matches!(again.recv().await, ServerMessage::Update(u) if u.last_seq == update.last_seq));
    app.stop().await;
}

/// A malformed envelope's error carries the id whenever the frame has one: JSON broken after
/// the id, an id with a control character, an unknown field.
#[tokio::test]
async fn errors_for_malformed_envelopes_echo_the_frames_id() {
    let app = spawn_app(toy_games()).await;
    let (info, home, _away) = app.live_match("toy", json!({ "rounds": 1 })).await;
    let mut client = app.connect(&info.match_id, Some(&home.token), None).await;
    client.recv().await;
    for (frame, id) in [
        (
            r#"{"type":"command","id":"b1","command":{"type":"pick","value":1},}"#,
            "b1",
        ),
        (r#"{"type":"ping","id":"b\u0002"}"#, "b\u{2}"),
        (
            r#"{"type":"command","id":"b3","command":{"type":"pick","value":1},"x":1}"#,
            "b3",
        ),
    ] {
        client.send_text(frame.to_string()).await;
        let ServerMessage::Error(error) = client.recv().await else {
            panic!("{frame}: expected an error");
        };
        assert_eq!(
            (error.code, error.id.as_deref()),
            (ErrorCode::BadMessage, Some(id)),
            "{frame}"
        );
    }
    app.stop().await;
}

/// A seat's socket opened while the match is open gets the open snapshot, answers pings and
/// refuses commands as `match_not_live`, then gets the start's events as soon as the last
/// seat is taken, and plays on it to the end. Spectators still get 409 before the start.
#[tokio::test]
async fn a_seat_may_connect_before_the_start_and_gets_the_start_events() {
    let app = spawn_app(toy_games()).await;
    let (id, home, away) = app.open_match("toy", json!({ "rounds": 2 })).await;
    // Only a seat waits for the start: a spectator's upgrade is still refused.
    let url = format!("{}/v1/matches/{id}/ws", app.base.replacen("http", "ws", 1));
    match tokio_tungstenite::connect_async(url.as_str()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => assert_eq!(response.status(), 409),
        other => panic!(
            "a spectator before the start: {:?}",
            other.map(|(_, response)| response)
        ),
    }

    let mut early = app.connect(&id, Some(&home.token), None).await;
    let ServerMessage::Snapshot(snapshot) = early.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!(snapshot.status, MatchStatus::Open);
    assert_eq!(
        (snapshot.last_seq, snapshot.seat),
        (0, Some(crease::rules::Seat(0)))
    );
    assert!(snapshot.pending.is_empty());
    early.send_text(r#"{"type":"ping","id":"p1"}"#.into()).await;
    assert!(matches!(early.recv().await, ServerMessage::Pong { id: Some(p) } if p == "p1"));
    let cid = early.command(json!({ "type": "pick", "value": 1 })).await;
    let ServerMessage::Error(error) = early.recv().await else {
        panic!("a command before the start is refused");
    };
    assert_eq!((error.code, error.id), (ErrorCode::MatchNotLive, Some(cid)));

    let (status, joined) = app
        .post(&format!("/v1/matches/{id}/join"), Some(&away.token), json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    let ServerMessage::Event { seq, event } = early.recv().await else {
        panic!("the start's event");
    };
    assert_eq!((seq, event["type"].as_str()), (1, Some("started")));
    let ServerMessage::Update(update) = early.recv().await else {
        panic!("an update after the start");
    };
    assert_eq!(update.last_seq, 1);
    assert_eq!(update.pending.len(), 2);
    let snapshots = early
        .transcript
        .iter()
        .filter(|message| matches!(message, ServerMessage::Snapshot(_)))
        .count();
    assert_eq!(snapshots, 1, "one snapshot per socket");

    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    let (home_result, away_result) =
        tokio::join!(early.play_to_end::<Toy>(11), away_client.play_to_end::<Toy>(12));
    assert_eq!(home_result, away_result);
    app.stop().await;
}

/// A socket waiting for the start of a match that is then cancelled is closed normally.
#[tokio::test]
async fn a_socket_waiting_for_a_cancelled_match_is_closed() {
    let app = spawn_app(toy_games()).await;
    let home = app.player("home").await;
    let (status, created) = app
        .post("/v1/matches", Some(&home.token), json!({ "game": "toy" }))
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("match id").to_string();
    let mut early = app.connect(&id, Some(&home.token), None).await;
    assert!(matches!(early.recv().await, ServerMessage::Snapshot(_)));
    let (status, left) = app
        .post(&format!("/v1/matches/{id}/leave"), Some(&home.token), json!({}))
        .await;
    assert_eq!(status, 200, "{left}");
    assert!(matches!(early.next().await, Received::Closed(Some(1000))));
    app.stop().await;
}

/// When several errors apply, the first failing check of `PRECEDENCE` answers (the README's
/// table is generated from that list): checked pairwise where a socket can provoke both.
#[tokio::test]
async fn when_several_errors_apply_the_documented_precedence_decides() {
    use crease::protocol::PRECEDENCE;
    let rank = |code: ErrorCode| {
        PRECEDENCE
            .iter()
            .position(|(listed, _)| *listed == code)
            .expect("every code is ranked")
    };
    let app = spawn_app(toy_games()).await;
    let (info, home, _away) = app.live_match("toy", json!({ "rounds": 2 })).await;
    let mut seat = app.connect(&info.match_id, Some(&home.token), None).await;
    let mut spectator = app.connect(&info.match_id, None, None).await;
    seat.recv().await;
    spectator.recv().await;
    async fn refusal(client: &mut common::Client, frame: serde_json::Value) -> ErrorCode {
        client.send_text(frame.to_string()).await;
        loop {
            if let ServerMessage::Error(error) = client.recv().await {
                return error.code;
            }
        }
    }
    // A spectator's malformed frame: the frame is judged before the sender.
    let malformed = json!({ "type": "command", "id": "x", "command": {}, "extra": 1 });
    assert_eq!(refusal(&mut spectator, malformed).await, ErrorCode::BadMessage);
    assert!(rank(ErrorCode::BadMessage) < rank(ErrorCode::NotSeated));
    let command = json!({ "type": "command", "id": "x", "command": { "type": "pick", "value": 9 } });
    assert_eq!(refusal(&mut spectator, command).await, ErrorCode::NotSeated);
    // The seat's turn: an unreadable command, then an illegal one.
    let unreadable = json!({ "type": "command", "id": "u", "command": { "type": "teleport" } });
    assert_eq!(
        refusal(&mut seat, unreadable.clone()).await,
        ErrorCode::BadMessage
    );
    let illegal = json!({ "type": "command", "id": "i", "command": { "type": "pick", "value": 9 } });
    assert_eq!(refusal(&mut seat, illegal).await, ErrorCode::IllegalMove);
    // Not its turn any more: that comes before whether the game can read the command.
    let cid = seat.command(json!({ "type": "pick", "value": 1 })).await;
    assert!(matches!(seat.answer(&cid).await, ServerMessage::Ack { .. }));
    assert_eq!(refusal(&mut seat, unreadable).await, ErrorCode::NotYourTurn);
    let turn = rank(ErrorCode::NotYourTurn);
    assert!(
        PRECEDENCE[turn + 1..]
            .iter()
            .any(|(code, _)| *code == ErrorCode::BadMessage)
    );
    assert!(turn < rank(ErrorCode::IllegalMove));
    app.stop().await;
}
