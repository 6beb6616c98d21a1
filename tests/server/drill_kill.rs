//! Kill drill: the `crease` binary (the release build under CI) is SIGKILLed twice while
//! several matches of every game are being played over real WebSockets with commands in
//! flight, and restarted on the same database each time. The seats reconnect with
//! `resume_from` and play on. Afterwards every command the server acked is in the match's
//! log (at the ack's `last_seq`, with the content that was sent), every match finished, and
//! every log verifies from its seed.
//!
//! An ack promises durability: this is the test that holds the server to it when the
//! process dies without any chance to flush, on SQLite and on PostgreSQL.

use crate::common;
use crate::drills;

use common::TestDb;
use crease::matches::GameRegistry;
use drills::{Drill, RemoteSeat, SeatRecord, ServerProcess, post, register};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// SIGKILLs per drill; each comes once every match has this many more acks.
const KILLS: usize = 2;
const ACKS_BETWEEN_KILLS: usize = 3;

/// Every match of a drill: `(game, options, remote seats)`. One remote seat means the other
/// seats are server bots; two means two remote players meet in the lobby.
fn matches() -> Vec<(&'static str, Value, usize)> {
    vec![
        ("ctg", json!({ "format": "t10" }), 1),
        ("ctg", json!({ "format": "t10" }), 2),
        ("wicketz", json!({ "overs": 12 }), 1),
        ("wicketz", json!({ "overs": 12 }), 2),
        ("champions", json!({ "players": 2 }), 1),
        ("champions", json!({ "players": 3 }), 1),
    ]
}

common::sqlite_and_postgres! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    sigkill_mid_play_loses_no_acked_command(backend) {
        let Some(db) = TestDb::create(backend).await else {
            return;
        };
        kill_drill(&db, backend.name()).await;
    }
}

async fn kill_drill(db: &TestDb, label: &str) {
    // The whole drill, restarts included, is bounded.
    tokio::time::timeout(Duration::from_secs(600), drill(db, label))
        .await
        .expect("the kill drill finished within 10 minutes");
}

async fn drill(db: &TestDb, label: &str) {
    let began = Instant::now();
    let binary = drills::server_binary();
    let mut server = ServerProcess::start(&binary, db.url()).await;
    let http = reqwest::Client::new();
    let games = GameRegistry::standard();
    // Acks are counted per match: a seat that acts once an over must not hold the kill back.
    let drill = Drill::new(&server.base, matches().len());

    // Set up every match, then start every remote seat at once.
    let mut seats = Vec::new();
    for (index, (game, options, remote)) in matches().into_iter().enumerate() {
        let (_, creator) = register(&http, &server.base, &format!("{game}-{index}-a")).await;
        let mut body = json!({ "game": game, "options": options });
        if remote == 1 {
            body["opponent"] = json!("bot");
        }
        let (status, created) = post(&http, &format!("{}/v1/matches", server.base), &creator, body).await;
        assert_eq!(status, 201, "{created}");
        let match_id = created["match_id"].as_str().expect("match_id").to_string();
        let mut tokens = vec![creator];
        if remote == 2 {
            let (_, joiner) = register(&http, &server.base, &format!("{game}-{index}-b")).await;
            let url = format!("{}/v1/matches/{match_id}/join", server.base);
            let (status, joined) = post(&http, &url, &joiner, json!({})).await;
            assert_eq!(status, 200, "{joined}");
            tokens.push(joiner);
        }
        let kind = games.get(game).expect("a standard game");
        for (seat, token) in tokens.iter().enumerate() {
            let seed = (index * 10 + seat) as u64;
            let remote = RemoteSeat::new(kind.clone(), &match_id, token, (drill.clone(), index), seed);
            seats.push(tokio::spawn(remote.play()));
        }
    }

    // Kill mid-play, restart on the same database, twice.
    let mut restarts = Vec::new();
    let mut since = vec![0; matches().len()];
    for kill in 1..=KILLS {
        let (acks, in_flight) = drill
            .until_every_slot_acked(&since, ACKS_BETWEEN_KILLS, Duration::from_secs(120))
            .await;
        server.kill().await;
        eprintln!(
            "[{label}] kill {kill}: SIGKILL with {in_flight} commands in flight; acks per match {acks:?}"
        );
        since = drill.ack_counts();
        let restarting = Instant::now();
        server = ServerProcess::start(&binary, db.url()).await;
        restarts.push(restarting.elapsed());
        drill.server.send_replace(server.base.clone());
    }

    let mut records: Vec<SeatRecord> = Vec::new();
    for seat in seats {
        records.push(seat.await.expect("a seat played to the end"));
    }
    let (mut checked, mut written, mut lost) = (0, 0, 0);
    for record in &records {
        checked += drills::check_seat(&http, &server.base, record, Some(KILLS + 1)).await;
        let (was_written, was_lost) = drills::check_unacked(&http, &server.base, record).await;
        (written, lost) = (written + was_written, lost + was_lost);
    }
    eprintln!(
        "[{label}] commands in flight at a kill: {written} written whole before the kill (unacked), \
         {lost} never written"
    );
    let per_seat: Vec<(&str, usize)> = records
        .iter()
        .map(|record| (record.game, record.acked.len()))
        .collect();
    eprintln!("[{label}] acks per seat: {per_seat:?}");
    let matches = matches().len();
    eprintln!(
        "[{label}] {matches} matches, {} remote seats, {checked} acked commands all in their logs; \
         restarts (to serving, recovery included) {restarts:?}; drill {:.1} s",
        records.len(),
        began.elapsed().as_secs_f64()
    );
    assert!(
        checked > matches * KILLS * ACKS_BETWEEN_KILLS,
        "play went on after the last kill"
    );
    server.kill().await;
}
