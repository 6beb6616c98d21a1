//! Helpers the Wicketz and Cricket Champions server tests share on top of `common`: tables of
//! any size (players plus server bots), a client that plays a fixed number of its moves,
//! reading the operators' views on either backend, and leak checks on transcripts.
#![allow(dead_code)]

use crate::common::{Client, TestApp};
use crease::protocol::{ErrorCode, MatchInfo, PlayerCreated, ServerMessage};
use crease::record::MatchStatus;
use crease::rules::{BotPolicy, Dice, Game, Seat, Seed};
use crease::store::Store;
use serde_json::{Value, json};

/// A match of `game` created by the first of `humans` players with `bots` server bots; the
/// other humans join in turn. Returns the info after the last join and the players in seat
/// order of joining (creator first).
pub async fn seated_match(
    app: &TestApp,
    game: &str,
    options: Value,
    humans: usize,
    bots: u8,
) -> (MatchInfo, Vec<PlayerCreated>) {
    let mut players = Vec::new();
    for index in 0..humans {
        players.push(app.player(&format!("player{index}")).await);
    }
    let body = json!({ "game": game, "options": options, "bots": bots });
    let (status, created) = app.post("/v1/matches", Some(&players[0].token), body).await;
    assert_eq!(status, 201, "{created}");
    let mut info: MatchInfo = serde_json::from_value(created).expect("match info");
    for player in &players[1..] {
        assert_eq!(
            info.status,
            MatchStatus::Open,
            "the match started before its seats were filled"
        );
        let path = format!("/v1/matches/{}/join", info.match_id);
        let (status, joined) = app.post(&path, Some(&player.token), json!({})).await;
        assert_eq!(status, 200, "{joined}");
        info = serde_json::from_value(joined).expect("match info");
    }
    assert_eq!(info.status, MatchStatus::Live);
    (info, players)
}

/// The seat of a player in `info`.
pub fn seat_of(info: &MatchInfo, player: &PlayerCreated) -> Seat {
    info.seats
        .iter()
        .find(|seat| seat.player_id.as_deref() == Some(&player.player_id))
        .map(|seat| seat.seat)
        .expect("the player is seated")
}

/// The latest view and pending seats this client received.
pub fn latest_view(client: &Client) -> Option<(Value, Vec<Seat>)> {
    client.transcript.iter().rev().find_map(|message| match message {
        ServerMessage::Snapshot(snapshot) => Some((snapshot.view.clone(), snapshot.pending.clone())),
        ServerMessage::Update(update) => Some((update.view.clone(), update.pending.clone())),
        _ => None,
    })
}

/// Plays `moves` commands of `seat` with the game's bot (all accepted), then reads until the
/// game waits for `seat` again, so nothing is in flight when it returns. Only for games that
/// wait for one seat at a time (Wicketz, Champions).
pub async fn play_moves<G: Game>(client: &mut Client, seat: Seat, moves: usize, seed: u64) {
    let mut dice = Dice::new(&Seed::from_u64(seed));
    let mut played = 0;
    loop {
        let mine = latest_view(client).filter(|(_, pending)| pending.contains(&seat));
        match mine {
            Some(_) if played == moves => return,
            Some((view, _)) => {
                let view: G::View = serde_json::from_value(view).expect("the game's view");
                let command = G::bot_command(&view, BotPolicy::Random, &mut dice).expect("a move");
                let id = client
                    .command(serde_json::to_value(command).expect("encode"))
                    .await;
                match client.answer(&id).await {
                    ServerMessage::Ack { .. } => played += 1,
                    other => panic!("a bot move was refused: {other:?}"),
                }
            }
            None => {
                client.recv().await;
            }
        }
    }
}

/// Reads everything a (spectating) client is sent until the match finishes.
pub async fn watch_to_end(client: &mut Client) {
    loop {
        match client.next().await {
            crate::common::Received::Message(message) => {
                if matches!(*message, ServerMessage::Finished { .. }) {
                    return;
                }
            }
            crate::common::Received::Closed(code) => panic!("the spectator was closed ({code:?})"),
        }
    }
}

