//! Issue 25's five defects, one test each, and two that a seeded fault run found, each
//! reproduced through the fault proxy (`tests/common/faults.rs`) between one node and
//! PostgreSQL or NATS (or a node killed):
//!
//! 1. [`one_owner_answers_when_the_owner_loses_postgres_past_its_lease`]: every answer a
//!    command gets is the truth: an acked command is in the log once, a command refused with
//!    anything but `in_doubt` is not in it;
//! 2. [`a_rebuilt_owner_never_sends_an_update_that_skips_events`]: every socket gets every
//!    event after its snapshot, once, in order, before any `update` that covers it;
//! 3. [`a_routed_resume_gets_each_event_once`]: a routed socket opened with `resume_from`
//!    while the match is played quickly never repeats an event;
//! 4. [`a_routed_command_left_in_doubt_is_never_applied_to_a_later_decision`]: a command whose
//!    routed request was cut off, answered within the route timeout, is never applied once
//!    its held bytes reach the owner after the player decided otherwise;
//! 5. [`postgres_latency_costs_the_owner_no_lease`]: 200 ms of latency on the owner's link to
//!    PostgreSQL moves none of its matches;
//! 6. [`a_node_that_let_its_matches_go_takes_back_those_it_still_holds`] (found by the Patroni
//!    drill): a node that let its matches go while cut off, and still holds their leases once
//!    back, runs them again;
//! 7. [`a_routed_socket_resumes_instead_of_skipping_what_nats_lost`] (found by the seeded
//!    fault run): batches lost while a routed node's NATS link was reset make its sockets
//!    resume, never skip;
//! 8. [`a_spectator_resuming_after_a_takeover_gets_the_events_it_missed`] (found by the seeded
//!    fault run): an actor rebuilt from the log keeps the log's recent past for resumes.
//!
//! The players and watchers here are a small WebSocket client of this file's own
//! ([`Socket`], [`Player`]): it records every frame each socket got ([`Transcript`]) and every
//! command with its answer ([`Sent`]), and the checks hold them against the durable log
//! ([`stream_violation`], [`answer_violations`]). Every event entry of the log reaches every
//! viewer (each game redacts an event's hidden parts, none hides an event), so a socket's
//! events must be exactly the log's event seqs after its snapshot.
//!
//! Like the other cluster tests they need `TEST_DATABASE_URL` and `TEST_NATS_URL` and are
//! skipped without them, except under `CI=true`.

use crate::cluster::{TTL_MS, TestCluster, lease, until};
use crate::common::faults::{Fault, FaultProxy};
use crate::common::match_id;
use crate::drills::{ServerProcess, post, register};
use crease::matches::recent::RECENT_EVENTS;
use crease::matches::{GameKind, GameRegistry};
use crease::record::{EntryKind, LogEntry};
use crease::rules::{BotPolicy, Dice, Seed};
use crease::store::Store;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

type WebSocket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

// ---------------------------------------------------------------------------------------------
// What a socket saw, and the checks against the log.

/// One frame as a socket got it (a protocol 2 `step` is its events, then an `Update`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Seen {
    /// `over`: the match had finished (the snapshot is its end: a socket opened on a
    /// finished match gets the final view and result, and reads what came before from `/log`).
    Snapshot {
        last_seq: i64,
        over: bool,
    },
    Event {
        seq: i64,
    },
    Update {
        last_seq: i64,
    },
    Ack {
        id: String,
        last_seq: i64,
    },
    Error {
        id: Option<String>,
        code: String,
    },
    Finished,
    Closed(Option<u16>),
}

/// Everything one socket got, in order.
#[derive(Debug)]
pub(crate) struct Transcript {
    pub(crate) label: String,
    pub(crate) match_id: String,
    /// The `resume_from` the socket was opened with.
    pub(crate) resumed_from: Option<i64>,
    /// Opened without a token.
    pub(crate) spectator: bool,
    pub(crate) seen: Vec<Seen>,
}

/// The first way `transcript` breaks the stream rule against the log's event seqs (`events`,
/// ascending): a socket resumed from a seq of a live match gets a snapshot at that seq (a
/// spectator from further back than the actor's recent past gets the current one, and a
/// match that has finished meanwhile its final one, as documented); after its snapshot,
/// each event is the log's next one (none missed, none repeated, none out of order), and no
/// `update` comes before an event it covers.
fn stream_violation(transcript: &Transcript, events: &[i64]) -> Option<String> {
    let next_after = |seq: i64| events.iter().copied().find(|event| *event > seq);
    let mut cursor: Option<i64> = None;
    for (index, seen) in transcript.seen.iter().enumerate() {
        let at = || format!("{} (frame {index})", transcript.label);
        match *seen {
            Seen::Snapshot { last_seq, over } => {
                if let Some(from) = transcript.resumed_from.filter(|_| !over) {
                    let skipped: Vec<i64> = events
                        .iter()
                        .copied()
                        .filter(|seq| *seq > from && *seq <= last_seq)
                        .collect();
                    let documented = transcript.spectator && skipped.len() > RECENT_EVENTS;
                    if !skipped.is_empty() && !documented {
                        return Some(format!(
                            "{}: resumed from {from}, but its snapshot is at {last_seq}, without the events {skipped:?}",
                            at()
                        ));
                    }
                }
                cursor = Some(last_seq);
            }
            Seen::Event { seq } => {
                let Some(had) = cursor else {
                    return Some(format!("{}: event {seq} before any snapshot", at()));
                };
                if seq <= had {
                    return Some(format!(
                        "{}: event {seq} again (or out of order): the socket was already at {had}",
                        at()
                    ));
                }
                let expected = next_after(had);
                if expected != Some(seq) {
                    return Some(format!(
                        "{}: event {seq} came, but the next event of the log after {had} is {expected:?}",
                        at()
                    ));
                }
                cursor = Some(seq);
            }
            Seen::Update { last_seq } => {
                let Some(had) = cursor else {
                    return Some(format!("{}: update {last_seq} before any snapshot", at()));
                };
                let skipped: Vec<i64> = events
                    .iter()
                    .copied()
                    .filter(|seq| *seq > had && *seq <= last_seq)
                    .collect();
                if !skipped.is_empty() {
                    return Some(format!(
                        "{}: update last_seq={last_seq} after event {had}, without the events {skipped:?}",
                        at()
                    ));
                }
                cursor = Some(had.max(last_seq));
            }
            _ => {}
        }
    }
    None
}

