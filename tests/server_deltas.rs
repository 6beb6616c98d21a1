//! Protocol 2: `patch` frames (RFC 6902 against the viewer's previous view) instead of full
//! views in every `update`. A protocol 2 socket that applies every patch holds exactly the
//! view a protocol 1 socket of the same seat is sent, at every step of a whole CTG match, for
//! a fraction of the bytes; protocol 1 is what a client gets without asking.

mod common;

use common::{Backend, spawn_app_on};
use crease::matches::GameRegistry;
use crease::protocol::ServerMessage;
use crease::rules::ctg::Ctg;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// `(last_seq, view)` after every `update` or `patch`, the view rebuilt from the patches.
fn views_of(transcript: &[ServerMessage]) -> BTreeMap<i64, Value> {
    let mut views = BTreeMap::new();
    let mut current = Value::Null;
    for message in transcript {
        match message {
            ServerMessage::Snapshot(snapshot) => current = snapshot.view.clone(),
            ServerMessage::Update(update) => {
                current = update.view.clone();
                views.insert(update.last_seq, current.clone());
            }
            ServerMessage::Patch(patch) => {
                let operations: json_patch::Patch =
                    serde_json::from_value(Value::Array(patch.patch.clone())).expect("RFC 6902 operations");
                json_patch::patch(&mut current, &operations).expect("the patch applies to the previous view");
                views.insert(patch.last_seq, current.clone());
            }
            _ => {}
        }
    }
    views
}

fn bytes(transcript: &[ServerMessage]) -> usize {
    transcript
        .iter()
        .map(|message| serde_json::to_string(message).expect("json").len())
        .sum()
}

#[tokio::test]
async fn patches_rebuild_exactly_the_full_views_for_far_fewer_bytes() {
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

    let full = views_of(&home_player.transcript);
    let patched = views_of(&listener.transcript);
    assert!(
        listener
            .transcript
            .iter()
            .all(|message| !matches!(message, ServerMessage::Update(_))),
        "protocol 2 sends patches, not full updates, on a live socket"
    );
    assert!(
        patched.len() > 100,
        "a whole T10 match: {} patches",
        patched.len()
    );
    for (seq, view) in &patched {
        assert_eq!(
            Some(view),
            full.get(seq),
            "the patched view at seq {seq} is the full one"
        );
    }
    let (v1, v2) = (bytes(&home_player.transcript), bytes(&listener.transcript));
    eprintln!("one seat, one T10 match: protocol 1 {v1} bytes, protocol 2 {v2} bytes");
    assert!(v2 * 3 < v1, "patches cost a fraction of full views: {v2} vs {v1}");
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
