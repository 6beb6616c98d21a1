//! A CTG ball's sealed choice as a zero-sum game in runs: the bowler's card against the
//! batter's shot (zone and attitude), chosen at the same time.
//!
//! Every entry is the ball's expected worth to the batter from the ruleset
//! ([`hard_field::ball_worth`]: the to-hit dice at the card's Advantage for that zone, the
//! distance and bounce dice of the attitude, the field's catches and stops, the edges and
//! slips), corrected by what simulated balls show the rest of the game adds
//! ([`calibration`]), a wicket costing the runs the rest of the innings would score per
//! wicket left ([`hard_field::wicket_value`]), and a Confidence point the ball may win or
//! lose the striker priced over the balls it has left
//! ([`Calibration::confidence_worth`]). Everything the game needs is public to both seats: the
//! deck's zones, the striker's Confidence and role, the field, the bowler's type and the
//! score. So each seat can build the other's game exactly ([`mirror`]), which is why a bot
//! must mix (anyone can compute its distribution) and why the arena's white-box responder
//! can read it.
//!
//! What the correction averages over instead of pricing: how the field and the situation
//! change running and the over cards' effects, and when skills and reviews are used.

use super::calibration::{self, Calibration};
use super::field::Field;
use super::hard_field;
use super::resolve;
use super::types::{Attitude, BowlType};
use super::view::{Ask, Situation};
use crate::rules::matrix_game::ZeroSum;

/// Zones 1-5 a shot may go to.
pub const ZONES: usize = 5;

/// The batter's choices: every zone with either attitude.
pub const SHOTS: usize = ZONES * 2;

const ATTITUDES: [Attitude; 2] = [Attitude::Aggressive, Attitude::Defensive];

/// The zone (1-5) and attitude of shot `index` (0 to [`SHOTS`] - 1).
pub fn shot(index: usize) -> (u8, Attitude) {
    ((index % ZONES) as u8 + 1, ATTITUDES[(index / ZONES) % 2])
}

/// The index of a shot into `zone` (1-5) with `attitude`.
pub fn shot_index(zone: u8, attitude: Attitude) -> usize {
    attitude.index() * ZONES + usize::from(zone.clamp(1, ZONES as u8) - 1)
}

/// One ball's sealed choice.
#[derive(Clone, Debug, PartialEq)]
pub struct BallGame {
    /// From the batter's side: rows are shots ([`shot`]), columns the bowler's cards, entries
    /// the ball's worth to the batter in runs.
    pub batting: ZeroSum,
}

/// What a sealed ask says about the ball, whichever seat it was asked of.
struct Ball {
    cards: usize,
    zones: [u8; 8],
    confidence: i8,
    specialist: bool,
    field: Field,
    bowl_type: BowlType,
}

fn ball_of(ask: &Ask) -> Option<Ball> {
    let ball = match *ask {
        Ask::Bowl {
            cards,
            zones,
            bowl_type,
            confidence,
            specialist,
            field,
        }
        | Ask::Shot {
            cards,
            zones,
            confidence,
            specialist,
            field,
            bowl_type,
            ..
        } => Ball {
            cards: usize::from(cards.min(8)),
            zones,
            confidence,
            specialist,
            field,
            bowl_type,
        },
        _ => return None,
    };
    (ball.cards > 0).then_some(ball)
}

impl BallGame {
    /// The game of a `Bowl` or `Shot` ask; `None` for any other ask, an empty deck, or a
    /// ruleset that does not load.
    pub fn of(ask: &Ask, situation: &Situation) -> Option<BallGame> {
        BallGame::with(ask, situation, calibration::calibration())
    }

    /// [`BallGame::of`] on the corrections of `correction` (the calibration's second pass
    /// solves balls on its first pass's table).
    pub fn with(ask: &Ask, situation: &Situation, correction: &Calibration) -> Option<BallGame> {
        let ball = ball_of(ask)?;
        let wicket = hard_field::wicket_value(situation);
        // A Confidence point won or lost is Advantage for the striker's later balls.
        let (up, down) = correction.confidence_worth(situation, ball.confidence);
        let worth = |shot_index: usize, card: usize| {
            let parts = parts(&ball, situation, correction, shot_index, card)?;
            Some(parts.runs - wicket * parts.wickets + parts.raise * up - parts.fall * down)
        };
        worth(0, 0)?;
        Some(BallGame {
            batting: ZeroSum::new(SHOTS, ball.cards, |s, c| worth(s, c).unwrap_or(0.0)),
        })
    }

    /// The same game from the bowler's side: rows are cards, entries the runs it saves.
    pub fn bowling(&self) -> ZeroSum {
        self.batting.transposed()
    }
}

/// One shot against one card: the ball's runs and wicket chance (the ruleset's prices and
/// the calibration's correction) and its chances of raising and lowering the striker's
/// Confidence.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Parts {
    pub runs: f64,
    pub wickets: f64,
    pub raise: f64,
    pub fall: f64,
}

