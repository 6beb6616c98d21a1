//! `crease solve ctg`: simulates the table [`super::calibration`] reads.
//!
//! It plays [`MATCHES`] seeded T20 matches with both sealed choices uniformly random and the
//! heuristic elsewhere, and records, for each bowler kind, attitude, Advantage and zone, the
//! mean realised runs and wickets of a ball (the change of the score to the next sealed
//! choice) minus the mean priced ones, and the chance the ball raised and lowered the
//! striker's Confidence. A reader of `hard`'s code who broke every even choice toward
//! Aggressive won 53-55 % of matches while Confidence was unpriced (docs/performance.md), so
//! a second pass solves sampled balls at every Confidence to measure what one more point is
//! worth a ball when both sides play the equilibrium. The committed table is
//! `data/ctg/ball_calibration.json`; a test rebuilds it and fails when it is stale.
//!
//! Its own module because it solves balls ([`super::sealed`]), which read the table: the
//! table's reader and its writer would otherwise import each other.

use super::calibration::{ADVANTAGES, ATTITUDES, Calibration, KINDS, STEPS, Step, ZONES, cell};
use super::command::Command;
use super::event::Event;
use super::hard_field;
use super::resolve::{self, CONFIDENCE_MAX, CONFIDENCE_MIN};
use super::sealed::{self, BallGame};
use super::sim;
use super::types::{Attitude, BowlType, Format};
use super::view::{Ask, Situation};
use super::{Options, bot, safe};
use crate::rules::{BotPolicy, Dice, Seed};
use std::cell::Cell;

/// How to rebuild the table.
pub const REBUILD: &str = "cargo run --release -- solve ctg";

/// Matches simulated: some 1.7 million balls, from about 1,000 (Advantage -1) to 20,000 a
/// cell of the 150.
pub const MATCHES: u64 = 10_000;

/// The first match seed (each match `FIRST_SEED + i`).
const FIRST_SEED: u64 = 77;

/// Every how many priced balls the second pass samples one, and how many it solves.
const STEP_SAMPLE_EVERY: usize = 50;
const STEP_SAMPLES: usize = 3_000;

/// One ball being played: the batter's ask and both choices, once known.
#[derive(Clone, Copy, Default)]
struct Ball {
    shot_ask: Option<(Ask, Situation)>,
    card: Option<u8>,
    shot: Option<(u8, Attitude)>,
}

/// A priced ball waiting for its outcome: the cell, the priced runs and wicket chance, the
/// score when it was chosen and the striker's Confidence then.
#[derive(Clone, Copy)]
struct Priced {
    cell: (usize, usize, usize, usize),
    runs: f64,
    wickets: f64,
    score: (u16, u8, u8),
    confidence: i8,
}

#[derive(Clone, Copy, Default)]
struct Sum {
    balls: f64,
    runs: f64,
    wickets: f64,
    /// Balls that could raise the striker's Confidence (below 3), and those that did.
    could_rise: f64,
    raises: f64,
    /// Balls that could lower it (above -1), and those that did.
    could_fall: f64,
    falls: f64,
}

/// Simulates the table (pure and deterministic: the same data give the same table).
pub fn simulate() -> Calibration {
    let (one_ball, samples) = one_ball();
    let measured = confidence_steps(&one_ball, &samples);
    Calibration {
        steps: measured.steps,
        wickets_a_ball: measured.wickets,
        raises_a_ball: measured.raises,
        falls_a_ball: measured.falls,
        ..one_ball
    }
}

