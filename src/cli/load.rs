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
//!
//! The measurement window opens when every match has been set up (setup is reported apart)
//! and lasts `--duration` seconds, or until every match has finished. With `--duration`, a
//! match that finishes is followed by a new one between the same two players, so the number
//! of live matches stays at `--matches` for the whole window.
//!
//! One process can hold only as many sockets as its open-file limit allows, so `--workers K`
//! splits the matches over K child processes of this same binary and merges what they
//! measured (counters add up, latency histograms are merged value by value).
//!
//! `--server` may be given several times, one per node of a cluster: players are placed on
//! the URLs round-robin, and the two seats of a match on two different URLs, so that a
//! benchmark of a cluster exercises sockets routed to the node that owns the match.
//!
//! Two options are for failover drills rather than benchmarks (`deploy/patroni/drill.sh`):
//! `--acks-file` appends one JSON line per acked command (which match, seat, command, the
//! ack's `last_seq` and when), so a drill can check afterwards that every acked command is in
//! the log; `--reconnect-for` keeps a seat resuming for that long after its socket drops, or
//! after a command is answered `unavailable` or `match_moved`, instead of giving up after five
//! quick tries.

use super::bot::BotClient;
use crate::matches::{GameKind, GameRegistry};
use crate::protocol::ClientMessage;
use crate::record::MatchId;
use crate::rules::{BotPolicy, Dice, Seat};
use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::io::AsyncBufReadExt;
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

impl Pace {
    /// The name `--pace` takes, as clap derives it.
    fn name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value()
            .map(|value| value.get_name().to_string())
            .unwrap_or_default()
    }
}

#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Base URL of the server; repeat it for several nodes of one cluster (players go to them
    /// round-robin, the two seats of a match to different URLs).
    #[arg(
        long = "server",
        visible_alias = "url",
        value_name = "URL",
        default_value = "http://127.0.0.1:8080"
    )]
    pub servers: Vec<String>,
    /// Concurrent matches (two players and two sockets each).
    #[arg(long, default_value_t = 10)]
    pub matches: u32,
    #[arg(long, value_enum, default_value = "human")]
    pub pace: Pace,
    /// Measure for this many seconds after setup, replacing finished matches (default: play
    /// each match once, until every one has finished).
    #[arg(long)]
    pub duration: Option<u64>,
    /// Print one JSON object instead of the text report.
    #[arg(long)]
    pub json: bool,
    #[arg(long, default_value = "ctg")]
    pub game: String,
    #[arg(long, default_value = "t10")]
    pub format: String,
    /// Matches being set up at once per process (HTTP lobby calls and socket handshakes).
    #[arg(long, default_value_t = 64)]
    pub setup_concurrency: usize,
    /// Start the matches but open no sockets (with `--pace idle`: memory per match alone).
    #[arg(long)]
    pub no_sockets: bool,
    /// Processes to spread the matches over (each holds at most its open-file limit of
    /// sockets: about 19,900 here, so 10,000 matches need two).
    #[arg(long, default_value_t = 1)]
    pub workers: u32,
    /// The WebSocket protocol the players ask for: 1 (the default, what clients get without
    /// asking, and what every recorded benchmark used) events and full views in every
    /// update, 2 one step per change with a merge patch of the view (`scripts/bench-deltas.sh`
    /// compares the two).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=2))]
    pub protocol: u32,
    /// Spectator sockets to open per second on the run's live matches during the window
    /// (with `--duration`, one process): each resumes from `--spectator-resume-from`, reads
    /// to the end of its resume and closes. The report says how many were served and
    /// refused, beside the players' latency.
    #[arg(long, default_value_t = 0)]
    pub spectators_per_second: u32,
    /// The `resume_from` each storm socket asks for; negative: none (a plain snapshot).
    #[arg(long, default_value_t = 0)]
    pub spectator_resume_from: i64,
    /// Seconds the storm is on, then as many off, quiet first (0: on throughout): the
    /// players' latency is then also reported for the quiet and the storm stretches apart.
    #[arg(long, default_value_t = 0)]
    pub spectator_period: u64,
    /// Loopback source addresses the storm's sockets come from (127.0.1.1 on), to play many
    /// watchers; 1 is the default address.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=60_000))]
    pub spectator_addresses: u32,
    /// Append one JSON line per acked command to this file (created if missing; every worker
    /// appends to the same file): `match_id`, `seat`, `id`, `command`, the ack's `last_seq`,
    /// `sent_ms` and `acked_ms` (Unix milliseconds) and `connection` (1: the seat's first
    /// socket). Every ack of the run, setup included. For failover drills, which check each
    /// line against the match's log.
    #[arg(long, value_name = "PATH")]
    pub acks_file: Option<PathBuf>,
    /// After a seat's socket drops (or a command is answered `unavailable` or `match_moved`),
    /// keep resuming it on a new socket every 200 ms for up to this many seconds since its last
    /// ack, instead of giving up after 5 tries: for failover drills, where a node or the
    /// database is away for seconds.
    #[arg(long, value_name = "SECONDS")]
    pub reconnect_for: Option<u64>,
    /// Internal: run as one worker of `--workers`, printing progress and the result as JSON lines.
    #[arg(long, hide = true)]
    pub worker: bool,
    /// Internal: the index of this worker's first match among all the workers' matches, so the
    /// round-robin over `--server` URLs continues from one worker to the next.
    #[arg(long, hide = true, default_value_t = 0)]
    pub first_match: u32,
}

