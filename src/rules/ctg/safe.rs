//! The sealed choice of the `hard` CTG bot: safe first, exploitative second (issue 30).
//!
//! Each ball the bowler picks a card and the batter a shot (zone and attitude), sealed, at
//! the same time: a zero-sum game in runs whose every entry both seats can compute
//! ([`sealed::BallGame`]). Anyone who reads a bot's code can therefore compute its
//! distribution each ball, so the distribution must be one that knowing does not help
//! against: this plays the game's equilibrium, and leans toward the other side's revealed
//! habits (the public counts in [`Situation`]) only as far as a best responder to the
//! leaning mix gains at most `bound` runs a ball over the equilibrium value
//! ([`ZeroSum::safe_response`]). The draw uses the bot's own dice, which the server seeds
//! from the operating system and never publishes.
//!
//! `hard` plays it at [`EXPLOIT_BOUND`]; the arena's `hard-safe --hard-bound B` plays it at
//! any bound, to measure the trade (docs/performance.md).

use super::command::Command;
use super::sealed::{self, BallGame};
use super::view::{Ask, Situation};
use crate::rules::Dice;
use crate::rules::matrix_game::{Solution, ZeroSum};

/// How close to an equilibrium the solved mixes are: a best responder to the pure
/// equilibrium gains at most this many runs a ball.
pub const TOLERANCE: f64 = 0.002;

/// The bound `hard` plays at: none. Measured, a lean of 0.002 or 0.008 runs a ball gives a
/// white-box reader more than it wins from habits, and the equilibrium alone, on the
/// calibrated prices, already beats every fixed policy (docs/performance.md).
pub const EXPLOIT_BOUND: f64 = 0.0;

/// How many balls of evidence the equilibrium counts for in the model of the other side's
/// habits: after a few overs of the same choice the counts outweigh it.
const PRIOR_BALLS: f64 = 10.0;

/// What it plays for one sealed choice, before its draw: a function of public state only.
#[derive(Clone, Debug)]
pub struct SealedPlan {
    pub game: BallGame,
    /// The equilibrium from the batter's side (rows: shots, columns: cards).
    pub equilibrium: Solution,
    /// What the bot draws from.
    pub plan: Plan,
}

/// The plan for a `Bowl` or `Shot` ask; `None` for every other ask.
pub fn sealed_plan(ask: &Ask, situation: &Situation, bound: f64) -> Option<SealedPlan> {
    let game = BallGame::of(ask, situation)?;
    let equilibrium = game.batting.solve(TOLERANCE);
    let mix = if situation.batting {
        let cards = game.batting.cols();
        let model = posterior(&situation.card_counts[..cards.min(8)], &equilibrium.cols);
        game.batting
            .safe_response(&equilibrium.rows, equilibrium.value, &model, bound, TOLERANCE)
    } else {
        let bowling: ZeroSum = game.bowling();
        let model = shot_model(&situation.zone_counts, &equilibrium.rows);
        bowling.safe_response(&equilibrium.cols, -equilibrium.value, &model, bound, TOLERANCE)
    };
    Some(SealedPlan {
        game,
        equilibrium,
        plan: Plan {
            batting: situation.batting,
            mix,
        },
    })
}

/// What a bot draws a sealed choice from.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The asked seat bats: `mix` is over [`sealed::shot`]s; otherwise over cards.
    pub batting: bool,
    /// The bot's mix over its own choices.
    pub mix: Vec<f64>,
}

impl Plan {
    /// The command of choice `index`.
    pub fn command(&self, index: usize) -> Command {
        if self.batting {
            let (zone, attitude) = sealed::shot(index);
            Command::Shot { zone, attitude }
        } else {
            Command::Bowl { card: index as u8 }
        }
    }

    /// A choice drawn from the mix with the bot's own dice.
    pub fn draw(&self, rng: &mut Dice) -> Command {
        self.command(draw(&self.mix, rng))
    }
}

/// An index drawn with the given probabilities.
pub fn draw(mix: &[f64], rng: &mut Dice) -> usize {
    const SCALE: u32 = 1 << 20;
    let mut draw = f64::from(rng.below(SCALE)) / f64::from(SCALE);
    for (index, p) in mix.iter().enumerate() {
        if draw < *p {
            return index;
        }
        draw -= p;
    }
    mix.len().saturating_sub(1)
}

/// The other side's card probabilities: its counts plus the equilibrium `prior` worth
/// [`PRIOR_BALLS`] balls.
fn posterior(counts: &[u16], prior: &[f64]) -> Vec<f64> {
    let seen: f64 = counts.iter().map(|c| f64::from(*c)).sum();
    prior
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (f64::from(counts.get(i).copied().unwrap_or(0)) + PRIOR_BALLS * p) / (seen + PRIOR_BALLS)
        })
        .collect()
}

