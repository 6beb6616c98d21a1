//! Support for the drills (`tests/server/drill_kill.rs`, `tests/server/cluster.rs`,
//! `tests/drill_fuzz.rs`): the `crease` binary as a child process that a test can SIGKILL, and
//! a remote seat that plays through a server restart and records every ack it was given.
//!
//! The seat reads frames as raw JSON rather than as `ServerMessage`, so a frame type or an
//! error code another change adds makes a drill fail on an assertion that names it, not on a
//! decoding panic deep in the client.
#![allow(dead_code)]

pub mod mutate;

use crease::matches::GameKind;
use crease::rules::{BotPolicy, Dice, Seed};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{Notify, watch};
use tokio_tungstenite::tungstenite::Message;

/// The binary the drills run: the release build CI exports as `CREASE_RELEASE_BIN`.
///
/// Locally the test's own debug build stands in (with a note, since the drill then says
/// less about what ships); under `CI=true` a missing release binary fails the drill rather
/// than silently testing something else.
pub fn server_binary() -> PathBuf {
    match std::env::var_os("CREASE_RELEASE_BIN") {
        Some(path) => {
            let path = PathBuf::from(path);
            assert!(
                path.is_file(),
                "CREASE_RELEASE_BIN={} is not a file",
                path.display()
            );
            path
        }
        None => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true but CREASE_RELEASE_BIN is unset: the drill must run the release binary \
                 (.ci/run builds it and exports the path)"
            );
            let path = PathBuf::from(env!("CARGO_BIN_EXE_crease"));
            eprintln!(
                "note: CREASE_RELEASE_BIN is unset; drilling the test build {} instead",
                path.display()
            );
            path
        }
    }
}

/// One `crease serve` child process on a free port.
pub struct ServerProcess {
    child: tokio::process::Child,
    pub base: String,
    /// Its cluster node id, when it runs as a node of a cluster.
    pub node: Option<String>,
}

impl ServerProcess {
    /// Starts the server on `database_url` and waits (bounded) for its "serving" log line,
    /// which carries the port it bound: port 0 leaves the choice to the kernel, so parallel
    /// tests never race for a port.
    pub async fn start(binary: &PathBuf, database_url: &str) -> ServerProcess {
        ServerProcess::start_with(binary, database_url, &[]).await
    }