/// Where a match's two players go among `servers` URLs: player `2 * match_index` and the next
/// one, round-robin. With two URLs or more the two seats land on different URLs, since two
/// consecutive numbers differ modulo any count above one.
fn placement(match_index: u32, servers: usize) -> (usize, usize) {
    let servers = servers.max(1) as u64;
    let home = 2 * u64::from(match_index);
    ((home % servers) as usize, ((home + 1) % servers) as usize)
}

/// What the run measured; `--json` prints it as is.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LoadReport {
    pub pace: String,
    pub workers: u32,
    pub matches_requested: u32,
    pub matches_started: u64,
    pub matches_completed: u64,
    /// From the first lobby call to the last match's sockets being open.
    pub setup_seconds: f64,
    /// The measurement window, after setup.
    pub elapsed_seconds: f64,
    /// Commands acked inside the window.
    pub acks: u64,
    pub acks_per_second: f64,
    #[serde(flatten)]
    pub latency: Latency,
    pub errors: u64,
    pub reconnects: u64,
    /// The `--protocol` the players spoke.
    pub protocol: u32,
    /// WebSocket text bytes the players received (whole run, setup included) and the CTG
    /// balls they saw, one count per seat.
    pub bytes_received: u64,
    pub balls_seen: u64,
    /// `bytes_received / balls_seen`: what one seat is sent per ball (CTG only).
    pub bytes_per_ball_per_seat: Option<f64>,
    /// WebSocket connections opened (first connects, reconnects and back-to-back matches),
    /// per `--server` URL in the order given.
    pub sockets_per_url: Vec<UrlSockets>,
    /// The spectator storm's figures, with `--spectators-per-second`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spectators: Option<super::spectate::StormReport>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UrlSockets {
    pub url: String,
    pub sockets: u64,
}

/// Command-to-broadcast percentiles of the window, in milliseconds.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Latency {
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Latency {
    fn of(histogram: &Histogram<u64>) -> Latency {
        let ms = |micros: u64| micros as f64 / 1000.0;
        Latency {
            p50_ms: ms(histogram.value_at_quantile(0.50)),
            p90_ms: ms(histogram.value_at_quantile(0.90)),
            p99_ms: ms(histogram.value_at_quantile(0.99)),
            max_ms: ms(histogram.max()),
        }
    }
}

/// Counters shared by every player task of one process.
struct Stats {
    started: AtomicU64,
    setup_failures: AtomicU64,
    completed: AtomicU64,
    acks: AtomicU64,
    errors: AtomicU64,
    reconnects: AtomicU64,
    /// WebSocket text bytes the players received, and the balls (CTG `ball_ended` events)
    /// they saw, counted per seat: their ratio is the bytes per ball per seat.
    bytes_received: AtomicU64,
    balls_seen: AtomicU64,
    /// Sockets opened, by index into `--server`.
    sockets: Vec<AtomicU64>,
    /// Microseconds from sending a command to its ack, inside the window.
    latency: Mutex<Histogram<u64>>,
    /// Whether a spectator storm is on now, and the same latency split by it.
    storming: Arc<AtomicBool>,
    quiet_latency: Mutex<Histogram<u64>>,
    storm_latency: Mutex<Histogram<u64>>,
}

impl Stats {
    fn new(servers: usize) -> anyhow::Result<Stats> {
        Ok(Stats {
            sockets: (0..servers).map(|_| AtomicU64::new(0)).collect(),
            started: AtomicU64::new(0),
            setup_failures: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            acks: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            bytes_received: AtomicU64::new(0),
            balls_seen: AtomicU64::new(0),
            latency: Mutex::new(new_histogram()?),
            storming: Arc::new(AtomicBool::new(false)),
            quiet_latency: Mutex::new(new_histogram()?),
            storm_latency: Mutex::new(new_histogram()?),
        })
    }

    fn record_ack(&self, latency: Duration) {
        self.acks.fetch_add(1, Relaxed);
        let micros = (latency.as_micros() as u64).clamp(1, MAX_MICROS);
        if let Ok(mut histogram) = self.latency.lock() {
            let _ = histogram.record(micros);
        }
        let split = match self.storming.load(Relaxed) {
            true => &self.storm_latency,
            false => &self.quiet_latency,
        };
        if let Ok(mut histogram) = split.lock() {
            let _ = histogram.record(micros);
        }
    }

    /// Opens the measurement window: what happened during setup is not counted.
    fn open_window(&self) -> u64 {
        for histogram in [&self.latency, &self.quiet_latency, &self.storm_latency] {
            if let Ok(mut histogram) = histogram.lock() {
                histogram.reset();
            }
        }
        self.acks.load(Relaxed)
    }

    fn progress(&self) -> Progress {
        Progress {
            started: self.started.load(Relaxed),
            completed: self.completed.load(Relaxed),
            acks: self.acks.load(Relaxed),
            errors: self.errors.load(Relaxed),
            reconnects: self.reconnects.load(Relaxed),
            p99_ms: self
                .latency
                .lock()
                .map(|histogram| histogram.value_at_quantile(0.99) as f64 / 1000.0)
                .unwrap_or_default(),
        }
    }
}

const MAX_MICROS: u64 = 600_000_000;

fn new_histogram() -> anyhow::Result<Histogram<u64>> {
    Ok(Histogram::new_with_bounds(1, MAX_MICROS, 3)?)
}

/// Counters as the progress bar shows them (and a worker reports them, once a second).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
struct Progress {
    started: u64,
    completed: u64,
    acks: u64,
    errors: u64,
    reconnects: u64,
    p99_ms: f64,
}

