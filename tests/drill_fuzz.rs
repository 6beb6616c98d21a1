//! Protocol fuzz drill: thousands of seeded, mutated client frames (bit flips, truncation,
//! wrong types, unknown and duplicate fields, huge numbers, deep nesting, hostile unicode,
//! empty and binary frames, huge ids) sent to live matches of all three games, from the
//! seated player's sockets and from spectators'.
//!
//! Proves: nothing in the server panics (no task, no actor); every frame gets exactly one
//! answer (a sentinel ping closes every socket), and an `error` answer is typed with a
//! documented code; each fuzzed match still plays a valid game to the end afterwards and its
//! log verifies; and a match nobody fuzzed finishes normally alongside.
//!
//! Deterministic: the frames come from `CREASE_FUZZ_SEED` (default below), printed with
//! every failure; set it to replay one.

mod common;
mod drills;

use common::{TestApp, spawn_app_with};
use crease::matches::GameRegistry;
use crease::rules::champions::Champions;
use crease::rules::ctg::Ctg;
use crease::rules::wicketz::Wicketz;
use drills::mutate::{Fuzzed, Mutator, harvest};
use drills::{Drill, RemoteSeat};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// Frames per fuzzed match (three matches, one per game).
const FRAMES_PER_MATCH: usize = 2_000;
/// Frames per connection: below the per-socket burst of 30, so the token bucket never
/// answers instead of the decoder (rate limiting has its own tests).
const FRAMES_PER_SOCKET: usize = 25;
const DEFAULT_SEED: u64 = 8;

/// The codes a refused frame may carry on a seat's socket (`protocol::ErrorCode` and the
/// team's `unavailable`), minus those that cannot apply on a healthy server (`unavailable`,
/// `not_seated`) and `internal`, which would be a server bug.
const SEAT_CODES: &[&str] = &[
    "bad_message",
    "illegal_move",
    "not_your_turn",
    "rate_limited",
    "match_not_live",
    // A harvested command replayed after its decision closed (the gateway fills in `after`
    // with the last seq it sent): refused, typed, nothing applied.
    "stale_command",
];
/// A spectator's socket: its commands never reach the game.
const SPECTATOR_CODES: &[&str] = &["bad_message", "not_seated", "rate_limited"];
/// Every few sockets of a fuzzed match is a spectator's (no token).
const SPECTATOR_EVERY: usize = 4;

/// Panics anywhere in this process, server tasks included (tokio would otherwise swallow a
/// panicking actor or session and the drill would only see a silent socket).
static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        previous(info);
    }));
}

fn fuzz_seed() -> u64 {
    std::env::var("CREASE_FUZZ_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or(DEFAULT_SEED)
}

/// The drill reopens a spectator socket after every frame that closes one, hundreds a
/// minute from one address: the spectator limits (tested in `server_abuse_limits`) are not
/// what it drills, so they are off.
fn unlimited_spectators(config: &mut crease::config::ServeConfig) {
    config.abuse.spectator_connects_per_minute = 0;
    config.abuse.spectator_connects_per_second = 0;
    config.abuse.max_spectators_per_match = 0;
    config.abuse.max_spectators_per_address = 0;
}

// On PostgreSQL: the default seed's champions frame 560 is a legal command with an extra field
// holding a NUL: before input validation it was accepted, and PostgreSQL's JSONB refused the
// NUL, so the seat got `internal` instead of `bad_message`.
common::sqlite_and_postgres! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    mutated_frames_get_typed_errors_and_break_no_match(backend) {
        count_panics();
        let Some(app) = spawn_app_with(backend, GameRegistry::standard(), unlimited_spectators).await else {
            return;
        };
        tokio::time::timeout(Duration::from_secs(240), fuzz(&app, fuzz_seed()))
            .await
            .expect("the fuzz drill finished within 4 minutes");
        app.stop().await;
    }
}

