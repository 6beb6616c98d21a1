//! `crease simulate <game>` for any registered game without a simulator of its own: bots
//! at one level play every seat through the game's views (`GameKind::simulate`), and the
//! report is what every game has (results by seat, commands and events per match) plus the
//! means of the game's own figures (`GameExtras::figures`).

use crate::matches::{GameKind, GameRegistry, Simulated};
use crate::rules::{BotLevel, Seed};
use anyhow::Context;
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::IsTerminal;

/// The flags after `crease simulate <game>`.
#[derive(Debug, Parser)]
#[command(name = "crease simulate <game>")]
pub struct Args {
    /// Matches to play.
    #[arg(long, default_value_t = 100)]
    pub matches: u32,
    /// First match seed; match i uses seed + i, so a run repeats exactly.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The level of every seat's bot: easy, normal or hard (where the game has one).
    #[arg(long, default_value = "normal")]
    pub level: BotLevel,
    /// The match options as JSON (absent: the game's defaults).
    #[arg(long)]
    pub options: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What a batch of matches measured.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Report {
    pub game: String,
    pub matches: u32,
    /// Matches each seat won outright or shared first place in.
    pub firsts_by_seat: Vec<u32>,
    /// Matches where more than one seat placed first.
    pub shared_firsts: u32,
    pub commands_per_match: f64,
    pub events_per_match: f64,
    /// The mean of each of the game's own figures, by name.
    pub figures: BTreeMap<String, f64>,
}

impl Report {
    fn add(&mut self, played: &Simulated) {
        self.matches += 1;
        let winners = played.outcome.winners();
        if self.firsts_by_seat.len() < played.outcome.placings.len() {
            self.firsts_by_seat.resize(played.outcome.placings.len(), 0);
        }
        for seat in &winners {
            self.firsts_by_seat[seat.index()] += 1;
        }
        self.shared_firsts += u32::from(winners.len() > 1);
        self.commands_per_match += f64::from(played.commands);
        self.events_per_match += f64::from(played.events);
        for figure in &played.figures {
            *self.figures.entry(figure.name.to_string()).or_default() += figure.value;
        }
    }

    /// Turns the sums into means.
    fn finish(&mut self) {
        let matches = f64::from(self.matches.max(1));
        self.commands_per_match /= matches;
        self.events_per_match /= matches;
        self.figures.values_mut().for_each(|sum| *sum /= matches);
    }
}

/// Plays `args.matches` matches of `game`.
pub fn simulate(game: &dyn GameKind, args: &Args) -> anyhow::Result<Report> {
    let options = args
        .options
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .context("--options is not JSON")?;
    let (options, _) = game.check_options(options)?;
    anyhow::ensure!(
        game.has_bot(args.level),
        "{} has no {} bot",
        game.id(),
        args.level.name()
    );
    let bar = if args.json || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(u64::from(args.matches)).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} matches {per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        )
    };
    let mut report = Report {
        game: game.id().to_string(),
        ..Report::default()
    };
    for index in 0..args.matches {
        let seed = Seed::from_u64(args.seed.wrapping_add(u64::from(index)));
        let played = game
            .simulate(&options, &seed, args.level)
            .with_context(|| format!("match {index} (seed {})", seed.to_hex()))?;
        report.add(&played);
        bar.inc(1);
    }
    bar.finish_and_clear();
    report.finish();
    Ok(report)
}

/// `crease simulate <game> [flags]` for a game found only in the registry; `words` is the
/// game id and its flags.
pub fn run(words: &[String], games: &GameRegistry) -> anyhow::Result<()> {
    let (id, _) = words.split_first().context("which game?")?;
    let game = games
        .get(id)
        .with_context(|| format!("unknown game `{id}`; the games are {}", games.ids().join(", ")))?;
    let args = Args::try_parse_from(words)?;
    let report = simulate(game.as_ref(), &args)?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    println!(
        "{}: {} matches, every seat's bot {}",
        report.game,
        report.matches,
        args.level.name()
    );
    for (seat, firsts) in report.firsts_by_seat.iter().enumerate() {
        println!("  seat {seat} first in {firsts}");
    }
    println!("  shared first place {}", report.shared_firsts);
    println!(
        "  {:.1} commands and {:.1} events per match",
        report.commands_per_match, report.events_per_match
    );
    for (name, mean) in &report.figures {
        println!("  {name}: {mean:.2}");
    }
    Ok(())
}
