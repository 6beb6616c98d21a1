//! `crease arena wicketz`: through the seat's views, as server bots play.

use super::{ArenaError, Common, Policy, Result3};
use crate::rules::wicketz::exploits::Exploit;
use crate::rules::wicketz::{Options, Wicketz};
use crate::rules::{Game, Seat, Seed};

super::exploit_set!(
    Exploit,
    Some("its hard bot does not expose a plan over sealed choices yet (issue 30)")
);

pub type WicketzPolicy = Policy<Exploit>;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub rules: crate::cli::simulate::wicketz::RuleArgs,
}

/// Plays one Wicketz match on `deal` with A in `a_seat`.
pub fn play(
    options: &Options,
    deal: &Seed,
    a_seat: Seat,
    policies: [WicketzPolicy; 2],
) -> Result<Result3, ArenaError> {
    let names = policies.map(|p| p.name());
    super::play_views::<Wicketz>(options, deal, a_seat, names, |index, view, rng| {
        match policies[index] {
            Policy::Bot(policy) => Wicketz::bot_command(view, policy, rng),
            Policy::Exploit(exploit) => exploit.command(view, rng),
            Policy::HardSafe | Policy::BestResponse | Policy::Adaptive => None,
            Policy::Level(level) => Wicketz::bot_command_at(view, level, rng),
        }
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.common.list {
        print!("{}", WicketzPolicy::listing());
        return Ok(());
    }
    let options = args.rules.options();
    let policies = [
        WicketzPolicy::parse("wicketz", &args.common.a)?,
        WicketzPolicy::parse("wicketz", &args.common.b)?,
    ];
    let report = super::run_matches(
        &args.common,
        &format!("Wicketz {} overs x{}", args.rules.overs, args.rules.innings),
        policies[0].name(),
        policies[1].name(),
        |deal, a_seat| play(&options, deal, a_seat, policies),
    )?;
    super::print(&report, args.common.json)
}
