//! Cricket Champions through the server: a 3-seat match of two WebSocket clients and a server
//! bot on SQLite and Postgres, three players meeting through matchmaking, a restart
//! mid-match, refused commands with their codes, the Xp draw pile's order never reaching a
//! client, `champions_over_by_over`, and `crease bot` at a table of bots.

use crate::common;
use crate::games_common;

use common::{Backend, Client, TestApp, for_paused_clock, spawn_app, spawn_app_on, spawn_app_with};
use crease::cli::bot::BotClient;
use crease::matches::GameRegistry;
use crease::protocol::{ErrorCode, ServerMessage, Ticket};
use crease::record::TicketStatus;
use crease::rules::champions::Champions;
use crease::rules::{BotPolicy, Seat};
use games_common::*;
use serde_json::{Value, json};

fn games() -> GameRegistry {
    GameRegistry::standard()
}

async fn three_seats_two_clients_and_a_bot(app: TestApp) {
    let (info, players) = seated_match(&app, "champions", json!({ "players": 3 }), 2, 1).await;
    assert_eq!(info.seat_count, 3);
    assert_eq!(info.seats.iter().filter(|seat| seat.bot).count(), 1);
    let id = info.match_id.clone();
    // From seq 0, so the backlog carries the setup's shuffle, as each viewer may see it.
    let mut first = app.connect(&id, Some(&players[0].token), Some(0)).await;
    let mut second = app.connect(&id, Some(&players[1].token), Some(0)).await;
    let mut spectator = app.connect(&id, None, Some(0)).await;
    let (first_result, second_result, _) = tokio::join!(
        first.play_to_end::<Champions>(31),
        second.play_to_end::<Champions>(32),
        watch_to_end(&mut spectator)
    );
    assert_eq!(first_result, second_result);
    assert_eq!(first_result.placings.len(), 3);
    let (_, info) = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(info["status"], "finished");
    assert_eq!(serde_json::to_value(&first_result).expect("json"), info["result"]);

    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
    let (_, scorecard) = app.get(&format!("/v1/matches/{id}/scorecard"), None).await;
    assert_eq!(scorecard["view"]["outcome"], info["result"]);
    assert_eq!(scorecard["view"]["players"].as_array().map(Vec::len), Some(3));

    // Every seat batted and bowled, and each client saw every over resolved.
    let overs = stored_events(&app, &id, "over_resolved").await;
    for seat in 0..3 {
        assert!(
            overs.iter().any(|over| over["batsman"] == seat),
            "seat {seat} never batted"
        );
    }
    let seen = first
        .events()
        .iter()
        .filter(|(_, e)| e["type"] == "over_resolved")
        .count();
    assert_eq!(seen, overs.len());

    // The operators' view: one row per over, its runs and wickets those of the log.
    let columns = ["round", "batsman", "bowler", "runs", "wickets"];
    let rows = view_rows(&app, "champions_over_by_over", &columns, &id).await;
    assert_eq!(rows.len(), overs.len());
    for (row, over) in rows.iter().zip(&overs) {
        assert_eq!(row[1], over["batsman"].as_i64().expect("batsman"));
        assert_eq!(row[3], over["result"]["runs"].as_i64().expect("runs"));
        assert_eq!(row[4], over["result"]["wickets"].as_i64().expect("wickets"));
        assert!((1..=5).contains(&row[0]), "round {}", row[0]);
    }
    assert!(summary_says_finished(&app, &id).await);

    draw_pile_order_never_sent(&app, &id, &[&first, &second, &spectator]).await;
    app.stop().await;
}

/// The stored shuffle holds the draw pile's order; no client receives it, in an event or a view.
async fn draw_pile_order_never_sent(app: &TestApp, match_id: &str, clients: &[&Client]) {
    let shuffles = stored_events(app, match_id, "deck_shuffled").await;
    assert_eq!(shuffles.len(), 1);
    let order = shuffles[0]["draw_pile"]["order"]
        .as_array()
        .expect("a stored order")
        .clone();
    assert!(order.len() >= 2, "a pile worth hiding: {order:?}");
    let order_text = Value::Array(order.clone()).to_string();
    for client in clients {
        let received: Vec<&Value> = client
            .transcript
            .iter()
            .filter_map(|message| match message {
                ServerMessage::Event { event, .. } if event["type"] == "deck_shuffled" => Some(event),
                _ => None,
            })
            .collect();
        assert_eq!(received.len(), 1);
        assert!(
            received[0]["draw_pile"].get("order").is_none(),
            "{:?}",
            received[0]
        );
        assert_eq!(received[0]["draw_pile"]["size"], json!(order.len()));
        assert!(!transcript_text(client).contains(&order_text));
        let (view, _) = latest_view(client).expect("a view");
        assert!(view["draw_pile_size"].is_u64() && view.get("draw_pile").is_none());
    }
}

common::sqlite_and_postgres! {
    a_three_seat_champions_match_of_two_websocket_clients_and_a_bot(backend) {
        let Some(app) = spawn_app_on(backend, games()).await else {
            return;
        };
        three_seats_two_clients_and_a_bot(app).await;
    }
}

