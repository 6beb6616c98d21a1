//! Shared test harness: the app on port 0 with a fresh database, an HTTP helper, and a
//! WebSocket client that records everything it receives.
//!
//! Postgres: tests ask for [`Backend::Postgres`]; they run when `TEST_DATABASE_URL` points at
//! a server (each test creates and drops its own `test_<uuid>` database), are skipped without
//! it, and fail without it when `CI=true`.
#![allow(dead_code)]

pub mod faults;
pub mod toy;

use crease::app::Application;
use crease::config::ServeConfig;
use crease::matches::GameRegistry;
use crease::protocol::*;
use crease::record::{MatchId, PlayerId, TicketId};
use crease::rules::{BotPolicy, Dice, Game, Seat, Seed};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// Lower case, as in the twin tests' names and their log lines.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// One test body, two tests: `NAME::sqlite` and `NAME::postgres`, each running the body with
/// its [`Backend`]. Without `TEST_DATABASE_URL` the PostgreSQL twin skips, by the body's own
/// early return when [`TestDb::create`] (or `spawn_app_on`) gives `None`; under `CI=true` it
/// fails instead, as `create` panics there.
///
/// * `sqlite_and_postgres!(NAME);` calls the module's `async fn NAME(backend: Backend)`;
/// * `sqlite_and_postgres!(NAME => BODY);` calls `async fn BODY(backend: Backend)`;
/// * `sqlite_and_postgres! { NAME(backend) { ... } }` runs the block, `backend` bound;
/// * a `#[tokio::test(...)]` first, in the block form, replaces the default `#[tokio::test]`.
///
/// The block runs inside the module `NAME`, which sees everything of the calling module.
// Not every test binary that includes this harness writes twins.
#[allow(unused_macros)]
macro_rules! sqlite_and_postgres {
    (#[$test:meta] $name:ident($backend:ident) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[$test]
            async fn sqlite() {
                let $backend = $crate::common::Backend::Sqlite;
                $body
            }

            #[$test]
            async fn postgres() {
                let $backend = $crate::common::Backend::Postgres;
                $body
            }
        }
    };
    ($name:ident($backend:ident) $body:block) => {
        $crate::common::sqlite_and_postgres! { #[tokio::test] $name($backend) $body }
    };
    ($name:ident => $body:ident) => {
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                super::$body($crate::common::Backend::Sqlite).await;
            }

            #[tokio::test]
            async fn postgres() {
                super::$body($crate::common::Backend::Postgres).await;
            }
        }
    };
    ($name:ident) => {
        $crate::common::sqlite_and_postgres!($name => $name);
    };
}
#[allow(unused_imports)]
pub(crate) use sqlite_and_postgres;

/// A database that exists for one test.
pub enum TestDb {
    Sqlite {
        _dir: tempfile::TempDir,
        url: String,
    },
    Postgres {
        server: String,
        name: String,
        url: String,
    },
}

impl TestDb {
    /// `None` means "skip": Postgres was asked for and is not configured outside CI.
    pub async fn create(backend: Backend) -> Option<TestDb> {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}", dir.path().join("crease.db").display());
                Some(TestDb::Sqlite { _dir: dir, url })
            }
            Backend::Postgres => {
                let Ok(admin) = std::env::var("TEST_DATABASE_URL") else {
                    if std::env::var("CI").as_deref() == Ok("true") {
                        panic!("CI=true but TEST_DATABASE_URL is unset: the Postgres tests must run");
                    }
                    eprintln!("skipping: set TEST_DATABASE_URL=postgres://... to run the Postgres tests");
                    return None;
                };
                let name = format!("test_{}", uuid::Uuid::new_v4().simple());
                let server = admin
                    .rsplit_once('/')
                    .map_or(admin.as_str(), |(server, _)| server)
                    .to_string();
                let mut connection = <sqlx::PgConnection as sqlx::Connection>::connect(&admin)
                    .await
                    .expect("connect to TEST_DATABASE_URL");
                // Concurrent CREATE DATABASE calls can collide on template1: retry briefly.
                let mut attempt = 0;
                while let Err(error) = sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                    .execute(&mut connection)
                    .await
                {
                    attempt += 1;
                    assert!(attempt < 20, "create the test database: {error}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                let url = format!("{server}/{name}");
                Some(TestDb::Postgres {
                    server: admin,
                    name,
                    url,
                })
            }
        }
    }

    pub fn url(&self) -> &str {
        match self {
            TestDb::Sqlite { url, .. } | TestDb::Postgres { url, .. } => url,
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let TestDb::Postgres { server, name, .. } = self {
            let (server, name) = (server.clone(), name.clone());
            // Drop runs inside the test's runtime, which must not block: use a thread of our own.
            let _ = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()?;
                runtime
                    .block_on(async move {
                        let mut connection =
                            <sqlx::PgConnection as sqlx::Connection>::connect(&server).await?;
                        let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                        sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
                            .execute(&mut connection)
                            .await?;
                        Ok::<_, sqlx::Error>(())
                    })
                    .map_err(std::io::Error::other)
            })
            .join();
        }
    }
}

