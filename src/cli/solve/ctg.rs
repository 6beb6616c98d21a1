//! `crease solve ctg`: simulates the correction the sealed-choice prices need
//! (`rules::ctg::calibration`) and writes `data/ctg/ball_calibration.json`.

use crate::rules::ctg::calibration::{render, simulate};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the table (the embedded copy is read from data/ctg/ball_calibration.json).
    #[arg(long, default_value = "data/ctg/ball_calibration.json")]
    pub out: PathBuf,
    /// Only check that the file equals what the simulation measures now; exit 1 if not.
    #[arg(long)]
    pub check: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    super::write_or_check(&args.out, &render(&simulate()), args.check)
}
