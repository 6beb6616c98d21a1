//! `crease arena ctg`: on CTG's fast path (the same asks a view carries, no view built).

use super::{ArenaError, Common, Policy, Result3};
use crate::rules::ctg::exploits::Exploit;
use crate::rules::ctg::sealed::{self, BallGame};
use crate::rules::ctg::sim::{self, StrictError};
use crate::rules::ctg::view::{Ask, Situation};
use crate::rules::ctg::{Options, bot, command::Command, hard, levels, safe, types::Format};
use crate::rules::matrix_game::{best_index, normalised};
use crate::rules::{Seat, Seed};

super::exploit_set!(Exploit);

pub type CtgPolicy = Policy<Exploit>;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Match format.
    #[arg(long, value_enum, default_value = "t20")]
    pub format: crate::cli::simulate::ctg::FormatArg,
    /// The most, in runs a ball, that `hard-safe` lets a best responder gain when it leans
    /// toward an opponent's habits (0 plays the equilibrium only). A best responder against
    /// `hard-safe` reads it with the same bound.
    #[arg(long, default_value_t = safe::EXPLOIT_BOUND)]
    pub hard_bound: f64,
}

/// What the responders carry from ball to ball and from match to match.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// The best responder's summed gain over the equilibrium value, in runs, and its balls.
    pub gain: f64,
    pub choices: u64,
    /// The other side's cards by bowler kind and zones by bowler kind, over the series'
    /// finished matches (the adaptive responder's evidence).
    cards: [[u32; 8]; 3],
    zones: [[u32; 5]; 3],
}

/// Plays one CTG match on `deal` with A in `a_seat`.
pub fn play(
    options: &Options,
    deal: &Seed,
    a_seat: Seat,
    policies: [CtgPolicy; 2],
    hard_bound: f64,
    memory: &mut Memory,
) -> Result<Result3, ArenaError> {
    let played = sim::play_strict(options, deal, |seat, ask, situation, rng| {
        let index = usize::from(seat != a_seat);
        // The responders answer `hard` at the bound it plays (`hard-safe`'s when that is the
        // other side), and play as it does but for the sealed choice.
        let read = if policies[1 - index] == Policy::HardSafe {
            hard_bound
        } else {
            safe::EXPLOIT_BOUND
        };
        match policies[index] {
            Policy::Bot(policy) => bot::choose(ask, situation, policy, rng),
            Policy::Level(level) => levels::choose(level, ask, situation, rng),
            Policy::HardSafe => hard::choose_with(ask, situation, hard_bound, rng),
            Policy::BestResponse => best_response(ask, situation, read, memory)
                .unwrap_or_else(|| hard::choose_with(ask, situation, read, rng)),
            Policy::Adaptive => adaptive(ask, situation, memory)
                .unwrap_or_else(|| hard::choose_with(ask, situation, read, rng)),
            Policy::Exploit(exploit) => exploit.choose(ask, situation, rng),
        }
    })
    .map_err(|error| match error {
        StrictError::Setup(error) => ArenaError::Setup(error.to_string()),
        StrictError::Refused { seat, .. } => ArenaError::Refused {
            policy: policies[usize::from(seat != a_seat)].name().to_string(),
            detail: error.to_string(),
        },
    })?;
    // What the adaptive responder remembers of the other side: its cards and zones.
    for (index, policy) in policies.iter().enumerate() {
        if *policy == Policy::Adaptive {
            let other = if index == 0 {
                1 - a_seat.index()
            } else {
                a_seat.index()
            } & 1;
            for kind in 0..3 {
                for (total, seen) in memory.cards[kind]
                    .iter_mut()
                    .zip(played.state.cards_bowled[other][kind])
                {
                    *total += u32::from(seen);
                }
                for (total, seen) in memory.zones[kind]
                    .iter_mut()
                    .zip(played.state.zones_played[other][kind])
                {
                    *total += u32::from(seen);
                }
            }
        }
    }
    Ok(match played.state.winner {
        None => return Err(ArenaError::Unfinished(played.tally.commands as u32)),
        Some(None) => Result3::Tie,
        Some(Some(winner)) if winner == a_seat => Result3::Win,
        Some(Some(_)) => Result3::Loss,
    })
}

