//! Resumes are answered from the actor's bounded recent past, not by replaying the log: a
//! socket resuming a few rounds back costs no log read, and one resuming from further back
//! than the actor keeps is still answered exactly, from the log. A live match's `/log` is
//! its stored events folded, never a replay through the engine. (One test in its own binary:
//! the metrics it reads are process-wide.)

mod common;

use common::{Client, metric, spawn_app, toy_games};
use crease::matches::recent::RECENT_EVENTS;
use crease::protocol::ServerMessage;
use serde_json::{Value, json};
use std::collections::BTreeMap;

const READS: &str = "crease_history_reads_total";
const REPLAYS: &str = "crease_log_replays_total";

/// The snapshot and the events a resume from `from` sends, and the closing update's view.
async fn resume(
    app: &common::TestApp,
    id: &str,
    token: &str,
    from: i64,
) -> (Value, Vec<(i64, Value)>, Value) {
    let mut client = app.connect(id, Some(token), Some(from)).await;
    let ServerMessage::Snapshot(snapshot) = client.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!(snapshot.last_seq, from);
    let update = loop {
        if let ServerMessage::Update(update) = client.recv().await {
            break update;
        }
    };
    (snapshot.view, client.events(), update.view)
}

/// Reads `client` until it has been sent every event up to `seq` (the turn clock may have
/// played more since it was last read); the events it was sent up to there.
async fn sent_until(client: &mut Client, seq: i64) -> Vec<(i64, Value)> {
    while client.events().last().is_none_or(|(last, _)| *last < seq) {
        client.recv().await;
    }
    client.events().into_iter().filter(|(at, _)| *at <= seq).collect()
}

/// Reads the witness's updates into `views` until the one that opens `round`; its seq.
async fn seen(witness: &mut Client, views: &mut BTreeMap<i64, Value>, round: u64) -> i64 {
    loop {
        if let ServerMessage::Update(update) = witness.recv().await {
            views.insert(update.last_seq, update.view.clone());
            if update.view["round"] == round {
                return update.last_seq;
            }
        }
    }
}

#[tokio::test]
async fn a_recent_resume_reads_no_log_and_an_old_one_reads_it_exactly() {
    let app = spawn_app(toy_games()).await;
    let http = reqwest::Client::new();
    let reads =
        async |source: &str| metric(&http, &app.base, READS, &[&format!("source=\"{source}\"")]).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 200 })).await;
    let id = info.match_id.clone();
    let mut witness = app.connect(&id, Some(&home.token), None).await;
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    let mut spectator = app.connect(&id, None, None).await;
    for client in [&mut witness, &mut home_client, &mut away_client, &mut spectator] {
        client.recv().await;
    }
    // Each round is two picks and a reveal: three events.
    Client::play_toy_rounds(&mut home_client, &mut away_client, 3, 1).await;
    // The witness's view after each update, by seq.
    let mut views = BTreeMap::new();
    let early = seen(&mut witness, &mut views, 3).await;
    let early_view = views[&early].clone();
    seen(&mut witness, &mut views, 4).await;
    let after = |witness: &Client, from: i64| -> Vec<(i64, Value)> {
        witness
            .events()
            .into_iter()
            .filter(|(seq, _)| *seq > from)
            .collect()
    };

    let (recent, log) = (reads("recent").await, reads("log").await);
    let (snapshot, events, _) = resume(&app, &id, &home.token, early).await;
    assert_eq!(snapshot, early_view, "the view as of the seq resumed from");
    assert_eq!(events, after(&witness, early), "round 3's events, once each");
    assert_eq!(events.len(), 3);
    assert_eq!(
        (reads("recent").await, reads("log").await),
        (recent + 1.0, log),
        "no log read"
    );

    // Far more events than the actor keeps: the early seq is out of its recent past.
    let rounds = RECENT_EVENTS / 3 + 10;
    Client::play_toy_rounds(&mut home_client, &mut away_client, rounds, 1).await;
    let now = seen(&mut witness, &mut views, 4 + rounds as u64).await;
    let (recent, log) = (reads("recent").await, reads("log").await);
    let (snapshot, events, current) = resume(&app, &id, &home.token, early).await;
    assert_eq!(
        snapshot, early_view,
        "still exactly the view as of the seq resumed from"
    );
    assert_eq!(events, after(&witness, early), "every event after it, once each");
    assert!(events.len() > RECENT_EVENTS);
    assert_eq!(current, views[&now]);
    assert_eq!(
        (reads("recent").await, reads("log").await),
        (recent, log + 1.0),
        "read from the log"
    );

    // A live `/log` of a match longer than the recent past: every event each viewer was sent,
    // from the stored log, with no replay through the engine.
    let (log, replays) = (reads("log").await, metric(&http, &app.base, REPLAYS, &[]).await);
    let mut logs = Vec::new();
    for token in [Some(&home.token), Some(&away.token), None] {
        let (status, body) = app
            .get(&format!("/v1/matches/{id}/log"), token.map(String::as_str))
            .await;
        assert_eq!(status, 200, "{body}");
        let entries: Vec<(i64, Value)> = body["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .map(|entry| (entry["seq"].as_i64().expect("seq"), entry["payload"].clone()))
            .collect();
        assert!(entries.len() > RECENT_EVENTS);
        logs.push(entries);
    }
    assert_eq!(reads("log").await, log + 3.0, "three reads of the stored log");
    assert_eq!(
        metric(&http, &app.base, REPLAYS, &[]).await,
        replays,
        "no replay through the engine"
    );
    for (entries, client) in logs.iter().zip([&mut witness, &mut away_client, &mut spectator]) {
        let ServerMessage::Snapshot(snapshot) = &client.transcript[0] else {
            panic!("a socket opens with its snapshot");
        };
        // The sockets connected after the start: what they were sent follows their snapshot.
        let since: Vec<_> = entries
            .iter()
            .filter(|(seq, _)| *seq > snapshot.last_seq)
            .cloned()
            .collect();
        let last = entries.last().expect("entries").0;
        assert_eq!(
            sent_until(client, last).await,
            since,
            "the log as this viewer was sent it"
        );
    }
    assert_ne!(
        logs[0], logs[2],
        "a seat sees its own picks, a spectator does not"
    );

    // A resume a few rounds back is again served from memory, and says the same as the log.
    let back = *views.keys().rev().nth(4).expect("updates");
    let (snapshot, events, _) = resume(&app, &id, &home.token, back).await;
    assert_eq!(snapshot, views[&back]);
    assert_eq!(events, after(&witness, back));
    assert_eq!(reads("recent").await, recent + 1.0);
    app.stop().await;
}