/// One line of a worker's output.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum WorkerLine {
    Progress(Progress),
    /// The worker's report and its latency histogram as `(microseconds, count)` pairs.
    Done {
        report: Box<LoadReport>,
        latency_us: Vec<(u64, u64)>,
    },
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    let report = if args.workers > 1 && !args.worker {
        runtime.block_on(run_workers(&args))?
    } else {
        let (report, histogram) = runtime.block_on(load(&args))?;
        if args.worker {
            let latency_us = histogram
                .iter_recorded()
                .map(|value| (value.value_iterated_to(), value.count_at_value()))
                .collect();
            println!(
                "{}",
                serde_json::to_string(&WorkerLine::Done {
                    report: Box::new(report),
                    latency_us
                })?
            );
            return Ok(());
        }
        report
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_report(&report);
    }
    Ok(())
}

/// Runs the load in this process and returns its report and latency histogram.
pub async fn load(args: &Args) -> anyhow::Result<(LoadReport, Histogram<u64>)> {
    let game = GameRegistry::standard()
        .get(&args.game)
        .with_context(|| format!("unknown game {}", args.game))?;
    let options = json!({ "format": args.format });
    if args.servers.is_empty() {
        bail!("no --server to load");
    }
    if args.spectators_per_second > 0 && (args.duration.is_none() || args.workers > 1) {
        bail!("--spectators-per-second needs --duration and one worker");
    }
    let stats = Arc::new(Stats::new(args.servers.len())?);
    // Idle lobby connections are sockets on the server too: let them go soon after setup.
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(256)
        .pool_idle_timeout(Duration::from_secs(5))
        .build()?;
    let setup = Arc::new(Semaphore::new(args.setup_concurrency.max(1)));
    let acks = match &args.acks_file {
        Some(path) => Some(Arc::new(AckFile::open(path)?)),
        None => None,
    };
    let reconnect = Reconnect::new(args.reconnect_for);
    let began = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..args.matches {
        let (home, away) = placement(args.first_match.wrapping_add(index), args.servers.len());
        let context = MatchTask {
            http: http.clone(),
            home: (home, args.servers[home].clone()),
            away: (away, args.servers[away].clone()),
            game: game.clone(),
            options: options.clone(),
            pace: args.pace,
            protocol: args.protocol,
            sockets: !args.no_sockets,
            back_to_back: args.duration.is_some(),
            stats: stats.clone(),
            setup: setup.clone(),
            index,
            acks: acks.clone(),
            reconnect,
        };
        tasks.spawn(async move {
            if let Err(error) = context.run().await {
                context.stats.errors.fetch_add(1, Relaxed);
                tracing::debug!(%error, "match failed");
            }
        });
    }
    drop(http);
    let show = Show::new(args);
    let ticker = tokio::spawn(tick(show.clone(), stats.clone(), began));
    let wanted = u64::from(args.matches);
    let mut storm_task = None;
    let (setup_seconds, acks_before, elapsed) = {
        let all_done = async { while tasks.join_next().await.is_some() {} };
        tokio::pin!(all_done);
        // Setup: until every match is started (or every task has ended, e.g. on errors).
        let setup_finished = tokio::select! {
            _ = async {
                while stats.started.load(Relaxed) + stats.setup_failures.load(Relaxed) < wanted {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            } => false,
            _ = &mut all_done => true,
        };
        let setup_seconds = began.elapsed().as_secs_f64();
        let acks_before = stats.open_window();
        let window = Instant::now();
        if args.spectators_per_second > 0 && !setup_finished {
            let storm = super::spectate::Storm {
                server: args.servers[0].clone(),
                per_second: args.spectators_per_second,
                resume_from: args.spectator_resume_from,
                addresses: args.spectator_addresses,
                period: args.spectator_period,
            };
            let until = window + Duration::from_secs(args.duration.unwrap_or_default());
            storm_task = Some(tokio::spawn(super::spectate::run(
                storm,
                until,
                stats.storming.clone(),
            )));
        }
        if !setup_finished {
            match args.duration {
                Some(seconds) => {
                    let _ = tokio::time::timeout(Duration::from_secs(seconds), &mut all_done).await;
                }
                None => all_done.await,
            }
        }
        (setup_seconds, acks_before, window.elapsed())
    };
    tasks.abort_all();
    ticker.abort();
    show.finish();
    let spectators = match storm_task {
        Some(task) => {
            let mut storm = task.await.context("the spectator storm")??;
            let split = |histogram: &Mutex<Histogram<u64>>| {
                histogram
                    .lock()
                    .map(|histogram| (histogram.len(), Latency::of(&histogram)))
                    .ok()
            };
            if let Some((acks, latency)) = split(&stats.quiet_latency) {
                (storm.quiet_acks, storm.quiet_p50_ms, storm.quiet_p99_ms) =
                    (acks, latency.p50_ms, latency.p99_ms);
            }
            if let Some((acks, latency)) = split(&stats.storm_latency) {
                (storm.storm_acks, storm.storm_p50_ms, storm.storm_p99_ms) =
                    (acks, latency.p50_ms, latency.p99_ms);
            }
            Some(storm)
        }
        None => None,
    };
    let acks = stats.acks.load(Relaxed) - acks_before;
    let histogram = stats
        .latency
        .lock()
        .map(|histogram| histogram.clone())
        .unwrap_or(new_histogram()?);
    let report = LoadReport {
        pace: args.pace.name(),
        workers: 1,
        matches_requested: args.matches,
        matches_started: stats.started.load(Relaxed),
        matches_completed: stats.completed.load(Relaxed),
        setup_seconds,
        elapsed_seconds: elapsed.as_secs_f64(),
        acks,
        acks_per_second: acks as f64 / elapsed.as_secs_f64().max(1e-9),
        errors: stats.errors.load(Relaxed),
        reconnects: stats.reconnects.load(Relaxed),
        protocol: args.protocol,
        bytes_received: stats.bytes_received.load(Relaxed),
        balls_seen: stats.balls_seen.load(Relaxed),
        bytes_per_ball_per_seat: per_ball(stats.bytes_received.load(Relaxed), stats.balls_seen.load(Relaxed)),
        latency: Latency::of(&histogram),
        sockets_per_url: args
            .servers
            .iter()
            .zip(&stats.sockets)
            .map(|(url, sockets)| UrlSockets {
                url: url.clone(),
                sockets: sockets.load(Relaxed),
            })
            .collect(),
        spectators,
    };
    Ok((report, histogram))
}

/// Starts `--workers` copies of this binary, each with its share of the matches, shows their
/// combined progress and merges their reports.
async fn run_workers(args: &Args) -> anyhow::Result<LoadReport> {
    let exe = std::env::current_exe().context("locating this binary to start workers")?;
    let workers = args.workers.min(args.matches.max(1));
    let bar = progress_bar(args.matches);
    let progress = Arc::new(Mutex::new(vec![Progress::default(); workers as usize]));
    let mut children = Vec::new();
    let mut first_match = 0;
    for worker in 0..workers {
        let share = args.matches / workers + u32::from(worker < args.matches % workers);
        let mut command = tokio::process::Command::new(&exe);
        command.arg("load");
        for server in &args.servers {
            command.args(["--server", server]);
        }
        command
            .args(["--matches", &share.to_string()])
            .args(["--first-match", &first_match.to_string()])
            .args(["--pace", &args.pace.name()])
            .args(["--protocol", &args.protocol.to_string()])
            .args(["--game", &args.game, "--format", &args.format])
            .args(["--setup-concurrency", &args.setup_concurrency.to_string()])
            .arg("--worker")
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true);
        if let Some(seconds) = args.duration {
            command.args(["--duration", &seconds.to_string()]);
        }
        if args.no_sockets {
            command.arg("--no-sockets");
        }
        if let Some(path) = &args.acks_file {
            command.arg("--acks-file").arg(path);
        }
        if let Some(seconds) = args.reconnect_for {
            command.args(["--reconnect-for", &seconds.to_string()]);
        }
        first_match += share;
        let mut child = command.spawn().context("starting a load worker")?;
        let stdout = child.stdout.take().context("a worker's output")?;
        let progress = progress.clone();
        let bar = bar.clone();
        children.push(tokio::spawn(async move {
            let mut lines = tokio::io::BufReader::new(stdout).lines();
            let mut done = None;
            while let Some(line) = lines.next_line().await? {
                match serde_json::from_str::<WorkerLine>(&line) {
                    Ok(WorkerLine::Progress(now)) => {
                        let total = {
                            let mut all = progress.lock().map_err(|_| anyhow::anyhow!("poisoned"))?;
                            all[worker as usize] = now;
                            combine(&all)
                        };
                        bar.set_position(total.completed);
                        bar.set_message(progress_message(&total, None));
                    }
                    Ok(WorkerLine::Done { report, latency_us }) => done = Some((*report, latency_us)),
                    Err(_) => tracing::warn!(worker, line, "unreadable worker output"),
                }
            }
            let status = child.wait().await?;
            match done {
                Some(done) if status.success() => Ok(done),
                _ => bail!("load worker {worker} failed ({status})"),
            }
        }));
    }
    let mut reports = Vec::new();
    let mut histogram = new_histogram()?;
    for child in children {
        let (report, latency_us) = child.await??;
        for (micros, count) in latency_us {
            histogram.record_n(micros.clamp(1, MAX_MICROS), count)?;
        }
        reports.push(report);
    }
    bar.finish_and_clear();
    let sum = |field: fn(&LoadReport) -> u64| reports.iter().map(field).sum::<u64>();
    let longest = |field: fn(&LoadReport) -> f64| reports.iter().map(field).fold(0.0, f64::max);
    Ok(LoadReport {
        pace: args.pace.name(),
        workers,
        matches_requested: args.matches,
        matches_started: sum(|report| report.matches_started),
        matches_completed: sum(|report| report.matches_completed),
        setup_seconds: longest(|report| report.setup_seconds),
        elapsed_seconds: longest(|report| report.elapsed_seconds),
        acks: sum(|report| report.acks),
        // Each worker's rate over its own window: the windows overlap, so the rates add up.
        acks_per_second: reports.iter().map(|report| report.acks_per_second).sum(),
        errors: sum(|report| report.errors),
        reconnects: sum(|report| report.reconnects),
        protocol: args.protocol,
        bytes_received: sum(|report| report.bytes_received),
        balls_seen: sum(|report| report.balls_seen),
        bytes_per_ball_per_seat: per_ball(
            sum(|report| report.bytes_received),
            sum(|report| report.balls_seen),
        ),
        latency: Latency::of(&histogram),
        sockets_per_url: args
            .servers
            .iter()
            .enumerate()
            .map(|(index, url)| UrlSockets {
                url: url.clone(),
                sockets: reports
                    .iter()
                    .filter_map(|report| report.sockets_per_url.get(index))
                    .map(|count| count.sockets)
                    .sum(),
            })
            .collect(),
        spectators: None,
    })
}