/// The white-box responder's sealed choice: the other seat's ask is public
/// ([`sealed::mirror`]), so it computes the bot's plan for it at `bound`, exactly as the bot
/// does, and plays the best reply to the plan's mix by the ball's worth in runs (the plan's
/// [`BallGame`], which is this seat's too). Its gain over the game's equilibrium value is
/// tallied.
fn best_response(ask: &Ask, situation: &Situation, bound: f64, memory: &mut Memory) -> Option<Command> {
    let (bot_ask, bot_situation) = sealed::mirror(ask, situation)?;
    let safe::SealedPlan {
        game,
        equilibrium,
        plan,
    } = safe::sealed_plan(&bot_ask, &bot_situation, bound)?;
    let value = equilibrium.value;
    memory.choices += 1;
    if situation.batting {
        let shots = game.batting.row_values(&plan.mix);
        let best = best_index(&shots);
        memory.gain += shots[best] - value;
        let (zone, attitude) = sealed::shot(best);
        Some(Command::Shot { zone, attitude })
    } else {
        let conceded: Vec<f64> = game.batting.col_values(&plan.mix).iter().map(|v| -v).collect();
        let best = best_index(&conceded);
        memory.gain += value + conceded[best];
        Some(Command::Bowl { card: best as u8 })
    }
}

/// The adaptive responder's sealed choice: the best reply to the other side's frequencies
/// of cards (or zones, each split evenly between the attitudes) against this bowler kind,
/// over the series so far and this match's revealed balls.
fn adaptive(ask: &Ask, situation: &Situation, memory: &Memory) -> Option<Command> {
    let game = BallGame::of(ask, situation)?;
    let kind = match *ask {
        Ask::Bowl { bowl_type, .. } | Ask::Shot { bowl_type, .. } => bowl_type.index(),
        _ => return None,
    };
    if situation.batting {
        let cards = game.batting.cols();
        let seen: Vec<f64> = (0..cards)
            .map(|card| f64::from(memory.cards[kind][card]) + f64::from(situation.card_counts[card]))
            .collect();
        let shots = game.batting.row_values(&normalised(&seen));
        let (zone, attitude) = sealed::shot(best_index(&shots));
        Some(Command::Shot { zone, attitude })
    } else {
        let seen: Vec<f64> = (0..sealed::SHOTS)
            .map(|shot| {
                let zone = shot % sealed::ZONES;
                f64::from(memory.zones[kind][zone]) + f64::from(situation.zone_counts[zone])
            })
            .collect();
        let conceded: Vec<f64> = game
            .batting
            .col_values(&normalised(&seen))
            .iter()
            .map(|v| -v)
            .collect();
        Some(Command::Bowl {
            card: best_index(&conceded) as u8,
        })
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.common.list {
        print!("{}", CtgPolicy::listing());
        return Ok(());
    }
    if !(0.0..=100.0).contains(&args.hard_bound) {
        anyhow::bail!("--hard-bound must be between 0 and 100 runs a ball");
    }
    let (format, format_name) = match args.format {
        crate::cli::simulate::ctg::FormatArg::T10 => (Format::T10, "t10"),
        crate::cli::simulate::ctg::FormatArg::T20 => (Format::T20, "t20"),
    };
    let options = Options {
        format,
        ..Options::default()
    };
    let policies = [
        CtgPolicy::parse("ctg", &args.common.a)?,
        CtgPolicy::parse("ctg", &args.common.b)?,
    ];
    let mut memory = Memory::default();
    let mut report = super::run_matches(
        &args.common,
        &format!("CTG {format_name}"),
        policies[0].name(),
        policies[1].name(),
        |deal, a_seat| play(&options, deal, a_seat, policies, args.hard_bound, &mut memory),
    )?;
    if policies.contains(&Policy::BestResponse) {
        report.responder_choices = memory.choices;
        report.responder_gain = Some(memory.gain / memory.choices.max(1) as f64);
    }
    super::print(&report, args.common.json)
}
