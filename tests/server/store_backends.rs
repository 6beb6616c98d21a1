//! The store's one mechanism (`store/backend.rs`) compiles every query for both drivers, but
//! compiling is not agreeing: a dialect fragment, a type mapping or a shared step could still
//! read back differently. This runs the same script of store operations (players and
//! sessions, a match created, started and finished by a lone append, one finished through the
//! journal's group commit, a matchmaking pass, the history reads) on SQLite and on PostgreSQL
//! and requires the two to read back identically.
//!
//! The PostgreSQL half follows `common`'s convention: it runs when `TEST_DATABASE_URL` is set,
//! is skipped without it, and fails without it when `CI=true`.

use crate::common;

use chrono::{DateTime, TimeZone, Utc};
use common::{Backend, TestDb};
use crease::matchmaking::{Plan, paired_matches};
use crease::record::{Clocks, EntryKind, Finish, MatchId, MatchStatus, NewEntry, PlayerId};
use crease::store::{GroupPolicy, Journal, MatchRow, SeatRow, Store, WaitingTicket};
use serde_json::json;
use sqlx::types::Json;
use std::time::Duration;

const ANN: &str = "00000000-0000-4000-8000-00000000000a";
const BOB: &str = "00000000-0000-4000-8000-00000000000b";
const LONE: &str = "00000000-0000-4000-8000-000000000001";
const GROUPED: &str = "00000000-0000-4000-8000-000000000002";
const TICKET_ANN: &str = "00000000-0000-4000-8000-0000000000ea";
const TICKET_BOB: &str = "00000000-0000-4000-8000-0000000000eb";

/// Whole seconds: both backends keep them exactly (PostgreSQL rounds to microseconds).
fn at(second: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, second)
        .single()
        .expect("a time")
}

fn match_row(match_id: &MatchId) -> MatchRow {
    MatchRow {
        match_id: match_id.clone(),
        game: "ctg".to_string(),
        options: Json(json!({ "format": "t20" })),
        status: MatchStatus::Open,
        seat_count: 2,
        turn_clock_ms: 60_000,
        disconnect_grace_ms: 300_000,
        seed_commitment: "commitment".to_string(),
        seed: "seed".to_string(),
        created_at: at(1),
        started_at: None,
        finished_at: None,
        result: None,
        adjourned_at: None,
        resume_at: None,
    }
}

fn seats(match_id: &MatchId) -> Vec<SeatRow> {
    [ANN, BOB]
        .into_iter()
        .enumerate()
        .map(|(seat, player)| SeatRow {
            match_id: match_id.clone(),
            seat: seat as i32,
            player_id: Some(common::player_id(player)),
            bot: false,
            bot_level: None,
        })
        .collect()
}

fn entries(kinds: &[EntryKind]) -> Vec<NewEntry> {
    kinds
        .iter()
        .enumerate()
        .map(|(index, kind)| NewEntry {
            seq: index as i64 + 1,
            kind: *kind,
            payload: serde_json::value::to_raw_value(&json!({ "n": index, "text": "é \"quoted\"" }))
                .expect("json"),
        })
        .collect()
}

fn ticket(ticket_id: &str, player_id: &PlayerId) -> WaitingTicket {
    WaitingTicket {
        ticket_id: common::ticket_id(ticket_id),
        player_id: player_id.clone(),
        game: "ctg".to_string(),
        options: json!({ "format": "t20" }),
        options_key: "{\"format\":\"t20\"}".to_string(),
        seat_count: 2,
        rating: 1500.0,
        bot_fallback: false,
        created_at: at(20),
    }
}