fn per_ball(bytes: u64, balls: u64) -> Option<f64> {
    (balls > 0).then(|| bytes as f64 / balls as f64)
}

fn combine(all: &[Progress]) -> Progress {
    all.iter().fold(Progress::default(), |total, one| Progress {
        started: total.started + one.started,
        completed: total.completed + one.completed,
        acks: total.acks + one.acks,
        errors: total.errors + one.errors,
        reconnects: total.reconnects + one.reconnects,
        p99_ms: total.p99_ms.max(one.p99_ms),
    })
}

/// Where progress goes: a bar on stderr, or JSON lines on stdout for a parent process.
#[derive(Clone)]
enum Show {
    Bar(ProgressBar),
    Lines,
}

impl Show {
    fn new(args: &Args) -> Show {
        if args.worker {
            Show::Lines
        } else {
            Show::Bar(progress_bar(args.matches))
        }
    }

    fn update(&self, progress: &Progress, rate: u64, began: Instant) {
        match self {
            Show::Bar(bar) => {
                bar.set_position(progress.completed);
                bar.set_message(progress_message(progress, Some((rate, began))));
            }
            Show::Lines => {
                if let Ok(line) = serde_json::to_string(&WorkerLine::Progress(*progress)) {
                    println!("{line}");
                }
            }
        }
    }

