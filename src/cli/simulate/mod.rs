//! `crease simulate <game>`: bot-vs-bot matches in memory, with the game's statistics.

use clap::Subcommand;

pub mod champions;
pub mod ctg;
pub mod wicketz;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: GameArgs,
}

#[derive(Debug, Subcommand)]
pub enum GameArgs {
    /// Cricket: The Game.
    Ctg(ctg::Args),
    /// Wicketz: runs, wickets and Merit per innings.
    Wicketz(wicketz::Args),
    /// Cricket Champions, 2-5 players.
    Champions(champions::Args),
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.game {
        GameArgs::Ctg(args) => ctg::run(args),
        GameArgs::Wicketz(args) => wicketz::run(args),
        GameArgs::Champions(args) => champions::run(args),
    }
}
