//! Protocol 2: one `step` frame per state change, its events and an RFC 7396 merge patch of
//! the viewer's view, instead of `event` frames and full views in every `update`. A protocol 2
//! socket that applies every step holds exactly the view a protocol 1 socket of the same seat
//! is sent (without its null members), and sees exactly its events, at every step of a whole
//! CTG match, for a fraction of the bytes; protocol 1 is what a client gets without asking.

use crate::common;

use common::toy::Toy;
use common::{Backend, Client, Received, spawn_app, spawn_app_on, toy_games};
use crease::matches::GameRegistry;
use crease::protocol::delta::without_nulls;
use crease::protocol::{ServerMessage, Step, Update};
use crease::record::MatchStatus;
use crease::rules::ctg::Ctg;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// `(last_seq, view)` after every `update` or `step`, the view rebuilt from the steps, and
/// every event seen, as protocol 2 sends them (no null members).
fn views_of(transcript: &[ServerMessage]) -> (BTreeMap<i64, Value>, Vec<(i64, Value)>) {
    let mut views = BTreeMap::new();
    let mut events = Vec::new();
    let mut current = Value::Null;
    for message in transcript {
        match message {
            ServerMessage::Snapshot(snapshot) => current = without_nulls(snapshot.view.clone()),
            ServerMessage::Event { seq, event } => events.push((*seq, without_nulls(event.clone()))),
            ServerMessage::Update(update) => {
                current = without_nulls(update.view.clone());
                views.insert(update.last_seq, current.clone());
            }
            ServerMessage::Step(step) => {
                events.extend(step.events.iter().cloned());
                json_patch::merge(&mut current, &step.view);
                views.insert(step.last_seq, current.clone());
            }
            _ => {}
        }
    }
    (views, events)
}

/// The CTG balls a transcript saw (`ball_ended` events, in either protocol).
fn balls(events: &[(i64, Value)]) -> usize {
    events
        .iter()
        .filter(|(_, event)| event["type"] == "ball_ended")
        .count()
}

fn bytes(transcript: &[ServerMessage]) -> usize {
    transcript
        .iter()
        .map(|message| serde_json::to_string(message).expect("json").len())
        .sum()
}

#[tokio::test]
async fn steps_rebuild_exactly_the_full_views_and_events_for_far_fewer_bytes() {
    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("SQLite");
    let (info, home, away) = app.live_match("ctg", json!({ "format": "t10" })).await;
    let id = info.match_id.clone();
    let mut listener = app.connect_with(&id, Some(&home.token), None, Some(2)).await;
    let mut home_player = app.connect(&id, Some(&home.token), None).await;
    let mut away_player = app.connect(&id, Some(&away.token), None).await;
    let ServerMessage::Snapshot(snapshot) = listener.recv().await else {
        panic!("a snapshot first");
    };
    assert_eq!(snapshot.protocol, 2, "the socket got the protocol it asked for");
    let home_task = tokio::spawn(async move {
        home_player.play_to_end::<Ctg>(1).await;
        home_player
    });
    let away_task = tokio::spawn(async move {
        away_player.play_to_end::<Ctg>(2).await;
        away_player
    });
    loop {
        if let ServerMessage::Finished { .. } = listener.recv().await {
            break;
        }
    }
    let home_player = home_task.await.expect("home played");
    away_task.await.expect("away played");

    let (full, full_events) = views_of(&home_player.transcript);
    let (patched, patched_events) = views_of(&listener.transcript);
    assert!(
        listener
            .transcript
            .iter()
            .all(|message| !matches!(message, ServerMessage::Update(_) | ServerMessage::Event { .. })),
        "protocol 2 sends steps, not events and full updates"
    );
    assert!(patched.len() > 100, "a whole T10 match: {} steps", patched.len());
    for (seq, view) in &patched {
        assert_eq!(
            Some(view),
            full.get(seq),
            "the patched view at seq {seq} is the full one"
        );
    }
    assert_eq!(patched.len(), full.len(), "one step per update");
    assert_eq!(
        patched_events, full_events,
        "the same events, once each, in order"
    );
    let (v1, v2) = (bytes(&home_player.transcript), bytes(&listener.transcript));
    let balls = balls(&patched_events);
    eprintln!(
        "one seat, one T10 match of {balls} balls: protocol 1 {v1} bytes ({} per ball), protocol 2 {v2} bytes ({} per ball)",
        v1 / balls,
        v2 / balls
    );
    assert!(v2 * 6 < v1, "steps cost a fraction of full views: {v2} vs {v1}");
    app.stop().await;
}

