//! `crease solve <game>`: rebuilds a game's offline tables in `data/<game>/` from its ruleset
//! data. Each table's test compares the committed file with what the solver computes now,
//! so a data edit without a rebuild fails the tests instead of going stale.

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
    /// Cricket: The Game: the measured correction to the prices of a ball's sealed choice.
    Ctg(ctg::Args),
    /// Wicketz: the stroke x delivery outcome table the hard bot prices fields with.
    Wicketz(wicketz::Args),
    /// Cricket Champions: the hard bot's bowler-reply and card-value table.
    Champions(champions::Args),
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.game {
        GameArgs::Ctg(args) => ctg::run(args),
        GameArgs::Champions(args) => champions::run(args),
        GameArgs::Wicketz(args) => wicketz::run(args),
    }
}

/// Writes `text` to `path`, or with `check` only compares them: the rebuild and the CI check
/// share one command.
pub fn write_or_check(path: &std::path::Path, text: &str, check: bool) -> anyhow::Result<()> {
    if check {
        let committed = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        anyhow::ensure!(
            committed == text,
            "{} differs from what the solver computes now; rerun without --check",
            path.display()
        );
        println!("{} is up to date", path.display());
        return Ok(());
    }
    std::fs::write(path, text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    println!("wrote {} ({} bytes)", path.display(), text.len());
    Ok(())
}
