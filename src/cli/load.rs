//! `crease load`: a load generator that plays real matches against a running server.
//!
//! Each match is two players on two WebSocket connections, set up through the HTTP lobby
//! exactly as `crease bot` does (one creates, the other joins) and playing the game's own bot
//! moves from the views they receive. `human` pace thinks 2-6 s before each decision, `max`
//! answers at once, `idle` connects and never moves (for memory per match and per socket).
//!
//! Latency is command-to-broadcast as the acting client sees it: from sending a command to
//! receiving its ack. The server sends the command's events and the new view to that socket
//! before the ack, and the ack only after the events are durable, so this is the full path
//! a player waits on.

use super::bot::BotClient;
use crate::matches::{GameKind, GameRegistry};
use crate::protocol::{ClientMessage, ServerMessage};
use crate::rules::{BotPolicy, Dice, Seat};
use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Pace {
    /// Think 2-6 s before each decision, like a person.
    Human,
    /// Answer every decision at once.
    Max,
    /// Connect and never move: measures the memory of idle matches and sockets.
    Idle,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Base URL of the server.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// Concurrent matches (two players and two sockets each).
    #[arg(long, default_value_t = 10)]
    pub matches: u32,
    #[arg(long, value_enum, default_value = "human")]
    pub pace: Pace,
    /// Stop after this many seconds (default: when every match has finished).
    #[arg(long)]
    pub duration: Option<u64>,
    /// Print one JSON object instead of the text report.
    #[arg(long)]
    pub json: bool,
    #[arg(long, default_value = "ctg")]
    pub game: String,
    #[arg(long, default_value = "t10")]
    pub format: String,
    /// Matches being set up at once (HTTP lobby calls and socket handshakes).
    #[arg(long, default_value_t = 64)]
    pub setup_concurrency: usize,
    /// Start the matches but open no sockets (with `--pace idle`: memory per match alone).
    #[arg(long)]
    pub no_sockets: bool,
}

/// What the run measured; `--json` prints it as is.
#[derive(Debug, serde::Serialize)]
pub struct LoadReport {
    pub pace: String,
    pub matches_requested: u32,
    pub matches_started: u64,
    pub matches_completed: u64,
    pub setup_seconds: f64,
    pub elapsed_seconds: f64,
    pub acks: u64,
    pub acks_per_second: f64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub errors: u64,
    pub reconnects: u64,
}

/// Counters shared by every player task.
struct Stats {
    started: AtomicU64,
    completed: AtomicU64,
    acks: AtomicU64,
    errors: AtomicU64,
    reconnects: AtomicU64,
    /// Microseconds from sending a command to its ack.
    latency: Mutex<Histogram<u64>>,
}

impl Stats {
    fn new() -> anyhow::Result<Stats> {
        Ok(Stats {
            started: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            acks: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            latency: Mutex::new(Histogram::new_with_bounds(1, 600_000_000, 3)?),
        })
    }

    fn record_ack(&self, latency: Duration) {
        self.acks.fetch_add(1, Relaxed);
        let micros = (latency.as_micros() as u64).clamp(1, 600_000_000);
        if let Ok(mut histogram) = self.latency.lock() {
            let _ = histogram.record(micros);
        }
    }

    fn percentile_ms(&self, quantile: f64) -> f64 {
        self.latency
            .lock()
            .map(|histogram| histogram.value_at_quantile(quantile) as f64 / 1000.0)
            .unwrap_or_default()
    }

    fn max_ms(&self) -> f64 {
        self.latency
            .lock()
            .map(|histogram| histogram.max() as f64 / 1000.0)
            .unwrap_or_default()
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    let report = runtime.block_on(load(&args))?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_report(&report);
    }
    Ok(())
}

