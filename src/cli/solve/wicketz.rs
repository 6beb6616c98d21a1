//! `crease solve wicketz`: reads every card of `data/wicketz/cards.json` for every stroke and
//! delivery with the engine's own card reading, and writes `data/wicketz/outcomes.json`.

use crate::rules::wicketz::outcomes::{render, solve_embedded};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the table (the embedded copy is read from data/wicketz/outcomes.json).
    #[arg(long, default_value = "data/wicketz/outcomes.json")]
    pub out: PathBuf,
    /// Only check that the file equals what the solver computes now; exit 1 if not.
    #[arg(long)]
    pub check: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    super::write_or_check(&args.out, &render(&solve_embedded()), args.check)
}
