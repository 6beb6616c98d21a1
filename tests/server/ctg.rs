//! Cricket: The Game through the server: full T10 matches between two WebSocket clients
//! on SQLite and Postgres, the bowl card never reaching the batting client before the
//! reveal, and the operators' `ctg_ball_by_ball` view.

use crate::common;

use common::{Backend, Client, TestApp, spawn_app_on};
use crease::matches::GameRegistry;
use crease::protocol::ServerMessage;
use crease::rules::ctg::Ctg;
use serde_json::{Value, json};

async fn play_t10(app: &TestApp) -> (String, Client, Client) {
    let (info, home, away) = app.live_match("ctg", json!({ "format": "t10" })).await;
    let id = info.match_id.clone();
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    let (home_result, away_result) = tokio::join!(
        home_client.play_to_end::<Ctg>(11),
        away_client.play_to_end::<Ctg>(12)
    );
    assert_eq!(home_result, away_result);
    (id, home_client, away_client)
}

async fn full_t10(app: TestApp) {
    let (id, home_client, _) = play_t10(&app).await;
    let (_, info) = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(info["status"], "finished");
    assert!(info["result"]["summary"].as_str().is_some_and(|s| !s.is_empty()));
    let events = home_client.events();
    let innings_ended: Vec<&Value> = events
        .iter()
        .map(|(_, e)| e)
        .filter(|e| e["type"] == "innings_ended")
        .collect();
    assert!(!innings_ended.is_empty() && innings_ended.len() <= 2);
    // Every update tells a seat its clock exactly when it is asked to act.
    for message in &home_client.transcript {
        if let ServerMessage::Update(update) = message {
            let asked = update.pending.contains(&crease::rules::Seat(0));
            assert_eq!(update.deadline_ms.is_some(), asked, "{:?}", update.pending);
            assert!(update.deadline_ms.is_none_or(|ms| ms > 50_000 && ms <= 60_000));
        }
    }
    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
    assert!(verify["commands"].as_u64().is_some_and(|n| n > 100), "{verify}");
    let (_, scorecard) = app.get(&format!("/v1/matches/{id}/scorecard"), None).await;
    assert_eq!(scorecard["view"]["winner"], info_winner(&info));
    // The operators' views exist and read the log on this backend too.
    const BALLS: &str = "SELECT count(*) FROM ctg_ball_by_ball WHERE match_id = $1";
    const SUMMARY: &str = "SELECT count(*) FROM match_summary WHERE match_id = $1 AND status = 'finished'";
    let counts: Vec<i64> = match app.app().store() {
        crease::store::Store::Sqlite(pool) => vec![
            sqlx::query_scalar(BALLS)
                .bind(&id)
                .fetch_one(pool)
                .await
                .expect("view"),
            sqlx::query_scalar(SUMMARY)
                .bind(&id)
                .fetch_one(pool)
                .await
                .expect("view"),
        ],
        crease::store::Store::Postgres(pool) => vec![
            sqlx::query_scalar(BALLS)
                .bind(&id)
                .fetch_one(pool)
                .await
                .expect("view"),
            sqlx::query_scalar(SUMMARY)
                .bind(&id)
                .fetch_one(pool)
                .await
                .expect("view"),
        ],
    };
    let balls = events.iter().filter(|(_, e)| e["type"] == "ball_ended").count() as i64;
    assert_eq!(counts, vec![balls, 1]);
    app.stop().await;
}

/// The view's `winner` is `Some(None)` (null) for a tie and the seat otherwise.
fn info_winner(info: &Value) -> Value {
    match info["result"]["placings"].as_array().map(Vec::as_slice) {
        Some([a, b]) if a == b => Value::Null,
        Some([a, _]) if a == 1 => json!(0),
        _ => json!(1),
    }
}

fn ctg_games() -> GameRegistry {
    GameRegistry::standard()
}

