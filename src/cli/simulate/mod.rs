//! `crease simulate <game>`: bot-vs-bot matches in memory, with the game's statistics.

use clap::Subcommand;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: GameArgs,
}

#[derive(Debug, Subcommand)]
pub enum GameArgs {}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.game {}
}