#[tokio::test]
async fn an_unknown_protocol_is_refused_before_the_upgrade() {
    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("SQLite");
    let (info, home, _) = app.live_match("ctg", json!({ "format": "t10" })).await;
    let (status, body) = app
        .get(
            &format!("/v1/matches/{}/ws?token={}&protocol=3", info.match_id, home.token),
            None,
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|text| text.contains("protocol 3")),
        "{body}"
    );
    app.stop().await;
}

/// Reads until the next `step`.
async fn next_step(client: &mut Client) -> Step {
    loop {
        if let ServerMessage::Step(step) = client.recv().await {
            return step;
        }
    }
}

/// Reads a protocol 1 client until its next `update`.
async fn next_update(client: &mut Client) -> Update {
    loop {
        if let ServerMessage::Update(update) = client.recv().await {
            return update;
        }
    }
}

/// Protocol 2's `resume_from=N`: the snapshot as of N, then one step holding each event after
/// N exactly once and the patch from the snapshot's view to now; and with N the present, the
/// current snapshot and an empty step. Checked against a protocol 1 socket of the same seat.
#[tokio::test]
async fn a_protocol_2_resume_is_its_snapshot_then_one_step_to_now() {
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
    let id = info.match_id.clone();
    let mut witness = app.connect(&id, Some(&home.token), None).await;
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    for client in [&mut witness, &mut home_client, &mut away_client] {
        client.recv().await;
    }
    Client::play_toy_rounds(&mut home_client, &mut away_client, 1, 1).await;
    let at_n = loop {
        let update = next_update(&mut witness).await;
        if update.view["round"] == 2 {
            break update;
        }
    };
    Client::play_toy_rounds(&mut home_client, &mut away_client, 1, 2).await;
    let now = loop {
        let update = next_update(&mut witness).await;
        if update.view["round"] == 3 {
            break update;
        }
    };
    let missed: Vec<(i64, serde_json::Value)> = witness
        .events()
        .into_iter()
        .filter(|(seq, _)| *seq > at_n.last_seq)
        .map(|(seq, event)| (seq, without_nulls(event)))
        .collect();
    assert_eq!(missed.len(), 3, "two picks and a reveal: {missed:?}");

    let mut back = app
        .connect_with(&id, Some(&home.token), Some(at_n.last_seq), Some(2))
        .await;
    let ServerMessage::Snapshot(snapshot) = back.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!(snapshot.last_seq, at_n.last_seq);
    assert_eq!(
        snapshot.view,
        without_nulls(at_n.view.clone()),
        "the view as of N, no nulls"
    );
    assert!(
        snapshot.view.get("my_pick").is_none(),
        "a null member is absent: {}",
        snapshot.view
    );
    let step = next_step(&mut back).await;
    assert_eq!(step.events, missed, "each event after N once, in order");
    assert_eq!((step.last_seq, &step.pending), (now.last_seq, &now.pending));
    assert_eq!(
        back.view_now(),
        without_nulls(now.view.clone()),
        "the step leads to now"
    );
    assert_eq!(
        back.transcript.len(),
        2,
        "one snapshot, one step: {:?}",
        back.transcript
    );

    let mut present = app
        .connect_with(&id, Some(&home.token), Some(now.last_seq), Some(2))
        .await;
    let ServerMessage::Snapshot(snapshot) = present.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!(
        (snapshot.last_seq, &snapshot.view),
        (now.last_seq, &without_nulls(now.view))
    );
    let step = next_step(&mut present).await;
    assert!(step.events.is_empty(), "{step:?}");
    assert_eq!(step.view, json!({}), "nothing changed since the snapshot");
    app.stop().await;
}