/// The valid frames the mutator starts from: pings, and commands of `game` as a client
/// sends them (every kind the game has, from a seeded in-memory match).
fn corpus(game: &str) -> Vec<Value> {
    let commands = match game {
        "ctg" => harvest::<Ctg>(json!({ "format": "t10" }), 1),
        "wicketz" => harvest::<Wicketz>(json!({ "overs": 4 }), 2),
        "champions" => harvest::<Champions>(json!({ "players": 2 }), 3),
        other => panic!("no corpus for {other}"),
    };
    let mut frames = vec![json!({ "type": "ping" }), json!({ "type": "ping", "id": "p1" })];
    frames.extend(
        commands.into_iter().enumerate().map(
            |(index, command)| json!({ "type": "command", "id": format!("c{index}"), "command": command }),
        ),
    );
    frames
}

/// `(game, options)` of the fuzzed matches, each against a server bot.
fn fuzzed_games() -> Vec<(&'static str, Value)> {
    vec![
        ("ctg", json!({ "format": "t10" })),
        ("wicketz", json!({ "overs": 4 })),
        ("champions", json!({ "players": 2 })),
    ]
}

async fn fuzz(app: &TestApp, seed: u64) {
    eprintln!("fuzz seed {seed} (replay with CREASE_FUZZ_SEED={seed})");
    let began = Instant::now();
    let games = GameRegistry::standard();

    // The control: a match nobody fuzzes, played alongside from the start.
    let (control_id, control_token) = vs_bot(&app.base, "wicketz", &json!({ "overs": 4 })).await;
    let drill = Drill::new(&app.base, 4);
    let wicketz = games.get("wicketz").expect("wicketz");
    let control =
        tokio::spawn(RemoteSeat::new(wicketz, &control_id, &control_token, (drill.clone(), 0), 1).play());

    let mut fuzzers = Vec::new();
    for (index, (game, options)) in fuzzed_games().into_iter().enumerate() {
        let (match_id, token) = vs_bot(&app.base, game, &options).await;
        let target = Target {
            base: app.base.clone(),
            game,
            options,
            match_id,
            played_out: Vec::new(),
            token,
            run_seed: seed,
            seed: seed.wrapping_add(index as u64),
            finished: false,
        };
        fuzzers.push(tokio::spawn(target.fuzz()));
    }
    let mut totals = Tally::default();
    let mut fuzzed = Vec::new();
    for fuzzer in fuzzers {
        let (target, tally) = fuzzer.await.expect("a fuzzer ran to the end");
        totals.add(&tally);
        fuzzed.push(target);
    }
    let fuzz_time = began.elapsed();
    assert_eq!(
        PANICS.load(Ordering::SeqCst),
        0,
        "seed {seed}: something panicked (see above)"
    );

    // Each fuzzed match still answers valid commands: its seat plays it to the end.
    for (slot, target) in fuzzed.iter().enumerate() {
        for match_id in &target.played_out {
            assert_verifies(app, match_id).await;
        }
        let kind = games.get(target.game).expect("a standard game");
        let seat = RemoteSeat::new(
            kind,
            &target.match_id,
            &target.token,
            (drill.clone(), slot + 1),
            7,
        );
        let record = tokio::spawn(seat.play())
            .await
            .expect("a fuzzed match plays on to the end");
        assert!(
            !record.result.is_null(),
            "seed {seed}: {} has a result",
            target.game
        );
        assert_verifies(app, &target.match_id).await;
    }
    let control = control.await.expect("the control match finished");
    assert!(!control.result.is_null());
    assert_verifies(app, &control_id).await;
    assert_eq!(
        PANICS.load(Ordering::SeqCst),
        0,
        "seed {seed}: something panicked (see above)"
    );
    eprintln!(
        "fuzz seed {seed}: {} frames in {:.1} s ({} error replies by code {:?}, {} pongs, {} acks), \
         all matches finished and verified in {:.1} s",
        totals.frames,
        fuzz_time.as_secs_f64(),
        totals.errors.values().sum::<usize>(),
        totals.errors,
        totals.pongs,
        totals.acks,
        began.elapsed().as_secs_f64()
    );
    assert_eq!(totals.frames, 3 * FRAMES_PER_MATCH);
    assert!(
        totals.errors.get("bad_message").copied().unwrap_or(0) > totals.frames / 2,
        "mostly junk"
    );
}