common::sqlite_and_postgres! {
    a_full_t10_match_between_two_websocket_clients(backend) {
        let Some(app) = spawn_app_on(backend, ctg_games()).await else {
            return;
        };
        full_t10(app).await;
    }
}

/// Walks a client's transcript: between a `bowl_sealed` and its `revealed`, a client of the
/// batting seat must never see the card, in an event or in a view.
fn bowl_cards_seen_before_reveal(client: &Client, seat: u64) -> (usize, usize) {
    let (mut batting, mut awaiting_reveal) = (None::<u64>, false);
    let (mut hidden, mut seen) = (0, 0);
    for message in &client.transcript {
        match message {
            ServerMessage::Event { event, .. } => match event["type"].as_str() {
                Some("innings_started") => batting = event["batting"].as_u64(),
                Some("bowl_sealed") => {
                    awaiting_reveal = true;
                    if batting == Some(seat) {
                        if event["card"].is_null() {
                            hidden += 1;
                        } else {
                            seen += 1;
                        }
                    }
                }
                Some("revealed") => awaiting_reveal = false,
                _ => {}
            },
            ServerMessage::Update(update)
                if awaiting_reveal && batting == Some(seat) && !update.view["ball"]["card"].is_null() =>
            {
                seen += 1;
            }
            _ => {}
        }
    }
    (hidden, seen)
}

#[tokio::test]
async fn the_batting_client_never_receives_the_bowl_card_before_the_reveal() {
    let app = spawn_app_on(Backend::Sqlite, ctg_games()).await.expect("sqlite");
    let (_, home_client, away_client) = play_t10(&app).await;
    for (client, seat) in [(&home_client, 0), (&away_client, 1)] {
        // The recorded transcript, one server message per line, for people to read.
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("ctg_transcript_seat{seat}.jsonl"));
        let lines: Vec<String> = client
            .transcript
            .iter()
            .filter_map(|m| serde_json::to_string(m).ok())
            .collect();
        std::fs::write(&path, lines.join("\n")).expect("write the transcript");
        let (hidden, seen) = bowl_cards_seen_before_reveal(client, seat);
        assert!(
            hidden > 10,
            "seat {seat} batted through only {hidden} sealed bowls"
        );
        assert_eq!(seen, 0, "seat {seat} saw a bowl card before its reveal");
    }
    // The fielding client does get its own card: the redaction is what hides it.
    let own_cards = home_client
        .events()
        .iter()
        .filter(|(_, e)| e["type"] == "bowl_sealed" && !e["card"].is_null())
        .count();
    assert!(own_cards > 10);
    app.stop().await;
}

#[tokio::test]
async fn ctg_ball_by_ball_adds_up_to_each_innings_total() {
    let app = spawn_app_on(Backend::Sqlite, ctg_games()).await.expect("sqlite");
    let (id, _, _) = play_t10(&app).await;
    let crease::store::Store::Sqlite(pool) = app.app().store() else {
        panic!("a SQLite store");
    };
    let rows: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT innings, over_number, runs, extras FROM ctg_ball_by_ball WHERE match_id = $1 ORDER BY seq",
    )
    .bind(&id)
    .fetch_all(pool)
    .await
    .expect("query the view");
    let log = app.app().store().log(&common::match_id(&id)).await.expect("log");
    let ended: Vec<&Value> = log
        .iter()
        .map(|e| &e.payload)
        .filter(|p| p["type"] == "innings_ended")
        .collect();
    let balls = log.iter().filter(|e| e.payload["type"] == "ball_ended").count();
    assert_eq!(rows.len(), balls);
    for innings in &ended {
        let number = innings["innings"].as_i64().unwrap_or(-1);
        let total: i64 = rows.iter().filter(|r| r.0 == number).map(|r| r.2 + r.3).sum();
        assert_eq!(total, innings["runs"].as_i64().unwrap_or(-1), "innings {number}");
        assert!(
            rows.iter()
                .filter(|r| r.0 == number)
                .all(|r| (1..=10).contains(&r.1))
        );
    }
    app.stop().await;
}
