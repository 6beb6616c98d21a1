//! Skill-based matchmaking: two matchmakers sharing one PostgreSQL never seat a ticket
//! twice; the rating window widens with waiting; an opted-in ticket gets a bot.
//!
//! The Postgres test follows `common`'s convention: it runs when `TEST_DATABASE_URL` is set,
//! is skipped without it, and fails without it when `CI=true`.

use crate::common;

use common::{Backend, TestDb, toy_games};
use crease::accounts::{AccountConfig, Accounts, Player};
use crease::app::Application;
use crease::config::ServeConfig;
use crease::matches::Lobby;
use crease::matchmaking::{Matchmaker, MatchmakingConfig};
use crease::protocol::CreateTicket;
use crease::record::Clocks;
use crease::record::TicketStatus;
use crease::store::Store;
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

fn clocks() -> Clocks {
    Clocks {
        turn: Duration::from_secs(60),
        disconnect_grace: Duration::from_secs(300),
    }
}

fn toy_ticket() -> CreateTicket {
    CreateTicket {
        game: "toy".into(),
        options: None,
        bot_fallback: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_matchmakers_on_one_postgres_never_pair_a_ticket_twice() {
    let Some(db) = TestDb::create(Backend::Postgres).await else {
        return;
    };
    let first = process(db.url()).await;
    let second = process(db.url()).await;
    let accounts = Accounts::new(first.store.clone(), &AccountConfig::default());
    const PLAYERS: usize = 60;
    let mut players: Vec<Player> = Vec::new();
    for index in 0..PLAYERS {
        players.push(
            accounts
                .create_player(name(&format!("p{index}")))
                .await
                .expect("player")
                .0,
        );
    }
    // Each process receives half of the tickets and runs a pass on every arrival, while a
    // ticker in each also runs passes as fast as it can: every pass races the others.
    let mut tasks = Vec::new();
    for (process, matchmaker) in [first.matchmaker.clone(), second.matchmaker.clone()]
        .into_iter()
        .enumerate()
    {
        let mine: Vec<Player> = players.iter().skip(process).step_by(2).cloned().collect();
        let arrivals = matchmaker.clone();
        tasks.push(tokio::spawn(async move {
            let mut created = 0;
            for player in mine {
                let ticket = arrivals.open_ticket(&player, toy_ticket()).await.expect("ticket");
                created += usize::from(ticket.status == TicketStatus::Matched);
            }
            created
        }));
        tasks.push(tokio::spawn(async move {
            let mut created = 0;
            for _ in 0..40 {
                created += matchmaker.run_pass().await.expect("pass").len();
            }
            created
        }));
    }
    for task in tasks {
        task.await.expect("task");
    }
    first.matchmaker.run_pass().await.expect("final pass");

    let Store::Postgres(pool) = &first.store else {
        panic!("a Postgres store");
    };
    let seats: Vec<(String, i32, String)> =
        sqlx::query_as("SELECT match_id, seat, player_id FROM match_seat ORDER BY match_id, seat")
            .fetch_all(pool)
            .await
            .expect("seats");
    let tickets: Vec<(String, String, Option<String>)> =
        sqlx::query_as("SELECT player_id, status, match_id FROM matchmaking_ticket")
            .fetch_all(pool)
            .await
            .expect("tickets");
    assert_eq!(tickets.len(), PLAYERS);
    assert!(
        tickets.iter().all(|(_, status, _)| status == "matched"),
        "{tickets:?}"
    );
    let mut seated: HashMap<&str, usize> = HashMap::new();
    for (_, _, player) in &seats {
        *seated.entry(player.as_str()).or_default() += 1;
    }
    assert_eq!(seated.len(), PLAYERS, "every player is seated");
    assert!(
        seated.values().all(|count| *count == 1),
        "a ticket was seated twice: {seated:?}"
    );
    let matches: HashSet<&str> = seats.iter().map(|(id, _, _)| id.as_str()).collect();
    assert_eq!(matches.len(), PLAYERS / 2);
    for (player, _, match_id) in &tickets {
        let match_id = match_id.as_deref().expect("a matched ticket names its match");
        assert!(
            seats
                .iter()
                .any(|(id, _, seated)| id == match_id && seated == player)
        );
    }
    let live: i64 = sqlx::query_scalar("SELECT count(*) FROM \"match\" WHERE status = 'live'")
        .fetch_one(pool)
        .await
        .expect("count");
    assert_eq!(live as usize, PLAYERS / 2, "every paired match was started once");
    for process in [first, second] {
        process.lobby.shutdown().await;
        process.store.close().await;
    }
}

/// One server process's lobby and matchmaker on the database at `url`.
struct Process {
    store: Store,
    lobby: Arc<Lobby>,
    matchmaker: Arc<Matchmaker>,
}

async fn process(url: &str) -> Process {
    let store = Store::connect(url).await.expect("store");
    let lobby = Arc::new(Lobby::new(store.clone(), toy_games(), clocks()));
    let matchmaker = Arc::new(Matchmaker::new(
        lobby.clone(),
        store.clone(),
        MatchmakingConfig::default(),
    ));
    Process {
        store,
        lobby,
        matchmaker,
    }
}

async fn app_with(config: MatchmakingConfig) -> (TestDb, Application) {
    let db = TestDb::create(Backend::Sqlite).await.expect("sqlite");
    let mut serve = ServeConfig::for_database(db.url());
    serve.matchmaking = config;
    let app = Application::build(&serve, toy_games()).await.expect("app");
    (db, app)
}

async fn wait_for_match(matchmaker: &Matchmaker, player: &Player, ticket_id: &str) -> Option<String> {
    for _ in 0..200 {
        let ticket = matchmaker
            .ticket(player, &common::ticket_id(ticket_id))
            .await
            .expect("ticket");
        if ticket.status == TicketStatus::Matched {
            return ticket.match_id;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

#[tokio::test]
async fn distant_ratings_pair_once_the_window_has_widened() {
    let (_db, app) = app_with(MatchmakingConfig {
        base_window: 100.0,
        widen_per_sec: 400.0,
        max_window: 1000.0,
        bot_after_secs: 3600,
        tick_ms: 50,
    })
    .await;
    let matchmaker = app.matchmaker().clone();
    let strong = app
        .accounts()
        .create_player(name("strong"))
        .await
        .expect("player")
        .0;
    let weak = app
        .accounts()
        .create_player(name("weak"))
        .await
        .expect("player")
        .0;
    let sql = format!(
        "INSERT INTO rating (player_id, game, format, rating, deviation, volatility, matches, wins, updated_at) \
         VALUES ('{}', 'toy', 'standard', 1800.0, 80.0, 0.06, 10, 8, '2026-01-01T00:00:00Z')",
        strong.player_id
    );
    app.store().execute_unchecked(&sql).await.expect("seed a rating");
    let first = matchmaker
        .open_ticket(&strong, toy_ticket())
        .await
        .expect("ticket");
    let second = matchmaker.open_ticket(&weak, toy_ticket()).await.expect("ticket");
    assert_eq!(
        second.status,
        TicketStatus::Waiting,
        "300 apart is outside a fresh window"
    );
    let paired = wait_for_match(&matchmaker, &strong, &first.ticket_id).await;
    assert!(
        paired.is_some(),
        "the ticker pairs them once the window covers 300"
    );
    assert_eq!(
        wait_for_match(&matchmaker, &weak, &second.ticket_id).await,
        paired
    );
    app.shutdown().await;
}

#[tokio::test]
async fn an_opted_in_ticket_gets_a_bot_after_the_wait_and_others_keep_waiting() {
    let (_db, app) = app_with(MatchmakingConfig {
        bot_after_secs: 1,
        tick_ms: 50,
        ..MatchmakingConfig::default()
    })
    .await;
    let matchmaker = app.matchmaker().clone();
    let hopeful = app
        .accounts()
        .create_player(name("hopeful"))
        .await
        .expect("player")
        .0;
    let patient = app
        .accounts()
        .create_player(name("patient"))
        .await
        .expect("player")
        .0;
    let opted = CreateTicket {
        game: "toy".into(),
        options: Some(json!({ "rounds": 2 })),
        bot_fallback: true,
    };
    let with_bot = matchmaker.open_ticket(&hopeful, opted).await.expect("ticket");
    assert_eq!(with_bot.status, TicketStatus::Waiting, "no bot before the wait");
    let without = matchmaker
        .open_ticket(&patient, toy_ticket())
        .await
        .expect("ticket");
    let match_id = wait_for_match(&matchmaker, &hopeful, &with_bot.ticket_id)
        .await
        .expect("a bot match");
    let info = app
        .lobby()
        .match_info(&common::match_id(&match_id))
        .await
        .expect("info");
    assert_eq!(
        info.seats[0].player_id.as_deref(),
        Some(hopeful.player_id.as_str())
    );
    assert!(info.seats[1].bot);
    let still = matchmaker
        .ticket(&patient, &common::ticket_id(&without.ticket_id))
        .await
        .expect("ticket");
    assert_eq!(still.status, TicketStatus::Waiting);
    app.shutdown().await;
}

fn name(raw: &str) -> crease::input::PlayerName {
    crease::input::PlayerName::parse(raw).expect("a valid name")
}