/// The batting side's shot probabilities: its zone counts plus the equilibrium worth
/// [`PRIOR_BALLS`] balls, each zone's weight split between the attitudes as the equilibrium
/// splits it (the counts do not record attitudes).
fn shot_model(zone_counts: &[u16; sealed::ZONES], equilibrium: &[f64]) -> Vec<f64> {
    let by_zone: Vec<f64> = (0..sealed::ZONES)
        .map(|z| equilibrium[z] + equilibrium[z + sealed::ZONES])
        .collect();
    let zones = posterior(zone_counts, &by_zone);
    (0..sealed::SHOTS)
        .map(|s| {
            let z = s % sealed::ZONES;
            let share = if by_zone[z] > 0.0 {
                equilibrium[s] / by_zone[z]
            } else {
                0.5
            };
            zones[z] * share
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ctg::field::Field;
    use crate::rules::ctg::types::{Attitude, BowlType, Format};

    /// A bound that leans: the shipped one leans not at all.
    const LEAN: f64 = 0.008;

    /// The spin deck's zones.
    const SPIN: [u8; 8] = [0b1100, 0b10010, 0b100100, 0b11000, 0b100010, 0, 0, 0];

    fn shot_ask(field: Field) -> Ask {
        Ask::Shot {
            cards: 5,
            zones: SPIN,
            confidence: 1,
            specialist: false,
            attitude: Attitude::Defensive,
            field,
            bowl_type: BowlType::Spin,
        }
    }

    fn situation(batting: bool) -> Situation {
        Situation {
            format: Format::T20,
            batting,
            balls_left: 84,
            wickets: 3,
            runs: 50,
            ..Situation::default()
        }
    }

    /// What a best responder to `plan`'s mix gains over the equilibrium value, in runs a ball.
    fn best_response_gain(plan: &SealedPlan) -> f64 {
        let value = plan.equilibrium.value;
        if plan.plan.batting {
            value - plan.game.batting.floor(&plan.plan.mix)
        } else {
            plan.game.batting.ceiling(&plan.plan.mix) - value
        }
    }

    #[test]
    fn a_best_responder_gains_no_more_than_the_bound() {
        let fields = [
            Field::EMPTY,
            Field::EMPTY.with(2, 1).with(3, 1).with(3, 2),
            Field::EMPTY.with(5, 3),
        ];
        let habits: [([u16; 8], [u16; 5]); 3] = [
            ([0; 8], [0; 5]),
            ([40, 0, 0, 0, 0, 0, 0, 0], [0, 0, 40, 0, 0]),
            ([3, 9, 1, 7, 2, 0, 0, 0], [12, 0, 1, 30, 2]),
        ];
        for field in fields {
            for (card_counts, zone_counts) in habits {
                for batting in [true, false] {
                    // The batter's ask; the bowler's is its mirror.
                    let mut situation = situation(true);
                    situation.card_counts = card_counts;
                    situation.zone_counts = zone_counts;
                    let ask = shot_ask(field);
                    let (ask, situation) = if batting {
                        (ask, situation)
                    } else {
                        sealed::mirror(&ask, &situation).expect("sealed")
                    };
                    let plan = sealed_plan(&ask, &situation, LEAN).expect("a sealed ask");
                    assert!(plan.equilibrium.gap <= TOLERANCE, "{:?}", plan.equilibrium);
                    assert!((plan.plan.mix.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                    let gain = best_response_gain(&plan);
                    assert!(
                        gain <= LEAN + TOLERANCE + 1e-9,
                        "batting {batting}, {card_counts:?} {zone_counts:?}: a best responder gains {gain}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_batter_leans_toward_a_bowler_that_keeps_bowling_one_card() {
        let mut situation = situation(true);
        let ask = shot_ask(Field::EMPTY);
        let even = sealed_plan(&ask, &situation, LEAN).expect("sealed");
        // Card 4 (Arm Ball: zones 1 and 5) bowled 30 balls running.
        situation.card_counts[4] = 30;
        let leaning = sealed_plan(&ask, &situation, LEAN).expect("sealed");
        // It earns more against that card than the equilibrium does, at no more than the
        // bound's cost against any other.
        let against_card = |plan: &SealedPlan| plan.game.batting.col_values(&plan.plan.mix)[4];
        assert!(
            against_card(&leaning) > against_card(&even) + 0.005,
            "{} vs {}",
            against_card(&leaning),
            against_card(&even)
        );
        // With no bound it is a best reply to the habit, and a best responder farms it.
        let greedy = sealed_plan(&ask, &situation, 10.0).expect("sealed");
        assert!(best_response_gain(&greedy) > 10.0 * LEAN);
    }

    #[test]
    fn every_other_ask_is_not_a_sealed_plan() {
        assert!(sealed_plan(&Ask::Toss, &situation(true), LEAN).is_none());
    }
}
