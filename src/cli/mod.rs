//! The `crease` command line: one file per subcommand. With no subcommand it serves.
//!
//! Only the subcommands that do network or database work start a tokio runtime; `simulate`
//! stays synchronous.

use crate::matches::GameRegistry;
use clap::{Parser, Subcommand};

pub mod admin;
pub mod arena;
pub mod backup;
pub mod bot;
pub mod health;
pub mod load;
pub mod serve;
pub mod simulate;
pub mod solve;
pub mod spectate;
pub mod verify;

#[derive(Debug, Parser)]
#[command(
    name = "crease",
    version,
    about = "An authoritative server for cricket board games",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Serve settings when no subcommand is given.
    #[command(flatten)]
    pub serve: crate::config::ServeConfig,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the server (the default).
    Serve(Box<crate::config::ServeConfig>),
    /// Play bot-vs-bot matches in memory and print the game's statistics.
    Simulate(simulate::Args),
    /// Pit two policies (bots or fixed exploits) against each other over many matches.
    Arena(arena::Args),
    /// Play matches against a running server as a WebSocket client.
    Bot(bot::Args),
    /// Load-test a running server with many concurrent two-player matches.
    Load(load::Args),
    /// Rebuild a game's offline tables in data/ from its ruleset data.
    Solve(solve::Args),
    /// Re-derive every roll of a finished match from its seed and log.
    Verify(verify::Args),
    /// Copy the SQLite database while the server runs, and verify the copy's finished matches.
    Backup(backup::Args),
    /// Ask a running server whether it is ready: exit 0 only on a 200 (container health checks).
    Health(health::Args),
    /// Moderate a running server through its admin API: ban, unban, rename, end-match,
    /// players, audit (needs one of its `--admin-token`s).
    Admin(admin::Args),
}

/// Runs the chosen subcommand.
/// Runs the command line with the games this build ships.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    run_with(cli, GameRegistry::standard())
}

/// Runs the command line with `games`: a program that adds a game of its own (as the
/// fourth-game example in `examples/` does) gets the whole of `crease` (serve, simulate, bot, verify) for
/// it by passing its registry here.
pub fn run_with(cli: Cli, games: GameRegistry) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Simulate(args)) => simulate::run(args, &games),
        Some(Command::Arena(args)) => arena::run(args),
        Some(Command::Serve(config)) => serve::run(*config, games),
        Some(Command::Bot(args)) => bot::run(args, &games),
        Some(Command::Load(args)) => load::run(args),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Verify(args)) => verify::run(args, &games),
        Some(Command::Backup(args)) => backup::run(args, &games),
        Some(Command::Health(args)) => health::run(args),
        Some(Command::Admin(args)) => admin::run(args),
        None => serve::run(cli.serve, games),
    }
}

/// Refuses a `sqlite:` URL that names no file, for the commands that read an existing
/// database (`verify`, `backup`): connecting would create an empty one, and they would then
/// report "no match" about the wrong place.
pub(crate) fn existing_database(database_url: &str) -> anyhow::Result<()> {
    if let Some(path) = crate::store::sqlite_file(database_url)
        && !path.exists()
    {
        anyhow::bail!(
            "no SQLite database at {} (from --database-url / DATABASE_URL {database_url}): run this \
             where the server keeps its database, or name it",
            path.display()
        );
    }
    Ok(())
}
