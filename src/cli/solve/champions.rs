//! `crease solve champions`: the hard bot's table, solved from `data/champions/ruleset.json`.

use crate::rules::champions::data::ruleset;
use crate::rules::champions::hard::table;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the table (run from the repository root to update the committed one).
    #[arg(long, default_value = "data/champions/hard_bot.json")]
    pub out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let started = Instant::now();
    let solved = table::solve(ruleset());
    std::fs::write(&args.out, table::to_json(&solved))?;
    println!(
        "wrote {} ({} response rows, {} card values) in {:.1} s",
        args.out.display(),
        solved.responses.len(),
        solved.card_values.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
