//! What a ball's sealed choice is really worth, measured: the correction [`super::sealed`]
//! adds to the prices [`super::hard_field`] computes from the ruleset.
//!
//! Those prices follow the dice of one ball (to-hit, distance, bounce, catches, edges) and
//! leave out the rest of the game: extras, running, the over cards and their express values,
//! Confidence rising with boundaries, the Spin distance loss, the skills. Measured over
//! half a million simulated balls, the rest is not a constant: the priced slope from
//! Advantage -1 to 3 is about 1.4 times the realised one, and Defensive shots at high
//! Advantage and Spin's deliveries take more wickets than priced (docs/performance.md). A
//! bot that solves its sealed choice on the raw prices picks shots a fixed card farms.
//!
//! So `crease solve ctg` plays [`MATCHES`] seeded T20 matches with both sealed choices
//! uniformly random and the heuristic elsewhere, and records, for each bowler kind,
//! attitude, Advantage and zone, the mean realised runs and wickets of a ball (the change of
//! the score to the next sealed choice) minus the mean priced ones. The committed table is
//! `data/ctg/ball_calibration.json`; a test rebuilds it and fails when it is stale.

use super::command::Command;
use super::hard_field;
use super::resolve::{self, ADVANTAGE_MIN};
use super::sim;
use super::types::{Attitude, BowlType, Format};
use super::view::{Ask, Situation};
use super::{Options, bot};
use crate::rules::{BotPolicy, Seed};
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// The committed table.
pub const CALIBRATION_JSON: &str = include_str!("../../../data/ctg/ball_calibration.json");

/// How to rebuild it.
pub const REBUILD: &str = "cargo run --release -- solve ctg";

/// Matches simulated: some 1.7 million balls, from about 1,000 (Advantage -1) to 20,000 a
/// cell of the 150.
pub const MATCHES: u64 = 10_000;

/// The first match seed (each match `FIRST_SEED + i`).
const FIRST_SEED: u64 = 77;

const KINDS: usize = 3;
const ATTITUDES: usize = 2;
const ADVANTAGES: usize = 5;
const ZONES: usize = 5;

/// Realised minus priced, per ball: `[bowler kind][attitude][advantage - min][zone - 1]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub runs: [[[[f64; ZONES]; ADVANTAGES]; ATTITUDES]; KINDS],
    pub wickets: [[[[f64; ZONES]; ADVANTAGES]; ATTITUDES]; KINDS],
}

impl Calibration {
    /// The (runs, wickets) correction of one ball.
    pub fn of(&self, bowl_type: BowlType, attitude: Attitude, advantage: i8, zone: u8) -> (f64, f64) {
        let a = usize::try_from(advantage - ADVANTAGE_MIN)
            .unwrap_or(0)
            .min(ADVANTAGES - 1);
        let z = usize::from(zone.clamp(1, ZONES as u8) - 1);
        let (k, t) = (bowl_type.index().min(KINDS - 1), attitude.index());
        (self.runs[k][t][a][z], self.wickets[k][t][a][z])
    }
}

/// One ball being played: the batter's ask and both choices, once known.
#[derive(Clone, Copy, Default)]
struct Ball {
    shot_ask: Option<(Ask, Situation)>,
    card: Option<u8>,
    shot: Option<(u8, Attitude)>,
}

/// A priced ball waiting for its outcome: the cell, the priced runs and wicket chance, and
/// the score when it was chosen.
#[derive(Clone, Copy)]
struct Priced {
    cell: (usize, usize, usize, usize),
    runs: f64,
    wickets: f64,
    score: (u16, u8, u8),
}

#[derive(Clone, Copy, Default)]
struct Sum {
    balls: f64,
    runs: f64,
    wickets: f64,
}

