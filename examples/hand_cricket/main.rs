//! `crease` with a fourth game, Hand Cricket, added from this folder alone.
//!
//! Everything the game needs is in `game/`: its rules (`Game`), its extras (`GameExtras`:
//! listing, rating pool, scorecard, simulation figures, browser module, operator views).
//! The crate is not edited; this file is the one registry line. Run it like `crease`:
//!
//! ```text
//! cargo run --example hand_cricket                      # serve, with four games
//! cargo run --example hand_cricket -- simulate hand_cricket --matches 1000
//! ```
//!
//! See README.md here for the rules and the steps to add a game.

use clap::Parser;
use crease::matches::GameRegistry;

mod game;

fn main() -> std::process::ExitCode {
    let games = GameRegistry::standard().register::<game::HandCricket>();
    match crease::cli::run_with(crease::cli::Cli::parse(), games) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