/// A new player and its match against a server bot: `(match_id, token)`.
async fn vs_bot(base: &str, game: &str, options: &Value) -> (String, String) {
    let http = reqwest::Client::new();
    let (_, token) = drills::register(&http, base, game).await;
    let body = json!({ "game": game, "options": options, "opponent": "bot" });
    let (status, created) = drills::post(&http, &format!("{base}/v1/matches"), &token, body).await;
    assert_eq!(status, 201, "{created}");
    (created["match_id"].as_str().expect("match_id").to_string(), token)
}

async fn assert_verifies(app: &TestApp, match_id: &str) {
    let (status, verify) = app.get(&format!("/v1/matches/{match_id}/verify"), None).await;
    assert_eq!(status, 200, "{verify}");
    assert_eq!(verify["status"], "ok", "{match_id} does not verify: {verify}");
}

#[derive(Default, Debug)]
struct Tally {
    frames: usize,
    errors: std::collections::BTreeMap<String, usize>,
    pongs: usize,
    acks: usize,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.frames += other.frames;
        self.pongs += other.pongs;
        self.acks += other.acks;
        for (code, count) in &other.errors {
            *self.errors.entry(code.clone()).or_default() += count;
        }
    }
}

/// One fuzzed match, seen from its human seat.
struct Target {
    base: String,
    game: &'static str,
    options: Value,
    match_id: String,
    /// Matches of this game the fuzz played out (accepted mutants are real moves), each
    /// replaced by a fresh one so the frame count is reached on a live match.
    played_out: Vec<String>,
    token: String,
    /// The drill's seed (`CREASE_FUZZ_SEED`), named in every failure.
    run_seed: u64,
    /// This match's mutation stream.
    seed: u64,
    /// The match ended during the fuzz (accepted mutants can play it out).
    finished: bool,
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

impl Target {
    async fn connect(&self, spectator: bool) -> Socket {
        let token = if spectator {
            String::new()
        } else {
            format!("?token={}", self.token)
        };
        let url = format!(
            "{}/v1/matches/{}/ws{token}",
            self.base.replacen("http", "ws", 1),
            self.match_id,
        );
        let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .unwrap_or_else(|error| {
                panic!(
                    "seed {}: {} refused a new socket: {error}",
                    self.run_seed, self.game
                )
            });
        socket
    }

    /// Sends `FRAMES_PER_MATCH` mutated frames, one at a time, each answered before the next.
    async fn fuzz(mut self) -> (Target, Tally) {
        let mut mutator = Mutator::new(self.seed);
        let mut tally = Tally::default();
        let corpus = corpus(self.game);
        let mut socket: Option<Socket> = None;
        let mut sent_on_socket = 0;
        let (mut sockets, mut spectator) = (0, false);
        for index in 0..FRAMES_PER_MATCH {
            if self.finished {
                self.played_out.push(self.match_id.clone());
                (self.match_id, self.token) = vs_bot(&self.base, self.game, &self.options).await;
                self.finished = false;
                socket = None;
            }
            if socket.is_none() || sent_on_socket == FRAMES_PER_SOCKET {
                if let Some(mut done) = socket.take() {
                    self.sentinel(&mut done, index).await;
                }
                sockets += 1;
                spectator = sockets % SPECTATOR_EVERY == 0;
                let mut fresh = self.connect(spectator).await;
                let Some(snapshot) = self
                    .read_until(&mut fresh, index, "connect", |message| {
                        message["type"] == "snapshot"
                    })
                    .await
                else {
                    unreachable!("a socket that never had a snapshot ended a match");
                };
                if !snapshot["result"].is_null() {
                    panic!(
                        "seed {}: {} is over before this socket's first frame",
                        self.run_seed, self.game
                    );
                }
                socket = Some(fresh);
                sent_on_socket = 0;
            }
            let live = socket.as_mut().expect("a socket");
            let base = corpus[mutator.below(corpus.len())].clone();
            let frame = mutator.mutate(&base);
            let message = match &frame {
                Fuzzed::Text(text) => Message::Text(text.clone().into()),
                Fuzzed::Binary(bytes) => Message::Binary(bytes.clone().into()),
            };
            live.send(message)
                .await
                .unwrap_or_else(|error| panic!("seed {} frame {index}: send failed: {error}", self.run_seed));
            sent_on_socket += 1;
            tally.frames += 1;
            let describe = frame.describe();
            let Some(answer) = self
                .read_until(live, index, &describe, |message| {
                    matches!(message["type"].as_str(), Some("error" | "pong" | "ack"))
                })
                .await
            else {
                // The match ended with this frame's answer unsent: count the frame, move on.
                continue;
            };
            match answer["type"].as_str() {
                Some("error") => {
                    let code = answer["code"].as_str().unwrap_or_default();
                    assert!(
                        if spectator { SPECTATOR_CODES } else { SEAT_CODES }.contains(&code)
                            && answer["message"].is_string(),
                        "seed {} frame {index} ({}): untyped or unexpected error {answer} for {describe}",
                        self.run_seed,
                        self.game
                    );
                    *tally.errors.entry(code.to_string()).or_default() += 1;
                }
                Some("pong") => tally.pongs += 1,
                _ => {
                    assert!(
                        !spectator,
                        "seed {} frame {index} ({}): a spectator's {describe} was acked",
                        self.run_seed, self.game
                    );
                    tally.acks += 1;
                }
            }
        }
        if let Some(mut done) = socket.take() {
            self.sentinel(&mut done, FRAMES_PER_MATCH).await;
        }
        if !self.played_out.is_empty() {
            eprintln!(
                "seed {}: accepted mutants played out {} {} match(es); fuzzed on in a new one",
                self.run_seed,
                self.played_out.len(),
                self.game
            );
        }
        (self, tally)
    }