/// Protocol 2 keeps protocol 1's order: a match-ending command's step (its events and the
/// final view), then its ack, then `finished`, then the normal close.
#[tokio::test]
async fn in_protocol_2_the_ack_of_a_match_ending_command_comes_between_its_step_and_finished() {
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 1 })).await;
    let mut home_client = app
        .connect_with(&info.match_id, Some(&home.token), None, Some(2))
        .await;
    let mut away_client = app
        .connect_with(&info.match_id, Some(&away.token), None, Some(2))
        .await;
    home_client.recv().await;
    away_client.recv().await;
    let cid = home_client.command(json!({ "type": "pick", "value": 2 })).await;
    assert!(matches!(
        home_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));
    let cid = away_client.command(json!({ "type": "pick", "value": 3 })).await;
    let closed = loop {
        match away_client.next().await {
            Received::Message(_) => continue,
            Received::Closed(code) => break code,
        }
    };
    assert_eq!(closed, Some(1000));
    let tail = &away_client.transcript[away_client.transcript.len() - 3..];
    let ServerMessage::Step(step) = &tail[0] else {
        panic!("a step before the ack: {tail:?}");
    };
    let kinds: Vec<&str> = step
        .events
        .iter()
        .filter_map(|(_, event)| event["type"].as_str())
        .collect();
    assert_eq!(
        kinds,
        ["picked", "revealed"],
        "the ending command's events are in its step"
    );
    assert!(
        matches!(&tail[1], ServerMessage::Ack { id, .. } if *id == cid),
        "{tail:?}"
    );
    assert!(matches!(&tail[2], ServerMessage::Finished { .. }), "{tail:?}");
    app.stop().await;
}

