//! `crease simulate <game>`: bot-vs-bot matches in memory, with the game's statistics.

use clap::Subcommand;

pub mod champions;
pub mod ctg;
pub mod registered;
pub mod wicketz;

use crate::matches::GameRegistry;

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
    /// Any other registered game: `crease simulate <game> --help` for its flags.
    #[command(external_subcommand)]
    Registered(Vec<String>),
}

pub fn run(args: Args, games: &GameRegistry) -> anyhow::Result<()> {
    match args.game {
        GameArgs::Ctg(args) => ctg::run(args),
        GameArgs::Wicketz(args) => wicketz::run(args),
        GameArgs::Champions(args) => champions::run(args),
        GameArgs::Registered(words) => registered::run(&words, games),
    }
}
