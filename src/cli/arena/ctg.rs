//! `crease arena ctg`: on CTG's fast path (the same asks a view carries, no view built).

use super::{ArenaError, Common, Policy, Result3};
use crate::rules::ctg::exploits::Exploit;
use crate::rules::ctg::sim::{self, StrictError};
use crate::rules::ctg::{Options, bot, hard, types::Format};
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
}

/// Plays one CTG match on `deal` with A in `a_seat`.
pub fn play(
    options: &Options,
    deal: &Seed,
    a_seat: Seat,
    policies: [CtgPolicy; 2],
) -> Result<Result3, ArenaError> {
    let played = sim::play_strict(options, deal, |seat, ask, situation, rng| {
        match policies[usize::from(seat != a_seat)] {
            Policy::Bot(policy) => bot::choose(ask, situation, policy, rng),
            Policy::Hard => hard::choose(ask, situation, rng),
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
    Ok(match played.state.winner {
        None => return Err(ArenaError::Unfinished(played.tally.commands as u32)),
        Some(None) => Result3::Tie,
        Some(Some(winner)) if winner == a_seat => Result3::Win,
        Some(Some(_)) => Result3::Loss,
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.common.list {
        print!("{}", CtgPolicy::listing());
        return Ok(());
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
    let report = super::run_matches(
        &args.common,
        &format!("CTG {format_name}"),
        policies[0].name(),
        policies[1].name(),
        |deal, a_seat| play(&options, deal, a_seat, policies),
    )?;
    super::print(&report, args.common.json)
}
