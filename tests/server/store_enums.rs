//! The record's enums (`MatchStatus`, `EntryKind`, `TicketStatus`) are read and written by sqlx's derive on
//! both backends: every variant round-trips through the database, is stored as the same
//! text as its JSON spelling (so existing databases and clients see no change), and a stored
//! value that no variant spells is a `Malformed` error naming the value, not a panic and not
//! some other status; through the HTTP API, a 500 for that match while the server goes on
//! serving the others.

use crate::common;

use chrono::Utc;
use common::{Backend, TestDb, spawn_app, toy_games};
use crease::record::{EntryKind, MatchStatus, NewEntry};
use crease::store::{MatchRow, Store, StoreError};
use serde_json::json;
use sqlx::types::Json;

const STATUSES: [MatchStatus; 4] = [
    MatchStatus::Open,
    MatchStatus::Live,
    MatchStatus::Finished,
    MatchStatus::Cancelled,
];
const M1: &str = "00000000-0000-4000-8000-0000000000d1";
const M2: &str = "00000000-0000-4000-8000-0000000000d2";
const M3: &str = "00000000-0000-4000-8000-0000000000d3";
// Every kind, so a kind a migration's CHECK forgot fails here on both backends.
const KINDS: [EntryKind; 5] = [
    EntryKind::Command,
    EntryKind::Event,
    EntryKind::Forfeit,
    EntryKind::Abandon,
    EntryKind::Adjournment,
];

fn match_row(match_id: &str) -> MatchRow {
    MatchRow {
        match_id: common::match_id(match_id),
        game: "ctg".to_string(),
        options: Json(json!({})),
        status: MatchStatus::Open,
        seat_count: 2,
        turn_clock_ms: 60_000,
        disconnect_grace_ms: 300_000,
        seed_commitment: "commitment".to_string(),
        seed: "seed".to_string(),
        created_at: Utc::now(),
        started_at: None,
        finished_at: None,
        result: None,
        adjourned_at: None,
        resume_at: None,
    }
}

/// The text the database holds in one column of one row, read as a plain string.
async fn stored_text(store: &Store, sql: &str, match_id: &str) -> Vec<String> {
    let rows = match store {
        Store::Sqlite(pool) => {
            sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql.to_string()))
                .bind(match_id)
                .fetch_all(pool)
                .await
        }
        Store::Postgres(pool) => {
            sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql.to_string()))
                .bind(match_id)
                .fetch_all(pool)
                .await
        }
    };
    rows.expect("read the raw column")
}

/// The JSON spelling of a value: a string, as clients see it.
fn json_text<T: serde::Serialize>(value: T) -> String {
    match serde_json::to_value(value).expect("serialise") {
        serde_json::Value::String(text) => text,
        other => panic!("an enum serialises as a string, not {other}"),
    }
}

async fn every_variant_round_trips(backend: Backend) {
    let Some(db) = TestDb::create(backend).await else {
        return;
    };
    let store = Store::connect(db.url()).await.expect("connect");
    store.insert_match(&match_row(M1), &[]).await.expect("insert");
    for status in STATUSES {
        store
            .set_status(&common::match_id(M1), status, Utc::now())
            .await
            .expect("set status");
        let row = store
            .get_match(&common::match_id(M1))
            .await
            .expect("read")
            .expect("the match");
        assert_eq!(
            row.status, status,
            "{backend:?}: the status read back is the one written"
        );
        let listed = store.matches_with_status(status, 10).await.expect("list");
        assert_eq!(
            listed.iter().map(|row| row.match_id.as_str()).collect::<Vec<_>>(),
            [M1],
            "{backend:?}: filtering by {status:?} binds the same text the column holds"
        );
        let raw = stored_text(&store, "SELECT status FROM \"match\" WHERE match_id = $1", M1).await;
        assert_eq!(
            raw,
            [json_text(status)],
            "{backend:?}: stored as its JSON spelling"
        );
    }

    let entries: Vec<NewEntry> = KINDS
        .iter()
        .zip(1..)
        .map(|(kind, seq)| NewEntry {
            seq,
            kind: *kind,
            payload: serde_json::value::to_raw_value(&json!({ "n": seq })).expect("payload"),
        })
        .collect();
    store
        .append(&common::match_id(M1), &entries, None, Utc::now(), None)
        .await
        .expect("append");
    let log = store.log(&common::match_id(M1)).await.expect("log");
    assert_eq!(
        log.iter().map(|entry| entry.kind).collect::<Vec<_>>(),
        KINDS,
        "{backend:?}: every entry kind reads back as written"
    );
    let raw = stored_text(
        &store,
        "SELECT kind FROM match_event WHERE match_id = $1 ORDER BY seq",
        M1,
    )
    .await;
    assert_eq!(
        raw,
        KINDS.map(json_text),
        "{backend:?}: kinds stored as their JSON spelling"
    );
}