/// Every message the client received, as the text it came in (near enough: re-encoded).
pub fn transcript_text(client: &Client) -> String {
    client
        .transcript
        .iter()
        .filter_map(|message| serde_json::to_string(message).ok())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The events of a stored log of type `kind`.
pub async fn stored_events(app: &TestApp, match_id: &str, kind: &str) -> Vec<Value> {
    app.app()
        .store()
        .log(&crate::common::match_id(match_id))
        .await
        .expect("log")
        .into_iter()
        .map(|entry| entry.payload)
        .filter(|payload| payload["type"] == kind)
        .collect()
}

/// The rows of an operators' view for one match, each column read as an integer (NULL = -1),
/// ordered by seq, on whichever backend the app runs.
pub async fn view_rows(app: &TestApp, view: &str, columns: &[&str], match_id: &str) -> Vec<Vec<i64>> {
    let select: Vec<String> = columns
        .iter()
        .map(|column| format!("CAST(COALESCE({column}, -1) AS BIGINT) AS {column}"))
        .collect();
    let sql = format!(
        "SELECT {} FROM {view} WHERE match_id = $1 ORDER BY seq",
        select.join(", ")
    );
    let sql = sqlx::AssertSqlSafe(sql);
    match app.app().store() {
        Store::Sqlite(pool) => {
            let rows = sqlx::query(sql)
                .bind(match_id)
                .fetch_all(pool)
                .await
                .expect("view");
            rows.iter()
                .map(|row| {
                    (0..columns.len())
                        .map(|i| sqlx::Row::get::<i64, _>(row, i))
                        .collect()
                })
                .collect()
        }
        Store::Postgres(pool) => {
            let rows = sqlx::query(sql)
                .bind(match_id)
                .fetch_all(pool)
                .await
                .expect("view");
            rows.iter()
                .map(|row| {
                    (0..columns.len())
                        .map(|i| sqlx::Row::get::<i64, _>(row, i))
                        .collect()
                })
                .collect()
        }
    }
}

/// `match_summary` knows the match as finished.
pub async fn summary_says_finished(app: &TestApp, match_id: &str) -> bool {
    const SQL: &str = "SELECT count(*) FROM match_summary WHERE match_id = $1 AND status = 'finished'";
    let count: i64 = match app.app().store() {
        Store::Sqlite(pool) => sqlx::query_scalar(SQL).bind(match_id).fetch_one(pool).await,
        Store::Postgres(pool) => sqlx::query_scalar(SQL).bind(match_id).fetch_one(pool).await,
    }
    .expect("match_summary");
    count == 1
}

/// Restarts the server in the middle of a match whose seat 0 (holding `token`) is to move
/// with `view_before`, then checks that nothing was lost: the same log, the same view and the
/// same seat asked; the match is then played to the end and must verify.
pub async fn restart_resumes_and_finishes<G: Game>(
    app: &mut TestApp,
    match_id: &str,
    token: &str,
    view_before: Value,
    log_before: Value,
    bot_seed: u64,
) {
    app.restart().await;

    let log_after = app
        .get(&format!("/v1/matches/{match_id}/log"), Some(token))
        .await
        .1;
    assert_eq!(log_before["entries"], log_after["entries"]);
    let mut client = app.connect(match_id, Some(token), None).await;
    let ServerMessage::Snapshot(snapshot) = client.recv().await else {
        panic!("snapshot first");
    };
    assert_eq!(snapshot.view, view_before, "the same match, to the move");
    assert_eq!(snapshot.pending, vec![Seat(0)]);
    client.play_to_end::<G>(bot_seed).await;
    let (_, verify) = app.get(&format!("/v1/matches/{match_id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
}

/// The code and engine reason of an error frame.
pub fn error_code(message: ServerMessage) -> (ErrorCode, Option<String>) {
    match message {
        ServerMessage::Error(error) => (error.code, error.reason),
        other => panic!("expected an error, got {other:?}"),
    }
}
