//! Wicketz through the server, as CTG is tested: a full match between two WebSocket clients
//! on SQLite and Postgres, a restart mid-match, refused commands with their codes, the
//! dispenser's order never reaching a client, `wicketz_ball_by_ball`, and `crease bot`.

use crate::common;
use crate::games_common;

use common::{TestApp, spawn_app, spawn_app_on};
use crease::cli::bot::BotClient;
use crease::matches::GameRegistry;
use crease::protocol::{ErrorCode, ServerMessage};
use crease::rules::wicketz::Wicketz;
use crease::rules::{BotPolicy, Seat};
use games_common::*;
use serde_json::{Value, json};

/// Short enough for a test, long enough for both innings to have several overs.
fn options() -> Value {
    json!({ "overs": 4 })
}

async fn full_match(app: TestApp) {
    let (info, home, away) = app.live_match("wicketz", options()).await;
    let id = info.match_id.clone();
    // From seq 0, so the backlog carries the first shuffle, as each viewer may see it.
    let mut home_client = app.connect(&id, Some(&home.token), Some(0)).await;
    let mut away_client = app.connect(&id, Some(&away.token), Some(0)).await;
    let mut spectator = app.connect(&id, None, Some(0)).await;
    let (home_result, away_result, _) = tokio::join!(
        home_client.play_to_end::<Wicketz>(21),
        away_client.play_to_end::<Wicketz>(22),
        watch_to_end(&mut spectator)
    );
    assert_eq!(home_result, away_result);
    let (_, info) = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(info["status"], "finished");
    assert_eq!(serde_json::to_value(&home_result).expect("json"), info["result"]);

    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
    let (_, scorecard) = app.get(&format!("/v1/matches/{id}/scorecard"), None).await;
    assert_eq!(scorecard["view"]["phase"], "finished");
    assert_eq!(scorecard["view"]["outcome"], info["result"]);

    // Both innings were played, and each client saw every ball of them.
    let closed = stored_events(&app, &id, "innings_closed").await;
    assert_eq!(closed.len(), 2, "{closed:?}");
    let balls = stored_events(&app, &id, "ball_completed").await;
    let seen = home_client
        .events()
        .iter()
        .filter(|(_, e)| e["type"] == "ball_completed")
        .count();
    assert_eq!(seen, balls.len());

    // The operators' view: one row per ball, adding up to each innings' runs.
    let columns = ["innings", "over_number", "runs", "byes", "extras"];
    let rows = view_rows(&app, "wicketz_ball_by_ball", &columns, &id).await;
    assert_eq!(rows.len(), balls.len());
    for innings in &closed {
        let number = innings["number"].as_i64().expect("innings number");
        let runs: i64 = rows
            .iter()
            .filter(|row| row[0] == number)
            .map(|row| row[2] + row[3] + row[4])
            .sum();
        assert_eq!(runs, innings["runs"].as_i64().expect("runs"), "innings {number}");
        assert!(
            rows.iter()
                .filter(|row| row[0] == number)
                .all(|row| (1..=4).contains(&row[1]))
        );
    }
    assert!(summary_says_finished(&app, &id).await);

    // The dispenser's order is stored, and no client ever received it.
    dispenser_order_never_sent(&app, &id, &[&home_client, &away_client]).await;
    dispenser_order_never_sent(&app, &id, &[&spectator]).await;
    app.stop().await;
}

/// Every stored shuffle has its full order; every shuffle a client received has none, and
/// no message of the client contains a stored order.
async fn dispenser_order_never_sent(app: &TestApp, match_id: &str, clients: &[&common::Client]) {
    let shuffles = stored_events(app, match_id, "dispenser_shuffled").await;
    assert!(!shuffles.is_empty());
    let orders: Vec<String> = shuffles
        .iter()
        .map(|shuffle| {
            let order = shuffle["order"].as_array().expect("a stored order");
            assert_eq!(order.len(), 246, "the whole dispenser is shuffled");
            shuffle["order"].to_string()
        })
        .collect();
    for client in clients {
        let received: Vec<&Value> = client
            .transcript
            .iter()
            .filter_map(|message| match message {
                ServerMessage::Event { event, .. } if event["type"] == "dispenser_shuffled" => Some(event),
                _ => None,
            })
            .collect();
        assert!(!received.is_empty(), "the shuffle is announced");
        assert!(
            received.iter().all(|event| event["order"] == json!([])),
            "{received:?}"
        );
        let text = transcript_text(client);
        for order in &orders {
            assert!(
                !text.contains(order.as_str()),
                "a client received the dispenser's order"
            );
        }
        // Views only count the cards.
        let (view, _) = latest_view(client).expect("a view");
        assert!(view["cards_in_dispenser"].is_u64());
        assert!(view.get("dispenser").is_none());
    }
}

fn games() -> GameRegistry {
    GameRegistry::standard()
}

common::sqlite_and_postgres! {
    a_full_wicketz_match_between_two_websocket_clients(backend) {
        let Some(app) = spawn_app_on(backend, games()).await else {
            return;
        };
        full_match(app).await;
    }
}