    /// As [`ServerProcess::start`], with more `crease serve` flags (a cluster node's, say).
    pub async fn start_with(binary: &PathBuf, database_url: &str, flags: &[String]) -> ServerProcess {
        let mut child = tokio::process::Command::new(binary)
            .args(["serve", "--bind", "127.0.0.1:0", "--log-json"])
            .args(["--database-url", database_url])
            .args(flags)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            // The server logs to stderr; its stdout stays quiet.
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            // A failing test must not leave a server behind.
            .kill_on_drop(true)
            .spawn()
            .expect("start crease serve");
        let stderr = child.stderr.take().expect("piped stderr");
        let mut lines = BufReader::new(stderr).lines();
        let address = tokio::time::timeout(Duration::from_secs(60), async {
            while let Some(line) = lines.next_line().await.expect("read the server's log") {
                let Ok(entry) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                if entry["fields"]["message"] == "crease is serving" {
                    let address = entry["fields"]["address"]
                        .as_str()
                        .expect("the serving line names its address")
                        .to_string();
                    return (address, entry["fields"]["node"].as_str().map(str::to_string));
                }
            }
            panic!("crease serve exited before serving");
        })
        .await
        .expect("crease serve did not start within 60 s");
        let (address, node) = address;
        // Keep draining the log so the child never blocks on a full pipe; CREASE_TEST_LOGS=1
        // shows it.
        let echo = std::env::var("CREASE_TEST_LOGS").is_ok();
        let label = address.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                if echo {
                    eprintln!("[{label}] {line}");
                }
            }
        });
        ServerProcess {
            child,
            base: format!("http://{address}"),
            node,
        }
    }

    /// Sends a signal by name (`STOP`, `CONT`, `TERM`) with the system's `kill`.
    pub fn signal(&self, signal: &str) {
        let pid = self.child.id().expect("the server is running");
        let status = std::process::Command::new("kill")
            .args([format!("-{signal}"), pid.to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -{signal} {pid} failed");
    }

    /// Waits (bounded) for the process to exit by itself; returns whether it exited cleanly.
    pub async fn exited_within(mut self, limit: Duration) -> bool {
        let status = tokio::time::timeout(limit, self.child.wait())
            .await
            .unwrap_or_else(|_| panic!("the server did not exit within {limit:?}"))
            .expect("wait for the server");
        status.success()
    }

    /// SIGKILL: no graceful shutdown, no flush, exactly like a crashed host or an OOM kill.
    pub async fn kill(mut self) {
        self.child.start_kill().expect("SIGKILL the server");
        let status = tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .expect("the killed server exits")
            .expect("wait for the server");
        assert!(!status.success(), "killed, not exited cleanly: {status:?}");
    }
}

/// A command the server acked, as the seat sent it.
#[derive(Clone, Debug)]
pub struct Acked {
    pub id: String,
    pub command: Value,
    pub last_seq: i64,
    /// When the command was sent and when its ack arrived (failover times are measured
    /// from a kill to the first ack of a command sent after it).
    pub sent_at: std::time::Instant,
    pub at: std::time::Instant,
    /// The seat's connection it came on (1 = the first).
    pub connection: usize,
}

/// What the seats of a drill share: ack counts for deciding when to kill, and the current
/// server address (it changes with every restart).
pub struct Drill {
    /// Acks so far, per slot (the drill chooses: one per match, or one per seat).
    pub acks: Vec<AtomicUsize>,
    pub in_flight: AtomicUsize,
    pub progress: Notify,
    pub server: watch::Sender<String>,
    /// After a dropped socket, try the current server again this often (a cluster, where
    /// another node takes over), instead of waiting for the drill to start a new server.
    pub retry_every: Option<Duration>,
}

impl Drill {
    pub fn new(base: &str, seats: usize) -> Arc<Drill> {
        Arc::new(Drill {
            acks: (0..seats).map(|_| AtomicUsize::new(0)).collect(),
            in_flight: AtomicUsize::new(0),
            progress: Notify::new(),
            server: watch::Sender::new(base.to_string()),
            retry_every: None,
        })
    }

    /// A drill whose seats reconnect on their own, every `every`, to the current server.
    pub fn retrying(base: &str, seats: usize, every: Duration) -> Arc<Drill> {
        Arc::new(Drill {
            acks: (0..seats).map(|_| AtomicUsize::new(0)).collect(),
            in_flight: AtomicUsize::new(0),
            progress: Notify::new(),
            server: watch::Sender::new(base.to_string()),
            retry_every: Some(every),
        })
    }

    pub fn ack_counts(&self) -> Vec<usize> {
        self.acks
            .iter()
            .map(|count| count.load(Ordering::SeqCst))
            .collect()
    }

    /// Waits (at most `limit`) until every slot has `more` acks over `since` and some
    /// command is sent and not yet acked: every match is mid-play, the moment to pull the plug.
    /// Returns the ack counts and the commands in flight at that moment.
    pub async fn until_every_slot_acked(
        &self,
        since: &[usize],
        more: usize,
        limit: Duration,
    ) -> (Vec<usize>, usize) {
        let waited = tokio::time::timeout(limit, async {
            loop {
                let notified = self.progress.notified();
                let counts = self.ack_counts();
                let pending = self.in_flight.load(Ordering::SeqCst);
                if counts.iter().zip(since).all(|(now, then)| *now >= then + more) && pending > 0 {
                    return (counts, pending);
                }
                notified.await;
            }
        })
        .await;
        waited.unwrap_or_else(|_| {
            panic!(
                "not every seat got {more} more acks within {limit:?}: {:?} since {since:?}",
                self.ack_counts()
            )
        })
    }
}

/// A command that was in flight when the server died: no ack ever came for it.
#[derive(Clone, Debug)]
pub struct Unacked {
    pub command: Value,
    /// The last seq the seat had seen when it sent the command.
    pub sent_after: i64,
    /// The snapshot's `last_seq` on the next connection: the command, if the server wrote it
    /// before it died, is in `(sent_after, resumed_at]`.
    pub resumed_at: Option<i64>,
}

/// How one seat's play ended.
#[derive(Debug)]
pub struct SeatRecord {
    pub game: &'static str,
    pub match_id: String,
    pub seat: u64,
    pub acked: Vec<Acked>,
    /// Seqs of the events this seat received, in arrival order, across every connection.
    pub event_seqs: Vec<i64>,
    pub connections: usize,
    /// When each connection opened.
    pub connected_at: Vec<std::time::Instant>,
    pub unacked: Vec<Unacked>,
    pub result: Value,
}

enum Ended {
    Finished(Value),
    Dropped,
}

/// One remote player in one match: plays with the game's own bot from the views it gets,
/// and when the socket drops, waits for the next server and resumes from the last event it had.
pub struct RemoteSeat {
    pub game: Arc<dyn GameKind>,
    pub match_id: String,
    pub token: String,
    pub drill: Arc<Drill>,
    /// Where this seat's acks are counted in the drill.
    pub slot: usize,
    pub dice: Dice,
    pub record: SeatRecord,
    next_id: u64,
    /// The command sent on the current connection and not yet answered.
    in_flight: Option<(String, Value)>,
    /// The highest seq this seat has seen (events, views, acks).
    known_seq: i64,
    /// The seq `known_seq` had when the command in flight was sent.
    sent_after: i64,
    /// When the command in flight was sent.
    sent_at: std::time::Instant,
}

impl RemoteSeat {
    pub fn new(
        game: Arc<dyn GameKind>,
        match_id: &str,
        token: &str,
        (drill, slot): (Arc<Drill>, usize),
        seed: u64,
    ) -> Self {
        RemoteSeat {
            game: game.clone(),
            match_id: match_id.to_string(),
            token: token.to_string(),
            drill,
            slot,
            dice: Dice::new(&Seed::from_u64(seed)),
            record: SeatRecord {
                game: game.id(),
                match_id: match_id.to_string(),
                seat: u64::MAX,
                acked: Vec::new(),
                event_seqs: Vec::new(),
                connections: 0,
                connected_at: Vec::new(),
                unacked: Vec::new(),
                result: Value::Null,
            },
            next_id: 0,
            in_flight: None,
            known_seq: 0,
            sent_after: 0,
            sent_at: std::time::Instant::now(),
        }
    }

    /// Plays to the end of the match, through any number of server restarts.
    pub async fn play(mut self) -> SeatRecord {
        let mut server = self.drill.server.subscribe();
        let mut dropped_since: Option<std::time::Instant> = None;
        loop {
            let base = server.borrow_and_update().clone();
            let resume = self.record.event_seqs.last().copied();
            let url = format!(
                "{}/v1/matches/{}/ws?token={}{}",
                base.replacen("http", "ws", 1),
                self.match_id,
                self.token,
                resume.map_or(String::new(), |seq| format!("&resume_from={seq}"))
            );
            let ended = match tokio_tungstenite::connect_async(url.as_str()).await {
                Ok((socket, _)) => {
                    self.record.connections += 1;
                    self.record.connected_at.push(std::time::Instant::now());
                    dropped_since = None;
                    self.play_on(socket, resume.is_some()).await
                }
                Err(_) => Ended::Dropped,
            };
            match ended {
                Ended::Finished(result) => {
                    self.record.result = result;
                    return self.record;
                }
                Ended::Dropped if self.drill.retry_every.is_some() => {
                    self.lose_in_flight();
                    let every = self.drill.retry_every.unwrap_or_default();
                    let since = *dropped_since.get_or_insert_with(std::time::Instant::now);
                    assert!(
                        since.elapsed() < Duration::from_secs(120),
                        "match {}: no node served it for 120 s",
                        self.match_id
                    );
                    tokio::time::sleep(every).await;
                }
                Ended::Dropped => {
                    self.lose_in_flight();
                    // The server is gone: wait for the drill to start the next one.
                    tokio::time::timeout(Duration::from_secs(120), server.changed())
                        .await
                        .expect("no server restart within 120 s")
                        .expect("the drill ended while a seat was still playing");
                }
            }
        }
    }

    /// Where the server was when the seat came back: a command lost in flight is either in
    /// the log by then or never.
    fn resumed_at(&mut self, last_seq: i64) {
        if let Some(lost) = self
            .record
            .unacked
            .last_mut()
            .filter(|lost| lost.resumed_at.is_none())
        {
            lost.resumed_at = Some(last_seq);
        }
    }

    fn lose_in_flight(&mut self) {
        if let Some((_, command)) = self.in_flight.take() {
            self.record.unacked.push(Unacked {
                command,
                sent_after: self.sent_after,
                resumed_at: None,
            });
            self.drill.in_flight.fetch_sub(1, Ordering::SeqCst);
        }
    }

    async fn play_on<S>(&mut self, mut socket: tokio_tungstenite::WebSocketStream<S>, resuming: bool) -> Ended
    where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
    {
        // A resume's snapshot is the match as of `resume_from`; the update that closes its
        // backlog is where the server was when the seat came back.
        let mut catching_up = false;
        // The latest view and who it asks to act. A seat is often asked again by the batch
        // its own command produced, which arrives before that command's ack: the ack
        // re-examines it.
        let mut latest: Option<(Value, Vec<u64>)> = None;
        loop {
            let frame = match tokio::time::timeout(Duration::from_secs(60), socket.next()).await {
                Ok(frame) => frame,
                Err(_) => panic!("match {}: the server went quiet for 60 s", self.match_id),
            };
            let text = match frame {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return Ended::Dropped,
                Some(Ok(_)) => continue,
            };
            let message: Value = serde_json::from_str(&text).expect("the server sends JSON");
            match message["type"].as_str().unwrap_or_default() {
                "snapshot" => {
                    if let Some(seat) = message["seat"].as_u64() {
                        self.record.seat = seat;
                    }
                    let last_seq = message["last_seq"].as_i64().expect("a snapshot's last_seq");
                    catching_up = resuming && message["result"].is_null();
                    if !catching_up {
                        self.resumed_at(last_seq);
                    }
                    self.known_seq = self.known_seq.max(last_seq);
                    if !message["result"].is_null() {
                        return Ended::Finished(message["result"].clone());
                    }
                    latest = Some(view_of(&message));
                }
                "update" => {
                    let last_seq = message["last_seq"].as_i64().expect("an update's last_seq");
                    if std::mem::take(&mut catching_up) {
                        self.resumed_at(last_seq);
                    }
                    self.known_seq = self.known_seq.max(last_seq);
                    latest = Some(view_of(&message));
                }
                "event" => {
                    let seq = message["seq"].as_i64().expect("an event's seq");
                    self.record.event_seqs.push(seq);
                    self.known_seq = self.known_seq.max(seq);
                }
                "ack" => {
                    let (id, command) = self.in_flight.take().expect("an ack answers a command in flight");
                    assert_eq!(message["id"], id.as_str(), "acks answer commands in order");
                    let last_seq = message["last_seq"].as_i64().expect("an ack's last_seq");
                    self.known_seq = self.known_seq.max(last_seq);
                    self.record.acked.push(Acked {
                        sent_at: self.sent_at,
                        connection: self.record.connections,
                        at: std::time::Instant::now(),
                        id,
                        command,
                        last_seq,
                    });
                    self.drill.in_flight.fetch_sub(1, Ordering::SeqCst);
                    self.drill.acks[self.slot].fetch_add(1, Ordering::SeqCst);
                    self.drill.progress.notify_waiters();
                }
                "finished" => return Ended::Finished(message["result"].clone()),
                // In a cluster: the match moved to another node, or its node did not answer
                // in time. The command was not acked; the seat resumes and finds out.
                "error"
                    if matches!(
                        message["code"].as_str(),
                        Some("match_moved" | "unavailable" | "in_doubt")
                    ) =>
                {
                    return Ended::Dropped;
                }
                "error" => panic!(
                    "match {}: a bot's move from its own view was refused: {message}",
                    self.match_id
                ),
                _ => continue,
            }
            let Some((view, pending)) = &latest else {
                continue;
            };
            if self.in_flight.is_some() || !pending.contains(&self.record.seat) {
                continue;
            }
            let command = self
                .game
                .bot_command(&view.to_string(), BotPolicy::Heuristic, &mut self.dice)
                .expect("the game's bot reads its view");
            let Some(command) = command else {
                continue;
            };
            self.next_id += 1;
            let id = format!("c{}", self.next_id);
            let frame = json!({ "type": "command", "id": id, "command": command });
            self.in_flight = Some((id, command));
            self.sent_after = self.known_seq;
            self.sent_at = std::time::Instant::now();
            self.drill.in_flight.fetch_add(1, Ordering::SeqCst);
            self.drill.progress.notify_waiters();
            if socket
                .send(Message::Text(frame.to_string().into()))
                .await
                .is_err()
            {
                return Ended::Dropped;
            }
        }
    }
}

/// Checks one seat against the server after the restarts (or failovers); returns how many
/// acks it proved. `connections`: the sockets the seat must have opened, if known.
pub async fn check_seat(
    http: &reqwest::Client,
    base: &str,
    record: &SeatRecord,
    connections: Option<usize>,
) -> usize {
    let id = &record.match_id;
    // E.g. connected before the first kill, played through every one, finished after the last.
    if let Some(connections) = connections {
        assert_eq!(
            record.connections, connections,
            "match {id} seat {}: sockets opened (a short match? make it longer)",
            record.seat
        );
    }
    let (status, info) = get(http, &format!("{base}/v1/matches/{id}")).await;
    assert_eq!(status, 200, "{info}");
    assert_eq!(info["status"], "finished", "{info}");
    assert_eq!(
        info["result"], record.result,
        "the socket and the server agree on the result"
    );

    let (status, log) = get(http, &format!("{base}/v1/matches/{id}/log")).await;
    assert_eq!(status, 200, "{log}");
    let entries = log["entries"].as_array().expect("log entries");
    let at = |seq: i64| entries.iter().find(|entry| entry["seq"] == seq);

    // Every acked command: the last command entry at or before the ack's last_seq is the one
    // this seat sent, with exactly the content it sent.
    let mut previous = 0;
    for acked in &record.acked {
        assert!(acked.last_seq > previous, "acks move forward: {acked:?}");
        previous = acked.last_seq;
        assert!(
            at(acked.last_seq).is_some(),
            "match {id}: the acked seq {acked:?} is not in the log"
        );
        let command = entries
            .iter()
            .rev()
            .find(|entry| entry["kind"] == "command" && entry["seq"].as_i64() <= Some(acked.last_seq))
            .unwrap_or_else(|| panic!("match {id}: no command at or before {acked:?}"));
        assert_eq!(
            command["payload"]["seat"], record.seat,
            "match {id}: {acked:?} vs {command}"
        );
        assert_eq!(command["payload"]["source"], "player", "match {id}: {command}");
        assert_eq!(
            command["payload"]["command"], acked.command,
            "match {id}: the log holds a different command at the ack's seq"
        );
    }

    // Resuming delivered every event once and in order, and each is in the log.
    assert!(
        record.event_seqs.windows(2).all(|pair| pair[0] < pair[1]),
        "match {id} seat {}: events repeated or out of order across the restarts",
        record.seat
    );
    for seq in &record.event_seqs {
        let entry = at(*seq).unwrap_or_else(|| panic!("match {id}: event {seq} not in the log"));
        assert_eq!(entry["kind"], "event");
    }

    let (status, verify) = get(http, &format!("{base}/v1/matches/{id}/verify")).await;
    assert_eq!(status, 200, "{verify}");
    assert_eq!(verify["status"], "ok", "match {id} does not verify: {verify}");
    record.acked.len()
}

/// A command in flight at a kill was either written whole before the server died (then it is
/// the seat's only command between what it had seen and where it resumed, with the content it
/// sent) or not at all. Returns `(written, not written)`.
pub async fn check_unacked(http: &reqwest::Client, base: &str, record: &SeatRecord) -> (usize, usize) {
    let id = &record.match_id;
    let (_, log) = get(http, &format!("{base}/v1/matches/{id}/log")).await;
    let entries = log["entries"].as_array().expect("log entries");
    let (mut written, mut lost) = (0, 0);
    for unacked in &record.unacked {
        let resumed_at = unacked.resumed_at.expect("the seat reconnected after the kill");
        let mine: Vec<&Value> = entries
            .iter()
            .filter(|entry| {
                let seq = entry["seq"].as_i64().unwrap_or_default();
                entry["kind"] == "command"
                    && entry["payload"]["seat"] == record.seat
                    && entry["payload"]["source"] == "player"
                    && seq > unacked.sent_after
                    && seq <= resumed_at
            })
            .collect();
        match mine.as_slice() {
            [] => lost += 1,
            [entry] => {
                assert_eq!(
                    entry["payload"]["command"], unacked.command,
                    "match {id}: {entry}"
                );
                written += 1;
            }
            more => panic!(
                "match {id}: one command in flight, {} written: {more:?}",
                more.len()
            ),
        }
    }
    (written, lost)
}

fn view_of(message: &Value) -> (Value, Vec<u64>) {
    let pending = message["pending"]
        .as_array()
        .map(|seats| seats.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    (message["view"].clone(), pending)
}

/// Creates a player over HTTP; returns `(player_id, token)`.
pub async fn register(http: &reqwest::Client, base: &str, name: &str) -> (String, String) {
    let response = http
        .post(format!("{base}/v1/players"))
        .json(&json!({ "name": name }))
        .send()
        .await
        .expect("POST /v1/players");
    assert_eq!(response.status().as_u16(), 201);
    let body: Value = response.json().await.expect("player body");
    (
        body["player_id"].as_str().expect("player_id").to_string(),
        body["token"].as_str().expect("token").to_string(),
    )
}

/// `POST` with a bearer token; returns `(status, body)`.
pub async fn post(http: &reqwest::Client, url: &str, token: &str, body: Value) -> (u16, Value) {
    let response = http
        .post(url)
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("POST");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

pub async fn get(http: &reqwest::Client, url: &str) -> (u16, Value) {
    let response = http.get(url).send().await.expect("GET");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}
