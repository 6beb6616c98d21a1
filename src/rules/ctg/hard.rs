//! The `hard` CTG bot: the sealed bowl-card vs shot-zone choice played as a mixed strategy.
//!
//! Each ball the bowler picks a card of its hand and the batter a zone, sealed, at the
//! same time: a zero-sum matrix game whose every entry both seats can compute from their
//! asks (the batter sees the bowler's card zones; the bowler, its own cards). A bot that
//! plays a fixed or predictable choice there is what the arena's exploits farm, so `hard`
//! solves the matrix with regret matching, and mixes from the equilibrium unless the other
//! side's revealed habits (public counts in the view's situation) give a best reply worth
//! more (see [`choose`]). The equilibrium alone only holds the game's value (measured: 50.8 %
//! against the heuristic); answering habits is what beats fixed strategies. An opponent that
//! changes its habit can lure the replies for a while: the fourth ball that stays mixed and
//! the equilibrium prior limit that, they do not remove it.
//!
//! The entries come from the ruleset, not from tuning: the value of an Advantage is the
//! expected signed margin of the to-hit contact ([`resolve::contact`]) over the two d6
//! (strike margin for the batter, miss margin for the bowler, the naturals and clean bowled
//! at the top of their scale), and each fielder in the chosen zone costs a quarter of an
//! Advantage step, as the heuristic weighs it. The field is priced ball by ball from the
//! landing areas and the batting side's zone habits ([`hard_field`]). Every other decision
//! is the heuristic's.
//!
//! Its sealed choice is a [`Plan`]: the distribution it draws from, a function of public
//! state only. The arena's white-box responder reads it (issue 30 measured what that is
//! worth to an opponent who read this code: docs/performance.md); [`super::safe`] is the
//! bounded alternative being measured against it.

use super::bot;
use super::command::Command;
use super::field::Field;
use super::hard_field;
use super::resolve::{self, ADVANTAGE_MAX, ADVANTAGE_MIN, Contact};
use super::sealed;
use super::view::{Ask, Situation};
use crate::rules::{BotPolicy, Dice};

/// Regret-matching iterations per decision: enough that neither side's best reply gains more
/// than 0.05 (in advantage-value units) against the other's mix (tested below).
const ITERATIONS: usize = 1000;

/// Zones a batter may play.
const ZONES: usize = 5;

/// The bowler does not see the striker's Confidence in its ask; it plans for the middle of
/// the range the ruleset allows (-1 to 3).
const ASSUMED_CONFIDENCE: i8 = 1;

/// How many balls of evidence the equilibrium counts for in the model of the other side:
/// after a few overs of the same choice the counts outweigh it.
const PRIOR_BALLS: f64 = 10.0;

/// The least expected gain over the equilibrium mix, in advantage-value units, for which
/// the bot answers the other side's habits instead of mixing.
const MIN_GAIN: f64 = 0.05;

/// Chooses a command for `ask`: sealed choices as below, the heuristic elsewhere.
///
/// Each sealed choice starts from the equilibrium mix, which no opponent can beat. The
/// other side's revealed habits ([`Situation::card_counts`], [`Situation::zone_counts`])
/// then update a model of it (the equilibrium as a prior worth [`PRIOR_BALLS`] balls); when
/// the best reply to that model gains at least [`MIN_GAIN`] over the mix, the bot plays it
/// three balls in four and keeps mixing the fourth, so it stays hard to read while it
/// punishes a side that keeps doing the same thing.
pub fn choose(ask: &Ask, situation: &Situation, rng: &mut Dice) -> Command {
    if let Some(plan) = plan(ask, situation) {
        return plan.command(draw(&plan.mix, rng));
    }
    match *ask {
        Ask::SetField {
            rules,
            current,
            bowl_type,
        } => Command::SetField {
            field: hard_field::choose(&rules, current, bowl_type, situation),
        },
        _ => bot::choose(ask, situation, BotPolicy::Heuristic, rng),
    }
}

/// What a bot draws a sealed choice from.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The asked seat bats: `mix` is over [`sealed::shot`]s; otherwise over cards.
    pub batting: bool,
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
}

