//! `crease simulate ctg`: bot-vs-bot CTG matches and the realism statistics.

use crate::rules::BotPolicy;
use crate::rules::ctg::sim::{self, Tally};
use crate::rules::ctg::{Options, hard, types::Format};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Match format.
    #[arg(long, value_enum, default_value = "t20")]
    pub format: FormatArg,
    /// Number of matches.
    #[arg(long, default_value_t = 1000)]
    pub matches: u64,
    /// Simulation seed: the same seed gives the same numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bot policy of both sides.
    #[arg(long, value_enum, default_value = "heuristic")]
    pub policy: PolicyArg,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    T10,
    T20,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum PolicyArg {
    Random,
    Heuristic,
    /// Mixed sealed choices solved from the ruleset (`crate::rules::ctg::hard`).
    Hard,
}

/// The statistics the issue asks for, derived from a tally.
#[derive(Debug, serde::Serialize)]
pub struct Report {
    pub format: &'static str,
    pub policy: &'static str,
    pub matches: u64,
    pub seed: u64,
    pub runs_per_over: f64,
    pub balls_per_wicket: f64,
    pub dot_ball_pct: f64,
    pub boundary_ball_pct: f64,
    pub extras_per_innings: f64,
    pub first_innings_avg: f64,
    pub batting_first_win_pct: f64,
    pub tie_pct: f64,
    pub deliveries: u64,
    /// Deliveries per wall-clock second.
    pub balls_per_second: f64,
    /// Deliveries per second of this thread's CPU time (one core, other load excluded).
    pub balls_per_cpu_second: Option<f64>,
    pub seconds: f64,
}

/// This thread's CPU time in seconds, from Linux's schedstat (nanoseconds on the CPU).
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanos as f64 / 1e9)
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

pub fn report(args: &Args, tally: &Tally, seconds: f64, cpu_seconds: Option<f64>) -> Report {
    Report {
        format: match args.format {
            FormatArg::T10 => "t10",
            FormatArg::T20 => "t20",
        },
        policy: match args.policy {
            PolicyArg::Random => "random",
            PolicyArg::Heuristic => "heuristic",
            PolicyArg::Hard => "hard",
        },
        matches: tally.matches,
        seed: args.seed,
        runs_per_over: ratio(tally.runs * 6, tally.legal_balls),
        balls_per_wicket: ratio(tally.legal_balls, tally.wickets),
        dot_ball_pct: 100.0 * ratio(tally.dot_balls, tally.legal_balls),
        boundary_ball_pct: 100.0 * ratio(tally.boundary_balls, tally.legal_balls),
        extras_per_innings: ratio(tally.extras, tally.innings),
        first_innings_avg: ratio(tally.first_innings_runs, tally.matches),
        batting_first_win_pct: 100.0 * ratio(tally.batting_first_wins, tally.matches),
        tie_pct: 100.0 * ratio(tally.ties, tally.matches),
        deliveries: tally.deliveries,
        balls_per_second: if seconds > 0.0 {
            tally.deliveries as f64 / seconds
        } else {
            0.0
        },
        balls_per_cpu_second: cpu_seconds
            .filter(|s| *s > 0.0)
            .map(|s| tally.deliveries as f64 / s),
        seconds,
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let options = Options {
        format: match args.format {
            FormatArg::T10 => Format::T10,
            FormatArg::T20 => Format::T20,
        },
        ..Options::default()
    };
    let policy = match args.policy {
        PolicyArg::Random => Some(BotPolicy::Random),
        PolicyArg::Heuristic => Some(BotPolicy::Heuristic),
        PolicyArg::Hard => None,
    };
    let bar = if args.json || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(args.matches);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} matches {per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    };
    let mut tally = Tally::default();
    let started = Instant::now();
    let cpu_started = thread_cpu_seconds();
    let step = (args.matches / 200).max(1);
    for index in 0..args.matches {
        let seed = sim::match_seed(args.seed, index);
        let played = match policy {
            Some(policy) => sim::play(&options, &seed, [policy; 2], |_| {})?,
            // `hard` is not a `BotPolicy` (the server does not seat it yet); it plays on the
            // strict path, where a refused command is an error.
            None => sim::play_strict(&options, &seed, |_, ask, situation, rng| {
                hard::choose(ask, situation, rng)
            })?,
        };
        tally.add(&played.tally);
        if index % step == 0 {
            bar.set_position(index);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let cpu_seconds = cpu_started.and_then(|start| Some(thread_cpu_seconds()? - start));
    bar.finish_and_clear();
    let report = report(&args, &tally, seconds, cpu_seconds);
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "CTG {} {} policy, {} matches, seed {}",
            report.format, report.policy, report.matches, args.seed
        );
        println!("  runs per over          {:>10.2}", report.runs_per_over);
        println!("  balls per wicket       {:>10.2}", report.balls_per_wicket);
        println!("  dot balls              {:>9.1} %", report.dot_ball_pct);
        println!("  boundary balls         {:>9.1} %", report.boundary_ball_pct);
        println!("  extras per innings     {:>10.2}", report.extras_per_innings);
        println!("  first innings average  {:>10.1}", report.first_innings_avg);
        println!("  batting first wins     {:>9.1} %", report.batting_first_win_pct);
        println!("  ties                   {:>9.1} %", report.tie_pct);
        println!("  deliveries             {:>10}", report.deliveries);
        println!(
            "  balls per second       {:>10.0}  (wall clock)",
            report.balls_per_second
        );
        if let Some(cpu) = report.balls_per_cpu_second {
            println!(
                "  balls per CPU second   {:>10.0}  (this thread's CPU time, one core)",
                cpu
            );
        }
    }
    Ok(())
}