fn parts(
    ball: &Ball,
    situation: &Situation,
    correction: &Calibration,
    shot_index: usize,
    card: usize,
) -> Option<Parts> {
    let (zone, attitude) = shot(shot_index);
    let advantage = resolve::advantage(ball.confidence, zone, ball.zones[card], ball.specialist);
    let pace = ball.bowl_type == BowlType::Pace;
    let price = hard_field::ball_worth(situation.format, pace, advantage, zone, attitude, ball.field)?;
    let (more_runs, more_wickets) = correction.of(ball.bowl_type, attitude, advantage, zone);
    let (raise, fall) =
        correction.confidence_change(ball.bowl_type, attitude, advantage, zone, ball.confidence);
    Some(Parts {
        runs: price.runs + more_runs,
        wickets: price.wickets + more_wickets,
        raise,
        fall,
    })
}

/// A ball's [`Parts`] when the batter plays `shots` and the bowler `cards` (mixes over
/// [`shot`]s and the deck's cards), on `correction`'s one-ball prices.
pub fn expected(
    ask: &Ask,
    situation: &Situation,
    correction: &Calibration,
    shots: &[f64],
    cards: &[f64],
) -> Option<Parts> {
    let ball = ball_of(ask)?;
    let mut sum = Parts::default();
    for (shot_index, p) in shots.iter().enumerate().filter(|(_, p)| **p > 0.0) {
        for (card, q) in cards
            .iter()
            .enumerate()
            .take(ball.cards)
            .filter(|(_, q)| **q > 0.0)
        {
            let parts = parts(&ball, situation, correction, shot_index, card)?;
            let weight = p * q;
            sum.runs += weight * parts.runs;
            sum.wickets += weight * parts.wickets;
            sum.raise += weight * parts.raise;
            sum.fall += weight * parts.fall;
        }
    }
    Some(sum)
}

/// The other seat's ask and situation for the same ball: everything in them is public, so
/// each seat can compute what the other is asked and how the other's bot would play it.
pub fn mirror(ask: &Ask, situation: &Situation) -> Option<(Ask, Situation)> {
    let ball = ball_of(ask)?;
    let zones = ball.zones;
    let other = match *ask {
        Ask::Shot { cards, .. } => Ask::Bowl {
            cards,
            zones,
            bowl_type: ball.bowl_type,
            confidence: ball.confidence,
            specialist: ball.specialist,
            field: ball.field,
        },
        Ask::Bowl { cards, .. } => Ask::Shot {
            cards,
            zones,
            confidence: ball.confidence,
            specialist: ball.specialist,
            // The attitude the striker holds is not needed to price a ball: every shot
            // names its own.
            attitude: Attitude::Defensive,
            field: ball.field,
            bowl_type: ball.bowl_type,
        },
        _ => return None,
    };
    let mut situation = *situation;
    situation.batting = !situation.batting;
    Some((other, situation))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ctg::types::Format;

    fn spin_shot(field: Field) -> (Ask, Situation) {
        let zones = [0b1100, 0b10010, 0b100100, 0b11000, 0b100010, 0, 0, 0];
        let ask = Ask::Shot {
            cards: 5,
            zones,
            confidence: 1,
            specialist: false,
            attitude: Attitude::Defensive,
            field,
            bowl_type: BowlType::Spin,
        };
        let situation = Situation {
            format: Format::T20,
            batting: true,
            balls_left: 90,
            wickets: 2,
            ..Situation::default()
        };
        (ask, situation)
    }

    #[test]
    fn shots_and_indices_round_trip() {
        for index in 0..SHOTS {
            let (zone, attitude) = shot(index);
            assert_eq!(shot_index(zone, attitude), index);
        }
    }

    #[test]
    fn both_seats_build_the_same_game() {
        let (ask, situation) = spin_shot(Field::EMPTY.with(2, 1).with(3, 2));
        let (bowl, bowler_situation) = mirror(&ask, &situation).expect("a sealed ask");
        assert!(matches!(bowl, Ask::Bowl { .. }));
        assert!(!bowler_situation.batting);
        let batter = BallGame::of(&ask, &situation).expect("priced");
        let bowler = BallGame::of(&bowl, &bowler_situation).expect("priced");
        assert_eq!(batter, bowler);
        assert_eq!((batter.batting.rows(), batter.batting.cols()), (SHOTS, 5));
    }

    #[test]
    fn a_shot_on_the_card_is_worth_more_and_a_fielder_in_its_zone_costs_runs() {
        let (ask, situation) = spin_shot(Field::EMPTY);
        let open = BallGame::of(&ask, &situation).expect("priced").batting;
        // Card 0 shows zones 2 and 3: a shot there has full Advantage.
        let on_card = open.at(shot_index(2, Attitude::Defensive), 0);
        let off_card = open.at(shot_index(5, Attitude::Defensive), 0);
        assert!(on_card > off_card + 0.1, "{on_card} vs {off_card}");
        let (ask, situation) = spin_shot(Field::EMPTY.with(2, 1).with(2, 2));
        let fielded = BallGame::of(&ask, &situation).expect("priced").batting;
        assert!(
            fielded.at(shot_index(2, Attitude::Aggressive), 0)
                < open.at(shot_index(2, Attitude::Aggressive), 0)
        );
        assert_eq!(
            fielded.at(shot_index(4, Attitude::Aggressive), 0),
            open.at(shot_index(4, Attitude::Aggressive), 0)
        );
    }

    #[test]
    fn the_other_asks_have_no_sealed_game() {
        let situation = Situation::default();
        assert!(BallGame::of(&Ask::Toss, &situation).is_none());
        assert!(mirror(&Ask::QuickSingle, &situation).is_none());
    }
}
