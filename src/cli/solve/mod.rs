//! `crease solve <game>`: computes a game's offline bot tables from its ruleset data and
//! writes them under `data/<game>/`, where the bots load them from. Each table has a test
//! that the committed file equals what this command computes now.

use clap::Subcommand;

pub mod champions;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: GameArgs,
}

#[derive(Debug, Subcommand)]
pub enum GameArgs {
    /// Cricket Champions: the hard bot's bowler-reply and card-value table.
    Champions(champions::Args),
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.game {
        GameArgs::Champions(args) => champions::run(args),
    }
}