    fn finish(&self) {
        if let Show::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
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

fn progress_message(progress: &Progress, rate: Option<(u64, Instant)>) -> String {
    let mut message = format!("started {}  acks {}", progress.started, progress.acks);
    if let Some((rate, began)) = rate {
        message.push_str(&format!(" ({rate}/s)  t={:.0}s", began.elapsed().as_secs_f64()));
    }
    message.push_str(&format!(
        "  p99 {:.1} ms  errors {}  reconnects {}",
        progress.p99_ms, progress.errors, progress.reconnects
    ));
    message
}

async fn tick(show: Show, stats: Arc<Stats>, began: Instant) {
    let mut last_acks = 0;
    let mut interval = tokio::time::interval(Duration::from_secs(1));
    loop {
        interval.tick().await;
        let progress = stats.progress();
        show.update(&progress, progress.acks.saturating_sub(last_acks), began);
        last_acks = progress.acks;
    }
}

fn print_report(report: &LoadReport) {
    println!(
        "pace {}: {} of {} matches started, {} completed ({} process{})",
        report.pace,
        report.matches_started,
        report.matches_requested,
        report.matches_completed,
        report.workers,
        if report.workers == 1 { "" } else { "es" }
    );
    println!(
        "setup {:.1} s, then measured for {:.1} s",
        report.setup_seconds, report.elapsed_seconds
    );
    println!("acks {} ({:.1}/s)", report.acks, report.acks_per_second);
    println!(
        "command-to-broadcast: p50 {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  max {:.2} ms",
        report.latency.p50_ms, report.latency.p90_ms, report.latency.p99_ms, report.latency.max_ms
    );
    println!("errors {}  reconnects {}", report.errors, report.reconnects);
    if let Some(storm) = &report.spectators {
        println!(
            "spectators: {}/s from {} address(es): {} attempted, {} served (resume p50 {:.1} ms, p99 {:.1} ms), {} refused, {} failed",
            storm.per_second,
            storm.addresses,
            storm.attempted,
            storm.served,
            storm.served_p50_ms,
            storm.served_p99_ms,
            storm.refused,
            storm.failed
        );
        if storm.period > 0 {
            println!(
                "players, storm off/on every {} s: quiet {} acks p50 {:.2} ms p99 {:.2} ms; storm {} acks p50 {:.2} ms p99 {:.2} ms",
                storm.period,
                storm.quiet_acks,
                storm.quiet_p50_ms,
                storm.quiet_p99_ms,
                storm.storm_acks,
                storm.storm_p50_ms,
                storm.storm_p99_ms
            );
        }
    }
    if let Some(per_ball) = report.bytes_per_ball_per_seat {
        println!(
            "bytes received per ball per seat: {per_ball:.0} (protocol {}, {} bytes over {} balls)",
            report.protocol, report.bytes_received, report.balls_seen
        );
    }
    let per_url: Vec<String> = report
        .sockets_per_url
        .iter()
        .map(|count| format!("{} {}", count.url, count.sockets))
        .collect();
    println!("sockets per URL: {}", per_url.join("  "));
}

/// Sets up one match slot and plays both of its seats.
struct MatchTask {
    http: reqwest::Client,
    /// Where each seat plays: an index into `--server` (for the socket counts) and its URL.
    home: (usize, String),
    away: (usize, String),
    game: Arc<dyn GameKind>,
    options: Value,
    pace: Pace,
    protocol: u32,
    sockets: bool,
    /// Start another match between the same players when one finishes.
    back_to_back: bool,
    stats: Arc<Stats>,
    setup: Arc<Semaphore>,
    index: u32,
    /// `--acks-file`: where each ack is written down.
    acks: Option<Arc<AckFile>>,
    /// `--reconnect-for`: how long a seat keeps resuming.
    reconnect: Reconnect,
}

impl MatchTask {
    async fn run(&self) -> anyhow::Result<()> {
        let mut permit = Some(self.setup.acquire().await?);
        let result = self.run_slot(&mut permit).await;
        if result.is_err() && permit.is_some() {
            // Failed before its first match started: setup must not wait for it.
            self.stats.setup_failures.fetch_add(1, Relaxed);
        }
        result
    }

    async fn run_slot(&self, permit: &mut Option<tokio::sync::SemaphorePermit<'_>>) -> anyhow::Result<()> {
        let home =
            BotClient::register_with(self.http.clone(), &self.home.1, &format!("load-{}-h", self.index))
                .await?;
        let away =
            BotClient::register_with(self.http.clone(), &self.away.1, &format!("load-{}-a", self.index))
                .await?;
        loop {
            let match_id = home
                .create_open(self.game.id(), Some(self.options.clone()))
                .await?;
            away.join(&match_id).await?;
            if !self.sockets {
                permit.take();
                self.stats.started.fetch_add(1, Relaxed);
                return std::future::pending().await;
            }
            let home_socket = self
                .connect(self.home.0, &self.url(&home, &match_id, None))
                .await?;
            let away_socket = self
                .connect(self.away.0, &self.url(&away, &match_id, None))
                .await?;
            // Only the first match of a slot is setup; later ones are part of the load.
            if permit.take().is_some() {
                self.stats.started.fetch_add(1, Relaxed);
            }
            let (home_result, away_result) = tokio::join!(
                self.play(self.home.0, &home, &match_id, home_socket),
                self.play(self.away.0, &away, &match_id, away_socket)
            );
            home_result?;
            away_result?;
            self.stats.completed.fetch_add(1, Relaxed);
            if !self.back_to_back {
                return Ok(());
            }
        }
    }

    /// A player's socket URL in this run's protocol.
    fn url(&self, player: &BotClient, match_id: &MatchId, resume_from: Option<i64>) -> String {
        format!(
            "{}&protocol={}",
            player.socket_url(match_id, resume_from),
            self.protocol
        )
    }

    /// Opens a socket to the `server`-th URL and counts it there.
    async fn connect(&self, server: usize, url: &str) -> anyhow::Result<Socket> {
        let socket = connect(url).await?;
        if let Some(count) = self.stats.sockets.get(server) {
            count.fetch_add(1, Relaxed);
        }
        Ok(socket)
    }

    /// Plays one seat to the end of the match, reconnecting (with resume) if the socket drops.
    async fn play(
        &self,
        server: usize,
        player: &BotClient,
        match_id: &MatchId,
        socket: Socket,
    ) -> anyhow::Result<()> {
        let mut seat = SeatPlay::new();
        let mut socket = Some(socket);
        let mut reconnects = 0;
        loop {
            let outcome = match socket.as_mut() {
                Some(open) => self.play_on(&mut seat, match_id, open).await,
                // The last reconnect failed (only with `--reconnect-for`): try again.
                None => Ok(false),
            };
            let since = *seat.dropped_since.get_or_insert_with(Instant::now);
            match outcome {
                Ok(true) => return Ok(()),
                Ok(false) | Err(_) if self.reconnect.again(reconnects, since.elapsed()) => {
                    reconnects += 1;
                    self.stats.reconnects.fetch_add(1, Relaxed);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    seat.sent_at = None;
                    seat.in_flight = None;
                    let url = self.url(player, match_id, Some(seat.last_seq));
                    socket = match self.connect(server, &url).await {
                        Ok(open) => {
                            seat.connection += 1;
                            Some(open)
                        }
                        Err(error) if self.reconnect.keeps_trying() => {
                            tracing::debug!(%match_id, %error, "resuming failed; trying again");
                            None
                        }
                        Err(error) => return Err(error),
                    };
                }
                Ok(false) => bail!("the server closed match {match_id} before it finished"),
                Err(error) => return Err(error),
            }
        }
    }

    /// Reads one connection until the match finishes (true) or the socket closes (false).
    async fn play_on(
        &self,
        seat: &mut SeatPlay,
        match_id: &MatchId,
        socket: &mut Socket,
    ) -> anyhow::Result<bool> {
        while let Some(frame) = socket.next().await {
            let text = match frame? {
                Message::Text(text) => text,
                Message::Close(_) => return Ok(false),
                _ => continue,
            };
            self.stats.bytes_received.fetch_add(text.len() as u64, Relaxed);
            // Only the envelope is read; a view is kept as text until a bot needs it.
            let message: Incoming = serde_json::from_str(&text)?;
            let (view, pending) = match message.kind {
                "snapshot" | "update" => {
                    if message.kind == "snapshot" {
                        seat.seat = message.seat;
                    }
                    seat.last_seq = seat.last_seq.max(message.last_seq.unwrap_or_default());
                    let view = message.view.context("a view without a view")?;
                    if self.protocol == 2 {
                        // The base the next patch applies to.
                        seat.view = serde_json::from_str(view.get())?;
                    }
                    (view.get().to_string(), message.pending.unwrap_or_default())
                }
                "step" => {
                    seat.last_seq = seat.last_seq.max(message.last_seq.unwrap_or_default());
                    let balls = message
                        .events
                        .iter()
                        .filter(|(_, event)| event.kind == "ball_ended");
                    self.stats.balls_seen.fetch_add(balls.count() as u64, Relaxed);
                    let patch: Value =
                        serde_json::from_str(message.view.context("a step without a view")?.get())?;
                    json_patch::merge(&mut seat.view, &patch);
                    (seat.view.to_string(), message.pending.unwrap_or_default())
                }
                "event" => {
                    seat.last_seq = seat.last_seq.max(message.seq.unwrap_or_default());
                    if message.event.is_some_and(|event| event.kind == "ball_ended") {
                        self.stats.balls_seen.fetch_add(1, Relaxed);
                    }
                    continue;
                }
                "ack" => {
                    if let Some(sent) = seat.sent_at.take() {
                        self.stats.record_ack(sent.elapsed());
                    }
                    seat.dropped_since = None;
                    if let (Some(file), Some((id, command, sent_ms))) = (&self.acks, seat.in_flight.take()) {
                        file.write(&AckLine {
                            match_id: match_id.to_string(),
                            seat: seat.seat.map(|seat| seat.0),
                            id,
                            command,
                            last_seq: message.last_seq.unwrap_or_default(),
                            sent_ms,
                            acked_ms: unix_ms(),
                            connection: seat.connection,
                        })?;
                    }
                    match seat.latest.take() {
                        Some(latest) => latest,
                        None => continue,
                    }
                }
                "error" => {
                    self.stats.errors.fetch_add(1, Relaxed);
                    tracing::debug!(frame = %text, "command refused");
                    seat.sent_at = None;
                    seat.in_flight = None;
                    // The match moved, or its node or database is away: resume elsewhere.
                    if self.reconnect.keeps_trying()
                        && matches!(message.code.as_deref(), Some("unavailable" | "match_moved"))
                    {
                        return Ok(false);
                    }
                    match seat.latest.take() {
                        Some(latest) => latest,
                        None => continue,
                    }
                }
                "finished" => return Ok(true),
                _ => continue,
            };
            let my_turn = seat.seat.is_some_and(|mine| pending.contains(&mine));
            let waiting = seat.sent_at.is_some();
            if !my_turn || waiting || self.pace == Pace::Idle {
                seat.latest = Some((view, pending));
                continue;
            }
            let Some(command) = self
                .game
                .bot_command(&view, BotPolicy::Heuristic, &mut seat.dice)
                .map_err(anyhow::Error::msg)?
            else {
                seat.latest = Some((view, pending));
                continue;
            };
            if self.pace == Pace::Human {
                // Thinking time; frames that arrive meanwhile wait in the socket's buffer.
                let think_ms = 2_000 + u64::from(seat.dice.below(4_000));
                tokio::time::sleep(Duration::from_millis(think_ms)).await;
            }
            seat.next_id += 1;
            if self.acks.is_some() {
                seat.in_flight = Some((seat.next_id.to_string(), command.clone(), unix_ms()));
            }
            // No `after`: the server takes the last seq it sent this socket, which is what
            // this client decided on (it answers only the latest view).
            let message = ClientMessage::Command {
                id: seat.next_id.to_string(),
                after: None,
                command,
            };
            let text = serde_json::to_string(&message)?;
            seat.sent_at = Some(Instant::now());
            socket.send(Message::Text(text.into())).await?;
        }
        Ok(false)
    }
}

/// The parts of a server message the load generator reads; everything else is skipped
/// without being built.
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(default)]
    seq: Option<i64>,
    #[serde(default)]
    last_seq: Option<i64>,
    #[serde(default)]
    seat: Option<Seat>,
    #[serde(default)]
    pending: Option<Vec<Seat>>,
    #[serde(default, borrow)]
    view: Option<&'a RawValue>,
    #[serde(default, borrow)]
    event: Option<EventKind<'a>>,
    /// A protocol 2 step's `[seq, event]` pairs.
    #[serde(default, borrow)]
    events: Vec<(i64, EventKind<'a>)>,
    /// An error's code.
    #[serde(default, borrow)]
    code: Option<Cow<'a, str>>,
}

/// An event's `type`, the only field of it the load generator reads.
#[derive(Deserialize)]
struct EventKind<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: &'a str,
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
    /// The latest view (JSON text) while a command is unacknowledged: a seat is often asked
    /// again by the batch its own command produced, which arrives before that command's ack,
    /// so the ack re-examines it.
    latest: Option<(String, Vec<Seat>)>,
    /// Protocol 2: the view the patches apply to.
    view: Value,
    dice: Dice,
    /// With `--acks-file`: the unacknowledged command's id, content and Unix time (ms).
    in_flight: Option<(String, Value, u64)>,
    /// The seat's sockets so far (1: the first).
    connection: u32,
    /// When the seat lost its socket, or its last ack came before that: the start of the
    /// time `--reconnect-for` allows.
    dropped_since: Option<Instant>,
}

