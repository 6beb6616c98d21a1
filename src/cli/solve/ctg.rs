//! `crease solve ctg`: simulates the correction the sealed-choice prices need
//! (`rules::ctg::calibrate`) and writes `data/ctg/ball_calibration.json`.

use crate::rules::ctg::calibrate::{render, run_expectancy, simulate};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the table (the embedded copy is read from data/ctg/ball_calibration.json).
    #[arg(long, default_value = "data/ctg/ball_calibration.json")]
    pub out: PathBuf,
    /// Only check that the file equals what the simulation measures now; exit 1 if not.
    #[arg(long)]
    pub check: bool,
    /// Print instead the first innings' runs still to come by balls left and wickets down,
    /// over simulated matches played as the table's are: what the price of a wicket is
    /// checked against.
    #[arg(long)]
    pub run_expectancy: bool,
    /// Matches `--run-expectancy` simulates.
    #[arg(long, default_value_t = 20_000)]
    pub matches: u64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.run_expectancy {
        print_run_expectancy(args.matches);
        return Ok(());
    }
    super::write_or_check(&args.out, &render(&simulate()), args.check)
}

/// Every second over's six balls pooled, one column per wicket down: mean runs to come and
/// the balls seen.
fn print_run_expectancy(matches: u64) {
    let table = run_expectancy(matches);
    println!("balls left | runs to come (balls seen) with 0 to 9 wickets down, {matches} first innings");
    for over in (0..20usize).rev().step_by(2) {
        let cells: Vec<String> = (0..10)
            .map(|wickets| {
                let (seen, sum) = (over * 6 + 1..=over * 6 + 6).fold((0.0, 0.0), |(seen, sum), balls| {
                    let (n, mean) = table[balls][wickets];
                    (seen + n, sum + n * mean)
                });
                if seen >= 30.0 {
                    format!("{:5.1} ({:6})", sum / seen, seen as u64)
                } else {
                    format!("{:>14}", "-")
                }
            })
            .collect();
        println!("{:>3}-{:<3}    {}", over * 6 + 1, over * 6 + 6, cells.join(" "));
    }
}