pub fn toy_games() -> GameRegistry {
    GameRegistry::new().register::<toy::Toy>()
}

pub struct TestApp {
    pub app: Option<Application>,
    pub db: TestDb,
    pub config: ServeConfig,
    pub games: GameRegistry,
    pub base: String,
    pub http: reqwest::Client,
}

pub async fn spawn_app(games: GameRegistry) -> TestApp {
    spawn_app_on(Backend::Sqlite, games)
        .await
        .expect("SQLite is always available")
}

pub async fn spawn_app_on(backend: Backend, games: GameRegistry) -> Option<TestApp> {
    spawn_app_with(backend, games, |_| {}).await
}

/// The app with some settings changed from the defaults (`None`: Postgres is not configured).
pub async fn spawn_app_with(
    backend: Backend,
    games: GameRegistry,
    configure: impl FnOnce(&mut ServeConfig),
) -> Option<TestApp> {
    let db = TestDb::create(backend).await?;
    let mut config = ServeConfig::for_database(db.url());
    configure(&mut config);
    Some(TestApp::launch(db, config, games).await)
}

/// For tests that pause tokio's clock. A paused clock jumps to the next timer whenever the
/// runtime idles, including while SQLite works on its own thread, so each period of a
/// periodic timer is a jump: the sockets' 30 s pings would carry the clock forward by
/// minutes or hours before the write lands. Pinging every second keeps those jumps as
/// small as the matchmaking ticker's; a day's pong deadline never closes a test client. The
/// database's bounds are tokio timers too, so they get a day as well: a healthy SQLite write
/// must not look timed out because the paused clock leapt while it ran.
pub fn for_paused_clock(config: &mut ServeConfig) {
    const DAY_MS: u64 = 24 * 60 * 60 * 1000;
    config.connections.ws_ping_interval = Duration::from_secs(1);
    config.connections.ws_pong_deadline = Duration::from_millis(DAY_MS);
    config.db.db_timeout_ms = DAY_MS;
    config.db.db_transaction_timeout_ms = DAY_MS;
}

impl TestApp {
    /// Builds the app from `config` on port 0; `db` is what keeps its database alive.
    pub async fn launch(db: TestDb, config: ServeConfig, games: GameRegistry) -> TestApp {
        let app = Application::build(&config, games.clone())
            .await
            .expect("build the app");
        let base = format!("http://{}", app.address());
        TestApp {
            app: Some(app),
            db,
            config,
            games,
            base,
            http: reqwest::Client::new(),
        }
    }

    pub fn app(&self) -> &Application {
        self.app.as_ref().expect("the app is running")
    }

    /// Stops the server gracefully and starts a new one on the same database (new port).
    pub async fn restart(&mut self) {
        if let Some(app) = self.app.take() {
            app.shutdown().await;
        }
        let app = Application::build(&self.config, self.games.clone())
            .await
            .expect("rebuild the app");
        self.base = format!("http://{}", app.address());
        self.app = Some(app);
    }

    pub async fn stop(mut self) {
        if let Some(app) = self.app.take() {
            app.shutdown().await;
        }
    }

    pub async fn player(&self, name: &str) -> PlayerCreated {
        let response = self.post("/v1/players", None, json!({ "name": name })).await;
        assert_eq!(response.0, 201, "{}", response.1);
        serde_json::from_value(response.1).expect("player body")
    }

