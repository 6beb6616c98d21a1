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
//! the score to the next sealed choice) minus the mean priced ones.
//!
//! A ball also moves the striker's Confidence (a boundary +1; some over cards -1 for an
//! Aggressive batter, +1 for a Defensive one), and a Confidence point is Advantage for every
//! later ball the batter faces: worth far more than the ball's own runs once priced over the
//! rest of the innings. A one-ball table cannot see it, and a reader of `hard`'s code who broke
//! every even choice toward Aggressive won 53-55 % of matches from exactly that
//! (docs/performance.md). So the same matches also record each cell's chance of raising and
//! of lowering the striker's Confidence, and a second pass solves sampled balls at every
//! Confidence to measure what one more point is worth a ball when both sides play the
//! equilibrium ([`Calibration::confidence_worth`]). The committed table is
//! `data/ctg/ball_calibration.json`; a test rebuilds it and fails when it is stale.

use super::command::Command;
use super::event::Event;
use super::hard_field;
use super::resolve::{self, ADVANTAGE_MIN, CONFIDENCE_MAX, CONFIDENCE_MIN};
use super::sealed::{self, BallGame};
use super::sim;
use super::types::{Attitude, BowlType, Format};
use super::view::{Ask, Situation};
use super::{Options, bot, safe};
use crate::rules::{BotPolicy, Seed};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
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

/// Every how many priced balls the second pass samples one, and how many it solves.
const STEP_SAMPLE_EVERY: usize = 50;
const STEP_SAMPLES: usize = 3_000;

const KINDS: usize = 3;
const ATTITUDES: usize = 2;
const ADVANTAGES: usize = 5;
const ZONES: usize = 5;
/// Confidence -1 to 3: four steps up.
const STEPS: usize = (CONFIDENCE_MAX - CONFIDENCE_MIN) as usize;

type Cells = [[[[f64; ZONES]; ADVANTAGES]; ATTITUDES]; KINDS];

/// Realised minus priced, per ball: `[bowler kind][attitude][advantage - min][zone - 1]`; the
/// chances of a Confidence change by the same cells; and what a Confidence point is worth.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub runs: Cells,
    pub wickets: Cells,
    /// The chance the ball raises the striker's Confidence, measured where it could rise
    /// (below 3).
    pub raises: Cells,
    /// The chance it lowers it, measured where it could fall (above -1).
    pub falls: Cells,
    /// `steps[c + 1]`: what going from Confidence `c` to `c + 1` changes of a ball's runs and
    /// wicket chance under the equilibrium of its sealed choice, averaged over sampled balls.
    pub steps: [Step; STEPS],
    /// Over the same samples and their equilibria, a ball's wicket chance and its chances of
    /// raising and of lowering the striker's Confidence (where it could): how long a point
    /// gained lasts.
    pub wickets_a_ball: f64,
    pub raises_a_ball: f64,
    pub falls_a_ball: f64,
}

/// One Confidence point's worth a ball.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub runs: f64,
    pub wickets: f64,
}

impl Calibration {
    /// The (runs, wickets) correction of one ball.
    pub fn of(&self, bowl_type: BowlType, attitude: Attitude, advantage: i8, zone: u8) -> (f64, f64) {
        let (k, t, a, z) = cell(bowl_type, attitude, advantage, zone);
        (self.runs[k][t][a][z], self.wickets[k][t][a][z])
    }

    /// The chances that one ball raises and lowers the striker's Confidence from `confidence`
    /// (none past the bounds).
    pub fn confidence_change(
        &self,
        bowl_type: BowlType,
        attitude: Attitude,
        advantage: i8,
        zone: u8,
        confidence: i8,
    ) -> (f64, f64) {
        let (k, t, a, z) = cell(bowl_type, attitude, advantage, zone);
        let raise = if confidence < CONFIDENCE_MAX {
            self.raises[k][t][a][z]
        } else {
            0.0
        };
        let fall = if confidence > CONFIDENCE_MIN {
            self.falls[k][t][a][z]
        } else {
            0.0
        };
        (raise, fall)
    }

    /// What one Confidence point more (and one less) than `confidence` is worth to the
    /// striker in runs over the rest of its innings. A point gained lasts until the batter is
    /// out, the innings ends (it faces about half the balls left), or the bounds merge the two
    /// paths (a raise at 3, a fall at -1): each ball it faces until then is worth the step at
    /// the level it is at, its runs less its wickets at the score's price of a wicket. A
    /// small chain over the four levels, with the equilibrium's chances a ball.
    pub fn confidence_worth(&self, situation: &Situation, confidence: i8) -> (f64, f64) {
        let wicket = hard_field::wicket_value(situation);
        let step = self.steps.map(|step| step.runs - wicket * step.wickets);
        let survive = 1.0 - self.wickets_a_ball.clamp(0.0, 1.0);
        let (raise, fall) = (self.raises_a_ball, self.falls_a_ball);
        // worth[l]: being one point above level l (index l, Confidence l - 1), faced balls ahead.
        let mut worth = [0.0; STEPS];
        for _ in 0..situation.balls_left.saturating_sub(1).div_ceil(2) {
            worth = std::array::from_fn(|l| {
                let up = if l + 1 < STEPS { worth[l + 1] } else { 0.0 };
                let down = if l > 0 { worth[l - 1] } else { 0.0 };
                step[l] + survive * (raise * up + fall * down + (1.0 - raise - fall) * worth[l])
            });
        }
        let from =
            usize::try_from(confidence.clamp(CONFIDENCE_MIN, CONFIDENCE_MAX) - CONFIDENCE_MIN).unwrap_or(0);
        let up = if from < STEPS { worth[from] } else { 0.0 };
        let down = if from > 0 { worth[from - 1] } else { 0.0 };
        (up, down)
    }
}