/// A seat's protocol 2 socket opened before the start: the open snapshot without nulls, then
/// one step with the start's events, and it plays the match to its end on steps alone.
#[tokio::test]
async fn a_protocol_2_seat_connected_before_the_start_gets_the_start_as_one_step() {
    let app = spawn_app(toy_games()).await;
    let (id, home, away) = app.open_match("toy", json!({ "rounds": 2 })).await;
    let mut early = app.connect_with(&id, Some(&home.token), None, Some(2)).await;
    let ServerMessage::Snapshot(snapshot) = early.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!((snapshot.status, snapshot.protocol), (MatchStatus::Open, 2));
    assert!(snapshot.view.get("my_pick").is_none(), "{}", snapshot.view);
    let (status, joined) = app
        .post(&format!("/v1/matches/{id}/join"), Some(&away.token), json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    let step = next_step(&mut early).await;
    let kinds: Vec<(i64, &str)> = step
        .events
        .iter()
        .map(|(seq, event)| (*seq, event["type"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(kinds, [(1, "started")]);
    assert_eq!((step.last_seq, step.pending.len()), (1, 2));
    let mut witness = app.connect(&id, Some(&home.token), None).await;
    let ServerMessage::Snapshot(live) = witness.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!(
        early.view_now(),
        without_nulls(live.view),
        "the step leads to the live view"
    );

    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    let (home_result, away_result) =
        tokio::join!(early.play_to_end::<Toy>(11), away_client.play_to_end::<Toy>(12));
    assert_eq!(home_result, away_result);
    app.stop().await;
}

/// The object members of `value` (at any depth) that are `null`, as JSON paths.
fn null_members(value: &Value, path: &str, found: &mut Vec<String>) {
    match value {
        Value::Object(members) => {
            for (key, member) in members {
                let here = format!("{path}.{key}");
                if member.is_null() {
                    found.push(here);
                } else {
                    null_members(member, &here, found);
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                null_members(item, &format!("{path}[{index}]"), found);
            }
        }
        _ => {}
    }
}

/// Issue 23: protocol 2 promises no null members, yet its snapshots carried `"seat": null`
/// and `"deadline_ms": null`. Every frame of whole matches of the three games, as the seats,
/// a spectator and a resuming socket receive them (snapshots, steps, acks, errors, pongs and
/// the finish), is walked for a null member; a step's merge patch, whose nulls delete
/// members, is checked as the view it makes.
#[tokio::test]
async fn no_protocol_2_frame_of_whole_matches_has_a_null_member() {
    use crease::rules::champions::Champions;
    use crease::rules::wicketz::Wicketz;
    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("SQLite");
    let games = [
        ("ctg", json!({ "format": "t10" })),
        ("wicketz", json!({ "overs": 2 })),
        ("champions", json!({ "players": 2 })),
    ];
    let mut walked = 0;
    for (game, options) in games {
        let (info, home, away) = app.live_match(game, options).await;
        let id = info.match_id.clone();
        let mut spectator = app.connect_with(&id, None, None, Some(2)).await;
        let mut home_player = app.connect_with(&id, Some(&home.token), None, Some(2)).await;
        let away_player = app.connect_with(&id, Some(&away.token), None, Some(2)).await;
        // A pong and an error frame, before play.
        home_player.send_text(json!({ "type": "ping" }).to_string()).await;
        home_player
            .send_text(
                json!({ "type": "command", "id": "bad", "command": { "type": "no such move" } }).to_string(),
            )
            .await;
        let (mut ponged, mut refused) = (false, false);
        while !(ponged && refused) {
            match home_player.recv().await {
                ServerMessage::Pong { .. } => ponged = true,
                ServerMessage::Error(_) => refused = true,
                _ => {}
            }
        }
        let play = |mut client: Client, seed: u64| async move {
            match game {
                "ctg" => drop(client.play_to_end::<Ctg>(seed).await),
                "wicketz" => drop(client.play_to_end::<Wicketz>(seed).await),
                _ => drop(client.play_to_end::<Champions>(seed).await),
            }
            client
        };
        let home_task = tokio::spawn(play(home_player, 1));
        let away_task = tokio::spawn(play(away_player, 2));
        while !matches!(spectator.recv().await, ServerMessage::Finished { .. }) {}
        let home_player = home_task.await.expect("home played");
        let away_player = away_task.await.expect("away played");
        // A socket resuming the finished match from the middle, and one from the start.
        let last = spectator.events().last().map_or(0, |(seq, _)| *seq);
        let mut resumed = app.connect_with(&id, None, Some(last / 2), Some(2)).await;
        let _ = resumed.recv().await;
        for client in [&spectator, &home_player, &away_player, &resumed] {
            let mut held = Value::Null;
            for frame in &client.frames {
                let mut value: Value = serde_json::from_str(frame).expect("JSON");
                // A step's view is an RFC 7396 merge patch, where `null` means "remove this
                // member": the view it patches, not the patch, must hold no null.
                let mut patched = None;
                match value["type"].as_str() {
                    Some("snapshot") => held = value["view"].clone(),
                    Some("step") => {
                        let patch = value.as_object_mut().and_then(|step| step.remove("view"));
                        json_patch::merge(&mut held, &patch.unwrap_or(Value::Null));
                        patched = Some(held.clone());
                    }
                    _ => {}
                }
                let mut nulls = Vec::new();
                null_members(&value, "", &mut nulls);
                if let Some(view) = &patched {
                    null_members(view, ".view (patched)", &mut nulls);
                }
                assert!(
                    nulls.is_empty(),
                    "{game}: {} in a {} frame",
                    nulls.join(", "),
                    value["type"]
                );
                walked += 1;
            }
        }
        let kinds: std::collections::BTreeSet<&str> = home_player
            .transcript
            .iter()
            .map(|message| match message {
                ServerMessage::Snapshot(_) => "snapshot",
                ServerMessage::Step(_) => "step",
                ServerMessage::Ack { .. } => "ack",
                ServerMessage::Error(_) => "error",
                ServerMessage::Pong { .. } => "pong",
                ServerMessage::Finished { .. } => "finished",
                _ => "other",
            })
            .collect();
        for kind in ["snapshot", "step", "ack", "error", "pong", "finished"] {
            assert!(
                kinds.contains(kind),
                "{game}: the seat never got a {kind} frame: {kinds:?}"
            );
        }
    }
    eprintln!("{walked} protocol 2 frames walked, none with a null member");
    app.stop().await;
}