/// Simulates the table (pure and deterministic: the same data give the same table).
pub fn simulate() -> Calibration {
    let options = Options {
        format: Format::T20,
        ..Options::default()
    };
    let mut sums = [[[[Sum::default(); ZONES]; ADVANTAGES]; ATTITUDES]; KINDS];
    for index in 0..MATCHES {
        let mut ball = Ball::default();
        let mut waiting: Option<Priced> = None;
        let _ = sim::play_strict(
            &options,
            &Seed::from_u64(FIRST_SEED + index),
            |_, ask, situation, rng| {
                let command = match *ask {
                    Ask::Bowl { cards, .. } => {
                        let card = rng.below(u32::from(cards.max(1))) as u8;
                        ball.card = Some(card);
                        Command::Bowl { card }
                    }
                    Ask::Shot { .. } => {
                        // A new ball: the previous one's outcome is the change of the score.
                        if let Some(priced) = waiting.take() {
                            let (runs, wickets, innings) = priced.score;
                            if innings == situation.innings {
                                let (k, t, a, z) = priced.cell;
                                let sum = &mut sums[k][t][a][z];
                                sum.balls += 1.0;
                                sum.runs += f64::from(situation.runs.saturating_sub(runs)) - priced.runs;
                                sum.wickets +=
                                    f64::from(situation.wickets.saturating_sub(wickets)) - priced.wickets;
                            }
                        }
                        let zone = rng.roll(ZONES as u8);
                        let attitude = if rng.below(2) == 0 {
                            Attitude::Aggressive
                        } else {
                            Attitude::Defensive
                        };
                        ball.shot_ask = Some((*ask, *situation));
                        ball.shot = Some((zone, attitude));
                        Command::Shot { zone, attitude }
                    }
                    _ => bot::choose(ask, situation, BotPolicy::Heuristic, rng),
                };
                if let Some(priced) = price(&ball) {
                    waiting = Some(priced);
                    ball = Ball::default();
                }
                command
            },
        );
    }
    let mean = |sum: Sum, total: f64| {
        if sum.balls > 0.0 {
            round(total / sum.balls)
        } else {
            0.0
        }
    };
    Calibration {
        runs: sums.map(|t| t.map(|a| a.map(|z| z.map(|sum| mean(sum, sum.runs))))),
        wickets: sums.map(|t| t.map(|a| a.map(|z| z.map(|sum| mean(sum, sum.wickets))))),
    }
}

/// The priced ball once both choices are known.
fn price(ball: &Ball) -> Option<Priced> {
    let (ask, situation) = ball.shot_ask?;
    let (card, (zone, attitude)) = (ball.card?, ball.shot?);
    let Ask::Shot {
        zones,
        confidence,
        specialist,
        field,
        bowl_type,
        ..
    } = ask
    else {
        return None;
    };
    let advantage = resolve::advantage(confidence, zone, zones[usize::from(card.min(7))], specialist);
    let pace = bowl_type == BowlType::Pace;
    let price = hard_field::ball_worth(situation.format, pace, advantage, zone, attitude, field)?;
    let a = usize::try_from(advantage - ADVANTAGE_MIN)
        .unwrap_or(0)
        .min(ADVANTAGES - 1);
    Some(Priced {
        cell: (
            bowl_type.index().min(KINDS - 1),
            attitude.index(),
            a,
            usize::from(zone - 1),
        ),
        runs: price.runs,
        wickets: price.wickets,
        score: (situation.runs, situation.wickets, situation.innings),
    })
}

/// Four decimals: enough for a correction, and a file that does not churn on the last bit.
fn round(value: f64) -> f64 {
    (value * 10_000.0).round() / 10_000.0
}

/// The table as committed.
pub fn render(table: &Calibration) -> String {
    let mut text = serde_json::to_string(table).unwrap_or_default();
    text.push('\n');
    text
}

static CALIBRATION: LazyLock<Calibration> = LazyLock::new(|| {
    serde_json::from_str(CALIBRATION_JSON).unwrap_or_else(|e| panic!("data/ctg/ball_calibration.json: {e}"))
});

/// The embedded table.
pub fn calibration() -> &'static Calibration {
    &CALIBRATION
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_table_is_what_the_simulation_measures() {
        assert!(
            render(&simulate()) == CALIBRATION_JSON,
            "data/ctg/ball_calibration.json is stale; rebuild it with `{REBUILD}`"
        );
    }

    #[test]
    fn the_realised_runs_exceed_the_priced_ones_and_advantage_is_priced_too_steeply() {
        let table = calibration();
        for kind in [BowlType::Pace, BowlType::Spin, BowlType::Medium] {
            for attitude in [Attitude::Aggressive, Attitude::Defensive] {
                let (low, _) = table.of(kind, attitude, -1, 3);
                let (high, _) = table.of(kind, attitude, 3, 3);
                assert!(
                    low > 0.3,
                    "{kind:?} {attitude:?}: extras and running are missing from the prices"
                );
                assert!(low > high, "{kind:?} {attitude:?}: {low} at -1, {high} at 3");
            }
        }
    }
}
