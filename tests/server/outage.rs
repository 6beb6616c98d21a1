//! Database outages: bounded, typed answers while the database cannot write, no forfeit
//! caused by the database, and play that resumes by itself with every acked command logged.
//!
//! SQLite outages are a write lock held from outside the server; the Postgres test stops and
//! starts a private cluster of its own (`outage_support::PgCluster`).

use crate::common;
use crate::outage_support;

use common::{TestApp, TestDb, toy_games};
use crease::protocol::{ErrorCode, ServerMessage};
use crease::record::{EntryKind, LogEntry};
use crease::store::DbSettings;
use outage_support::{PgCluster, SqliteLock, short_bounds, spawn_with};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

async fn sqlite_app(settings: DbSettings) -> TestApp {
    let db = TestDb::create(common::Backend::Sqlite).await.expect("SQLite");
    let url = db.url().to_string();
    spawn_with(db, &url, settings, toy_games()).await
}

/// A live toy match with the given turn clock: `(match id, home token, away token)`.
async fn toy_match(app: &TestApp, rounds: u8, turn_clock_secs: u64) -> (String, String, String) {
    let (home, away) = (app.player("home").await, app.player("away").await);
    let body = json!({ "game": "toy", "options": { "rounds": rounds }, "turn_clock_secs": turn_clock_secs });
    let (status, created) = app.post("/v1/matches", Some(&home.token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("match id").to_string();
    let (status, joined) = app
        .post(&format!("/v1/matches/{id}/join"), Some(&away.token), json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    (id, home.token, away.token)
}

fn pick(value: u8) -> Value {
    json!({ "type": "pick", "value": value })
}

fn error_code(message: &ServerMessage) -> Option<ErrorCode> {
    match message {
        ServerMessage::Error(error) => Some(error.code),
        _ => None,
    }
}

/// Seqs 1..=n with no gap and no duplicate, and the log replays (`/verify`).
async fn assert_log_whole(app: &TestApp, id: &str) -> Vec<LogEntry> {
    let log = app.app().store().log(&common::match_id(id)).await.expect("log");
    let seqs: Vec<i64> = log.iter().map(|entry| entry.seq).collect();
    assert_eq!(
        seqs,
        (1..=log.len() as i64).collect::<Vec<_>>(),
        "gap or duplicate"
    );
    let (status, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!((status, verify["status"].as_str()), (200, Some("ok")), "{verify}");
    log
}

/// `(seat, command)` of every command a player sent that the log holds.
fn player_commands(log: &[LogEntry]) -> Vec<(u64, Value)> {
    log.iter()
        .filter(|entry| entry.kind == EntryKind::Command && entry.payload["source"] == "player")
        .map(|entry| {
            (
                entry.payload["seat"].as_u64().expect("seat"),
                entry.payload["command"].clone(),
            )
        })
        .collect()
}

/// Until the client has the `finished` frame (perhaps already read while awaiting an ack).
async fn wait_finished(client: &mut common::Client) {
    let finished = |message: &ServerMessage| matches!(message, ServerMessage::Finished { .. });
    if client.transcript.iter().any(finished) {
        return;
    }
    while !finished(&client.recv().await) {}
}

/// Both seats pick 2 in the last round; the match finishes (`/verify` needs the seed).
async fn play_last_round(home: &mut common::Client, away: &mut common::Client) {
    for client in [&mut *home, &mut *away] {
        let sent = client.command(pick(2)).await;
        let answer = client.answer(&sent).await;
        assert!(matches!(answer, ServerMessage::Ack { .. }), "{answer:?}");
    }
    wait_finished(home).await;
}

/// Reads until a `revealed` event and returns it.
async fn next_reveal(client: &mut common::Client) -> Value {
    loop {
        if let ServerMessage::Event { event, .. } = client.recv().await
            && event["type"] == "revealed"
        {
            return event;
        }
    }
}

#[tokio::test]
async fn a_command_during_a_sqlite_write_lock_is_answered_in_doubt_within_the_bound_and_not_adopted() {
    let settings = DbSettings {
        db_timeout_ms: 500,
        db_transaction_timeout_ms: 500,
        ..short_bounds()
    };
    let app = sqlite_app(settings).await;
    let (id, home, away) = toy_match(&app, 2, 60).await;
    let mut client = app.connect(&id, Some(&home), None).await;
    let ServerMessage::Snapshot(before) = client.recv().await else {
        panic!("snapshot first")
    };

    let lock = SqliteLock::take(app.db.url()).await;
    let started = Instant::now();
    let sent = client.command(pick(3)).await;
    let answer = client.answer(&sent).await;
    let waited = started.elapsed();
    assert_eq!(error_code(&answer), Some(ErrorCode::InDoubt), "{answer:?}");
    assert!(waited < Duration::from_millis(1_500), "answered after {waited:?}");
    // Nothing adopted: a fresh connection sees the match exactly as before.
    let mut again = app.connect(&id, Some(&home), None).await;
    let ServerMessage::Snapshot(during) = again.recv().await else {
        panic!("snapshot first")
    };
    assert_eq!(during.last_seq, before.last_seq);
    assert_eq!(during.view, before.view);
    assert_eq!(during.pending, before.pending);
    lock.release().await;

    let mut away_client = app.connect(&id, Some(&away), None).await;
    for (client, value) in [(&mut client, 2), (&mut away_client, 1)] {
        let sent = client.command(pick(value)).await;
        let answer = client.answer(&sent).await;
        assert!(matches!(answer, ServerMessage::Ack { .. }), "{answer:?}");
    }
    play_last_round(&mut client, &mut away_client).await;
    let log = assert_log_whole(&app, &id).await;
    assert_eq!(
        player_commands(&log)[..2],
        [(0, pick(2)), (1, pick(1))],
        "the refused pick must not be logged"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_write_that_commits_after_its_command_timed_out_is_adopted_and_broadcast_before_the_next() {
    // The command gives up after 300 ms; its transaction may run on for 20 s and land.
    let settings = DbSettings {
        db_timeout_ms: 300,
        db_transaction_timeout_ms: 20_000,
        ..short_bounds()
    };
    let app = sqlite_app(settings).await;
    let (id, home, away) = toy_match(&app, 2, 60).await;
    let mut home_client = app.connect(&id, Some(&home), None).await;
    let mut away_client = app.connect(&id, Some(&away), None).await;
    let sent = away_client.command(pick(1)).await;
    assert!(matches!(
        away_client.answer(&sent).await,
        ServerMessage::Ack { .. }
    ));

    let lock = SqliteLock::take(app.db.url()).await;
    let sent = home_client.command(pick(3)).await;
    let answer = home_client.answer(&sent).await;
    assert_eq!(error_code(&answer), Some(ErrorCode::InDoubt), "{answer:?}");
    let before = app
        .app()
        .store()
        .log(&common::match_id(&id))
        .await
        .expect("log")
        .len();
    lock.release().await;
    // The in-doubt write goes through once the lock is gone: wait for it to be durable.
    let deadline = Instant::now() + Duration::from_secs(10);
    while app
        .app()
        .store()
        .log(&common::match_id(&id))
        .await
        .expect("log")
        .len()
        == before
    {
        assert!(Instant::now() < deadline, "the in-doubt write never landed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // The next command finds the landed write and adopts it (round 1 revealed to everyone),
    // unless the actor's own retry timer did first. It says it was decided on what the client
    // had seen before the in-doubt write (seqs are 1..=len), so either way it answers round 1,
    // which is closed: refused as stale rather than taken as the answer to round 2.
    let sent = home_client.command_after(pick(2), before as i64).await;
    let answer = home_client.answer(&sent).await;
    assert_eq!(error_code(&answer), Some(ErrorCode::StaleCommand), "{answer:?}");
    let reveal = next_reveal(&mut home_client).await;
    assert_eq!(reveal["picks"], json!([3, 1]));
    // Decided again on what it now sees: a pick for round 2, not a second one for round 1.
    let sent = home_client.command(pick(2)).await;
    let answer = home_client.answer(&sent).await;
    assert!(matches!(answer, ServerMessage::Ack { .. }), "{answer:?}");
    assert_eq!(next_reveal(&mut away_client).await["picks"], json!([3, 1]));
    let sent = away_client.command(pick(2)).await;
    assert!(matches!(
        away_client.answer(&sent).await,
        ServerMessage::Ack { .. }
    ));
    wait_finished(&mut home_client).await;
    let log = assert_log_whole(&app, &id).await;
    assert_eq!(
        player_commands(&log),
        vec![(1, pick(1)), (0, pick(3)), (0, pick(2)), (1, pick(2))]
    );
    app.stop().await;
}

/// The drill: a private Postgres cluster is killed (`-m immediate`) mid-match and started
/// again. While it is down: `/readyz` 503 within 1 s, HTTP 503 `unavailable` and a command
/// `unavailable` within the bound, and a turn clock that runs out forfeits nobody. Once it is
/// back: `/readyz` 200, the clock's move is played by itself, the match finishes and every
/// acked command is in a log that verifies.
#[tokio::test]
async fn postgres_stopped_and_started_mid_match() {
    if !PgCluster::wanted() {
        return;
    }
    let cluster = match tokio::task::spawn_blocking(PgCluster::start).await.expect("join") {
        Ok(cluster) => std::sync::Arc::new(cluster),
        Err(reason) => return outage_support::cannot_run(&reason),
    };
    cluster.create_database("crease").await;
    let settings = short_bounds();
    let bound = Duration::from_millis(settings.db_timeout_ms);
    let placeholder = TestDb::create(common::Backend::Sqlite).await.expect("temp dir");
    let app = spawn_with(placeholder, &cluster.url("crease"), settings, toy_games()).await;
    let (status, _) = app.get("/readyz", None).await;
    assert_eq!(status, 200);

    let (id, home, away) = toy_match(&app, 3, 2).await;
    let mut home_client = app.connect(&id, Some(&home), None).await;
    let mut away_client = app.connect(&id, Some(&away), None).await;
    let mut acked: Vec<(u64, Value)> = Vec::new();
    for (seat, value) in [(0, 3), (1, 2), (0, 1)] {
        let client = if seat == 0 {
            &mut home_client
        } else {
            &mut away_client
        };
        let sent = client.command(pick(value)).await;
        let answer = client.answer(&sent).await;
        assert!(matches!(answer, ServerMessage::Ack { .. }), "{answer:?}");
        acked.push((seat, pick(value)));
    }
    // Round 2: home has picked, away's 2 s clock runs.
    let stopping = cluster.clone();
    tokio::task::spawn_blocking(move || stopping.stop_immediate())
        .await
        .expect("join")
        .expect("pg_ctl stop");
    let outage = Instant::now();

    let started = Instant::now();
    let (status, body) = app.get("/readyz", None).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "unavailable", "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "/readyz took {:?}",
        started.elapsed()
    );
    eprintln!("outage: /readyz 503 in {:?}", started.elapsed());

    let started = Instant::now();
    let (status, body) = app.post("/v1/players", None, json!({ "name": "late" })).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (503, Some("unavailable")),
        "{body}"
    );
    assert!(
        started.elapsed() < bound * 2,
        "HTTP 503 after {:?}",
        started.elapsed()
    );
    eprintln!("outage: POST /v1/players 503 in {:?}", started.elapsed());

    let started = Instant::now();
    let sent = away_client.command(pick(2)).await;
    let answer = away_client.answer(&sent).await;
    assert_eq!(error_code(&answer), Some(ErrorCode::InDoubt), "{answer:?}");
    assert!(
        started.elapsed() < bound * 2,
        "command answered after {:?}",
        started.elapsed()
    );
    eprintln!("outage: command unavailable in {:?}", started.elapsed());

    // Keep the database down until away's clock (2 s) has run out and failed a few times.
    let down_for = Duration::from_secs(4);
    tokio::time::sleep(down_for.saturating_sub(outage.elapsed())).await;
    let starting = cluster.clone();
    tokio::task::spawn_blocking(move || starting.pg_ctl_start())
        .await
        .expect("join")
        .expect("pg_ctl start");

    let back = Instant::now();
    let deadline = back + Duration::from_secs(30);
    while app.get("/readyz", None).await.0 != 200 {
        assert!(Instant::now() < deadline, "/readyz never came back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!(
        "outage: /readyz 200 {:?} after pg_ctl start returned",
        back.elapsed()
    );
    // Nobody sends anything: the clock's default move (pick 1) is played on its own.
    assert_eq!(next_reveal(&mut home_client).await["picks"], json!([1, 1]));
    eprintln!(
        "outage: the clock's move played {:?} after pg_ctl start returned",
        back.elapsed()
    );
    for (seat, client, value) in [(0, &mut home_client, 2), (1, &mut away_client, 3)] {
        let sent = client.command(pick(value)).await;
        let answer = client.answer(&sent).await;
        assert!(matches!(answer, ServerMessage::Ack { .. }), "{answer:?}");
        acked.push((seat, pick(value)));
    }
    wait_finished(&mut home_client).await;
    let log = assert_log_whole(&app, &id).await;
    assert_eq!(
        player_commands(&log),
        acked,
        "every acked command, and only those"
    );
    assert!(
        log.iter().all(|entry| entry.kind != EntryKind::Forfeit),
        "a forfeit was logged"
    );
    assert!(log.iter().any(|entry| entry.payload["source"] == "timeout"));
    app.stop().await;
}

/// A bot whose move cannot be written is retried, not forfeited; and a write that timed out
/// but committed is found by the actor on its own, with no client message to prompt it.
#[tokio::test]
async fn a_bot_move_that_cannot_be_written_is_retried_and_an_in_doubt_write_settles_by_itself() {
    let settings = DbSettings {
        db_timeout_ms: 300,
        db_transaction_timeout_ms: 20_000,
        db_retry_initial_ms: 1_500,
        db_retry_max_ms: 1_500,
        ..short_bounds()
    };
    let app = sqlite_app(settings).await;
    let home = app.player("home").await;
    let body = json!({ "game": "toy", "options": { "rounds": 2 }, "opponent": "bot" });
    let (status, created) = app.post("/v1/matches", Some(&home.token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("match id").to_string();
    let mut client = app.connect(&id, Some(&home.token), None).await;
    let store = app.app().store().clone();
    let log_len = || async { store.log(&common::match_id(&id)).await.expect("log").len() };

    // Home's round-1 pick times out for its command but commits once the lock is gone.
    let lock = SqliteLock::take(app.db.url()).await;
    let sent = client.command(pick(3)).await;
    assert_eq!(error_code(&client.answer(&sent).await), Some(ErrorCode::InDoubt));
    let before = log_len().await;
    lock.release().await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while log_len().await == before {
        assert!(Instant::now() < deadline, "the in-doubt write never landed");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Locked again before the actor's retry (1.5 s) finds it: the bot's round-2 move that
    // follows the adoption cannot be written.
    let lock = SqliteLock::take(app.db.url()).await;
    let reveal = next_reveal(&mut client).await;
    assert_eq!(
        reveal["picks"][0], 3,
        "the landed pick was adopted and broadcast by itself"
    );
    let stuck = log_len().await;
    lock.release().await;

    // The bot's move lands and is adopted; home plays the last pick and the match ends.
    let deadline = Instant::now() + Duration::from_secs(10);
    while log_len().await == stuck {
        assert!(Instant::now() < deadline, "the bot's move never landed");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let sent = client.command(pick(2)).await;
    let answer = client.answer(&sent).await;
    assert!(matches!(answer, ServerMessage::Ack { .. }), "{answer:?}");
    wait_finished(&mut client).await;
    let log = assert_log_whole(&app, &id).await;
    assert!(
        log.iter().all(|entry| entry.kind != EntryKind::Forfeit),
        "a forfeit was logged"
    );
    let bot_moves = log
        .iter()
        .filter(|entry| entry.payload["source"] == "bot")
        .count();
    assert_eq!(bot_moves, 2, "one bot pick per round");
    app.stop().await;
}

/// Makes the database refuse every log row of a server-made move from `source` (`timeout`,
/// `bot`) while everything else is written: a failure that deterministically hits only that
/// move, so a forfeit written instead of a retry would show.
async fn refuse_moves_from(app: &TestApp, source: &str) {
    let sql = format!(
        "CREATE TRIGGER refuse_{source} BEFORE INSERT ON match_event \
         WHEN json_extract(NEW.payload, '$.source') = '{source}' \
         BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
    );
    app.app().store().execute_unchecked(&sql).await.expect("trigger");
}

async fn accept_moves_from(app: &TestApp, source: &str) {
    let sql = format!("DROP TRIGGER refuse_{source}");
    app.app()
        .store()
        .execute_unchecked(&sql)
        .await
        .expect("drop trigger");
}

#[tokio::test]
async fn a_clock_move_that_cannot_be_stored_is_retried_not_forfeited() {
    let app = sqlite_app(short_bounds()).await;
    let (id, home, away) = toy_match(&app, 2, 1).await;
    let mut home_client = app.connect(&id, Some(&home), None).await;
    let mut away_client = app.connect(&id, Some(&away), None).await;
    let sent = home_client.command(pick(3)).await;
    assert!(matches!(
        home_client.answer(&sent).await,
        ServerMessage::Ack { .. }
    ));
    refuse_moves_from(&app, "timeout").await;
    // Away's 1 s clock runs out and its move fails several times (retries every <= 0.5 s).
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert!(
        !app.app()
            .store()
            .log(&common::match_id(&id))
            .await
            .expect("log")
            .iter()
            .any(|entry| entry.kind == EntryKind::Forfeit),
        "the seat was forfeited because its clock's move could not be stored"
    );
    accept_moves_from(&app, "timeout").await;
    assert_eq!(next_reveal(&mut home_client).await["picks"], json!([3, 1]));
    play_last_round(&mut home_client, &mut away_client).await;
    let log = assert_log_whole(&app, &id).await;
    assert!(
        log.iter().all(|entry| entry.kind != EntryKind::Forfeit),
        "a forfeit was logged"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_bot_move_that_cannot_be_stored_is_retried_not_forfeited() {
    let app = sqlite_app(short_bounds()).await;
    let home = app.player("home").await;
    let body = json!({ "game": "toy", "options": { "rounds": 2 }, "opponent": "bot" });
    let (status, created) = app.post("/v1/matches", Some(&home.token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("match id").to_string();
    let mut client = app.connect(&id, Some(&home.token), None).await;
    let ServerMessage::Snapshot(snapshot) = client.recv().await else {
        panic!("snapshot first")
    };
    assert_eq!(snapshot.pending.len(), 1, "the bot has picked for round 1");
    refuse_moves_from(&app, "bot").await;
    let sent = client.command(pick(3)).await;
    assert!(matches!(client.answer(&sent).await, ServerMessage::Ack { .. }));
    // Round 2: the bot's move fails a few times (retries every <= 0.5 s).
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let log = app.app().store().log(&common::match_id(&id)).await.expect("log");
    assert!(
        !log.iter().any(|entry| entry.kind == EntryKind::Forfeit),
        "the bot was forfeited because its move could not be stored"
    );
    accept_moves_from(&app, "bot").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while app
        .app()
        .store()
        .log(&common::match_id(&id))
        .await
        .expect("log")
        .len()
        == log.len()
    {
        assert!(Instant::now() < deadline, "the bot never moved again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let sent = client.command(pick(2)).await;
    assert!(matches!(client.answer(&sent).await, ServerMessage::Ack { .. }));
    wait_finished(&mut client).await;
    let log = assert_log_whole(&app, &id).await;
    assert!(
        log.iter().all(|entry| entry.kind != EntryKind::Forfeit),
        "a forfeit was logged"
    );
    assert_eq!(
        log.iter()
            .filter(|entry| entry.payload["source"] == "bot")
            .count(),
        2
    );
    app.stop().await;
}

#[tokio::test]
async fn an_http_write_during_a_sqlite_write_lock_is_503_unavailable_within_the_bound() {
    // On SQLite a write waits for another writer's lock up to the transaction bound.
    let settings = DbSettings {
        db_transaction_timeout_ms: 500,
        ..short_bounds()
    };
    let app = sqlite_app(settings).await;
    let lock = SqliteLock::take(app.db.url()).await;
    let started = Instant::now();
    let (status, body) = app.post("/v1/players", None, json!({ "name": "late" })).await;
    let waited = started.elapsed();
    lock.release().await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (503, Some("unavailable")),
        "{body}"
    );
    assert!(waited < Duration::from_millis(1_500), "answered after {waited:?}");
    app.player("on time").await;
    app.stop().await;
}