/// Bypasses the `CHECK` constraints, as a hand edit or a newer server's rows would, and
/// stores words no variant spells: the match's status, and a second log entry's kind (the
/// log is append-only, so the bad entry is added after the good one at seq 1).
async fn store_unknown_words(store: &Store, backend: Backend) {
    let sql = match backend {
        Backend::Sqlite => {
            "PRAGMA ignore_check_constraints = ON; \
             UPDATE \"match\" SET status = 'paused' WHERE match_id = '00000000-0000-4000-8000-0000000000d2'; \
             INSERT INTO match_event (match_id, seq, at, kind, payload) \
               SELECT match_id, 2, at, 'note', payload FROM match_event WHERE match_id = '00000000-0000-4000-8000-0000000000d2' AND seq = 1; \
             PRAGMA ignore_check_constraints = OFF;"
        }
        Backend::Postgres => {
            "ALTER TABLE \"match\" DROP CONSTRAINT match_status_check; \
             ALTER TABLE match_event DROP CONSTRAINT match_event_kind_check; \
             UPDATE \"match\" SET status = 'paused' WHERE match_id = '00000000-0000-4000-8000-0000000000d2'; \
             INSERT INTO match_event (match_id, seq, at, kind, payload) \
               SELECT match_id, 2, at, 'note', payload FROM match_event WHERE match_id = '00000000-0000-4000-8000-0000000000d2' AND seq = 1;"
        }
    };
    store.execute_unchecked(sql).await.expect("tamper");
    let raw = stored_text(store, "SELECT status FROM \"match\" WHERE match_id = $1", M2).await;
    assert_eq!(raw, ["paused"], "{backend:?}: the tampering took");
}

/// sqlx's message names the enum and the stored value, e.g. `error occurred while decoding
/// column "status": invalid value "paused" for enum MatchStatus`.
fn assert_malformed(error: StoreError, enum_name: &str, value: &str, backend: Backend) {
    let text = error.to_string();
    assert!(
        matches!(error, StoreError::Malformed(_))
            && text.contains(enum_name)
            && text.contains(&format!("{value:?}")),
        "{backend:?}: a clear error naming {enum_name} and {value:?}, got {error:?}"
    );
}

async fn unknown_words_are_malformed(backend: Backend) {
    let Some(db) = TestDb::create(backend).await else {
        return;
    };
    let store = Store::connect(db.url()).await.expect("connect");
    store.insert_match(&match_row(M2), &[]).await.expect("insert");
    let entry = NewEntry {
        seq: 1,
        kind: EntryKind::Event,
        payload: serde_json::value::to_raw_value(&json!({})).expect("payload"),
    };
    store
        .append(&common::match_id(M2), &[entry], None, Utc::now(), None)
        .await
        .expect("append");
    store_unknown_words(&store, backend).await;

    let error = store
        .get_match(&common::match_id(M2))
        .await
        .expect_err("an unknown status does not decode");
    assert_malformed(error, "MatchStatus", "paused", backend);
    let error = store
        .log(&common::match_id(M2))
        .await
        .expect_err("an unknown kind does not decode");
    assert_malformed(error, "EntryKind", "note", backend);

    // The rest of the store keeps working: one bad row does not take the database down.
    store
        .insert_match(&match_row(M3), &[])
        .await
        .expect("insert another");
    let other = store
        .get_match(&common::match_id(M3))
        .await
        .expect("read")
        .expect("the match");
    assert_eq!(other.status, MatchStatus::Open);
}