    /// Pings with a fresh id and requires the very next answer to be its pong: no frame on
    /// this socket got a second answer (or a late one). Skipped when the match just ended.
    async fn sentinel(&mut self, socket: &mut Socket, index: usize) {
        if self.finished {
            return;
        }
        let id = format!("sentinel-{index}");
        let ping = json!({ "type": "ping", "id": id }).to_string();
        if socket.send(Message::Text(ping.into())).await.is_err() && self.finished {
            return;
        }
        let answer = self
            .read_until(socket, index, "the sentinel ping", |message| {
                matches!(message["type"].as_str(), Some("error" | "pong" | "ack"))
            })
            .await;
        if let Some(answer) = answer {
            assert_eq!(
                answer,
                json!({ "type": "pong", "id": id }),
                "seed {} frame {index} ({}): a frame before the sentinel got more than one answer",
                self.run_seed,
                self.game
            );
        }
    }

    /// Reads until a message `wanted` accepts, bounded in time. `None` when the socket closed
    /// because the match finished; any other close fails the drill with the frame that caused it.
    async fn read_until(
        &mut self,
        socket: &mut Socket,
        index: usize,
        frame: &str,
        wanted: impl Fn(&Value) -> bool,
    ) -> Option<Value> {
        let seed = self.run_seed;
        loop {
            let next = tokio::time::timeout(Duration::from_secs(10), socket.next())
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "seed {seed} frame {index} ({}): no answer within 10 s to {frame}",
                        self.game
                    )
                });
            let text = match next {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None if self.finished => return None,
                Some(Ok(Message::Close(close))) => {
                    panic!(
                        "seed {seed} frame {index} ({}): the server closed ({close:?}) after {frame}",
                        self.game
                    )
                }
                Some(Err(error)) => panic!(
                    "seed {seed} frame {index} ({}): socket error {error} after {frame}",
                    self.game
                ),
                None => panic!(
                    "seed {seed} frame {index} ({}): the socket ended after {frame}",
                    self.game
                ),
                Some(Ok(_)) => continue,
            };
            let message: Value = serde_json::from_str(&text).unwrap_or_else(|error| {
                panic!("seed {seed} frame {index}: the server sent non-JSON ({error}): {text}")
            });
            if message["type"] == "finished" {
                self.finished = true;
            }
            if wanted(&message) {
                return Some(message);
            }
        }
    }
}
