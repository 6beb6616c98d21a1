//! `crease simulate champions`: bot-vs-bot Cricket Champions matches in memory.

use crate::rules::champions::Champions;
use crate::rules::{BotPolicy, Dice, Game, MatchCore, Seed, Viewer};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::io::IsTerminal;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Seats at the table, 2 to 5.
    #[arg(long, default_value_t = 4)]
    pub players: u8,
    /// Matches to play.
    #[arg(long, default_value_t = 100)]
    pub matches: u32,
    /// First match seed; match i uses seed + i, so a run repeats exactly.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Policy of every seat.
    #[arg(long, value_enum, default_value_t = PolicyArg::Heuristic)]
    pub policy: PolicyArg,
    /// Policy of seat 0 only (to compare a policy against the rest of the table).
    #[arg(long, value_enum)]
    pub seat0: Option<PolicyArg>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum PolicyArg {
    Heuristic,
    Random,
}

impl From<PolicyArg> for BotPolicy {
    fn from(p: PolicyArg) -> Self {
        match p {
            PolicyArg::Heuristic => BotPolicy::Heuristic,
            PolicyArg::Random => BotPolicy::Random,
        }
    }
}

/// What a batch of matches measured.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Stats {
    pub matches: u32,
    pub players: u8,
    /// Mean final points of a player (all seats together).
    pub points_per_player: f64,
    /// Mean final points by seat.
    pub points_per_seat: Vec<f64>,
    pub eliminations_per_game: f64,
    /// Share of wins by seat in percent; a shared win is split between its winners.
    pub winner_seat_pct: Vec<f64>,
    /// Bot commands the engine refused (a bot bug if not zero).
    pub refused_bot_commands: u64,
    pub commands_per_match: f64,
}

/// The result of one match: final points, eliminations, winners, commands, refusals.
struct MatchResult {
    points: Vec<u32>,
    eliminations: u32,
    winners: Vec<usize>,
    commands: u64,
    refused: u64,
}

fn play_one(players: u8, seed: u64, policies: &[BotPolicy]) -> anyhow::Result<MatchResult> {
    let options = crate::rules::champions::Options { players };
    let mut core = MatchCore::<Champions>::new(&options, &Seed::from_u64(seed))?;
    core.start();
    let mut bot_dice = Dice::new(&Seed::from_u64(seed ^ 0x5eed_b075_0000_0000));
    let (mut commands, mut refused) = (0u64, 0u64);
    while Champions::outcome(&core.state).is_none() {
        let Some(seat) = Champions::pending(&core.state).first().copied() else {
            anyhow::bail!("match stalled: nobody is awaited and there is no outcome");
        };
        let view = Champions::view(&core.state, Viewer::Seat(seat));
        let policy = policies.get(seat.index()).copied().unwrap_or_default();
        let command = Champions::bot_command(&view, policy, &mut bot_dice)
            .or_else(|| Champions::default_command(&core.state, seat))
            .ok_or_else(|| anyhow::anyhow!("no command for awaited {seat}"))?;
        if core.submit(seat, &command).is_err() {
            refused += 1;
            let fallback = Champions::default_command(&core.state, seat)
                .ok_or_else(|| anyhow::anyhow!("no default command for awaited {seat}"))?;
            core.submit(seat, &fallback)
                .map_err(|e| anyhow::anyhow!("default command refused: {e}"))?;
        }
        commands += 1;
        if commands > 100_000 {
            anyhow::bail!("match did not end after {commands} commands");
        }
    }
    let points = core
        .state
        .final_points
        .as_ref()
        .map(|p| p.iter().map(|x| x.total).collect())
        .unwrap_or_default();
    let winners = Champions::outcome(&core.state)
        .map(|o| o.winners().iter().map(|s| s.index()).collect())
        .unwrap_or_default();
    Ok(MatchResult {
        points,
        eliminations: core.state.players.iter().filter(|p| p.eliminated).count() as u32,
        winners,
        commands,
        refused,
    })
}

/// Plays `matches` matches with seeds `seed..seed+matches`; `on_match` ticks a progress bar.
pub fn simulate(
    players: u8,
    matches: u32,
    seed: u64,
    policies: &[BotPolicy],
    mut on_match: impl FnMut(),
) -> anyhow::Result<Stats> {
    let seats = usize::from(players);
    let mut points_per_seat = vec![0f64; seats];
    let mut wins = vec![0f64; seats];
    let (mut eliminations, mut refused, mut commands) = (0u64, 0u64, 0u64);
    for i in 0..matches {
        let result = play_one(players, seed.wrapping_add(u64::from(i)), policies)?;
        for (seat, p) in result.points.iter().enumerate() {
            points_per_seat[seat] += f64::from(*p);
        }
        let share = 1.0 / result.winners.len().max(1) as f64;
        for seat in &result.winners {
            wins[*seat] += share;
        }
        eliminations += u64::from(result.eliminations);
        refused += result.refused;
        commands += result.commands;
        on_match();
    }
    let n = f64::from(matches.max(1));
    let points_per_seat: Vec<f64> = points_per_seat.iter().map(|p| p / n).collect();
    Ok(Stats {
        matches,
        players,
        points_per_player: points_per_seat.iter().sum::<f64>() / seats as f64,
        points_per_seat,
        eliminations_per_game: eliminations as f64 / n,
        winner_seat_pct: wins.iter().map(|w| 100.0 * w / n).collect(),
        refused_bot_commands: refused,
        commands_per_match: commands as f64 / n,
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    Champions::seat_count(&crate::rules::champions::Options {
        players: args.players,
    })?;
    let mut policies = vec![BotPolicy::from(args.policy); usize::from(args.players)];
    if let Some(p) = args.seat0 {
        policies[0] = p.into();
    }
    let bar = ProgressBar::new(u64::from(args.matches));
    if args.json || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} matches ({eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
    }
    let stats = simulate(args.players, args.matches, args.seed, &policies, || bar.inc(1))?;
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
    } else {
        let fmt = |v: &[f64]| v.iter().map(|x| format!("{x:.1}")).collect::<Vec<_>>().join(" ");
        println!("matches               {}", stats.matches);
        println!("players               {}", stats.players);
        println!("points_per_player     {:.2}", stats.points_per_player);
        println!("points_per_seat       {}", fmt(&stats.points_per_seat));
        println!("eliminations_per_game {:.3}", stats.eliminations_per_game);
        println!("winner_seat_pct       {}", fmt(&stats.winner_seat_pct));
        println!("commands_per_match    {:.1}", stats.commands_per_match);
        println!("refused_bot_commands  {}", stats.refused_bot_commands);
    }
    Ok(())
}
