//! `crease simulate <game>`: bot-vs-bot matches in memory, with the game's statistics.

use clap::Subcommand;

pub mod ctg;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: GameArgs,
}

#[derive(Debug, Subcommand)]
pub enum GameArgs {
    /// Cricket: The Game.
    Ctg(ctg::Args),
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.game {
        GameArgs::Ctg(args) => ctg::run(args),
    }
}