/// `hard`'s plan for a `Bowl` or `Shot` ask (`None` for any other): the equilibrium mix,
/// or, when the best reply to the model of the other side gains at least [`MIN_GAIN`],
/// that reply with weight 3/4 and the equilibrium with 1/4.
pub fn plan(ask: &Ask, situation: &Situation) -> Option<Plan> {
    match *ask {
        Ask::Bowl { cards, zones, .. } if cards > 0 => {
            // The bowler plans for the middle of the Confidence range and an empty field, as
            // it always has (the ask now carries both: `safe` prices them).
            let payoff = payoffs(cards, &zones, ASSUMED_CONFIDENCE, false, Field::EMPTY);
            let (bowler, batter) = solve(&payoff);
            let model = posterior(&situation.zone_counts, &batter);
            // The bowler minimises the batter's payoff: its reply is the cheapest card.
            let cost: Vec<f64> = payoff
                .iter()
                .map(|row| row.iter().zip(&model).map(|(v, p)| v * p).sum())
                .collect();
            let mixed: f64 = bowler.iter().zip(&cost).map(|(p, c)| p * c).sum();
            let reply = arg_best(&cost, |a, b| b < a);
            Some(Plan {
                batting: false,
                mix: lean(&bowler, reply, mixed - cost[reply] >= MIN_GAIN),
            })
        }
        Ask::Shot {
            cards,
            zones,
            confidence,
            specialist,
            field,
            ..
        } if cards > 0 => {
            let payoff = payoffs(cards, &zones, confidence, specialist, field);
            let (bowler, batter) = solve(&payoff);
            let counts = &situation.card_counts[..payoff.len()];
            let model = posterior(counts, &bowler);
            let value: Vec<f64> = (0..ZONES)
                .map(|z| payoff.iter().zip(&model).map(|(row, q)| row[z] * q).sum())
                .collect();
            let mixed: f64 = batter.iter().zip(&value).map(|(p, v)| p * v).sum();
            let reply = arg_best(&value, |a, b| b > a);
            let zones_mix = lean(&batter, reply, value[reply] - mixed >= MIN_GAIN);
            // The attitude is the heuristic's, a function of the public situation.
            let attitude = bot::heuristic_attitude(situation, confidence);
            let mut mix = vec![0.0; sealed::SHOTS];
            for (zone, p) in zones_mix.iter().enumerate() {
                mix[sealed::shot_index(zone as u8 + 1, attitude)] = *p;
            }
            Some(Plan { batting: true, mix })
        }
        _ => None,
    }
}

/// The equilibrium `mix`, or 3/4 on `reply` and 1/4 on the equilibrium when `answer`.
fn lean(mix: &[f64], reply: usize, answer: bool) -> Vec<f64> {
    if !answer {
        return mix.to_vec();
    }
    mix.iter()
        .enumerate()
        .map(|(i, p)| p / 4.0 + if i == reply { 0.75 } else { 0.0 })
        .collect()
}

/// The other side's choice probabilities: its counts plus the equilibrium `prior` worth
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

/// The index whose value `better` prefers (the first on ties).
fn arg_best(values: &[f64], better: impl Fn(f64, f64) -> bool) -> usize {
    let mut best = 0;
    for (index, value) in values.iter().enumerate() {
        if better(values[best], *value) {
            best = index;
        }
    }
    best
}

/// What an Advantage is worth to the batter: the mean signed contact margin over two d6.
pub fn advantage_value(advantage: i8) -> f64 {
    let sides = 6u8;
    let mut total = 0.0;
    for bowl in 1..=sides {
        for bat in 1..=sides {
            total += match resolve::contact(bowl, sides, bat, advantage) {
                Contact::CleanBowled => -f64::from(sides),
                Contact::NaturalSix => 6.0,
                Contact::NaturalFour => 4.0,
                Contact::Strike(margin) => f64::from(margin),
                Contact::Miss(margin) => -f64::from(margin),
                _ => 0.0,
            };
        }
    }
    total / f64::from(sides * sides)
}

/// The batter's payoff of card `i` against zone `z` (row i, column z - 1).
pub fn payoffs(
    cards: u8,
    zones: &[u8; 8],
    confidence: i8,
    specialist: bool,
    field: Field,
) -> Vec<[f64; ZONES]> {
    let values: Vec<f64> = (ADVANTAGE_MIN..=ADVANTAGE_MAX).map(advantage_value).collect();
    let value = |a: i8| {
        values[usize::try_from(a - ADVANTAGE_MIN)
            .unwrap_or(0)
            .min(values.len() - 1)]
    };
    let step = (value(ADVANTAGE_MAX) - value(ADVANTAGE_MIN)) / f64::from(ADVANTAGE_MAX - ADVANTAGE_MIN);
    (0..usize::from(cards.min(8)))
        .map(|i| {
            let mut row = [0.0; ZONES];
            for (column, entry) in row.iter_mut().enumerate() {
                let zone = column as u8 + 1;
                let advantage = resolve::advantage(confidence, zone, zones[i], specialist);
                *entry = value(advantage) - step * f64::from(field.in_zone(zone)) / 4.0;
            }
            row
        })
        .collect()
}