/// Runs the script on one backend and returns everything it read back, as text.
async fn script(store: &Store) -> Vec<String> {
    let (ann, bob) = (&common::player_id(ANN), &common::player_id(BOB));
    let (lone, grouped) = (&common::match_id(LONE), &common::match_id(GROUPED));
    let mut read = Vec::new();
    store
        .insert_player(ann, "Ann", "ann-token", at(0))
        .await
        .expect("player");
    store
        .insert_player(bob, "Bob", "bob-token", at(0))
        .await
        .expect("player");
    store
        .insert_session("ann-login", ann, at(2), Some(at(50)))
        .await
        .expect("session");
    read.push(format!("{:?}", store.session("ann-token").await));
    read.push(format!("{:?}", store.session("ann-login").await));

    let result = Finish {
        result: json!({ "placings": [1, 2], "summary": "Seat 0 won" }),
        rating_pool: "t10".to_string(),
        rated: true,
    };
    store
        .insert_match(&match_row(lone), &seats(lone))
        .await
        .expect("match");
    store
        .set_status(lone, MatchStatus::Live, at(3))
        .await
        .expect("live");
    let kinds = [EntryKind::Command, EntryKind::Event, EntryKind::Forfeit];
    store
        .append(lone, &entries(&kinds), Some(&result), at(4), None)
        .await
        .expect("a lone append that finishes the match");

    store
        .insert_match(&match_row(grouped), &seats(grouped))
        .await
        .expect("match");
    store
        .set_status(grouped, MatchStatus::Live, at(5))
        .await
        .expect("live");
    let journal = Journal::spawn(store.clone(), GroupPolicy::for_store(store));
    journal
        .append(grouped, entries(&kinds[..2]), Some(result.clone()), at(6))
        .await
        .expect("a grouped append that finishes the match");

    for match_id in [lone, grouped] {
        read.push(format!("{:?}", store.get_match(match_id).await));
        read.push(format!("{:?}", store.seats_with_names(match_id).await));
        read.push(format!("{:?}", store.log(match_id).await));
    }
    read.push(format!("{:?}", store.log_after(lone, 1).await));
    read.push(format!(
        "{:?}",
        store.matches_with_status(MatchStatus::Finished, 10).await
    ));
    for player in [ann, bob] {
        read.push(format!("{:?}", store.ratings_of(player).await));
        read.push(format!("{:?}", store.matches_of(player, 10, 0).await));
        read.push(format!("{:?}", store.account(player).await));
    }
    read.push(format!("{:?}", store.leaderboard("ctg", "t20", 10, 0).await));
    read.push(format!("{:?}", store.rating(ann, "ctg", "t20").await));

    store
        .insert_ticket(&ticket(TICKET_ANN, ann))
        .await
        .expect("ticket");
    store
        .insert_ticket(&ticket(TICKET_BOB, bob))
        .await
        .expect("ticket");
    read.push(format!("{:?}", store.unfinished_commitments(ann).await));
    let clocks = Clocks {
        turn: Duration::from_secs(60),
        disconnect_grace: Duration::from_secs(300),
    };
    let created = store
        .matchmaking_pass(|waiting| {
            assert_eq!(waiting.len(), 2, "both tickets are waiting");
            paired_matches(waiting, &[Plan::Players(vec![0, 1])], clocks)
        })
        .await
        .expect("pass");
    let [paired] = created.as_slice() else {
        panic!("one match from the pass: {created:?}");
    };
    // The pass mints the match's id: name it, so the backends' reads compare.
    let anonymous = |text: String| text.replace(paired.as_str(), "<paired>");
    for ticket_id in [TICKET_ANN, TICKET_BOB] {
        read.push(anonymous(format!(
            "{:?}",
            store.ticket(&common::ticket_id(ticket_id)).await
        )));
    }
    read.push(anonymous(format!("{:?}", store.seats(paired).await)));
    let status = store.get_match(paired).await.expect("read").map(|row| row.status);
    read.push(format!("{status:?}"));
    read.push(format!("{:?}", store.unfinished_commitments(ann).await));
    read
}

#[tokio::test]
async fn every_store_operation_reads_back_the_same_on_both_backends() {
    let sqlite_db = TestDb::create(Backend::Sqlite).await.expect("sqlite");
    let Some(postgres_db) = TestDb::create(Backend::Postgres).await else {
        return;
    };
    let sqlite = script(&Store::connect(sqlite_db.url()).await.expect("sqlite")).await;
    let postgres = script(&Store::connect(postgres_db.url()).await.expect("postgres")).await;
    for (line, (sqlite, postgres)) in sqlite.iter().zip(&postgres).enumerate() {
        assert!(!sqlite.contains("Err("), "read {line} failed on SQLite: {sqlite}");
        assert_eq!(
            sqlite, postgres,
            "read {line} differs between SQLite and PostgreSQL"
        );
    }
    assert_eq!(sqlite.len(), postgres.len());
    // The script did rate both matches: the comparison is not of two empty answers.
    assert!(
        sqlite
            .iter()
            .any(|line| line.contains("MatchRatingRow") && line.contains("matches: 2")),
        "{sqlite:#?}"
    );
}
