//! `crease simulate wicketz`: bot-vs-bot Wicketz matches in memory.
//!
//! Prints `runs_per_innings`, `wickets_per_innings` and the `merit` distribution, the numbers
//! the card generator's weights are tuned against (a 20-over innings of the heuristic bot
//! should average 120-200 runs).

use crate::rules::wicketz::{Event, Options, Wicketz};
use crate::rules::{BotPolicy, Dice, Game, MatchCore, Seed, Viewer};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::IsTerminal;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// How many matches to play.
    #[arg(long, default_value_t = 200)]
    pub matches: u64,
    /// First match seed; match i uses seed + i, so runs repeat.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Bot policy for both sides.
    #[arg(long, value_enum, default_value_t = Policy::Heuristic)]
    pub policy: Policy,
    /// Print JSON instead of text (and no progress bar).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Policy {
    Heuristic,
    Random,
}

#[derive(Debug, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub min: u32,
    pub max: u32,
    pub stdev: f64,
}

impl Spread {
    fn of(values: &[u32]) -> Spread {
        let n = values.len().max(1) as f64;
        let mean = values.iter().map(|v| f64::from(*v)).sum::<f64>() / n;
        let variance = values.iter().map(|v| (f64::from(*v) - mean).powi(2)).sum::<f64>() / n;
        Spread {
            mean,
            min: values.iter().copied().min().unwrap_or(0),
            max: values.iter().copied().max().unwrap_or(0),
            stdev: variance.sqrt(),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub matches: u64,
    pub overs: u16,
    pub innings: usize,
    pub runs_per_innings: Spread,
    pub wickets_per_innings: Spread,
    /// Innings per Merit rating.
    pub merit: BTreeMap<String, u64>,
    pub wins_by_seat: [u64; 2],
    pub ties: u64,
}

/// A closed innings as the statistics need it.
struct InningsResult {
    runs: u32,
    wickets: u32,
    merit: String,
}

/// One match of bots; returns its closed innings and the placings.
fn play_match(
    options: &Options,
    seed: u64,
    policy: BotPolicy,
) -> anyhow::Result<(Vec<InningsResult>, Vec<u8>)> {
    let mut core =
        MatchCore::<Wicketz>::new(options, &Seed::from_u64(seed)).map_err(|e| anyhow::anyhow!(e))?;
    let mut bot_dice = Dice::new(&Seed::from_u64(seed ^ 0xB07));
    let mut innings = Vec::new();
    let mut record = |events: &[Event]| {
        for event in events {
            if let Event::InningsClosed {
                runs, wickets, merit, ..
            } = event
            {
                innings.push(InningsResult {
                    runs: *runs,
                    wickets: u32::from(*wickets),
                    merit: merit.clone(),
                });
            }
        }
    };
    record(&core.start());
    // A 100-over two-innings match is well under this many commands.
    for _ in 0..100_000 {
        let Some(seat) = Wicketz::pending(&core.state).first().copied() else {
            break;
        };
        let view = Wicketz::view(&core.state, Viewer::Seat(seat));
        let command =
            Wicketz::bot_command(&view, policy, &mut bot_dice).context("a bot had nothing to play")?;
        let submitted = core
            .submit(seat, &command)
            .map_err(|reject| anyhow::anyhow!("bot command refused: {reject}"))?;
        record(&submitted.events);
    }
    let outcome = Wicketz::outcome(&core.state).context("the match did not finish")?;
    Ok((innings, outcome.placings))
}

/// The Wicketz options a command line sets: `simulate wicketz` and `arena wicketz` share them.
#[derive(Debug, clap::Args)]
pub struct RuleArgs {
    /// Overs per innings.
    #[arg(long, default_value_t = 20)]
    pub overs: u16,
    /// Innings per side (1 or 2).
    #[arg(long, default_value_t = 1)]
    pub innings: u8,
    /// Play with the advanced bowling variations.
    #[arg(long)]
    pub bowling_variations: bool,
    /// Play with the advanced wild card.
    #[arg(long)]
    pub wild_card: bool,
}

impl RuleArgs {
    pub fn options(&self) -> Options {
        Options {
            overs: self.overs,
            innings_per_side: self.innings,
            bowling_variations: self.bowling_variations,
            wild_card: self.wild_card,
            ..Options::default()
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let options = args.rules.options();
    let policy = match args.policy {
        Policy::Heuristic => BotPolicy::Heuristic,
        Policy::Random => BotPolicy::Random,
    };
    let bar = ProgressBar::new(args.matches);
    if args.json || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} matches {eta}") {
            bar.set_style(style);
        }
    }
    let (mut runs, mut wickets) = (Vec::new(), Vec::new());
    let mut merit = BTreeMap::new();
    let (mut wins_by_seat, mut ties) = ([0u64; 2], 0u64);
    for index in 0..args.matches {
        let (innings, placings) = play_match(&options, args.seed.wrapping_add(index), policy)?;
        for closed in innings {
            runs.push(closed.runs);
            wickets.push(closed.wickets);
            *merit.entry(closed.merit).or_insert(0) += 1;
        }
        match placings.as_slice() {
            [1, 1] => ties += 1,
            [1, _] => wins_by_seat[0] += 1,
            _ => wins_by_seat[1] += 1,
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let report = Report {
        matches: args.matches,
        overs: args.rules.overs,
        innings: runs.len(),
        runs_per_innings: Spread::of(&runs),
        wickets_per_innings: Spread::of(&wickets),
        merit,
        wins_by_seat,
        ties,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "wicketz: {} matches, {} overs, {} innings",
        report.matches, report.overs, report.innings
    );
    for (name, spread) in [
        ("runs_per_innings", &report.runs_per_innings),
        ("wickets_per_innings", &report.wickets_per_innings),
    ] {
        println!(
            "{name}: mean {:.1}  min {}  max {}  stdev {:.1}",
            spread.mean, spread.min, spread.max, spread.stdev
        );
    }
    println!("merit:");
    let table = &crate::rules::wicketz::data::ruleset().merit;
    let order = table.ratings.iter().map(|r| &r.rating).chain([&table.below]);
    for (rating, count) in order.filter_map(|name| report.merit.get_key_value(name)) {
        println!(
            "  {rating:<28} {count:>6}  {:>5.1}%",
            100.0 * *count as f64 / report.innings.max(1) as f64
        );
    }
    println!("wins_by_seat: {:?}  ties: {}", report.wins_by_seat, report.ties);
    Ok(())
}
