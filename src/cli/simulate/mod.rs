//! `crease simulate <game>`: bot-vs-bot matches in memory, with the game's statistics.

use clap::Subcommand;

pub mod champions;
pub mod wicketz;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: GameArgs,
}

#[derive(Debug, Subcommand)]
pub enum GameArgs {
    /// Wicketz: runs, wickets and Merit per innings.
    Wicketz(wicketz::Args),
    /// Cricket Champions, 2-5 players.
    Champions(champions::Args),
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.game {
        GameArgs::Wicketz(args) => wicketz::run(args),
        GameArgs::Champions(args) => champions::run(args),
    }
}