/// The average strategies of regret matching+ on the zero-sum game `payoff` (the batter,
/// choosing columns, maximises; the bowler, choosing rows, minimises), weighted linearly
/// so later, better iterations count more.
pub fn solve(payoff: &[[f64; ZONES]]) -> (Vec<f64>, [f64; ZONES]) {
    let rows = payoff.len();
    let mut row_regret = vec![0.0; rows];
    let mut column_regret = [0.0; ZONES];
    let mut row_sum = vec![0.0; rows];
    let mut column_sum = [0.0; ZONES];
    // Alternating updates (the batter, then the bowler against the batter's new mix):
    // with linear averaging they converge far faster than simultaneous ones.
    for iteration in 1..=ITERATIONS {
        let weight = iteration as f64;
        let row_mix = normalised(&row_regret);
        let mut zone_value = [0.0; ZONES];
        for (i, row) in payoff.iter().enumerate() {
            for z in 0..ZONES {
                zone_value[z] += row_mix[i] * row[z];
            }
        }
        let column_mix = normalised(&column_regret);
        let expected: f64 = (0..ZONES).map(|z| column_mix[z] * zone_value[z]).sum();
        for z in 0..ZONES {
            column_regret[z] = (column_regret[z] + zone_value[z] - expected).max(0.0);
            column_sum[z] += weight * column_mix[z];
        }
        let column_mix = normalised(&column_regret);
        let card_cost: Vec<f64> = payoff
            .iter()
            .map(|row| (0..ZONES).map(|z| column_mix[z] * row[z]).sum())
            .collect();
        let expected: f64 = row_mix.iter().zip(&card_cost).map(|(p, c)| p * c).sum();
        for i in 0..rows {
            row_regret[i] = (row_regret[i] + expected - card_cost[i]).max(0.0);
            row_sum[i] += weight * row_mix[i];
        }
    }
    let column: [f64; ZONES] = normalised(&column_sum).try_into().unwrap_or([0.2; ZONES]);
    (normalised(&row_sum), column)
}

/// Non-negative weights as probabilities; uniform when they are all zero.
fn normalised(weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    if total > 0.0 {
        weights.iter().map(|w| w / total).collect()
    } else {
        vec![1.0 / weights.len().max(1) as f64; weights.len()]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The batter's guaranteed value of its mix: its payoff against the bowler's best reply.
    fn batter_floor(payoff: &[[f64; ZONES]], mix: &[f64; ZONES]) -> f64 {
        payoff
            .iter()
            .map(|row| (0..ZONES).map(|z| row[z] * mix[z]).sum::<f64>())
            .fold(f64::INFINITY, f64::min)
    }

    /// The bowler's guaranteed ceiling: the batter's best reply to its mix.
    fn bowler_ceiling(payoff: &[[f64; ZONES]], mix: &[f64]) -> f64 {
        (0..ZONES)
            .map(|z| payoff.iter().zip(mix).map(|(row, p)| row[z] * p).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn more_advantage_is_worth_more() {
        let values: Vec<f64> = (ADVANTAGE_MIN..=ADVANTAGE_MAX).map(advantage_value).collect();
        assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");
    }

    #[test]
    fn the_solved_mixes_are_close_to_an_equilibrium() {
        // Four cards, each vulnerable in one or two zones: no pure choice is safe for either.
        let zones = [1 << 1, 1 << 3, (1 << 5) | (1 << 2), 1 << 4, 0, 0, 0, 0];
        let payoff = payoffs(4, &zones, 1, false, Field::EMPTY);
        let (bowler, batter) = solve(&payoff);
        let gap = bowler_ceiling(&payoff, &bowler) - batter_floor(&payoff, &batter);
        assert!((0.0..0.05).contains(&gap), "exploitability gap {gap}");
        // A pure zone would be beaten by the bowler's best reply by more than the gap.
        let best_pure = (0..ZONES)
            .map(|z| payoff.iter().map(|row| row[z]).fold(f64::INFINITY, f64::min))
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(batter_floor(&payoff, &batter) > best_pure, "mixing gains nothing");
    }

    #[test]
    fn a_batter_answers_a_bowler_that_keeps_bowling_one_card() {
        // The spin deck's zones; card 4 (Arm Ball: zones 1 and 5) bowled 30 balls running.
        let zones = [0b1100, 0b10010, 0b100100, 0b11000, 0b100010, 0, 0, 0];
        let ask = Ask::Shot {
            cards: 5,
            zones,
            confidence: 1,
            specialist: false,
            attitude: crate::rules::ctg::types::Attitude::Defensive,
            field: Field::EMPTY,
            bowl_type: crate::rules::ctg::types::BowlType::Spin,
        };
        let mut situation = Situation::default();
        situation.card_counts[4] = 30;
        let mut rng = Dice::new(&crate::rules::Seed::from_u64(9));
        let on_the_card = (0..400)
            .filter(|_| match choose(&ask, &situation, &mut rng) {
                Command::Shot { zone, .. } => zones[4] & (1 << zone) != 0,
                _ => false,
            })
            .count();
        // Three balls in four answer it; the mixed fourth may land on the card too.
        assert!(on_the_card >= 280, "{on_the_card} of 400 shots in zones 1 or 5");
    }

    #[test]
    fn samples_follow_the_mix() {
        let mut rng = Dice::new(&crate::rules::Seed::from_u64(5));
        let mix = [0.0, 0.75, 0.25];
        let mut counts = [0u32; 3];
        for _ in 0..4000 {
            counts[draw(&mix, &mut rng)] += 1;
        }
        assert_eq!(counts[0], 0);
        assert!((2800..3200).contains(&counts[1]), "{counts:?}");
    }
}