impl SeatPlay {
    fn new() -> SeatPlay {
        SeatPlay {
            seat: None,
            last_seq: 0,
            next_id: 0,
            sent_at: None,
            latest: None,
            view: Value::Null,
            dice: Dice::new(&crate::fairness::new_seed()),
            in_flight: None,
            connection: 1,
            dropped_since: None,
        }
    }
}

/// How long a seat keeps resuming after its socket drops: five quick tries (the default, for
/// benchmarks), or for `--reconnect-for` seconds since its last ack (failover drills).
#[derive(Debug, Clone, Copy)]
struct Reconnect {
    limit: Option<Duration>,
}

impl Reconnect {
    fn new(seconds: Option<u64>) -> Reconnect {
        Reconnect {
            limit: seconds.map(Duration::from_secs),
        }
    }

    /// Whether to try again after `tries` reconnects, `dropped_for` after the seat's last
    /// ack or the drop.
    fn again(self, tries: u32, dropped_for: Duration) -> bool {
        match self.limit {
            Some(limit) => dropped_for < limit,
            None => tries < 5,
        }
    }

    /// With `--reconnect-for`: a failed reconnect, an `unavailable` or a `match_moved` is
    /// retried rather than ending the seat.
    fn keeps_trying(self) -> bool {
        self.limit.is_some()
    }
}

