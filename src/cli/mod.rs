//! The `crease` command line: one file per subcommand. With no subcommand it serves.

use clap::{Parser, Subcommand};

pub mod simulate;

#[derive(Debug, Parser)]
#[command(
    name = "crease",
    version,
    about = "An authoritative server for cricket board games"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play bot-vs-bot matches in memory and print the game's statistics.
    Simulate(simulate::Args),
}

/// Runs the chosen subcommand.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Simulate(args)) => simulate::run(args),
        None => anyhow::bail!("the server is not built yet"),
    }
}