/// A command a player sent, and what it was told.
#[derive(Clone, Debug)]
pub(crate) struct Sent {
    pub(crate) id: String,
    pub(crate) command: Value,
    /// The last seq the socket had when the command was sent (what `after` says, sent or not).
    pub(crate) after: i64,
    pub(crate) with_after: bool,
    pub(crate) node: String,
    pub(crate) sent_at: Instant,
    /// The wall clock at sending, to set beside the log's times in a failure message.
    pub(crate) sent_wall: chrono::DateTime<chrono::Utc>,
    pub(crate) answer: Option<Answer>,
    pub(crate) answered_at: Option<Instant>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Answer {
    Ack(i64),
    Error(String),
}

/// Whether an answer claims the command was not applied (every refusal but `in_doubt`,
/// whose fate the log settles).
fn says_not_applied(answer: &Option<Answer>) -> bool {
    matches!(answer, Some(Answer::Error(code)) if code != "in_doubt")
}

/// Player commands of `seat` in the log.
fn player_commands(log: &[LogEntry], seat: u64) -> Vec<&LogEntry> {
    log.iter()
        .filter(|entry| {
            entry.kind == EntryKind::Command
                && entry.payload["seat"] == seat
                && entry.payload["source"] == "player"
        })
        .collect()
}

/// Every way the answers one seat got contradict the log: an acked command must be the
/// seat's command the ack's `last_seq` ends (and sent before it), and in the log once; a
/// command answered with a refusal other than `in_doubt` must not be in it. A player command
/// of the seat that no send explains (the seat sent each command once) was applied twice.
pub(crate) fn answer_violations(label: &str, log: &[LogEntry], seat: u64, sent: &[Sent]) -> Vec<String> {
    let mut problems = Vec::new();
    let mine = player_commands(log, seat);
    let mut explained: HashMap<i64, usize> = HashMap::new();
    for (index, send) in sent.iter().enumerate() {
        let Some(Answer::Ack(last_seq)) = send.answer else {
            continue;
        };
        let entry = log
            .iter()
            .rev()
            .find(|entry| entry.kind == EntryKind::Command && entry.seq <= last_seq);
        let fits = entry.is_some_and(|entry| {
            entry.payload["seat"] == seat
                && entry.payload["source"] == "player"
                && entry.payload["command"] == send.command
                && entry.seq > send.after
        });
        match entry {
            Some(entry) if fits => {
                if let Some(other) = explained.insert(entry.seq, index) {
                    problems.push(format!(
                        "{label}: {} and {} were both acked for the one command at seq {}",
                        sent[other].id, send.id, entry.seq
                    ));
                }
            }
            _ => problems.push(format!(
                "{label}: {} {} was acked with last_seq {last_seq} (sent after seq {}), but the log's \
                 command at or before {last_seq} is {:?}",
                send.id,
                send.command,
                send.after,
                entry.map(|entry| (entry.seq, &entry.payload))
            )),
        }
    }
    let mut used: Vec<bool> = sent
        .iter()
        .map(|send| matches!(send.answer, Some(Answer::Ack(_))))
        .collect();
    for entry in mine {
        if explained.contains_key(&entry.seq) {
            continue;
        }
        // The same command, sent before the entry was written (the nodes stamp entries with
        // this machine's clock) and after the seq it follows.
        let could = |send: &Sent| {
            send.command == entry.payload["command"] && send.after < entry.seq && send.sent_wall <= entry.at
        };
        // A command whose answer left its fate open explains it...
        if let Some(index) = (0..sent.len())
            .rev()
            .find(|&index| !used[index] && could(&sent[index]) && !says_not_applied(&sent[index].answer))
        {
            used[index] = true;
            continue;
        }
        // ...one that was told it was not applied must not.
        match (0..sent.len())
            .rev()
            .find(|&index| !used[index] && could(&sent[index]))
        {
            Some(index) => {
                used[index] = true;
                let send = &sent[index];
                let code = match &send.answer {
                    Some(Answer::Error(code)) => code.as_str(),
                    _ => "?",
                };
                let took = send.answered_at.map(|at| at - send.sent_at);
                let after = if send.with_after {
                    "with `after`"
                } else {
                    "without `after`"
                };
                problems.push(format!(
                    "{label}: {} {} was answered `{code}` (sent {after} after seq {} through {} at {}, \
                     answered {took:?} later), yet it is in the log at seq {} (written at {})",
                    send.id,
                    send.command,
                    send.after,
                    send.node,
                    send.sent_wall.format("%H:%M:%S%.3f"),
                    entry.seq,
                    entry.at.format("%H:%M:%S%.3f")
                ));
            }
            None => problems.push(format!(
                "{label}: the log holds a command of this seat at seq {} that no single send \
                 explains (applied twice?): {}",
                entry.seq, entry.payload
            )),
        }
    }
    problems
}

fn event_seqs(log: &[LogEntry]) -> Vec<i64> {
    log.iter()
        .filter(|entry| entry.kind == EntryKind::Event)
        .map(|entry| entry.seq)
        .collect()
}

pub(crate) async fn read_log(store: &Store, id: &str) -> Vec<LogEntry> {
    store.log(&match_id(id)).await.expect("read the match's log")
}

/// Every transcript's first violation of the stream rule, against the matches' logs now.
pub(crate) async fn stream_violations(store: &Store, transcripts: &[&Transcript]) -> Vec<String> {
    let mut logs: HashMap<String, Vec<i64>> = HashMap::new();
    let mut problems = Vec::new();
    for transcript in transcripts {
        if !logs.contains_key(&transcript.match_id) {
            let log = read_log(store, &transcript.match_id).await;
            logs.insert(transcript.match_id.clone(), event_seqs(&log));
        }
        if let Some(problem) = stream_violation(transcript, &logs[&transcript.match_id]) {
            problems.push(problem);
        }
    }
    problems
}

// ---------------------------------------------------------------------------------------------
// The client.

/// One WebSocket to one match, recording what it gets and keeping the viewer's view.
struct Socket {
    ws: WebSocket,
    transcript: Transcript,
    view: Value,
    pending: Vec<u64>,
    seat: Option<u64>,
    live: bool,
    /// The last seq this socket got (events, updates, acks): what a gateway fills `after` with.
    known_seq: i64,
    last_event: Option<i64>,
    closed: bool,
}

enum Next {
    Frame(Value),
    Quiet,
    Closed,
}

impl Socket {
    /// Opens a socket and reads its snapshot; `Err` if the node refuses (a 503 while the
    /// match moves, say) or closes first.
    async fn open(
        base: &str,
        id: &str,
        token: Option<&str>,
        resume_from: Option<i64>,
        protocol: u8,
        label: &str,
    ) -> Result<Socket, String> {
        let mut url = format!(
            "{}/v1/matches/{id}/ws?protocol={protocol}",
            base.replacen("http", "ws", 1)
        );
        if let Some(token) = token {
            url.push_str(&format!("&token={token}"));
        }
        if let Some(seq) = resume_from {
            url.push_str(&format!("&resume_from={seq}"));
        }
        let (ws, _) = tokio::time::timeout(
            Duration::from_secs(10),
            tokio_tungstenite::connect_async(url.as_str()),
        )
        .await
        .map_err(|_| "no upgrade within 10 s".to_string())?
        .map_err(|error| error.to_string())?;
        let mut socket = Socket {
            ws,
            transcript: Transcript {
                label: format!("{label} (resume_from {resume_from:?}, protocol {protocol})"),
                match_id: id.to_string(),
                resumed_from: resume_from,
                spectator: token.is_none(),
                seen: Vec::new(),
            },
            view: Value::Null,
            pending: Vec::new(),
            seat: None,
            live: false,
            known_seq: 0,
            last_event: resume_from,
            closed: false,
        };
        match socket.next(Duration::from_secs(10)).await {
            Next::Frame(frame) if frame["type"] == "snapshot" => Ok(socket),
            Next::Frame(frame) => Err(format!("the first frame is not a snapshot: {frame}")),
            Next::Quiet => Err("no snapshot within 10 s".into()),
            Next::Closed => Err("closed before its snapshot".into()),
        }
    }

    /// The next text frame (recorded and applied), or `Quiet` after `within`.
    async fn next(&mut self, within: Duration) -> Next {
        if self.closed {
            return Next::Closed;
        }
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let frame = match tokio::time::timeout_at(deadline, self.ws.next()).await {
                Err(_) => return Next::Quiet,
                Ok(frame) => frame,
            };
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let frame: Value = serde_json::from_str(&text).expect("the server sends JSON");
                    self.observe(&frame);
                    return Next::Frame(frame);
                }
                Some(Ok(Message::Close(close))) => {
                    self.closed = true;
                    let code = close.map(|close| u16::from(close.code));
                    self.transcript.seen.push(Seen::Closed(code));
                    return Next::Closed;
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => {
                    self.closed = true;
                    self.transcript.seen.push(Seen::Closed(None));
                    return Next::Closed;
                }
            }
        }
    }

    fn observe(&mut self, frame: &Value) {
        let seq = |name: &str| {
            frame[name]
                .as_i64()
                .unwrap_or_else(|| panic!("{name} in {frame}"))
        };
        let seen = &mut self.transcript.seen;
        match frame["type"].as_str().unwrap_or_default() {
            "snapshot" => {
                let last_seq = seq("last_seq");
                self.live = frame["status"] == "live" && frame["result"].is_null();
                seen.push(Seen::Snapshot {
                    last_seq,
                    over: !self.live,
                });
                self.view = frame["view"].clone();
                self.pending = pending_of(frame);
                self.seat = frame["seat"].as_u64();
                self.known_seq = last_seq;
            }
            "event" => {
                let event = seq("seq");
                seen.push(Seen::Event { seq: event });
                self.known_seq = self.known_seq.max(event);
                self.last_event = Some(event);
            }
            "update" => {
                let last_seq = seq("last_seq");
                seen.push(Seen::Update { last_seq });
                self.view = frame["view"].clone();
                self.pending = pending_of(frame);
                self.known_seq = self.known_seq.max(last_seq);
            }
            "step" => {
                for pair in frame["events"].as_array().into_iter().flatten() {
                    let event = pair[0].as_i64().expect("a step event's seq");
                    seen.push(Seen::Event { seq: event });
                    self.last_event = Some(event);
                }
                let last_seq = seq("last_seq");
                seen.push(Seen::Update { last_seq });
                json_patch::merge(&mut self.view, &frame["view"]);
                self.pending = pending_of(frame);
                self.known_seq = self.known_seq.max(last_seq);
            }
            "ack" => {
                let last_seq = seq("last_seq");
                seen.push(Seen::Ack {
                    id: frame["id"].as_str().unwrap_or_default().to_string(),
                    last_seq,
                });
                self.known_seq = self.known_seq.max(last_seq);
            }
            "error" => seen.push(Seen::Error {
                id: frame["id"].as_str().map(str::to_string),
                code: frame["code"].as_str().unwrap_or_default().to_string(),
            }),
            "finished" => {
                seen.push(Seen::Finished);
                self.live = false;
            }
            _ => {}
        }
    }

    /// Whether the match waits for this socket's seat.
    fn asks(&self) -> bool {
        self.live && self.seat.is_some_and(|seat| self.pending.contains(&seat))
    }

    async fn command(&mut self, id: &str, command: &Value, after: Option<i64>) -> bool {
        let mut frame = json!({ "type": "command", "id": id, "command": command });
        if let Some(after) = after {
            frame["after"] = json!(after);
        }
        self.ws
            .send(Message::Text(frame.to_string().into()))
            .await
            .is_ok()
    }

    /// Reads frames until the answer to command `id` (`None` if none came within `within` or
    /// the socket closed first).
    async fn answer(&mut self, id: &str, within: Duration) -> Option<Answer> {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left).await {
                Next::Frame(frame) if frame["id"] == id && frame["type"] == "ack" => {
                    return Some(Answer::Ack(
                        frame["last_seq"].as_i64().expect("an ack's last_seq"),
                    ));
                }
                Next::Frame(frame) if frame["id"] == id && frame["type"] == "error" => {
                    return Some(Answer::Error(
                        frame["code"].as_str().unwrap_or_default().to_string(),
                    ));
                }
                Next::Frame(_) => continue,
                Next::Quiet | Next::Closed => return None,
            }
        }
    }

    /// Reads until the match asks this seat (`false` if it did not within `within`).
    async fn until_asked(&mut self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        while !self.asks() {
            let left = deadline.saturating_duration_since(Instant::now());
            if !matches!(self.next(left).await, Next::Frame(_)) {
                return false;
            }
        }
        true
    }

    /// Closes (if the server has not) and hands back what the socket got.
    async fn close(mut self) -> Transcript {
        if !self.closed {
            let _ = self.ws.close(None).await;
            let drain = async {
                while let Some(Ok(frame)) = self.ws.next().await {
                    if let Message::Text(text) = frame
                        && let Ok(frame) = serde_json::from_str::<Value>(&text)
                    {
                        self.observe(&frame);
                    }
                }
            };
            let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
        }
        self.transcript
    }
}