/// One line of `--acks-file`.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct AckLine {
    pub match_id: String,
    pub seat: Option<u8>,
    /// The command's id on its socket.
    pub id: String,
    pub command: Value,
    /// The ack's `last_seq`: the last log entry of the command's events.
    pub last_seq: i64,
    /// When the command was sent and its ack arrived, Unix milliseconds.
    pub sent_ms: u64,
    pub acked_ms: u64,
    /// The seat's socket it was acked on (1: the first; more after reconnects).
    pub connection: u32,
}

/// `--acks-file`, opened for appending: each line is one `write` (workers share the file).
struct AckFile {
    file: Mutex<std::fs::File>,
}

impl AckFile {
    fn open(path: &std::path::Path) -> anyhow::Result<AckFile> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening --acks-file {}", path.display()))?;
        Ok(AckFile {
            file: Mutex::new(file),
        })
    }

    fn write(&self, line: &AckLine) -> anyhow::Result<()> {
        let mut bytes = serde_json::to_vec(line)?;
        bytes.push(b'\n');
        let mut file = self
            .file
            .lock()
            .map_err(|_| anyhow::anyhow!("the acks file's lock"))?;
        file.write_all(&bytes).context("writing --acks-file")
    }
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_reader_takes_what_it_needs_from_every_message_type() {
        let update =
            r#"{"type":"update","last_seq":12,"view":{"a":[1,{"b":2}]},"pending":[1],"deadline_ms":null}"#;
        let message: Incoming = serde_json::from_str(update).expect("update");
        assert_eq!((message.kind, message.last_seq), ("update", Some(12)));
        assert_eq!(message.view.map(RawValue::get), Some(r#"{"a":[1,{"b":2}]}"#));
        assert_eq!(message.pending, Some(vec![Seat(1)]));
        let event = r#"{"type":"event","seq":7,"event":{"kind":"x","nested":{"seq":99}}}"#;
        let message: Incoming = serde_json::from_str(event).expect("event");
        assert_eq!((message.kind, message.seq), ("event", Some(7)));
        let snapshot = r#"{"type":"snapshot","protocol":1,"seat":null,"view":{},"pending":[],"last_seq":0}"#;
        let message: Incoming = serde_json::from_str(snapshot).expect("snapshot");
        assert_eq!(message.seat, None);
        let ball = r#"{"type":"event","seq":8,"event":{"type":"ball_ended","ball":{"runs":4}}}"#;
        let message: Incoming = serde_json::from_str(ball).expect("ball");
        assert_eq!(message.event.map(|event| event.kind), Some("ball_ended"));
        let step = r#"{"type":"step","last_seq":9,"events":[[8,{"type":"ball_ended","ball":{"runs":4}}],[9,{"type":"await"}]],"view":{"a":2},"pending":[0]}"#;
        let message: Incoming = serde_json::from_str(step).expect("step");
        let kinds: Vec<_> = message
            .events
            .iter()
            .map(|(seq, event)| (*seq, event.kind))
            .collect();
        assert_eq!(kinds, vec![(8, "ball_ended"), (9, "await")]);
        assert_eq!(message.view.map(RawValue::get), Some(r#"{"a":2}"#));
    }

    #[test]
    fn players_go_round_robin_and_the_two_seats_of_a_match_to_different_urls() {
        assert_eq!(placement(0, 1), (0, 0));
        assert_eq!(placement(7, 1), (0, 0));
        for servers in 2..=5 {
            let mut players = vec![0; servers];
            for index in 0..(servers as u32 * 10) {
                let (home, away) = placement(index, servers);
                assert_ne!(home, away, "match {index} over {servers} URLs");
                assert_eq!(away, (home + 1) % servers);
                players[home] += 1;
                players[away] += 1;
            }
            assert!(players.iter().all(|&count| count == 20), "{servers}: {players:?}");
        }
        // Over three URLs, match 1's players are the third and fourth: URLs 2 and 0.
        assert_eq!(placement(1, 3), (2, 0));
    }

    #[test]
    fn reconnects_are_five_quick_tries_unless_a_time_is_given() {
        let quick = Reconnect::new(None);
        assert!(quick.again(4, Duration::from_secs(3600)));
        assert!(!quick.again(5, Duration::ZERO));
        assert!(!quick.keeps_trying());
        let drill = Reconnect::new(Some(30));
        assert!(drill.keeps_trying());
        assert!(drill.again(1_000, Duration::from_secs(29)));
        assert!(!drill.again(0, Duration::from_secs(30)));
    }

    #[test]
    fn an_error_code_is_read_even_when_escaped() {
        let error = r#"{"type":"error","id":"7","code":"unavailable","message":"the \"database\""}"#;
        let message: Incoming = serde_json::from_str(error).expect("error");
        assert_eq!(message.code.as_deref(), Some("unavailable"));
        let escaped = r#"{"type":"error","code":"match\u005fmoved","message":""}"#;
        let message: Incoming = serde_json::from_str(escaped).expect("escaped");
        assert_eq!(message.code.as_deref(), Some("match_moved"));
    }

    #[test]
    fn every_ack_is_one_appended_json_line() {
        let dir = std::env::temp_dir().join(format!("crease-acks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("acks.jsonl");
        let _ = std::fs::remove_file(&path);
        let line = |seq: i64| AckLine {
            match_id: "m".into(),
            seat: Some(1),
            id: seq.to_string(),
            command: json!({"type": "bowl", "card": seq}),
            last_seq: seq,
            sent_ms: 10,
            acked_ms: 12,
            connection: 2,
        };
        // Two writers on one file, as two workers are.
        let (first, second) = (
            AckFile::open(&path).expect("open"),
            AckFile::open(&path).expect("open"),
        );
        first.write(&line(3)).expect("write");
        second.write(&line(5)).expect("write");
        let text = std::fs::read_to_string(&path).expect("read");
        let read: Vec<AckLine> = text
            .lines()
            .map(|text| serde_json::from_str(text).expect("a line"))
            .collect();
        assert_eq!(read, vec![line(3), line(5)]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn worker_lines_round_trip() {
        let line = serde_json::to_string(&WorkerLine::Progress(Progress {
            acks: 5,
            ..Progress::default()
        }))
        .expect("serialise");
        match serde_json::from_str::<WorkerLine>(&line).expect("parse") {
            WorkerLine::Progress(progress) => assert_eq!(progress.acks, 5),
            other => panic!("unexpected {other:?}"),
        }
    }
}