#[tokio::test]
async fn three_players_meet_through_matchmaking_for_a_three_seat_match() {
    let app = spawn_app(games()).await;
    let options = json!({ "players": 3 });
    let mut tickets = Vec::new();
    let mut players = Vec::new();
    for index in 0..3 {
        let player = app.player(&format!("p{index}")).await;
        let body = json!({ "game": "champions", "options": options });
        let (status, ticket) = app
            .post("/v1/matchmaking/tickets", Some(&player.token), body)
            .await;
        assert_eq!(status, 201, "{ticket}");
        let ticket: Ticket = serde_json::from_value(ticket).expect("ticket");
        let expected = if index < 2 {
            TicketStatus::Waiting
        } else {
            TicketStatus::Matched
        };
        assert_eq!(ticket.status, expected, "ticket {index}");
        tickets.push(ticket);
        players.push(player);
    }
    // A 2-seat ticket is not paired with the 3-seat ones.
    let other = app.player("two").await;
    let body = json!({ "game": "champions", "options": { "players": 2 } });
    let (_, two) = app
        .post("/v1/matchmaking/tickets", Some(&other.token), body)
        .await;
    assert_eq!(two["status"], "waiting");
    let match_id = tickets[2].match_id.clone().expect("a match");
    for (ticket, player) in tickets.iter().zip(&players) {
        let path = format!("/v1/matchmaking/tickets/{}", ticket.ticket_id);
        let (_, now) = app.get(&path, Some(&player.token)).await;
        assert_eq!(now["match_id"], json!(match_id));
    }
    let (_, info) = app.get(&format!("/v1/matches/{match_id}"), None).await;
    assert_eq!(info["status"], "live");
    assert_eq!(info["seats"].as_array().map(Vec::len), Some(3));
    assert!(
        info["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|seat| seat["bot"] == false)
    );
    app.stop().await;
}

#[tokio::test]
async fn the_bots_field_is_checked_against_the_seat_count() {
    let app = spawn_app(games()).await;
    let player = app.player("host").await;
    for (body, status) in [
        (
            json!({ "game": "champions", "options": { "players": 3 }, "bots": 3 }),
            400,
        ),
        (json!({ "game": "champions", "options": { "players": 6 } }), 400),
        (
            json!({ "game": "champions", "options": { "players": 4 }, "opponent": "bot", "bots": 1 }),
            400,
        ),
        (
            json!({ "game": "champions", "options": { "players": 4 }, "opponent": "bot", "bots": 3 }),
            201,
        ),
        (
            json!({ "game": "champions", "options": { "players": 4 }, "bots": 2 }),
            201,
        ),
    ] {
        let (got, answer) = app.post("/v1/matches", Some(&player.token), body.clone()).await;
        assert_eq!(got, status, "{body} -> {answer}");
    }
    // Two bots of four seats: open, waiting for one more player.
    let (_, open) = app.get("/v1/matches?status=open", None).await;
    let open = &open["matches"][0];
    assert_eq!(open["seat_count"], 4);
    assert_eq!(open["seats"].as_array().map(Vec::len), Some(3));
    app.stop().await;
}

async fn restart_mid_match(mut app: TestApp) {
    let home = app.player("home").await;
    let body = json!({ "game": "champions", "options": { "players": 3 }, "opponent": "bot" });
    let (status, created) = app.post("/v1/matches", Some(&home.token), body).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["status"], "live");
    let id = created["match_id"].as_str().expect("id").to_string();
    let mut client = app.connect(&id, Some(&home.token), None).await;
    play_moves::<Champions>(&mut client, Seat(0), 8, 9).await;
    let (view_before, pending_before) = latest_view(&client).expect("a view");
    assert_eq!(pending_before, vec![Seat(0)]);
    let log_before = app
        .get(&format!("/v1/matches/{id}/log"), Some(&home.token))
        .await
        .1;
    drop(client);
    restart_resumes_and_finishes::<Champions>(&mut app, &id, &home.token, view_before, log_before, 10).await;
    app.stop().await;
}

common::sqlite_and_postgres! {
    a_restarted_server_resumes_a_champions_match_against_two_bots(backend) {
        let Some(app) = spawn_app_on(backend, games()).await else {
            return;
        };
        restart_mid_match(app).await;
    }
}