/// The first pass: the one-ball corrections and Confidence chances, and the sampled balls
/// (a shot's ask and situation) for the second.
fn one_ball() -> (Calibration, Vec<(Ask, Situation)>) {
    let options = Options {
        format: Format::T20,
        ..Options::default()
    };
    let mut sums = [[[[Sum::default(); ZONES]; ADVANTAGES]; ATTITUDES]; KINDS];
    let mut samples = Vec::with_capacity(STEP_SAMPLES);
    let mut priced_balls = 0usize;
    for index in 0..MATCHES {
        let mut ball = Ball::default();
        let mut waiting: Option<Priced> = None;
        // The striker's Confidence as the waiting ball moves it, and how often it rose and
        // fell: written by the events, read when the ball is closed.
        let confidence: Cell<Option<i8>> = Cell::new(None);
        let moves = Cell::new((0u8, 0u8));
        let _ = sim::play_strict_visiting(
            &options,
            &Seed::from_u64(FIRST_SEED + index),
            |_, ask, situation, rng| {
                let command = match *ask {
                    Ask::Bowl { cards, .. } => {
                        let card = uniform_card(cards, rng);
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
                                let (raises, falls) = moves.get();
                                if priced.confidence < CONFIDENCE_MAX {
                                    sum.could_rise += 1.0;
                                    sum.raises += f64::from(raises.min(1));
                                }
                                if priced.confidence > CONFIDENCE_MIN {
                                    sum.could_fall += 1.0;
                                    sum.falls += f64::from(falls.min(1));
                                }
                            }
                        }
                        confidence.set(None);
                        let (zone, attitude) = uniform_shot(rng);
                        ball.shot_ask = Some((*ask, *situation));
                        ball.shot = Some((zone, attitude));
                        Command::Shot { zone, attitude }
                    }
                    _ => bot::choose(ask, situation, BotPolicy::Heuristic, rng),
                };
                if let Some(priced) = price(&ball) {
                    if priced_balls.is_multiple_of(STEP_SAMPLE_EVERY)
                        && samples.len() < STEP_SAMPLES
                        && let Some(sample) = ball.shot_ask
                    {
                        samples.push(sample);
                    }
                    priced_balls += 1;
                    confidence.set(Some(priced.confidence));
                    moves.set((0, 0));
                    waiting = Some(priced);
                    ball = Ball::default();
                }
                command
            },
            |event| {
                if let (Event::ConfidenceChanged { confidence: now, .. }, Some(before)) =
                    (event, confidence.get())
                {
                    let (raises, falls) = moves.get();
                    moves.set(if *now > before {
                        (raises + 1, falls)
                    } else {
                        (raises, falls + 1)
                    });
                    confidence.set(Some(*now));
                }
            },
        );
    }
    let mean = |part: f64, balls: f64| if balls > 0.0 { round(part / balls) } else { 0.0 };
    let table = Calibration {
        runs: sums.map(|t| t.map(|a| a.map(|z| z.map(|sum| mean(sum.runs, sum.balls))))),
        wickets: sums.map(|t| t.map(|a| a.map(|z| z.map(|sum| mean(sum.wickets, sum.balls))))),
        raises: sums.map(|t| t.map(|a| a.map(|z| z.map(|sum| mean(sum.raises, sum.could_rise))))),
        falls: sums.map(|t| t.map(|a| a.map(|z| z.map(|sum| mean(sum.falls, sum.could_fall))))),
        ..Calibration::default()
    };
    (table, samples)
}

/// What the second pass measures.
struct Steps {
    steps: [Step; STEPS],
    wickets: f64,
    raises: f64,
    falls: f64,
}