/// The table cell of a ball.
fn cell(bowl_type: BowlType, attitude: Attitude, advantage: i8, zone: u8) -> (usize, usize, usize, usize) {
    let a = usize::try_from(advantage - ADVANTAGE_MIN)
        .unwrap_or(0)
        .min(ADVANTAGES - 1);
    let z = usize::from(zone.clamp(1, ZONES as u8) - 1);
    (bowl_type.index().min(KINDS - 1), attitude.index(), a, z)
}

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
        confidence,
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
                    card: rng.below(u32::from(cards.max(1))) as u8,
                },
                Ask::Shot { .. } => {
                    if situation.innings == 0 {
                        states.push((situation.balls_left, situation.wickets, situation.runs));
                    }
                    let zone = rng.roll(ZONES as u8);
                    let attitude = if rng.below(2) == 0 {
                        Attitude::Aggressive
                    } else {
                        Attitude::Defensive
                    };
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

    #[test]
    fn the_committed_table_is_what_the_simulation_measures() {
        assert!(
            render(&simulate()) == CALIBRATION_JSON,
            "data/ctg/ball_calibration.json is stale; rebuild it with `{REBUILD}`"
        );
    }

    fn at(balls_left: u16, wickets: u8) -> Situation {
        Situation {
            format: Format::T20,
            batting: true,
            balls_left,
            wickets,
            ..Situation::default()
        }
    }

    #[test]
    fn a_confidence_point_is_worth_runs_while_the_batter_has_balls_to_face() {
        let table = calibration();
        // Confidence -1 and 0 play alike: a zone off the card is at least one line from its
        // shots, so Advantage is -1 either way (001_10260e69616bd853.txt, Advantage).
        assert_eq!(table.steps[0], Step::default());
        // Each further point adds runs a ball under the equilibrium.
        for step in &table.steps[1..] {
            assert!(step.runs > 0.01, "{step:?}");
        }
        // Nothing past the bounds, -1 to 3 (000_c44664d019aef0c0.txt).
        assert_eq!(table.confidence_worth(&at(100, 2), 3).0, 0.0);
        assert_eq!(table.confidence_worth(&at(100, 2), -1).1, 0.0);
        // One more from 1 is the same point as one less from 2.
        let (up_from_1, _) = table.confidence_worth(&at(100, 2), 1);
        let (_, down_from_2) = table.confidence_worth(&at(100, 2), 2);
        assert!((up_from_1 - down_from_2).abs() < 1e-12);
        // Worth more the more balls are left, and nothing with none to face.
        let early = table.confidence_worth(&at(110, 1), 1).0;
        let late = table.confidence_worth(&at(12, 1), 1).0;
        assert!(early > late && late > 0.0, "{early} vs {late}");
        assert_eq!(table.confidence_worth(&at(1, 1), 1), (0.0, 0.0));
        // A point lasts until a raise at 3 or a fall at -1 merges it, the batter is out or the
        // innings ends: never as long as every ball left.
        assert!(early < 55.0 * table.steps.iter().map(|step| step.runs).fold(0.0, f64::max));
    }

    #[test]
    fn an_aggressive_batter_raises_its_confidence_more_often_and_loses_it_more_often() {
        // Boundaries raise it (001_10260e69616bd853.txt); Howzat!, Run Out? and Patience lower
        // an Aggressive batter's (ruleset over cards).
        let table = calibration();
        for kind in [BowlType::Pace, BowlType::Spin, BowlType::Medium] {
            for advantage in [-1, 0, 1, 3] {
                let mean = |attitude| {
                    (1..=5u8)
                        .map(|zone| table.confidence_change(kind, attitude, advantage, zone, 1))
                        .fold((0.0, 0.0), |(r, f), (raise, fall)| {
                            (r + raise / 5.0, f + fall / 5.0)
                        })
                };
                let (aggressive, defensive) = (mean(Attitude::Aggressive), mean(Attitude::Defensive));
                assert!(
                    aggressive.0 > defensive.0,
                    "{kind:?} at {advantage}: {aggressive:?} {defensive:?}"
                );
                assert!(
                    aggressive.1 > defensive.1,
                    "{kind:?} at {advantage}: {aggressive:?} {defensive:?}"
                );
            }
            // No raise from 3, no fall from -1.
            assert_eq!(
                table.confidence_change(kind, Attitude::Aggressive, 3, 2, 3).0,
                0.0
            );
            assert_eq!(
                table.confidence_change(kind, Attitude::Aggressive, -1, 2, -1).1,
                0.0
            );
        }
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