#[tokio::test]
async fn champions_commands_out_of_turn_illegal_unreadable_or_unseated_are_refused_with_their_codes() {
    let app = spawn_app(games()).await;
    let (info, players) = seated_match(&app, "champions", json!({ "players": 3 }), 3, 0).await;
    let id = info.match_id.clone();
    let mut clients = Vec::new();
    for player in &players {
        let mut client = app.connect(&id, Some(&player.token), None).await;
        client.recv().await;
        clients.push(client);
    }
    let (_, pending) = latest_view(&clients[0]).expect("a snapshot");
    let [active] = pending[..] else {
        panic!("one seat rolls at a time: {pending:?}");
    };
    let active_index = players
        .iter()
        .position(|player| seat_of(&info, player) == active)
        .expect("a seated player is asked");
    let rows = app
        .app()
        .store()
        .log(&common::match_id(&id))
        .await
        .expect("log")
        .len();

    // Every other seat is out of turn, whatever it sends.
    for (index, client) in clients.iter_mut().enumerate() {
        if index == active_index {
            continue;
        }
        let cid = client.command(json!({ "type": "roll" })).await;
        assert_eq!(error_code(client.answer(&cid).await).0, ErrorCode::NotYourTurn);
    }
    let client = &mut clients[active_index];
    for (command, reason) in [
        (json!({ "type": "stop" }), "not_rolled_yet"),
        (json!({ "type": "roll", "dice": [1] }), "first_roll_rolls_all"),
        (json!({ "type": "pass" }), "not_buying_now"),
    ] {
        let cid = client.command(command).await;
        assert_eq!(
            error_code(client.answer(&cid).await),
            (ErrorCode::IllegalMove, Some(reason.to_string()))
        );
    }
    let cid = client.command(json!({ "type": "roll", "dice": "all" })).await;
    assert_eq!(error_code(client.answer(&cid).await).0, ErrorCode::BadMessage);
    let mut stranger = app.connect(&id, None, None).await;
    stranger.recv().await;
    let cid = stranger.command(json!({ "type": "roll" })).await;
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

    let client = &mut clients[active_index];
    let cid = client.command(json!({ "type": "roll" })).await;
    assert!(matches!(client.answer(&cid).await, ServerMessage::Ack { .. }));
    let cid = client.command(json!({ "type": "roll", "dice": [6] })).await;
    assert_eq!(
        error_code(client.answer(&cid).await),
        (ErrorCode::IllegalMove, Some("die_out_of_range".into()))
    );
    app.stop().await;
}

#[tokio::test]
async fn crease_bot_plays_champions_at_a_table_of_four_with_three_server_bots() {
    let app = spawn_app(games()).await;
    let registry = games();
    let champions = registry.get("champions").expect("champions is a standard game");
    let client = BotClient::register(&app.base, "remote").await.expect("register");
    let match_id = client
        .create_vs_bot("champions", Some(json!({ "players": 4 })))
        .await
        .expect("create");
    let report = client
        .play(&match_id, champions, BotPolicy::Heuristic)
        .await
        .expect("play");
    let (_, info) = app.get(&format!("/v1/matches/{match_id}"), None).await;
    assert_eq!(info["status"], "finished");
    assert_eq!(report.result, info["result"]);
    assert_eq!(info["result"]["placings"].as_array().map(Vec::len), Some(4));
    assert_eq!(
        info["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|s| s["bot"] == true)
            .count(),
        3
    );
    app.stop().await;
}

#[test]
fn crease_bot_takes_the_game_and_a_seat_count() {
    use clap::Parser;
    use crease::cli::{Cli, Command};
    let cli = Cli::try_parse_from([
        "crease",
        "bot",
        "--game",
        "champions",
        "--players",
        "3",
        "--vs-bot",
    ])
    .expect("parse");
    let Some(Command::Bot(args)) = cli.command else {
        panic!("the bot subcommand");
    };
    assert_eq!(
        (args.game.as_str(), args.players, args.vs_bot),
        ("champions", Some(3), true)
    );
    for game in ["ctg", "wicketz", "champions"] {
        assert!(games().get(game).is_some(), "{game} is served");
    }
}

/// A seat that never moves has its clock play the default (roll, then stop) for it, logged
/// as timeouts, while the bots at the table play on.
#[tokio::test]
async fn a_champions_seat_whose_clock_runs_out_rolls_and_stops_by_default() {
    let app = spawn_app_with(Backend::Sqlite, games(), for_paused_clock)
        .await
        .expect("SQLite");
    let home = app.player("home").await;
    let body =
        json!({ "game": "champions", "options": { "players": 3 }, "opponent": "bot", "turn_clock_secs": 5 });
    let (status, created) = app.post("/v1/matches", Some(&home.token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("id").to_string();
    let mut client = app.connect(&id, Some(&home.token), None).await;
    client.timeout = None;
    client.recv().await;
    tokio::time::pause();
    // An over with the silent seat in it: the other side of it is always a bot.
    loop {
        if let ServerMessage::Event { event, .. } = client.recv().await
            && event["type"] == "over_resolved"
            && (event["batsman"] == 0 || event["bowler"] == 0)
        {
            break;
        }
    }
    tokio::time::resume();
    let log = app.app().store().log(&common::match_id(&id)).await.expect("log");
    let mine: Vec<&Value> = log
        .iter()
        .filter(|entry| entry.kind == crease::record::EntryKind::Command && entry.payload["seat"] == 0)
        .map(|entry| &entry.payload)
        .collect();
    assert!(mine.len() >= 2, "{mine:?}");
    assert!(
        mine.iter().all(|record| record["source"] == "timeout"),
        "{mine:?}"
    );
    assert_eq!(mine[0]["command"]["type"], "roll");
    assert_eq!(mine[1]["command"]["type"], "stop");
    let bots = log
        .iter()
        .filter(|entry| entry.kind == crease::record::EntryKind::Command && entry.payload["source"] == "bot")
        .count();
    assert!(bots > 0, "the bots played too");
    app.stop().await;
}