/// The second pass: each sampled ball solved at every Confidence (the striker's only; deck,
/// field and score as sampled) on the one-ball prices, and its equilibrium's parts read at
/// each: the mean change per step, and the mean chances a ball (a raise counted below 3, a
/// fall above -1).
fn confidence_steps(one_ball: &Calibration, samples: &[(Ask, Situation)]) -> Steps {
    let mut sums = [Step::default(); STEPS];
    let (mut wickets, mut raises, mut falls, mut counted) = (0.0, 0.0, 0.0, 0.0_f64);
    for (ask, situation) in samples {
        let at = |confidence: i8| {
            let mut ask = *ask;
            if let Ask::Shot { confidence: c, .. } = &mut ask {
                *c = confidence;
            }
            let game = BallGame::with(&ask, situation, one_ball)?;
            let equilibrium = game.batting.solve(safe::TOLERANCE);
            sealed::expected(&ask, situation, one_ball, &equilibrium.rows, &equilibrium.cols)
        };
        let levels: Option<Vec<sealed::Parts>> = (CONFIDENCE_MIN..=CONFIDENCE_MAX).map(at).collect();
        let Some(levels) = levels else { continue };
        for (sum, pair) in sums.iter_mut().zip(levels.windows(2)) {
            sum.runs += pair[1].runs - pair[0].runs;
            sum.wickets += pair[1].wickets - pair[0].wickets;
        }
        let n = levels.len() as f64;
        wickets += levels.iter().map(|level| level.wickets).sum::<f64>() / n;
        raises += levels[..STEPS].iter().map(|level| level.raise).sum::<f64>() / (n - 1.0);
        falls += levels[1..].iter().map(|level| level.fall).sum::<f64>() / (n - 1.0);
        counted += 1.0;
    }
    let n = counted.max(1.0);
    Steps {
        steps: sums.map(|sum| Step {
            runs: round(sum.runs / n),
            wickets: round(sum.wickets / n),
        }),
        wickets: round(wickets / n),
        raises: round(raises / n),
        falls: round(falls / n),
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
    Some(Priced {
        cell: cell(bowl_type, attitude, advantage, zone),
        runs: price.runs,
        wickets: price.wickets,
        score: (situation.runs, situation.wickets, situation.innings),
        confidence,
    })
}

/// The simulations' bowler: any of the `cards`, evenly.
fn uniform_card(cards: u8, rng: &mut Dice) -> u8 {
    rng.below(u32::from(cards.max(1))) as u8
}

/// The simulations' batter: any zone, either attitude, evenly (the same draws, in the same
/// order, as the committed table was simulated with).
fn uniform_shot(rng: &mut Dice) -> (u8, Attitude) {
    let zone = rng.roll(ZONES as u8);
    let attitude = if rng.below(2) == 0 {
        Attitude::Aggressive
    } else {
        Attitude::Defensive
    };
    (zone, attitude)
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

/// Runs to the end of the first innings by balls left and wickets down, `[balls][wickets]`:
/// (balls seen, mean runs still to come), over `matches` matches played as the table's are.
/// What the price of a wicket ([`hard_field::wicket_value`]) is checked against
/// (`crease solve ctg --run-expectancy`).
pub fn run_expectancy(matches: u64) -> Vec<[(f64, f64); 10]> {
    let options = Options {
        format: Format::T20,
        ..Options::default()
    };
    let mut sums = vec![[(0.0, 0.0); 10]; 121];
    for index in 0..matches {
        let mut states: Vec<(u16, u8, u16)> = Vec::new();
        let final_runs: Cell<Option<u16>> = Cell::new(None);
        let _ = sim::play_strict_visiting(
            &options,
            &Seed::from_u64(FIRST_SEED + index),
            |_, ask, situation, rng| match *ask {
                Ask::Bowl { cards, .. } => Command::Bowl {
                    card: uniform_card(cards, rng),
                },
                Ask::Shot { .. } => {
                    if situation.innings == 0 {
                        states.push((situation.balls_left, situation.wickets, situation.runs));
                    }
                    let (zone, attitude) = uniform_shot(rng);
                    Command::Shot { zone, attitude }
                }
                _ => bot::choose(ask, situation, BotPolicy::Heuristic, rng),
            },
            |event| {
                if let Event::InningsEnded { innings: 0, runs, .. } = event {
                    final_runs.set(Some(*runs));
                }
            },
        );
        let Some(final_runs) = final_runs.get() else {
            continue;
        };
        for (balls, wickets, runs) in states {
            let (seen, to_come) = &mut sums[usize::from(balls).min(120)][usize::from(wickets).min(9)];
            *seen += 1.0;
            *to_come += f64::from(final_runs.saturating_sub(runs));
        }
    }
    for row in &mut sums {
        for (seen, to_come) in row.iter_mut() {
            *to_come = if *seen > 0.0 { *to_come / *seen } else { 0.0 };
        }
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ctg::calibration::CALIBRATION_JSON;

    #[test]
    fn the_committed_table_is_what_the_simulation_measures() {
        assert!(
            render(&simulate()) == CALIBRATION_JSON,
            "data/ctg/ball_calibration.json is stale; rebuild it with `{REBUILD}`"
        );
    }
}