async fn load(args: &Args) -> anyhow::Result<LoadReport> {
    let game = GameRegistry::standard()
        .get(&args.game)
        .with_context(|| format!("unknown game {}", args.game))?;
    let options = json!({ "format": args.format });
    let stats = Arc::new(Stats::new()?);
    let http = reqwest::Client::builder().pool_max_idle_per_host(256).build()?;
    let setup = Arc::new(Semaphore::new(args.setup_concurrency.max(1)));
    let progress = progress_bar(args.matches);
    let began = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..args.matches {
        let context = MatchTask {
            http: http.clone(),
            server: args.server.clone(),
            game: game.clone(),
            options: options.clone(),
            pace: args.pace,
            sockets: !args.no_sockets,
            stats: stats.clone(),
            setup: setup.clone(),
            index,
        };
        tasks.spawn(async move {
            if let Err(error) = context.run().await {
                context.stats.errors.fetch_add(1, Relaxed);
                tracing::debug!(%error, "match failed");
            }
        });
    }
    let ticker = tokio::spawn(tick(progress.clone(), stats.clone(), began));
    let setup_done = {
        let stats = stats.clone();
        let wanted = u64::from(args.matches);
        tokio::spawn(async move {
            while stats.started.load(Relaxed) < wanted {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            began.elapsed()
        })
    };
    let all_done = async { while tasks.join_next().await.is_some() {} };
    let stopped_early = match args.duration {
        Some(seconds) => tokio::time::timeout(Duration::from_secs(seconds), all_done)
            .await
            .is_err(),
        None => {
            all_done.await;
            false
        }
    };
    let elapsed = began.elapsed();
    tasks.abort_all();
    ticker.abort();
    progress.finish_and_clear();
    let setup_seconds = if setup_done.is_finished() {
        setup_done.await.map(|d| d.as_secs_f64()).unwrap_or_default()
    } else {
        setup_done.abort();
        elapsed.as_secs_f64()
    };
    if stopped_early {
        tracing::info!("duration reached; open matches were left running on the server");
    }
    let acks = stats.acks.load(Relaxed);
    Ok(LoadReport {
        pace: format!("{:?}", args.pace).to_lowercase(),
        matches_requested: args.matches,
        matches_started: stats.started.load(Relaxed),
        matches_completed: stats.completed.load(Relaxed),
        setup_seconds,
        elapsed_seconds: elapsed.as_secs_f64(),
        acks,
        acks_per_second: acks as f64 / elapsed.as_secs_f64().max(1e-9),
        p50_ms: stats.percentile_ms(0.50),
        p90_ms: stats.percentile_ms(0.90),
        p99_ms: stats.percentile_ms(0.99),
        max_ms: stats.max_ms(),
        errors: stats.errors.load(Relaxed),
        reconnects: stats.reconnects.load(Relaxed),
    })
}

fn progress_bar(matches: u32) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(u64::from(matches)), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} finished  {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

async fn tick(bar: ProgressBar, stats: Arc<Stats>, began: Instant) {
    let mut last_acks = 0;
    let mut interval = tokio::time::interval(Duration::from_secs(1));
    loop {
        interval.tick().await;
        let acks = stats.acks.load(Relaxed);
        bar.set_position(stats.completed.load(Relaxed));
        bar.set_message(format!(
            "started {}  acks {acks} ({}/s)  p99 {:.1} ms  errors {}  reconnects {}  t={:.0}s",
            stats.started.load(Relaxed),
            acks - last_acks,
            stats.percentile_ms(0.99),
            stats.errors.load(Relaxed),
            stats.reconnects.load(Relaxed),
            began.elapsed().as_secs_f64(),
        ));
        last_acks = acks;
    }
}

fn print_report(report: &LoadReport) {
    println!(
        "pace {}: {} of {} matches started, {} completed",
        report.pace, report.matches_started, report.matches_requested, report.matches_completed
    );
    println!(
        "setup {:.1} s, run {:.1} s",
        report.setup_seconds, report.elapsed_seconds
    );
    println!("acks {} ({:.1}/s)", report.acks, report.acks_per_second);
    println!(
        "command-to-broadcast: p50 {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  max {:.2} ms",
        report.p50_ms, report.p90_ms, report.p99_ms, report.max_ms
    );
    println!("errors {}  reconnects {}", report.errors, report.reconnects);
}

/// Sets up one match and plays both of its seats.
struct MatchTask {
    http: reqwest::Client,
    server: String,
    game: Arc<dyn GameKind>,
    options: Value,
    pace: Pace,
    sockets: bool,
    stats: Arc<Stats>,
    setup: Arc<Semaphore>,
    index: u32,
}

impl MatchTask {
    async fn run(&self) -> anyhow::Result<()> {
        let permit = self.setup.acquire().await?;
        let home =
            BotClient::register_with(self.http.clone(), &self.server, &format!("load-{}-h", self.index))
                .await?;
        let away =
            BotClient::register_with(self.http.clone(), &self.server, &format!("load-{}-a", self.index))
                .await?;
        let match_id = home
            .create_open(self.game.id(), Some(self.options.clone()))
            .await?;
        away.join(&match_id).await?;
        if !self.sockets {
            drop(permit);
            self.stats.started.fetch_add(1, Relaxed);
            return std::future::pending().await;
        }
        let home_socket = connect(&home.socket_url(&match_id, None)).await?;
        let away_socket = connect(&away.socket_url(&match_id, None)).await?;
        drop(permit);
        self.stats.started.fetch_add(1, Relaxed);
        let (home_result, away_result) = tokio::join!(
            self.play(&home, &match_id, home_socket),
            self.play(&away, &match_id, away_socket)
        );
        home_result?;
        away_result?;
        self.stats.completed.fetch_add(1, Relaxed);
        Ok(())
    }

    /// Plays one seat to the end of the match, reconnecting (with resume) if the socket drops.
    async fn play(&self, player: &BotClient, match_id: &str, mut socket: Socket) -> anyhow::Result<()> {
        let mut seat = SeatPlay::new();
        let mut reconnects = 0;
        loop {
            match self.play_on(&mut seat, &mut socket).await {
                Ok(true) => return Ok(()),
                Ok(false) | Err(_) if reconnects < 5 => {
                    reconnects += 1;
                    self.stats.reconnects.fetch_add(1, Relaxed);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    socket = connect(&player.socket_url(match_id, Some(seat.last_seq))).await?;
                    seat.sent_at = None;
                }
                Ok(false) => bail!("the server closed match {match_id} before it finished"),
                Err(error) => return Err(error),
            }
        }
    }

    /// Reads one connection until the match finishes (true) or the socket closes (false).
    async fn play_on(&self, seat: &mut SeatPlay, socket: &mut Socket) -> anyhow::Result<bool> {
        while let Some(frame) = socket.next().await {
            let text = match frame? {
                Message::Text(text) => text,
                Message::Close(_) => return Ok(false),
                _ => continue,
            };
            let (view, pending) = match serde_json::from_str::<ServerMessage>(&text)? {
                ServerMessage::Snapshot(snapshot) => {
                    seat.seat = snapshot.seat;
                    seat.last_seq = seat.last_seq.max(snapshot.last_seq);
                    (snapshot.view, snapshot.pending)
                }
                ServerMessage::Update(update) => {
                    seat.last_seq = seat.last_seq.max(update.last_seq);
                    (update.view, update.pending)
                }
                ServerMessage::Event { seq, .. } => {
                    seat.last_seq = seat.last_seq.max(seq);
                    continue;
                }
                ServerMessage::Ack { .. } => {
                    if let Some(sent) = seat.sent_at.take() {
                        self.stats.record_ack(sent.elapsed());
                    }
                    match seat.latest.take() {
                        Some(latest) => latest,
                        None => continue,
                    }
                }
                ServerMessage::Error(error) => {
                    self.stats.errors.fetch_add(1, Relaxed);
                    tracing::debug!(
                        code = error.code.as_str(),
                        message = error.message,
                        "command refused"
                    );
                    seat.sent_at = None;
                    match seat.latest.take() {
                        Some(latest) => latest,
                        None => continue,
                    }
                }
                ServerMessage::Finished { .. } => return Ok(true),
                ServerMessage::Pong { .. } => continue,
            };
            seat.latest = Some((view.clone(), pending.clone()));
            let my_turn = seat.seat.is_some_and(|mine| pending.contains(&mine));
            if !my_turn || seat.sent_at.is_some() || self.pace == Pace::Idle {
                continue;
            }
            let Some(command) = self
                .game
                .bot_command(&view, BotPolicy::Heuristic, &mut seat.dice)
                .map_err(anyhow::Error::msg)?
            else {
                continue;
            };
            if self.pace == Pace::Human {
                // Thinking time; frames that arrive meanwhile wait in the socket's buffer.
                let think_ms = 2_000 + u64::from(seat.dice.below(4_000));
                tokio::time::sleep(Duration::from_millis(think_ms)).await;
            }
            seat.next_id += 1;
            let message = ClientMessage::Command {
                id: seat.next_id.to_string(),
                command,
            };
            let text = serde_json::to_string(&message)?;
            seat.sent_at = Some(Instant::now());
            socket.send(Message::Text(text.into())).await?;
        }
        Ok(false)
    }
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(url: &str) -> anyhow::Result<Socket> {
    let (socket, _) = tokio_tungstenite::connect_async(url).await?;
    Ok(socket)
}

/// One seat's progress through a match, kept across reconnects.
struct SeatPlay {
    seat: Option<Seat>,
    last_seq: i64,
    next_id: u64,
    /// When the unacknowledged command was sent.
    sent_at: Option<Instant>,
    /// The latest view: a seat is often asked again by the batch its own command produced,
    /// which arrives before that command's ack, so the ack re-examines it.
    latest: Option<(Value, Vec<Seat>)>,
    dice: Dice,
}

impl SeatPlay {
    fn new() -> SeatPlay {
        SeatPlay {
            seat: None,
            last_seq: 0,
            next_id: 0,
            sent_at: None,
            latest: None,
            dice: Dice::new(&crate::fairness::new_seed()),
        }
    }
}