common::sqlite_and_postgres!(every_status_and_kind_round_trips => every_variant_round_trips);

common::sqlite_and_postgres!(an_unknown_stored_status_or_kind_is_a_malformed_error => unknown_words_are_malformed);

#[tokio::test]
async fn a_match_with_an_unknown_stored_status_is_a_500_and_the_server_keeps_serving() {
    let app = spawn_app(toy_games()).await;
    let player = app.player("home").await;
    let create = serde_json::json!({ "game": "toy", "options": { "rounds": 2 } });
    let (bad, good) = (
        app.post("/v1/matches", Some(&player.token), create.clone()).await,
        app.post("/v1/matches", Some(&player.token), create).await,
    );
    assert_eq!((bad.0, good.0), (201, 201), "{} {}", bad.1, good.1);
    let (bad, good) = (
        bad.1["match_id"].as_str().unwrap_or_default().to_string(),
        good.1["match_id"].as_str().unwrap_or_default().to_string(),
    );
    app.app()
        .store()
        .execute_unchecked(&format!(
            "PRAGMA ignore_check_constraints = ON; \
             UPDATE \"match\" SET status = 'paused' WHERE match_id = '{bad}'; \
             PRAGMA ignore_check_constraints = OFF;"
        ))
        .await
        .expect("tamper");

    let (status, body) = app.get(&format!("/v1/matches/{bad}"), None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (500, Some("internal")),
        "{body}"
    );
    let (status, body) = app.get(&format!("/v1/matches/{good}"), None).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("open")), "{body}");
    let (status, body) = app.get("/v1/matches?status=open", None).await;
    assert_eq!(status, 200, "{body}");
    let listed: Vec<&str> = body["matches"]
        .as_array()
        .map(|list| list.iter().filter_map(|m| m["match_id"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        listed,
        [good.as_str()],
        "the tampered match is listed under no status"
    );
}

/// A ticket's status is the same kind of typed column: every status reads back through the
/// API as written, and a stored word no status spells is a 500 for that ticket, where it was
/// once read as `waiting` without a word.
#[tokio::test]
async fn a_ticket_with_an_unknown_stored_status_is_a_500_not_a_waiting_ticket() {
    let app = spawn_app(toy_games()).await;
    let player = app.player("home").await;
    let (status, ticket) = app
        .post(
            "/v1/matchmaking/tickets",
            Some(&player.token),
            json!({ "game": "toy" }),
        )
        .await;
    assert_eq!(status, 201, "{ticket}");
    let id = ticket["ticket_id"].as_str().unwrap_or_default().to_string();
    let url = format!("/v1/matchmaking/tickets/{id}");
    let (status, body) = app.get(&url, Some(&player.token)).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (200, Some("waiting")),
        "{body}"
    );
    let tamper = |word: &str| {
        format!(
            "PRAGMA ignore_check_constraints = ON; \
             UPDATE matchmaking_ticket SET status = '{word}' WHERE ticket_id = '{id}'; \
             PRAGMA ignore_check_constraints = OFF;"
        )
    };
    for word in ["matched", "cancelled"] {
        app.app()
            .store()
            .execute_unchecked(&tamper(word))
            .await
            .expect("set");
        let (status, body) = app.get(&url, Some(&player.token)).await;
        assert_eq!((status, body["status"].as_str()), (200, Some(word)), "{body}");
    }
    app.app()
        .store()
        .execute_unchecked(&tamper("paused"))
        .await
        .expect("tamper");
    let (status, body) = app.get(&url, Some(&player.token)).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (500, Some("internal")),
        "{body}"
    );
    app.stop().await;
}