    /// `(status, body)` of a POST.
    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("POST");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut request = self.http.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("GET");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn delete(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut request = self.http.delete(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("DELETE");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// Two players in one live match of `game`: `(match, seat-0 player, seat-1 player)`.
    /// Two new players and a match of `game` that home created and away has not joined yet.
    pub async fn open_match(&self, game: &str, options: Value) -> (String, PlayerCreated, PlayerCreated) {
        let (home, away) = (self.player("home").await, self.player("away").await);
        let body = json!({ "game": game, "options": options });
        let (status, created) = self.post("/v1/matches", Some(&home.token), body).await;
        assert_eq!(status, 201, "{created}");
        let match_id = created["match_id"].as_str().expect("match id").to_string();
        (match_id, home, away)
    }

    pub async fn live_match(&self, game: &str, options: Value) -> (MatchInfo, PlayerCreated, PlayerCreated) {
        let (match_id, home, away) = self.open_match(game, options).await;
        let (status, joined) = self
            .post(
                &format!("/v1/matches/{match_id}/join"),
                Some(&away.token),
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{joined}");
        let info: MatchInfo = serde_json::from_value(joined).expect("match info");
        assert_eq!(info.status, crease::record::MatchStatus::Live);
        (info, home, away)
    }

    pub async fn connect(&self, match_id: &str, token: Option<&str>, resume_from: Option<i64>) -> Client {
        self.connect_with(match_id, token, resume_from, None).await
    }

    /// As [`TestApp::connect`], asking for a protocol version (`?protocol=N`).
    pub async fn connect_with(
        &self,
        match_id: &str,
        token: Option<&str>,
        resume_from: Option<i64>,
        protocol: Option<u32>,
    ) -> Client {
        connect_at(&self.base, match_id, token, resume_from, protocol).await
    }
}

/// A match socket on the server at `base` (a [`TestApp`]'s, or a child process's).
pub async fn connect_at(
    base: &str,
    match_id: &str,
    token: Option<&str>,
    resume_from: Option<i64>,
    protocol: Option<u32>,
) -> Client {
    let mut url = format!("{}/v1/matches/{match_id}/ws", base.replacen("http", "ws", 1));
    let mut query = Vec::new();
    if let Some(token) = token {
        query.push(format!("token={token}"));
    }
    if let Some(seq) = resume_from {
        query.push(format!("resume_from={seq}"));
    }
    if let Some(version) = protocol {
        query.push(format!("protocol={version}"));
    }
    if !query.is_empty() {
        url = format!("{url}?{}", query.join("&"));
    }
    let (socket, _) = tokio_tungstenite::connect_async_with_config(url.as_str(), None, true)
        .await
        .expect("WebSocket connect");
    Client {
        socket,
        transcript: Vec::new(),
        frames: Vec::new(),
        next_id: 0,
        timeout: Some(Duration::from_secs(30)),
    }
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket client that keeps every server message it received, in order.
pub struct Client {
    pub socket: Socket,
    pub transcript: Vec<ServerMessage>,
    /// Every text frame received, exactly as sent (what a test of the wire format reads).
    pub frames: Vec<String>,
    next_id: u64,
    /// Real-time guard against a hung test; `None` under paused time, where it would fire early.
    pub timeout: Option<Duration>,
}

/// What the socket delivered next.
#[derive(Debug)]
pub enum Received {
    Message(Box<ServerMessage>),
    Closed(Option<u16>),
}

impl Client {
    pub async fn next(&mut self) -> Received {
        loop {
            let frame = match self.timeout {
                Some(limit) => tokio::time::timeout(limit, self.socket.next())
                    .await
                    .expect("server went quiet"),
                None => self.socket.next().await,
            };
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let message: ServerMessage = serde_json::from_str(&text).expect("a valid server message");
                    self.frames.push(text.to_string());
                    self.transcript.push(message.clone());
                    return Received::Message(Box::new(message));
                }
                Some(Ok(Message::Close(frame))) => return Received::Closed(frame.map(|f| u16::from(f.code))),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return Received::Closed(None),
            }
        }
    }

    pub async fn recv(&mut self) -> ServerMessage {
        match self.next().await {
            Received::Message(message) => *message,
            Received::Closed(code) => panic!("socket closed ({code:?}) while a message was expected"),
        }
    }

    /// Reads past events and views to the next error frame.
    pub async fn recv_until_error(&mut self) -> ServerMessage {
        loop {
            if let message @ ServerMessage::Error(_) = self.recv().await {
                return message;
            }
        }
    }

    pub async fn send_text(&mut self, text: String) {
        self.socket.send(Message::Text(text.into())).await.expect("send");
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.socket
            .send(Message::Binary(bytes.into()))
            .await
            .expect("send");
    }

    /// Sends a command and returns its id.
    pub async fn command(&mut self, command: Value) -> String {
        self.send_command(command, None).await
    }

    /// Sends a command decided after seeing seq `after`; returns its id.
    pub async fn command_after(&mut self, command: Value, after: i64) -> String {
        self.send_command(command, Some(after)).await
    }

    async fn send_command(&mut self, command: Value, after: Option<i64>) -> String {
        self.next_id += 1;
        let id = format!("c{}", self.next_id);
        let message = ClientMessage::Command {
            id: id.clone(),
            after,
            command,
        };
        self.send_text(serde_json::to_string(&message).expect("encode"))
            .await;
        id
    }

    /// Sends an `adjourn` message (`offer`, `accept`, `decline`, `withdraw`); returns its id.
    pub async fn adjourn(&mut self, action: &str, resume_at: Option<&str>) -> String {
        self.next_id += 1;
        let id = format!("a{}", self.next_id);
        let mut message = json!({ "type": "adjourn", "id": id, "action": action });
        if let Some(at) = resume_at {
            message["resume_at"] = json!(at);
        }
        self.send_text(message.to_string()).await;
        id
    }

    /// Reads until the next `adjournment` frame.
    pub async fn adjournment(&mut self) -> crease::protocol::AdjournmentView {
        loop {
            if let ServerMessage::Adjournment(view) = self.recv().await {
                return view;
            }
        }
    }

    /// Reads until the answer to command `id` (ack or error).
    pub async fn answer(&mut self, id: &str) -> ServerMessage {
        loop {
            match self.recv().await {
                ServerMessage::Ack { id: got, .. } if got == id => {
                    return ServerMessage::Ack { id: got, last_seq: 0 };
                }
                ServerMessage::Error(error) if error.id.as_deref() == Some(id) => {
                    return ServerMessage::Error(error);
                }
                _ => continue,
            }
        }
    }

    /// Both seats of a toy match pick `value` for `rounds` rounds, each pick acked.
    pub async fn play_toy_rounds(home: &mut Client, away: &mut Client, rounds: usize, value: u8) {
        for _ in 0..rounds {
            for client in [&mut *home, &mut *away] {
                let id = client.command(json!({ "type": "pick", "value": value })).await;
                assert!(matches!(client.answer(&id).await, ServerMessage::Ack { .. }));
            }
        }
    }

    /// Plays with `G::bot_command` from the views received until the match finishes;
    /// returns the result. Speaks either protocol: a protocol 2 step is read as the update
    /// it stands for (its merge patch applied to the view held).
    pub async fn play_to_end<G: Game>(&mut self, seed: u64) -> crease::rules::Outcome {
        self.try_play_to_end::<G>(seed).await.expect("a result")
    }

    async fn try_play_to_end<G: Game>(&mut self, seed: u64) -> Option<crease::rules::Outcome> {
        let mut dice = Dice::new(&Seed::from_u64(seed));
        let mut seat: Option<Seat> = self
            .transcript
            .iter()
            .rev()
            .find_map(|message| match message {
                ServerMessage::Snapshot(snapshot) => Some(snapshot.seat),
                _ => None,
            })
            .flatten();
        let mut awaiting: Option<String> = None;
        // The latest view: acted on when it arrives, or when the ack that blocked acting on
        // it arrives (a seat is often asked again by the very batch its command produced).
        // It starts as the last view already received, in case the game waits for us now.
        let mut latest: Option<ServerMessage> =
            self.transcript.iter().rev().find_map(|message| match message {
                ServerMessage::Snapshot(_) | ServerMessage::Update(_) => Some(message.clone()),
                ServerMessage::Step(step) => Some(ServerMessage::Update(Update {
                    last_seq: step.last_seq,
                    view: self.view_now(),
                    pending: step.pending.clone(),
                    deadline_ms: step.deadline_ms,
                    timed_out: step.timed_out,
                })),
                _ => None,
            });
        let mut replay = latest.clone();
        let mut held = self.view_now();
        loop {
            let next = match replay.take() {
                Some(message) => message,
                None => match self.recv().await {
                    // The view a protocol 2 socket holds from now on (a socket whose snapshot
                    // had not arrived yet when play began).
                    ServerMessage::Snapshot(snapshot) => {
                        held = snapshot.view.clone();
                        ServerMessage::Snapshot(snapshot)
                    }
                    ServerMessage::Step(step) => {
                        json_patch::merge(&mut held, &step.view);
                        ServerMessage::Update(Update {
                            last_seq: step.last_seq,
                            view: held.clone(),
                            pending: step.pending,
                            deadline_ms: step.deadline_ms,
                            timed_out: step.timed_out,
                        })
                    }
                    other => other,
                },
            };
            if matches!(next, ServerMessage::Snapshot(_) | ServerMessage::Update(_)) {
                latest = Some(next.clone());
            }
            let (view, pending) = match next {
                ServerMessage::Snapshot(snapshot) => {
                    seat = snapshot.seat;
                    if let Some(result) = snapshot.result {
                        return Some(result);
                    }
                    (snapshot.view, snapshot.pending)
                }
                ServerMessage::Update(update) => (update.view, update.pending),
                ServerMessage::Ack { id, .. } => {
                    assert_eq!(awaiting.as_deref(), Some(id.as_str()));
                    awaiting = None;
                    replay = latest.clone();
                    continue;
                }
                ServerMessage::Error(error) => panic!("a bot move was refused: {error:?}"),
                ServerMessage::Finished { result, .. } => return Some(result),
                _ => continue,
            };
            let mine = seat.expect("a seated client");
            if awaiting.is_none() && pending.contains(&mine) {
                let view: G::View = serde_json::from_value(view).expect("the game's view");
                if let Some(command) = G::bot_command(&view, BotPolicy::Random, &mut dice) {
                    let command = serde_json::to_value(command).expect("encode command");
                    awaiting = Some(self.command(command).await);
                }
            }
        }
    }

    /// The events (seq, payload) this client received, in order, in either protocol.
    pub fn events(&self) -> Vec<(i64, Value)> {
        self.transcript
            .iter()
            .flat_map(|message| match message {
                ServerMessage::Event { seq, event } => vec![(*seq, event.clone())],
                ServerMessage::Step(step) => step.events.clone(),
                _ => Vec::new(),
            })
            .collect()
    }

    /// The view this client holds now: the last snapshot's or update's, with every later
    /// protocol 2 step applied.
    pub fn view_now(&self) -> Value {
        let mut view = Value::Null;
        for message in &self.transcript {
            match message {
                ServerMessage::Snapshot(snapshot) => view = snapshot.view.clone(),
                ServerMessage::Update(update) => view = update.view.clone(),
                ServerMessage::Step(step) => json_patch::merge(&mut view, &step.view),
                _ => {}
            }
        }
        view
    }
}

/// Everything a log subscriber writes, from every thread, to check what it must never say.
#[derive(Clone, Default)]
pub struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().map(|bytes| bytes.clone()).unwrap_or_default()).into_owned()
    }
}