fn pending_of(frame: &Value) -> Vec<u64> {
    frame["pending"]
        .as_array()
        .map(|seats| seats.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

/// What a player does after its command is refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum OnRefusal {
    /// Closes the socket and resumes (on the node its route names now): the resume's update
    /// is the truth to decide from.
    Resume,
    /// `unavailable` or `in_doubt`: decides again on the same socket (anything else: resume).
    Stay,
}

/// A seat played by the game's own bot from the views it gets, through any number of
/// sockets, recording every command with its answer and every socket's frames.
pub(crate) struct Player {
    pub(crate) label: String,
    pub(crate) game: Arc<dyn GameKind>,
    pub(crate) match_id: String,
    pub(crate) token: String,
    pub(crate) dice: Dice,
    pub(crate) on_refusal: OnRefusal,
    pub(crate) sent: Vec<Sent>,
    pub(crate) transcripts: Vec<Transcript>,
    pub(crate) last_event: Option<i64>,
    pub(crate) seat: Option<u64>,
    pub(crate) next_id: u64,
    /// Acks so far (shared with the test, which waits on them).
    pub(crate) acks: Arc<AtomicUsize>,
    /// The last seq the player has seen (shared: the watchers resume from near it).
    pub(crate) known: Arc<AtomicI64>,
    pub(crate) finished: bool,
    /// How long the player thinks before each command (none: as fast as the server goes).
    pub(crate) pace: Duration,
}

enum Ended {
    Again,
    Stopped,
    Finished,
}

impl Player {
    pub(crate) fn new(
        game: &Arc<dyn GameKind>,
        id: &str,
        token: &str,
        label: &str,
        seed: u64,
        on_refusal: OnRefusal,
    ) -> Player {
        Player {
            label: label.to_string(),
            game: game.clone(),
            match_id: id.to_string(),
            token: token.to_string(),
            dice: Dice::new(&Seed::from_u64(seed)),
            on_refusal,
            sent: Vec::new(),
            transcripts: Vec::new(),
            last_event: None,
            seat: None,
            next_id: 0,
            acks: Arc::new(AtomicUsize::new(0)),
            known: Arc::new(AtomicI64::new(0)),
            finished: false,
            pace: Duration::ZERO,
        }
    }

    /// Plays through the node `route` names (read at each connection) until `stop` turns true
    /// (then waits a little for the answer in flight) or the match ends.
    pub(crate) async fn play(
        mut self,
        route: watch::Receiver<String>,
        mut stop: watch::Receiver<bool>,
    ) -> Player {
        loop {
            if *stop.borrow() {
                return self;
            }
            let base = route.borrow().clone();
            let label = format!("{} via {base}", self.label);
            let mut socket = match Socket::open(
                &base,
                &self.match_id,
                Some(&self.token),
                self.last_event,
                1,
                &label,
            )
            .await
            {
                Ok(socket) => socket,
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            self.seat = socket.seat.or(self.seat);
            let ended = self.play_on(&mut socket, &base, &mut stop).await;
            self.last_event = socket.last_event.or(self.last_event);
            self.transcripts.push(socket.close().await);
            match ended {
                Ended::Again => tokio::time::sleep(Duration::from_millis(50)).await,
                Ended::Stopped => return self,
                Ended::Finished => {
                    self.finished = true;
                    return self;
                }
            }
        }
    }

    async fn play_on(&mut self, socket: &mut Socket, base: &str, stop: &mut watch::Receiver<bool>) -> Ended {
        let mut in_flight: Option<usize> = None;
        let mut stopping: Option<Instant> = None;
        let mut heard = Instant::now();
        if !socket.live {
            return Ended::Finished;
        }
        loop {
            self.last_event = socket.last_event.or(self.last_event);
            self.known.fetch_max(socket.known_seq, Ordering::SeqCst);
            if in_flight.is_none() && stopping.is_none() && socket.asks() {
                if !self.pace.is_zero() {
                    tokio::time::sleep(self.pace).await;
                }
                let command = self
                    .game
                    .bot_command(&socket.view.to_string(), BotPolicy::Heuristic, &mut self.dice)
                    .expect("the game's bot reads its view");
                if let Some(command) = command {
                    self.next_id += 1;
                    let id = format!("c{}", self.next_id);
                    self.sent.push(Sent {
                        id: id.clone(),
                        command: command.clone(),
                        after: socket.known_seq,
                        with_after: false,
                        node: base.to_string(),
                        sent_at: Instant::now(),
                        sent_wall: chrono::Utc::now(),
                        answer: None,
                        answered_at: None,
                    });
                    in_flight = Some(self.sent.len() - 1);
                    if !socket.command(&id, &command, None).await {
                        return Ended::Again;
                    }
                }
            }
            if stopping.is_some_and(|since| in_flight.is_none() || since.elapsed() > Duration::from_secs(4)) {
                return Ended::Stopped;
            }
            let next = tokio::select! {
                next = socket.next(Duration::from_millis(500)) => next,
                _ = stop.changed(), if stopping.is_none() => {
                    stopping = Some(Instant::now());
                    continue;
                }
            };
            let frame = match next {
                Next::Quiet if heard.elapsed() > Duration::from_secs(20) => return Ended::Again,
                Next::Quiet => continue,
                Next::Closed => {
                    return if stopping.is_some() {
                        Ended::Stopped
                    } else {
                        Ended::Again
                    };
                }
                Next::Frame(frame) => frame,
            };
            heard = Instant::now();
            let answered = in_flight.filter(|index| frame["id"] == self.sent[*index].id.as_str());
            match (frame["type"].as_str().unwrap_or_default(), answered) {
                ("ack", Some(index)) => {
                    let send = &mut self.sent[index];
                    send.answer = Some(Answer::Ack(
                        frame["last_seq"].as_i64().expect("an ack's last_seq"),
                    ));
                    send.answered_at = Some(Instant::now());
                    in_flight = None;
                    self.acks.fetch_add(1, Ordering::SeqCst);
                }
                ("error", Some(index)) => {
                    let code = frame["code"].as_str().unwrap_or_default().to_string();
                    let send = &mut self.sent[index];
                    send.answer = Some(Answer::Error(code.clone()));
                    send.answered_at = Some(Instant::now());
                    in_flight = None;
                    let stay = self.on_refusal == OnRefusal::Stay
                        && matches!(code.as_str(), "unavailable" | "in_doubt");
                    if !stay {
                        return Ended::Again;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                ("finished", _) => return Ended::Finished,
                _ => {}
            }
        }
    }
}

/// Creates a match of `game` through `base`: `humans` seats for players (the rest bots);
/// returns its id and the players' tokens.
pub(crate) async fn create(
    cluster: &TestCluster,
    base: &str,
    game: &str,
    options: Value,
    humans: usize,
    turn_clock_secs: Option<u64>,
) -> (String, Vec<String>) {
    let http = &cluster.http;
    let tag = &uuid::Uuid::new_v4().simple().to_string()[..8];
    let (_, creator) = register(http, base, &format!("{game}-{tag}-a")).await;
    let mut body = json!({ "game": game, "options": options });
    if humans == 1 {
        body["opponent"] = json!("bot");
    }
    if let Some(secs) = turn_clock_secs {
        body["turn_clock_secs"] = json!(secs);
    }
    let (status, info) = post(http, &format!("{base}/v1/matches"), &creator, body).await;
    assert_eq!(status, 201, "{info}");
    let id = info["match_id"].as_str().expect("match_id").to_string();
    let mut tokens = vec![creator];
    if humans == 2 {
        let (_, joiner) = register(http, base, &format!("{game}-{tag}-b")).await;
        let (status, joined) = post(http, &format!("{base}/v1/matches/{id}/join"), &joiner, json!({})).await;
        assert_eq!(status, 200, "{joined}");
        tokens.push(joiner);
    }
    (id, tokens)
}

pub(crate) fn kind(game: &str) -> Arc<dyn GameKind> {
    GameRegistry::standard()
        .get(game)
        .expect("a standard game")
        .clone()
}

pub(crate) fn node_id(node: &ServerProcess) -> String {
    node.node.clone().expect("a cluster node's id")
}

/// The node's heartbeat as PostgreSQL holds it (its own clock, as microseconds).
async fn heartbeat_micros(store: &Store, node: &str) -> i64 {
    let Store::Postgres(pool) = store else {
        panic!("cluster tests run on PostgreSQL")
    };
    sqlx::query_scalar::<_, i64>(
        "SELECT (extract(epoch FROM heartbeat_at) * 1000000)::int8 FROM cluster_node WHERE node_id = $1",
    )
    .bind(node)
    .fetch_one(pool)
    .await
    .expect("the node's heartbeat")
}

/// Players of every token of every match, each through `route`: their tasks, and per match
/// the acks so far and the last seq its players have seen.
pub(crate) struct Playing {
    pub(crate) acks: Vec<Arc<AtomicUsize>>,
    pub(crate) known: Vec<Arc<AtomicI64>>,
    pub(crate) players: Vec<tokio::task::JoinHandle<Player>>,
}

pub(crate) fn start_players(
    matches: &[(String, Vec<String>, Arc<dyn GameKind>)],
    route: &watch::Sender<String>,
    stop: &watch::Sender<bool>,
    on_refusal: OnRefusal,
    seed: u64,
) -> Playing {
    let mut playing = Playing {
        acks: Vec::new(),
        known: Vec::new(),
        players: Vec::new(),
    };
    for (index, (id, tokens, game)) in matches.iter().enumerate() {
        let (acks, known) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicI64::new(0)));
        for (seat, token) in tokens.iter().enumerate() {
            let label = format!("match {index} ({id}) player {seat}");
            let mut player = Player::new(
                game,
                id,
                token,
                &label,
                seed + (index * 10 + seat) as u64,
                on_refusal,
            );
            player.acks = acks.clone();
            player.known = known.clone();
            playing
                .players
                .push(tokio::spawn(player.play(route.subscribe(), stop.subscribe())));
        }
        playing.acks.push(acks);
        playing.known.push(known);
    }
    playing
}

pub(crate) async fn every_match_acked(
    acks: &[Arc<AtomicUsize>],
    at_least: &[usize],
    limit: Duration,
    what: &str,
) {
    until(limit, what, || async {
        acks.iter()
            .zip(at_least)
            .all(|(count, at_least)| count.load(Ordering::SeqCst) >= *at_least)
    })
    .await;
}

pub(crate) fn counts(acks: &[Arc<AtomicUsize>]) -> Vec<usize> {
    acks.iter().map(|count| count.load(Ordering::SeqCst)).collect()
}

pub(crate) async fn join_all(players: Vec<tokio::task::JoinHandle<Player>>) -> Vec<Player> {
    let mut done = Vec::new();
    for player in players {
        done.push(player.await.expect("a player task"));
    }
    done
}

/// A socket that only watches: opened once, read until `stop`, then closed.
async fn watcher(
    base: String,
    id: String,
    token: Option<String>,
    protocol: u8,
    label: String,
    mut stop: watch::Receiver<bool>,
) -> Option<Transcript> {
    let mut socket = Socket::open(&base, &id, token.as_deref(), None, protocol, &label)
        .await
        .ok()?;
    loop {
        tokio::select! {
            next = socket.next(Duration::from_secs(1)) => if matches!(next, Next::Closed) { break },
            _ = stop.changed() => break,
        }
    }
    Some(socket.close().await)
}

/// Waits (bounded) until the node's heartbeat has just been renewed, so a fault set now
/// starts a full heartbeat interval before its next renewal.
async fn just_after_a_heartbeat(store: &Store, node: &str) {
    let before = heartbeat_micros(store, node).await;
    let started = Instant::now();
    while heartbeat_micros(store, node).await == before {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the node's heartbeat stopped"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn last_seq(store: &Store, id: &str) -> i64 {
    read_log(store, id).await.last().map_or(0, |entry| entry.seq)
}

/// Blackholes `pg` (the owner's link to PostgreSQL) right after the owner's heartbeat, waits
/// until `taker` holds every match and has written to each (at most 20 s), then lets the link
/// pass again, with its held bytes. Returns how long the link was cut.
async fn cut_until_taken_over(
    store: &Store,
    pg: &FaultProxy,
    owner: &str,
    taker: &str,
    matches: &[(String, Vec<String>, Arc<dyn GameKind>)],
) -> Duration {
    just_after_a_heartbeat(store, owner).await;
    pg.set(Fault::Blackhole);
    let cut = Instant::now();
    let mut at_cut = Vec::new();
    for (id, _, _) in matches {
        at_cut.push(last_seq(store, id).await);
    }
    loop {
        let mut moved_on = true;
        for ((id, _, _), at_cut) in matches.iter().zip(&at_cut) {
            moved_on &= lease(store, id).await.0 == taker && last_seq(store, id).await > *at_cut;
        }
        if moved_on {
            break;
        }
        assert!(
            cut.elapsed() < Duration::from_secs(20),
            "the taker did not take over and play on"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    pg.set(Fault::Pass);
    eprintln!(
        "the owner's link to PostgreSQL passes again at {}, {:.2} s after the cut",
        chrono::Utc::now().format("%H:%M:%S%.3f"),
        cut.elapsed().as_secs_f64()
    );
    cut.elapsed()
}

/// Defect 2: the owner's PostgreSQL link is blackholed past its lease, another node takes
/// the match over and plays on, then the link passes again. Today the old owner settles its
/// write in doubt by rebuilding from the new owner's log and sends its sockets an `update`
/// to the log's end, without the events the new owner wrote in between.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebuilt_owner_never_sends_an_update_that_skips_events() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let store = cluster.store().await;
    let (pg, owner_db) = FaultProxy::in_front_of(cluster.db.url()).await;
    // The owner's journal gives a transaction up after 1 s, so its writes are in doubt early
    // in the partition, while its other waits on the database (its heartbeat's) last 15 s,
    // longer than the partition: it still runs the matches when the link comes back.
    let owner_flags = ["--db-timeout-ms", "15000", "--db-transaction-timeout-ms", "1000"];
    let owner = cluster
        .node_via("owner", TTL_MS, &owner_db, &cluster.nats, &owner_flags)
        .await;
    // Two seats each, and 1 s turn clocks: a seat the partition keeps silent is played for by
    // its clock on the new owner, so the new owner's log moves on whoever the match waits for.
    let mut matches = Vec::new();
    for _ in 0..2 {
        let (id, tokens) = create(
            &cluster,
            &owner.base,
            "ctg",
            json!({ "format": "t10" }),
            2,
            Some(1),
        )
        .await;
        matches.push((id, tokens, kind("ctg")));
    }
    let taker = cluster.node("taker", TTL_MS).await;
    let gateway_flags = ["--runs-matches", "false"];
    let gateway = cluster
        .node_via("gateway", TTL_MS, cluster.db.url(), &cluster.nats, &gateway_flags)
        .await;
    let (owner_id, taker_id) = (node_id(&owner), node_id(&taker));

    // Seat 0 plays on the owner itself and stays on its socket through `unavailable`; seat 1
    // plays through the gateway (routed) and resumes there after anything else. Watchers: a
    // spectator and seat 0 in protocol 2 on the owner, a spectator on the gateway.
    let stop = watch::Sender::new(false);
    let (on_owner, on_gateway) = (
        watch::Sender::new(owner.base.clone()),
        watch::Sender::new(gateway.base.clone()),
    );
    let mut players = Vec::new();
    let mut acks = Vec::new();
    let mut watchers = Vec::new();
    for (index, (id, tokens, game)) in matches.iter().enumerate() {
        let counted = Arc::new(AtomicUsize::new(0));
        for (seat, (route, on_refusal)) in [(&on_owner, OnRefusal::Stay), (&on_gateway, OnRefusal::Resume)]
            .into_iter()
            .enumerate()
        {
            let label = format!("match {index} ({id}) seat {seat}");
            let mut player = Player::new(
                game,
                id,
                &tokens[seat],
                &label,
                (index * 10 + seat) as u64,
                on_refusal,
            );
            player.acks = counted.clone();
            players.push(tokio::spawn(player.play(route.subscribe(), stop.subscribe())));
        }
        acks.push(counted);
        for (base, token, protocol, who) in [
            (&owner.base, None, 1, "spectator on the owner"),
            (&owner.base, Some(tokens[0].clone()), 2, "seat 0 on the owner"),
            (&gateway.base, None, 2, "spectator on the gateway"),
        ] {
            let label = format!("match {index} ({id}) watcher: {who}");
            watchers.push(tokio::spawn(watcher(
                base.clone(),
                id.clone(),
                token,
                protocol,
                label,
                stop.subscribe(),
            )));
        }
    }
    every_match_acked(&acks, &[4, 4], Duration::from_secs(60), "play before the fault").await;

    let taken = cut_until_taken_over(&store, &pg, &owner_id, &taker_id, &matches).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    stop.send_replace(true);
    let players = join_all(players).await;
    let mut transcripts: Vec<Transcript> = Vec::new();
    for watcher in watchers {
        transcripts.extend(watcher.await.expect("a watcher task"));
    }
    let all: Vec<&Transcript> = players
        .iter()
        .flat_map(|player| &player.transcripts)
        .chain(&transcripts)
        .collect();
    let problems = stream_violations(&store, &all).await;
    eprintln!(
        "pg blackhole on the owner: taken over and played on after {:.2} s; {} sockets checked; acks {:?}",
        taken.as_secs_f64(),
        all.len(),
        counts(&acks)
    );
    assert!(
        problems.is_empty(),
        "sockets missed or repeated events:\n{}",
        problems.join("\n")
    );
}

/// Defect 1: the owner's PostgreSQL link is blackholed (its bytes held) past the lease TTL
/// while the seats keep playing through a gateway node; another node takes the matches over;
/// then the link passes again. Today the old owner, settling its write in doubt, rebuilds
/// from the new owner's log and goes on answering the routed requests it still receives, so
/// a command the new owner applied can be answered `not_your_turn` or `match_moved` by it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_owner_answers_when_the_owner_loses_postgres_past_its_lease() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let store = cluster.store().await;
    let (pg, owner_db) = FaultProxy::in_front_of(cluster.db.url()).await;
    // As in the rebuild test: writes in doubt after 1 s, the heartbeat's waits outlast the cut.
    let owner_flags = ["--db-timeout-ms", "15000", "--db-transaction-timeout-ms", "1000"];
    let owner = cluster
        .node_via("owner", TTL_MS, &owner_db, &cluster.nats, &owner_flags)
        .await;
    let mut matches = Vec::new();
    for (game, options, humans) in [
        ("ctg", json!({ "format": "t10" }), 2),
        ("ctg", json!({ "format": "t10" }), 2),
        ("wicketz", json!({ "overs": 12 }), 1),
        ("ctg", json!({ "format": "t10" }), 1),
    ] {
        let (id, tokens) = create(&cluster, &owner.base, game, options, humans, None).await;
        matches.push((id, tokens, kind(game)));
    }
    // The new owner's own link to PostgreSQL is slow (25 ms each way, so its commits take a
    // couple of hundred milliseconds): whatever the old owner answers after the partition
    // arrives first, so a wrong answer is never hidden by a quicker right one.
    let (slow_pg, taker_db) = FaultProxy::in_front_of(cluster.db.url()).await;
    let taker = cluster
        .node_via("taker", TTL_MS, &taker_db, &cluster.nats, &[])
        .await;
    let gateway_flags = ["--runs-matches", "false"];
    let gateway = cluster
        .node_via("gateway", TTL_MS, cluster.db.url(), &cluster.nats, &gateway_flags)
        .await;
    let (owner_id, taker_id) = (node_id(&owner), node_id(&taker));

    let stop = watch::Sender::new(false);
    let route = watch::Sender::new(gateway.base.clone());
    let Playing { acks, players, .. } = start_players(&matches, &route, &stop, OnRefusal::Resume, 100);
    every_match_acked(&acks, &[4; 4], Duration::from_secs(60), "play before the fault").await;

    slow_pg.set(Fault::Delay(Duration::from_millis(25)));
    let taken = cut_until_taken_over(&store, &pg, &owner_id, &taker_id, &matches).await;
    let at_pass = counts(&acks);
    tokio::time::sleep(Duration::from_secs(4)).await;
    stop.send_replace(true);
    let players = join_all(players).await;

    let mut problems = Vec::new();
    let mut refusals: HashMap<String, usize> = HashMap::new();
    for player in &players {
        let log = read_log(&store, &player.match_id).await;
        let seat = player.seat.expect("the player got a snapshot");
        problems.extend(answer_violations(&player.label, &log, seat, &player.sent));
        for send in &player.sent {
            if let Some(Answer::Error(code)) = &send.answer {
                *refusals.entry(code.clone()).or_default() += 1;
            }
        }
    }
    eprintln!(
        "pg blackhole on the owner: taken over and played on after {:.2} s; acks at the pass {at_pass:?}, \
         at the end {:?}; refusals {refusals:?}",
        taken.as_secs_f64(),
        counts(&acks)
    );
    assert!(
        problems.is_empty(),
        "answers the log contradicts:\n{}",
        problems.join("\n")
    );
    // And each of the players' sockets got its events exactly.
    let transcripts: Vec<&Transcript> = players.iter().flat_map(|player| &player.transcripts).collect();
    let broken = stream_violations(&store, &transcripts).await;
    assert!(
        broken.is_empty(),
        "sockets missed or repeated events:\n{}",
        broken.join("\n")
    );
}

/// Defect 3: sockets opened with `resume_from` on a node that does not run the match, while
/// the match is played quickly on its owner. The relay that carries the owner's batches to
/// the gateway listens before it asks for the snapshot and backlog; today it drops only the
/// batches up to the resume point, not up to the end of the backlog, so a batch published
/// while the owner was answering reaches the socket twice: in the backlog and from the feed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_routed_resume_gets_each_event_once() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let store = cluster.store().await;
    let owner = cluster.node("owner", TTL_MS).await;
    let gateway_flags = ["--runs-matches", "false"];
    let gateway = cluster
        .node_via("gateway", TTL_MS, cluster.db.url(), &cluster.nats, &gateway_flags)
        .await;
    let mut matches = Vec::new();
    for (game, options, humans) in [
        ("ctg", json!({ "format": "t20" }), 2),
        ("ctg", json!({ "format": "t20" }), 1),
        ("wicketz", json!({ "overs": 20, "innings_per_side": 2 }), 1),
    ] {
        let (id, tokens) = create(&cluster, &owner.base, game, options, humans, None).await;
        matches.push((id, tokens, kind(game)));
    }
    // Played as fast as the owner goes, by players on the owner itself.
    let stop = watch::Sender::new(false);
    let route = watch::Sender::new(owner.base.clone());
    let Playing { acks, known, players } = start_players(&matches, &route, &stop, OnRefusal::Resume, 300);
    every_match_acked(&acks, &[3; 3], Duration::from_secs(60), "play before the resumes").await;

    // Resumes through the gateway, four at a time, for 8 s: seats and spectators, protocols
    // 1 and 2, from a few events back (each socket reads for 150 ms), of the matches still
    // being played.
    let resumes_until = Instant::now() + Duration::from_secs(8);
    let over: Arc<Vec<std::sync::atomic::AtomicBool>> =
        Arc::new(matches.iter().map(|_| Default::default()).collect());
    let live_resumes = Arc::new(AtomicUsize::new(0));
    let mut resumers = Vec::new();
    for worker in 0..4u64 {
        let (matches, known, base) = (matches.clone(), known.clone(), gateway.base.clone());
        let (over, live_resumes) = (over.clone(), live_resumes.clone());
        resumers.push(tokio::spawn(async move {
            let mut dice = Dice::new(&Seed::from_u64(7000 + worker));
            let mut transcripts = Vec::new();
            let mut round = worker as usize;
            while Instant::now() < resumes_until && over.iter().any(|over| !over.load(Ordering::SeqCst)) {
                round += 1;
                let which = round % matches.len();
                if over[which].load(Ordering::SeqCst) {
                    continue;
                }
                let (id, tokens, _) = &matches[which];
                let token = (round / matches.len())
                    .is_multiple_of(2)
                    .then(|| tokens[0].clone());
                let protocol = 1 + (round / (2 * matches.len()) % 2) as u8;
                let back = [0, 1, 3, 10][dice.below(4) as usize];
                let from = (known[which].load(Ordering::SeqCst) - back).max(0);
                let who = if token.is_some() { "seat 0" } else { "spectator" };
                let label = format!("match {which} ({id}) {who} resumed via the gateway");
                let Ok(mut socket) =
                    Socket::open(&base, id, token.as_deref(), Some(from), protocol, &label).await
                else {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                };
                if socket.live {
                    live_resumes.fetch_add(1, Ordering::SeqCst);
                } else {
                    over[which].store(true, Ordering::SeqCst);
                }
                let read_until = Instant::now() + Duration::from_millis(150);
                while Instant::now() < read_until {
                    if matches!(socket.next(Duration::from_millis(50)).await, Next::Closed) {
                        break;
                    }
                }
                transcripts.push(socket.close().await);
            }
            transcripts
        }));
    }
    let mut transcripts = Vec::new();
    for resumer in resumers {
        transcripts.extend(resumer.await.expect("a resuming task"));
    }
    stop.send_replace(true);
    let players = join_all(players).await;
    let resumed = live_resumes.load(Ordering::SeqCst);
    let all: Vec<&Transcript> = transcripts
        .iter()
        .chain(players.iter().flat_map(|player| &player.transcripts))
        .collect();
    let problems = stream_violations(&store, &all).await;
    let events: usize = transcripts
        .iter()
        .map(|transcript| {
            transcript
                .seen
                .iter()
                .filter(|seen| matches!(seen, Seen::Event { .. }))
                .count()
        })
        .sum();
    eprintln!(
        "{resumed} routed resumes of live matches ({events} events), acks {:?}; {} sockets broke the stream rule",
        counts(&acks),
        problems.len()
    );
    assert!(
        resumed >= 30,
        "too few resumes of live matches to say anything: {resumed}"
    );
    assert!(
        problems.is_empty(),
        "routed resumes missed or repeated events:\n{}",
        problems.join("\n")
    );
}

/// One Wicketz seat against the server's bot, played step by step for the in-doubt test:
/// every command it sends carries `after` or none, as the test chooses.
struct Scripted {
    label: String,
    id: String,
    token: String,
    with_after: bool,
    socket: Option<Socket>,
    sent: Vec<Sent>,
    last_event: Option<i64>,
    dice: Dice,
    transcripts: Vec<Transcript>,
}

impl Scripted {
    fn socket(&mut self) -> &mut Socket {
        self.socket.as_mut().expect("an open socket")
    }

    async fn open(&mut self, base: &str) -> Result<(), String> {
        if let Some(old) = self.socket.take() {
            self.last_event = old.last_event.or(self.last_event);
            self.transcripts.push(old.close().await);
        }
        let label = format!("{} via {base}", self.label);
        let socket = Socket::open(base, &self.id, Some(&self.token), self.last_event, 1, &label).await?;
        self.socket = Some(socket);
        Ok(())
    }

    /// The open decision's ask, once the match asks this seat (within 20 s).
    async fn asked(&mut self) -> Result<Value, String> {
        if !self.socket().until_asked(Duration::from_secs(20)).await {
            return Err(format!(
                "{}: the match did not ask the seat within 20 s",
                self.label
            ));
        }
        Ok(self.socket().view["ask"].clone())
    }

    /// Sends `command` (with `after` if this seat sends it) and returns its answer (`None`
    /// if none came within `within`).
    async fn send(&mut self, command: Value, within: Duration) -> (Option<Answer>, Duration) {
        let id = format!("c{}", self.sent.len() + 1);
        let with_after = self.with_after;
        let socket = self.socket.as_mut().expect("an open socket");
        let after = socket.known_seq;
        let sent_at = Instant::now();
        self.sent.push(Sent {
            id: id.clone(),
            command: command.clone(),
            after,
            with_after,
            node: socket.transcript.label.clone(),
            sent_at,
            sent_wall: chrono::Utc::now(),
            answer: None,
            answered_at: None,
        });
        let answer = if socket.command(&id, &command, with_after.then_some(after)).await {
            socket.answer(&id, within).await
        } else {
            None
        };
        let sent = self.sent.last_mut().expect("just sent");
        sent.answer = answer.clone();
        sent.answered_at = answer.as_ref().map(|_| Instant::now());
        (answer, sent_at.elapsed())
    }

    /// Sends `command` and requires an ack.
    async fn play(&mut self, command: Value) -> Result<i64, String> {
        match self.send(command.clone(), Duration::from_secs(10)).await {
            (Some(Answer::Ack(last_seq)), _) => Ok(last_seq),
            (other, _) => Err(format!(
                "{}: {command} was answered {other:?}, not acked",
                self.label
            )),
        }
    }

    /// Plays (bats when it may choose) until it has `acks` acks and the open decision is a
    /// stroke to play.
    async fn until_batting(&mut self, acks: usize, game: &Arc<dyn GameKind>) -> Result<Value, String> {
        for _ in 0..100 {
            let ask = self.asked().await?;
            let acked = self
                .sent
                .iter()
                .filter(|sent| matches!(sent.answer, Some(Answer::Ack(_))))
                .count();
            if ask["decision"] == "play" && acked >= acks {
                return Ok(ask);
            }
            let command = if ask["decision"] == "choose_innings" {
                json!({ "type": "choose_innings", "bat": true })
            } else {
                let view = self.socket().view.to_string();
                game.bot_command(&view, BotPolicy::Heuristic, &mut self.dice)
                    .expect("the bot reads its view")
                    .ok_or_else(|| format!("{}: the bot has no move for {ask}", self.label))?
            };
            self.play(command).await?;
        }
        Err(format!("{}: never asked to bat", self.label))
    }

    async fn close(mut self) -> Self {
        if let Some(socket) = self.socket.take() {
            self.transcripts.push(socket.close().await);
        }
        self
    }
}

/// A stroke other than those in `not` that `ask` (a `play` decision) allows.
fn stroke_besides(ask: &Value, not: &[&str]) -> Option<String> {
    ask["legal_strokes"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find(|stroke| *stroke != "avoiding_action" && !not.contains(stroke))
        .map(str::to_string)
}

fn stroke(name: &str) -> Value {
    json!({ "type": "play", "stroke": name, "wild_card": false })
}

fn allows(ask: &Value, name: &str) -> bool {
    ask["decision"] == "play"
        && ask["legal_strokes"]
            .as_array()
            .is_some_and(|strokes| strokes.iter().any(|stroke| stroke == name))
}

/// Defect 4: a seat on a gateway node whose NATS link is blackholed sends command X; the
/// routed request is held, so X is answered within the route timeout (today `unavailable`,
/// meant as "not applied"); the player resumes on another node, answers the same decision with
/// Y (acked) and plays on; then the link passes and X's held bytes reach the owner. X must
/// never be applied: today the owner applies it to whatever decision is open by then. One
/// match sends every command without `after` (the gateway fills it in), one with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_routed_command_left_in_doubt_is_never_applied_to_a_later_decision() {
    const ROUTE_TIMEOUT_MS: u64 = 1500;
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let store = cluster.store().await;
    let owner = cluster.node("owner", TTL_MS).await;
    let (nats, gateway_nats) = FaultProxy::in_front_of(&cluster.nats).await;
    let route_timeout = ROUTE_TIMEOUT_MS.to_string();
    let gateway_flags = [
        "--runs-matches",
        "false",
        "--route-timeout-ms",
        route_timeout.as_str(),
    ];
    let gateway = cluster
        .node_via("gateway", TTL_MS, cluster.db.url(), &gateway_nats, &gateway_flags)
        .await;
    let game = kind("wicketz");
    let mut seats = Vec::new();
    for (index, with_after) in [(0, false), (1, true)] {
        let (id, tokens) = create(&cluster, &owner.base, "wicketz", json!({ "overs": 5 }), 1, None).await;
        let after = if with_after {
            "with `after`"
        } else {
            "without `after`"
        };
        seats.push(Scripted {
            label: format!("match {index} ({id}), commands {after}"),
            id,
            token: tokens[0].clone(),
            with_after,
            socket: None,
            sent: Vec::new(),
            last_event: None,
            dice: Dice::new(&Seed::from_u64(400 + index)),
            transcripts: Vec::new(),
        });
    }

    // Each seat plays through the gateway until it has a few acks and is asked to bat. Each
    // seat's outcome is collected rather than asserted on the way, so one seat's surprise does
    // not hide the other's: a seat that fails a step leaves the scenario.
    let mut problems: Vec<String> = Vec::new();
    let mut asks: Vec<Option<Value>> = Vec::new();
    for seat in &mut seats {
        seat.open(&gateway.base).await.expect("a socket on the gateway");
        match seat.until_batting(2, &game).await {
            Ok(ask) => asks.push(Some(ask)),
            Err(problem) => {
                problems.push(problem);
                asks.push(None);
            }
        }
    }
    nats.set(Fault::Blackhole);
    tokio::time::sleep(Duration::from_millis(100)).await;
    // X: a stroke for the open decision, sent into the partition.
    // Each seat's X: its stroke, its answer, and its place among the seat's sends (the seat
    // may have played the same stroke legitimately before the partition).
    let mut xs: Vec<Option<(String, Option<Answer>, usize)>> = Vec::new();
    let limit = Duration::from_millis(ROUTE_TIMEOUT_MS) + Duration::from_secs(1);
    for (seat, ask) in seats.iter_mut().zip(&asks) {
        let Some(ask) = ask else {
            xs.push(None);
            continue;
        };
        let x = stroke_besides(ask, &["back_defence"]).expect("a legal stroke");
        let x_index = seat.sent.len();
        let (answer, took) = seat.send(stroke(&x), limit + Duration::from_secs(5)).await;
        eprintln!("{}: X = {x} answered {answer:?} after {took:?}", seat.label);
        match &answer {
            Some(Answer::Error(_)) if took <= limit => {}
            other => problems.push(format!(
                "{}: X ({x}) was answered {other:?} after {took:?} (the route timeout is {ROUTE_TIMEOUT_MS} ms)",
                seat.label
            )),
        }
        xs.push(Some((x, answer, x_index)));
    }
    // Y: the same decision answered otherwise on the owner, then two more balls, never X's
    // stroke, and the seat stops at a decision X's stroke fits.
    let mut ready = vec![false; seats.len()];
    for ((seat, x), ready) in seats.iter_mut().zip(&xs).zip(&mut ready) {
        let Some((x, _, _)) = x else {
            continue;
        };
        let played: Result<(), String> = async {
            let decided_at = seat.sent.last().expect("X").after;
            seat.open(&owner.base).await?;
            let ask = seat.asked().await?;
            let now = seat.socket().known_seq;
            if now != decided_at || ask["decision"] != "play" {
                return Err(format!(
                    "{}: after X the match moved on (seq {decided_at} -> {now}, asked {ask})",
                    seat.label
                ));
            }
            let y = stroke_besides(&ask, &[x]).ok_or("no second stroke")?;
            seat.play(stroke(&y)).await?;
            for ball in 0..30 {
                let ask = seat.asked().await?;
                if ball >= 2 && allows(&ask, x) {
                    return Ok(());
                }
                let other = if ask["decision"] == "play" {
                    stroke(&stroke_besides(&ask, &[x]).ok_or("no other stroke")?)
                } else {
                    let view = seat.socket().view.to_string();
                    game.bot_command(&view, BotPolicy::Heuristic, &mut seat.dice)
                        .expect("the bot reads its view")
                        .ok_or("no move")?
                };
                seat.play(other).await?;
            }
            Err(format!("{}: no decision that X fits", seat.label))
        }
        .await;
        match played {
            Ok(()) => *ready = true,
            Err(problem) => problems.push(problem),
        }
    }
    // The link passes: X's held request reaches the owner. A routed socket on the gateway that
    // gets its snapshot proves the gateway's link carries traffic again (X went first).
    nats.set(Fault::Pass);
    for seat in &seats {
        let label = format!("{} spectator on the gateway after the partition", seat.label);
        let mut proved = false;
        for _ in 0..50 {
            if let Ok(socket) = Socket::open(&gateway.base, &seat.id, None, None, 1, &label).await {
                socket.close().await;
                proved = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        assert!(proved, "the gateway serves the match again once its link passes");
    }
    // Whatever X did, it has done it by now; the seat's socket on the owner shows it.
    for seat in &mut seats {
        let Some(socket) = seat.socket.as_mut() else {
            continue;
        };
        let until = Instant::now() + Duration::from_millis(1500);
        while Instant::now() < until && !matches!(socket.next(Duration::from_millis(100)).await, Next::Closed)
        {
        }
    }

    let mut applied = Vec::new();
    for ((seat, x), ready) in seats.iter().zip(&xs).zip(&ready) {
        let Some((x, answer, x_index)) = x else {
            continue;
        };
        let log = read_log(&store, &seat.id).await;
        let x_sent = &seat.sent[*x_index];
        for entry in player_commands(&log, 0) {
            if entry.payload["command"] == stroke(x) && entry.seq > x_sent.after {
                applied.push(format!(
                    "{}: X ({x}, sent after seq {}, answered {answer:?}) was applied at seq {}, {} \
                     decisions after the one it was sent for",
                    seat.label,
                    x_sent.after,
                    entry.seq,
                    seat.sent
                        .iter()
                        .filter(
                            |sent| matches!(sent.answer, Some(Answer::Ack(_))) && sent.after >= x_sent.after
                        )
                        .count()
                ));
            }
        }
        if *ready && answer.as_ref() != Some(&Answer::Error("in_doubt".into())) {
            problems.push(format!(
                "{}: X was answered {answer:?}; a routed request that timed out after it was sent is `in_doubt`",
                seat.label
            ));
        }
    }
    let seats: Vec<Scripted> = futures_util::future::join_all(seats.into_iter().map(Scripted::close)).await;
    let transcripts: Vec<&Transcript> = seats.iter().flat_map(|seat| &seat.transcripts).collect();
    problems.extend(stream_violations(&store, &transcripts).await);
    assert!(
        applied.is_empty(),
        "a command answered as not applied was applied later:\n{}\n(other problems: {problems:#?})",
        applied.join("\n")
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The node's heartbeat age as PostgreSQL sees it now, in milliseconds.
async fn heartbeat_age_ms(store: &Store, node: &str) -> i64 {
    let Store::Postgres(pool) = store else {
        panic!("cluster tests run on PostgreSQL")
    };
    sqlx::query_scalar::<_, i64>(
        "SELECT (extract(epoch FROM now() - heartbeat_at) * 1000)::int8 FROM cluster_node WHERE node_id = $1",
    )
    .bind(node)
    .fetch_one(pool)
    .await
    .expect("the node's heartbeat")
}

/// Defect 5: 200 ms of latency each way on the owner's link to PostgreSQL for 12 s while its
/// matches are played (lease TTL 2 s). Today the heartbeat waits for a pooled connection
/// behind the journal's writes and the actors' reads, its age passes the TTL, and another
/// node takes every match. No match may change owner, and play goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_latency_costs_the_owner_no_lease() {
    const DELAY: Duration = Duration::from_millis(200);
    const FOR: Duration = Duration::from_secs(12);
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let store = cluster.store().await;
    let (pg, owner_db) = FaultProxy::in_front_of(cluster.db.url()).await;
    let owner = cluster
        .node_via("owner", TTL_MS, &owner_db, &cluster.nats, &[])
        .await;
    let mut matches = Vec::new();
    for (game, options, humans) in [
        ("ctg", json!({ "format": "t10" }), 2),
        ("ctg", json!({ "format": "t10" }), 2),
        ("ctg", json!({ "format": "t10" }), 2),
        ("ctg", json!({ "format": "t10" }), 1),
        ("ctg", json!({ "format": "t10" }), 1),
        ("wicketz", json!({ "overs": 12 }), 1),
        ("wicketz", json!({ "overs": 12 }), 1),
        ("champions", json!({ "players": 3 }), 1),
    ] {
        let (id, tokens) = create(&cluster, &owner.base, game, options, humans, None).await;
        matches.push((id, tokens, kind(game)));
    }
    let taker = cluster.node("taker", TTL_MS).await;
    let owner_id = node_id(&owner);
    // Played on the owner itself, as fast as it goes.
    let stop = watch::Sender::new(false);
    let route = watch::Sender::new(owner.base.clone());
    let Playing { acks, players, .. } = start_players(&matches, &route, &stop, OnRefusal::Resume, 500);
    every_match_acked(
        &acks,
        &vec![3; matches.len()],
        Duration::from_secs(60),
        "play before the fault",
    )
    .await;
    let mut leases = Vec::new();
    for (id, _, _) in &matches {
        let held = lease(&store, id).await;
        assert_eq!(held.0, owner_id, "every match starts on the owner");
        leases.push(held);
    }

    let logged = |store: Store| {
        let ids: Vec<String> = matches.iter().map(|(id, _, _)| id.clone()).collect();
        async move {
            let mut seqs = Vec::new();
            for id in &ids {
                seqs.push(last_seq(&store, id).await);
            }
            seqs
        }
    };
    pg.set(Fault::Delay(DELAY));
    let slowed = Instant::now();
    let (acks_before, logged_before) = (counts(&acks), logged(store.clone()).await);
    let mut oldest = 0;
    while slowed.elapsed() < FOR {
        oldest = oldest.max(heartbeat_age_ms(&store, &owner_id).await);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    pg.set(Fault::Pass);
    let (acks_during, logged_during) = (counts(&acks), logged(store.clone()).await);
    // Until every match has moved on since (a server move that failed under the latency is
    // retried after a backoff of up to `--db-retry-max-ms`, 5 s), at most 15 s.
    let passed = Instant::now();
    let mut logged_after = logged(store.clone()).await;
    while passed.elapsed() < Duration::from_secs(15)
        && logged_after
            .iter()
            .zip(&logged_during)
            .any(|(now, then)| now <= then)
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
        logged_after = logged(store.clone()).await;
    }
    let resumed = passed.elapsed();
    stop.send_replace(true);
    let acks_after = counts(&acks);
    let players = join_all(players).await;

    let mut moved = Vec::new();
    for ((id, _, _), held) in matches.iter().zip(&leases) {
        let now = lease(&store, id).await;
        if now != *held {
            moved.push(format!("{id}: {held:?} -> {now:?}"));
        }
    }
    let refusals: usize = players
        .iter()
        .flat_map(|player| &player.sent)
        .filter(|sent| matches!(sent.answer, Some(Answer::Error(_))))
        .count();
    eprintln!(
        "{DELAY:?} each way on the owner's PostgreSQL link for {FOR:?}: its heartbeat's age reached {oldest} ms \
         (TTL {TTL_MS} ms); logs at {logged_before:?}, at the end of the delay {logged_during:?}, {resumed:.1?} \
         later {logged_after:?}; the players' acks {acks_before:?}, {acks_during:?}, {acks_after:?}; {refusals} commands \
         refused; {} of {} matches changed owner",
        moved.len(),
        matches.len()
    );
    assert!(
        moved.is_empty(),
        "matches changed owner under PostgreSQL latency:\n{}",
        moved.join("\n")
    );
    // Play goes on in every match (its players' moves or its bots': a player may wait out
    // two bots' turns at 1.6 s a write), during the latency and after it.
    let stalled: Vec<usize> = (0..matches.len())
        .filter(|&index| {
            logged_during[index] <= logged_before[index] || logged_after[index] <= logged_during[index]
        })
        .collect();
    for player in &players {
        if !stalled
            .iter()
            .any(|index| player.label.starts_with(&format!("match {index} ")))
        {
            continue;
        }
        for sent in player.sent.iter().rev().take(6).rev() {
            let at = sent.sent_at.saturating_duration_since(slowed);
            let took = sent.answered_at.map(|answered| answered - sent.sent_at);
            eprintln!(
                "{}: {} {} {at:?} after the delay began, answered {:?} after {took:?}",
                player.label, sent.id, sent.command, sent.answer
            );
        }
        for transcript in player.transcripts.iter().rev().take(3).rev() {
            let tail: Vec<&Seen> = transcript.seen.iter().rev().take(8).rev().collect();
            eprintln!("{}: ... {tail:?}", transcript.label);
        }
    }
    assert!(
        stalled.is_empty(),
        "play stalled in matches {stalled:?}: logs at {logged_before:?}, at the end of the delay {logged_during:?}, \
         after {logged_after:?}"
    );
    let transcripts: Vec<&Transcript> = players.iter().flat_map(|player| &player.transcripts).collect();
    let broken = stream_violations(&store, &transcripts).await;
    assert!(
        broken.is_empty(),
        "sockets missed or repeated events:\n{}",
        broken.join("\n")
    );
    let answers: Vec<String> = {
        let mut answers = Vec::new();
        for player in &players {
            let log = read_log(&store, &player.match_id).await;
            let seat = player.seat.expect("the player got a snapshot");
            answers.extend(answer_violations(&player.label, &log, seat, &player.sent));
        }
        answers
    };
    assert!(
        answers.is_empty(),
        "answers the log contradicts:\n{}",
        answers.join("\n")
    );
    drop(taker);
}

/// Found by the Patroni drill (`deploy/patroni/drill.sh`): a node cut off from PostgreSQL past
/// its TTL lets every match go, as it must (someone else may hold them). Here nobody else
/// can: it is the only node that runs matches. When the link comes back, its heartbeat is
/// fresh again and it still holds every lease, so no node will ever claim them; before the
/// fix it never ran them again either (they stayed live with nobody running them). It must
/// take them back, under new epochs, and play must go on in every match, with every answer
/// true and every socket's stream exact.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_let_its_matches_go_takes_back_those_it_still_holds() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let store = cluster.store().await;
    let (pg, owner_db) = FaultProxy::in_front_of(cluster.db.url()).await;
    let owner = cluster
        .node_via("owner", TTL_MS, &owner_db, &cluster.nats, &[])
        .await;
    let mut matches = Vec::new();
    for (game, options, humans) in [
        ("ctg", json!({ "format": "t10" }), 2),
        ("ctg", json!({ "format": "t10" }), 1),
        ("wicketz", json!({ "overs": 12 }), 1),
        ("champions", json!({ "players": 3 }), 1),
    ] {
        let (id, tokens) = create(&cluster, &owner.base, game, options, humans, None).await;
        matches.push((id, tokens, kind(game)));
    }
    // A gateway node beside it: it never runs a match, so the owner is the only node that
    // can run them, and it holds no lease itself.
    let gateway_flags = ["--runs-matches", "false"];
    let _gateway = cluster
        .node_via("gateway", TTL_MS, cluster.db.url(), &cluster.nats, &gateway_flags)
        .await;
    let stop = watch::Sender::new(false);
    let route = watch::Sender::new(owner.base.clone());
    let Playing { acks, players, .. } = start_players(&matches, &route, &stop, OnRefusal::Resume, 700);
    every_match_acked(
        &acks,
        &vec![3; matches.len()],
        Duration::from_secs(60),
        "play before the fault",
    )
    .await;
    let mut epochs = Vec::new();
    for (id, _, _) in &matches {
        epochs.push(lease(&store, id).await);
    }

    // Cut off (bytes held, nothing refused) for well past the TTL: the owner lets go.
    pg.set(Fault::Blackhole);
    tokio::time::sleep(Duration::from_millis(TTL_MS * 3)).await;
    pg.set(Fault::Pass);
    let back = counts(&acks);
    let needed: Vec<usize> = back.iter().map(|count| count + 3).collect();
    every_match_acked(
        &acks,
        &needed,
        Duration::from_secs(60),
        "play after the link came back",
    )
    .await;
    stop.send_replace(true);
    let players = join_all(players).await;

    for ((id, _, _), before) in matches.iter().zip(&epochs) {
        let now = lease(&store, id).await;
        assert_eq!(
            now.0, before.0,
            "{id}: still the owner's (nobody else runs matches)"
        );
        assert!(
            now.1 > before.1,
            "{id}: taken back under a new epoch: {before:?} -> {now:?}"
        );
    }
    let mut violations = Vec::new();
    for player in &players {
        let log = read_log(&store, &player.match_id).await;
        let seat = player.seat.expect("a seated player");
        violations.extend(answer_violations(&player.label, &log, seat, &player.sent));
    }
    let transcripts: Vec<&Transcript> = players.iter().flat_map(|player| &player.transcripts).collect();
    violations.extend(stream_violations(&store, &transcripts).await);
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// A viewer that follows a match through the node `route` names (read at each connection)
/// until `stop` (or the match's end): when its
/// socket closes it waits `backoff`, as a phone's reconnect does, and resumes from the last
/// event it got. One transcript per socket.
pub(crate) async fn follower(
    route: watch::Receiver<String>,
    id: String,
    token: Option<String>,
    protocol: u8,
    label: String,
    backoff: Duration,
    mut stop: watch::Receiver<bool>,
) -> Vec<Transcript> {
    let mut transcripts = Vec::new();
    let mut last_event = None;
    while !*stop.borrow() {
        let base = route.borrow().clone();
        let Ok(mut socket) = Socket::open(&base, &id, token.as_deref(), last_event, protocol, &label).await
        else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let stopped = loop {
            tokio::select! {
                next = socket.next(Duration::from_secs(1)) => if matches!(next, Next::Closed) { break false },
                _ = stop.changed() => break true,
            }
        };
        last_event = socket.last_event.or(last_event);
        let over = !socket.live;
        transcripts.push(socket.close().await);
        if stopped || over {
            break;
        }
        tokio::time::sleep(backoff).await;
    }
    transcripts
}

/// Sockets the server closed with 1001 (go away: resume) among `transcripts`.
pub(crate) fn told_to_resume(transcripts: &[Transcript]) -> usize {
    transcripts
        .iter()
        .filter(|transcript| transcript.seen.contains(&Seen::Closed(Some(1001))))
        .count()
}

pub(crate) async fn join_followers(
    followers: Vec<tokio::task::JoinHandle<Vec<Transcript>>>,
) -> Vec<Transcript> {
    let mut transcripts = Vec::new();
    for follower in followers {
        transcripts.extend(follower.await.expect("a follower task"));
    }
    transcripts
}

/// Found by the seeded fault run: NATS delivers at most once, so the batches an owner
/// publishes while a routed node's link to NATS is cut never reach that node. Its sockets
/// (seats and spectators, protocols 1 and 2) must resume from the log, not go on from the
/// next batch that arrives and skip the lost ones' events. Three resets of the routed node's
/// NATS link while the matches are played quickly on their owner.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_routed_socket_resumes_instead_of_skipping_what_nats_lost() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let store = cluster.store().await;
    let owner = cluster.node("owner", TTL_MS).await;
    let (nats_link, gateway_nats) = FaultProxy::in_front_of(&cluster.nats).await;
    let gateway_flags = ["--runs-matches", "false"];
    let gateway = cluster
        .node_via("gateway", TTL_MS, cluster.db.url(), &gateway_nats, &gateway_flags)
        .await;
    let mut matches = Vec::new();
    for (game, options) in [
        ("ctg", json!({ "format": "t20" })),
        ("wicketz", json!({ "overs": 20, "innings_per_side": 2 })),
    ] {
        let (id, tokens) = create(&cluster, &owner.base, game, options, 1, None).await;
        matches.push((id, tokens, kind(game)));
    }
    let stop = watch::Sender::new(false);
    let route = watch::Sender::new(owner.base.clone());
    let Playing { acks, players, .. } = start_players(&matches, &route, &stop, OnRefusal::Resume, 900);
    let mut followers = Vec::new();
    for (index, (id, tokens, _)) in matches.iter().enumerate() {
        for (token, protocol, who) in [
            (None, 1, "spectator"),
            (None, 2, "spectator"),
            (Some(tokens[0].clone()), 2, "seat 0"),
        ] {
            let label = format!("match {index} ({id}) {who} via the gateway");
            followers.push(tokio::spawn(follower(
                watch::Sender::new(gateway.base.clone()).subscribe(),
                id.clone(),
                token,
                protocol,
                label,
                Duration::from_millis(200),
                stop.subscribe(),
            )));
        }
    }
    every_match_acked(&acks, &[3, 3], Duration::from_secs(60), "play before the cuts").await;
    let before = counts(&acks);
    for _ in 0..3 {
        nats_link.set(Fault::Reset);
        tokio::time::sleep(Duration::from_millis(1500)).await;
        nats_link.set(Fault::Pass);
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
    stop.send_replace(true);
    let played: usize = counts(&acks)
        .iter()
        .zip(&before)
        .map(|(now, then)| now - then)
        .sum();
    let players = join_all(players).await;
    let transcripts = join_followers(followers).await;
    let all: Vec<&Transcript> = transcripts
        .iter()
        .chain(players.iter().flat_map(|player| &player.transcripts))
        .collect();
    let problems = stream_violations(&store, &all).await;
    let resumed = told_to_resume(&transcripts);
    eprintln!(
        "three NATS resets of the gateway: {played} acks meanwhile, {} routed sockets, {resumed} told to resume",
        transcripts.len()
    );
    assert!(
        played >= 20,
        "the matches were played during the cuts: {played} acks"
    );
    assert!(
        problems.is_empty(),
        "routed sockets missed or repeated events:\n{}",
        problems.join("\n")
    );
    assert!(
        resumed >= 3,
        "a reset of the gateway's NATS link makes its routed sockets resume: {resumed}"
    );
}

/// Found by the seeded fault run: a spectator that resumes shortly after a takeover, once
/// the new owner has played on, must get the events it missed. The new owner's actor, built
/// from the log, kept no recent past, so a spectator (which is never served from the log)
/// got the current snapshot instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_resuming_after_a_takeover_gets_the_events_it_missed() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let store = cluster.store().await;
    let owner = cluster.node("owner", TTL_MS).await;
    let mut matches = Vec::new();
    for (game, options) in [
        ("ctg", json!({ "format": "t20" })),
        ("wicketz", json!({ "overs": 20, "innings_per_side": 2 })),
        ("champions", json!({ "players": 3 })),
    ] {
        let (id, tokens) = create(&cluster, &owner.base, game, options, 1, None).await;
        matches.push((id, tokens, kind(game)));
    }
    let taker = cluster.node("taker", TTL_MS).await;
    let gateway_flags = ["--runs-matches", "false"];
    let gateway = cluster
        .node_via("gateway", TTL_MS, cluster.db.url(), &cluster.nats, &gateway_flags)
        .await;
    let taker_id = node_id(&taker);
    let stop = watch::Sender::new(false);
    let route = watch::Sender::new(gateway.base.clone());
    let Playing { acks, players, .. } = start_players(&matches, &route, &stop, OnRefusal::Resume, 1100);
    let mut followers = Vec::new();
    for (index, (id, _, _)) in matches.iter().enumerate() {
        for protocol in [1, 2] {
            let label = format!("match {index} ({id}) spectator via the gateway");
            followers.push(tokio::spawn(follower(
                watch::Sender::new(gateway.base.clone()).subscribe(),
                id.clone(),
                None,
                protocol,
                label,
                Duration::from_millis(300),
                stop.subscribe(),
            )));
        }
    }
    let ready = vec![3; matches.len()];
    every_match_acked(&acks, &ready, Duration::from_secs(60), "play before the kill").await;
    owner.kill().await;
    until(Duration::from_secs(30), "the taker holds every match", || async {
        let mut all = true;
        for (id, _, _) in &matches {
            all &= lease(&store, id).await.0 == taker_id;
        }
        all
    })
    .await;
    let needed: Vec<usize> = counts(&acks).iter().map(|count| count + 5).collect();
    every_match_acked(&acks, &needed, Duration::from_secs(60), "play after the takeover").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.send_replace(true);
    let players = join_all(players).await;
    let transcripts = join_followers(followers).await;
    let all: Vec<&Transcript> = transcripts
        .iter()
        .chain(players.iter().flat_map(|player| &player.transcripts))
        .collect();
    let problems = stream_violations(&store, &all).await;
    let resumed_live = transcripts
        .iter()
        .filter(|transcript| transcript.resumed_from.is_some())
        .count();
    eprintln!(
        "owner killed: {} spectator sockets, {resumed_live} of them resumed; acks {:?}",
        transcripts.len(),
        counts(&acks)
    );
    assert!(
        resumed_live >= 2 * matches.len(),
        "every spectator resumed after the takeover: {resumed_live}"
    );
    assert!(
        problems.is_empty(),
        "sockets missed or repeated events:\n{}",
        problems.join("\n")
    );
}
