//! `crease arena champions`: two players, through the seat's views, as server bots play.

use super::{ArenaError, Common, Policy, Result3};
use crate::rules::champions::exploits::Exploit;
use crate::rules::champions::{Champions, Options};
use crate::rules::{Game, Seat, Seed};

/// Why Champions' arena has no responders yet.
const NOT_YET: &str = "not built yet for Champions (issue 30): it has no sealed choice, and a reader \
     of hard's code would have to solve hard's reply to each of the 462 final dice hands at every decision";

super::exploit_set!(
    Exploit,
    &[
        ("hard-safe", NOT_YET),
        ("best-response", NOT_YET),
        ("adaptive", NOT_YET)
    ]
);

pub type ChampionsPolicy = Policy<Exploit>;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
}

/// Plays one two-player Champions match on `deal` with A in `a_seat`.
pub fn play(deal: &Seed, a_seat: Seat, policies: [ChampionsPolicy; 2]) -> Result<Result3, ArenaError> {
    let options = Options { players: 2 };
    let names = policies.map(|p| p.name());
    super::play_views::<Champions>(&options, deal, a_seat, names, |index, view, rng| {
        match policies[index] {
            Policy::Bot(policy) => Champions::bot_command(view, policy, rng),
            Policy::Exploit(exploit) => exploit.command(view, rng),
            Policy::HardSafe | Policy::BestResponse | Policy::Adaptive => None,
            Policy::Level(level) => Champions::bot_command_at(view, level, rng),
        }
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.common.list {
        print!("{}", ChampionsPolicy::listing());
        return Ok(());
    }
    let policies = [
        ChampionsPolicy::parse("champions", &args.common.a)?,
        ChampionsPolicy::parse("champions", &args.common.b)?,
    ];
    let report = super::run_matches(
        &args.common,
        "Champions 2 players",
        policies[0].name(),
        policies[1].name(),
        |deal, a_seat| play(deal, a_seat, policies),
    )?;
    super::print(&report, args.common.json)
}