/// A metric from a server's `/metrics`: the sum of the series named `name` (a gauge, a
/// counter, or a histogram's `_count`) whose lines contain every `filter` (label text).
pub async fn metric(http: &reqwest::Client, base: &str, name: &str, filters: &[&str]) -> f64 {
    let text = http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .expect("GET /metrics")
        .text()
        .await
        .expect("metrics text");
    text.lines()
        .filter(|line| {
            let series = line.split([' ', '{']).next().unwrap_or_default();
            series == name && filters.iter().all(|filter| line.contains(filter))
        })
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum::<f64>()
        // An empty sum is -0.0; report it as 0.
        + 0.0
}

/// The typed id of a match id the server sent: the store's and the lobby's calls take it.
pub fn match_id(id: &str) -> MatchId {
    MatchId::parse(id).expect("a match id")
}

/// The typed id of a player id the server sent.
pub fn player_id(id: &str) -> PlayerId {
    PlayerId::parse(id).expect("a player id")
}

/// The typed id of a ticket id the server sent.
pub fn ticket_id(id: &str) -> TicketId {
    TicketId::parse(id).expect("a ticket id")
}

/// Gives a player a rating in one pool, as if earned (seeding tests).
pub async fn set_rating(app: &TestApp, player_id: &str, game: &str, format: &str, rating: f64) {
    const SQL: &str = "INSERT INTO rating (player_id, game, format, rating, deviation, volatility, matches, wins, updated_at) \
         VALUES ($1, $2, $3, $4, 60.0, 0.06, 20, 10, $5)";
    let now = chrono::Utc::now();
    match app.app().store() {
        crease::store::Store::Sqlite(pool) => {
            sqlx::query(SQL)
                .bind(player_id)
                .bind(game)
                .bind(format)
                .bind(rating)
                .bind(now)
                .execute(pool)
                .await
                .expect("insert a rating");
        }
        crease::store::Store::Postgres(pool) => {
            sqlx::query(SQL)
                .bind(player_id)
                .bind(game)
                .bind(format)
                .bind(rating)
                .bind(now)
                .execute(pool)
                .await
                .expect("insert a rating");
        }
    }
}
