//! What a ball's sealed choice is really worth, measured: the correction [`super::sealed`]
//! adds to the prices [`super::hard_field`] computes from the ruleset, read from the table
//! [`super::calibrate`] simulates (`data/ctg/ball_calibration.json`).
//!
//! Those prices follow the dice of one ball (to-hit, distance, bounce, catches, edges) and
//! leave out the rest of the game: extras, running, the over cards and their express values,
//! Confidence rising with boundaries, the Spin distance loss, the skills. Measured over
//! half a million simulated balls, the rest is not a constant: the priced slope from
//! Advantage -1 to 3 is about 1.4 times the realised one, and Defensive shots at high
//! Advantage and Spin's deliveries take more wickets than priced (docs/performance.md). A
//! bot that solves its sealed choice on the raw prices picks shots a fixed card farms.
//!
//! A ball also moves the striker's Confidence (a boundary +1; some over cards -1 for an
//! Aggressive batter, +1 for a Defensive one), and a Confidence point is Advantage for every
//! later ball the batter faces: worth far more than the ball's own runs once priced over the
//! rest of the innings ([`Calibration::confidence_worth`]).

use super::hard_field;
use super::resolve::{ADVANTAGE_MIN, CONFIDENCE_MAX, CONFIDENCE_MIN};
use super::types::{Attitude, BowlType};
use super::view::Situation;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// The committed table.
pub const CALIBRATION_JSON: &str = include_str!("../../../data/ctg/ball_calibration.json");

pub(super) const KINDS: usize = 3;
pub(super) const ATTITUDES: usize = 2;
pub(super) const ADVANTAGES: usize = 5;
pub(super) const ZONES: usize = 5;
/// Confidence -1 to 3: four steps up.
pub(super) const STEPS: usize = (CONFIDENCE_MAX - CONFIDENCE_MIN) as usize;

pub(super) type Cells = [[[[f64; ZONES]; ADVANTAGES]; ATTITUDES]; KINDS];

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
pub(super) fn cell(
    bowl_type: BowlType,
    attitude: Attitude,
    advantage: i8,
    zone: u8,
) -> (usize, usize, usize, usize) {
    let a = usize::try_from(advantage - ADVANTAGE_MIN)
        .unwrap_or(0)
        .min(ADVANTAGES - 1);
    let z = usize::from(zone.clamp(1, ZONES as u8) - 1);
    (bowl_type.index().min(KINDS - 1), attitude.index(), a, z)
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
    use crate::rules::ctg::types::Format;

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