async fn restart_mid_match(mut app: TestApp) {
    let home = app.player("home").await;
    let body = json!({ "game": "wicketz", "options": options(), "opponent": "bot" });
    let (status, created) = app.post("/v1/matches", Some(&home.token), body).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["status"], "live");
    let id = created["match_id"].as_str().expect("id").to_string();
    let mut client = app.connect(&id, Some(&home.token), None).await;
    // Into the first innings, waiting for the human seat.
    play_moves::<Wicketz>(&mut client, Seat(0), 12, 5).await;
    let (view_before, pending_before) = latest_view(&client).expect("a view");
    assert_eq!(pending_before, vec![Seat(0)]);
    let log_before = app
        .get(&format!("/v1/matches/{id}/log"), Some(&home.token))
        .await
        .1;
    // The live log a seat reads is redacted like its feed.
    let shuffles: Vec<&Value> = log_before["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|entry| entry["payload"]["type"] == "dispenser_shuffled")
        .collect();
    assert!(!shuffles.is_empty() && shuffles.iter().all(|e| e["payload"]["order"] == json!([])));
    drop(client);
    restart_resumes_and_finishes::<Wicketz>(&mut app, &id, &home.token, view_before, log_before, 6).await;
    app.stop().await;
}

common::sqlite_and_postgres! {
    a_restarted_server_resumes_a_wicketz_match_against_a_bot(backend) {
        let Some(app) = spawn_app_on(backend, games()).await else {
            return;
        };
        restart_mid_match(app).await;
    }
}

#[tokio::test]
async fn wicketz_commands_out_of_turn_illegal_unreadable_or_unseated_are_refused_with_their_codes() {
    let app = spawn_app(games()).await;
    let (info, home, away) = app.live_match("wicketz", options()).await;
    let id = info.match_id.clone();
    let mut clients = [
        app.connect(&id, Some(&home.token), None).await,
        app.connect(&id, Some(&away.token), None).await,
    ];
    let ServerMessage::Snapshot(snapshot) = clients[0].recv().await else {
        panic!("snapshot first");
    };
    clients[1].recv().await;
    let [winner] = snapshot.pending[..] else {
        panic!("the toss winner alone is asked: {:?}", snapshot.pending);
    };
    let loser = 1 - winner.index();
    let rows = app
        .app()
        .store()
        .log(&common::match_id(&id))
        .await
        .expect("log")
        .len();

    let cid = clients[loser]
        .command(json!({ "type": "choose_innings", "bat": true }))
        .await;
    let (code, _) = error_code(clients[loser].answer(&cid).await);
    assert_eq!(code, ErrorCode::NotYourTurn);
    let winner_client = &mut clients[winner.index()];
    let cid = winner_client
        .command(json!({ "type": "play", "stroke": "cover_drive" }))
        .await;
    assert_eq!(
        error_code(winner_client.answer(&cid).await),
        (ErrorCode::IllegalMove, Some("no_delivery_to_play".into()))
    );
    let cid = winner_client
        .command(json!({ "type": "set_over", "style": "pace" }))
        .await;
    assert_eq!(
        error_code(winner_client.answer(&cid).await),
        (ErrorCode::IllegalMove, Some("not_between_overs".into()))
    );
    let cid = winner_client.command(json!({ "type": "choose_innings" })).await;
    assert_eq!(
        error_code(winner_client.answer(&cid).await).0,
        ErrorCode::BadMessage
    );
    let mut stranger = app.connect(&id, None, None).await;
    stranger.recv().await;
    let cid = stranger
        .command(json!({ "type": "choose_innings", "bat": true }))
        .await;
    assert_eq!(error_code(stranger.answer(&cid).await).0, ErrorCode::NotSeated);
    assert_eq!(
        app.app()
            .store()
            .log(&common::match_id(&id))
            .await
            .expect("log")
            .len(),
        rows,
        "nothing stored"
    );

    // The winner bowls first: now the other side may not set the over for it.
    let cid = winner_client
        .command(json!({ "type": "choose_innings", "bat": false }))
        .await;
    assert!(matches!(
        winner_client.answer(&cid).await,
        ServerMessage::Ack { .. }
    ));
    let batting = &mut clients[loser];
    let cid = batting
        .command(json!({ "type": "set_over", "style": "spin" }))
        .await;
    assert_eq!(error_code(batting.answer(&cid).await).0, ErrorCode::NotYourTurn);
    let bowling = &mut clients[winner.index()];
    let cid = bowling
        .command(json!({ "type": "set_over", "style": "pace", "line": "off_side" }))
        .await;
    assert_eq!(
        error_code(bowling.answer(&cid).await),
        (ErrorCode::IllegalMove, Some("bowling_variations_off".into()))
    );
    app.stop().await;
}

#[tokio::test]
async fn crease_bot_plays_wicketz_against_a_server_bot() {
    let app = spawn_app(games()).await;
    let registry = games();
    let wicketz = registry.get("wicketz").expect("wicketz is a standard game");
    let client = BotClient::register(&app.base, "remote").await.expect("register");
    let match_id = client
        .create_vs_bot("wicketz", Some(json!({ "overs": 2 })))
        .await
        .expect("create");
    let report = client
        .play(&match_id, wicketz, BotPolicy::Heuristic)
        .await
        .expect("play");
    assert!(report.events > 20, "{report:?}");
    let (_, info) = app.get(&format!("/v1/matches/{match_id}"), None).await;
    assert_eq!(info["status"], "finished");
    assert_eq!(report.result, info["result"]);
    assert!(info["seats"][1]["bot"].as_bool().unwrap_or(false));
    app.stop().await;
}
