//! The `hard` CTG field: nine fielders placed, over by over, where the ruleset says they are
//! worth most against this batting side.
//!
//! A fielder in zones 1-5 only matters for a strike played into its own zone: it may catch a
//! ball that lands in its area on a red (airborne) bounce face, and a red-faced ball that
//! stops in its area gives one run fewer (`engine::ball::land`, `resolve::run_choice`).
//! Slips only matter after a miss by the bowled-chance margin against Pace. So the worth of a
//! ball to the batter, for a zone it plays, depends on that zone's own occupied areas, the
//! slips and the Advantage the zone has against the bowler's cards. This module prices every
//! (Advantage, zone, set of the zone's areas) from the ruleset: the two to-hit d6, the
//! distance die with the Pace add-one as the heuristic batter takes it, both bounce dice,
//! catch values and red outlines, the bowled and slip chances. A wicket is priced in runs
//! from the situation: the balls it takes away ([`wicket_value`]).
//!
//! Which zone the batter plays is the other half. Two batters are planned for, half each
//! ([`HABIT_WEIGHT`]): one who keeps its habits (the public `zone_counts`, so a batter who
//! always plays the same zone finds it covered), and one who reads the field and plays the
//! zone the field leaves worth most (so answering a habit never leaves a zone wide open).
//! The field minimises the blend exactly: a dynamic programme over the zones for each cap on
//! the best zone's worth. Measured (docs/performance.md), the weight matters little: 0, 0.5
//! and 1 score within two points of each other against every exploit. What made this field
//! beat the heuristic's, where a field priced from strikes and habits alone lost, is the
//! rest of the price: the zone's Advantage against the deck (a fielder is worth most where
//! strikes are likely and long), the edges and slips, and a field kept for the over.
//!
//! What it leaves out, so the prices are slightly off in these cases: run attempts (the
//! heuristic makes them, and `calibration` measures them into the sealed choice), over cards, the
//! Spin distance loss, re-roll skills, reviews, and a bowled-chance margin other than the
//! default 3 (the ask does not carry the match option).

use std::sync::OnceLock;

use super::data::{self, Ruleset};
use super::field::{FIELDERS, Field, FieldRules, MAX_SLIPS};
use super::resolve::{self, ADVANTAGE_MAX, ADVANTAGE_MIN, Contact, Travel};
use super::types::{Attitude, BowlType, BowledChanceReading, Format};
use super::view::Situation;

/// Zones 1-5, where strikes go.
const ZONES: usize = 5;

/// Advantage values, [`ADVANTAGE_MIN`] to [`ADVANTAGE_MAX`].
const ADVANTAGES: usize = (ADVANTAGE_MAX - ADVANTAGE_MIN + 1) as usize;

/// Sets of a zone's areas, as bitmasks (bit `area - 1`).
const MASKS: usize = 16;

/// How many balls of evidence the uniform prior over zones counts for: after a few overs
/// of the same zone the batting side's counts outweigh it.
const PRIOR_BALLS: f64 = 10.0;

/// The share of the plan given to a batter who keeps its habits; the rest is for one who
/// plays the zone the field leaves worth most.
const HABIT_WEIGHT: f64 = 0.5;

/// The striker's Confidence the field plans for: the bowler does not see it (the middle of
/// the -1 to 3 range, as `hard`'s bowler assumes).
const ASSUMED_CONFIDENCE: i8 = 1;

/// The bowled-chance margin the field plans for: the match option's default.
const ASSUMED_BOWLED_MARGIN: u8 = 3;

/// The scoring rate a wicket's price starts from, about what hard-vs-hard T20 scores (8.8
/// runs an over, docs/performance.md).
const RUNS_PER_BALL: f64 = 1.45;

/// One ball's worth to the batter, split so a wicket's price can be applied afterwards.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Worth {
    pub runs: f64,
    /// The chance of a wicket other than after a miss by the margin (clean bowled, caught).
    pub wickets: f64,
}

/// The prices of one format and bowler kind (Pace or not).
struct Prices {
    /// `[attitude][advantage - ADVANTAGE_MIN][zone - 1][mask]`: a ball played into the zone
    /// with that attitude (the bounce die is the attitude's).
    ball: [[[[Worth; MASKS]; ZONES]; ADVANTAGES]; 2],
    /// `[advantage - ADVANTAGE_MIN]`: the chance of a miss by the bowled-chance margin.
    edge: [f64; ADVANTAGES],
    /// `[attitude][slips]`: the bowler's best wicket chance after such a miss, bowled or
    /// caught in the slips.
    after_edge: [[f64; MAX_SLIPS as usize + 1]; 2],
}

/// The attitudes, in the order of [`Attitude::index`].
const ATTITUDES: [Attitude; 2] = [Attitude::Aggressive, Attitude::Defensive];

impl Prices {
    /// One ball's runs and wicket chance, the edges and slips included.
    fn worth(&self, attitude: usize, advantage: i8, zone: usize, mask: usize, slips: usize) -> Worth {
        let a = usize::try_from(advantage - ADVANTAGE_MIN)
            .unwrap_or(0)
            .min(ADVANTAGES - 1);
        let ball = self.ball[attitude][a][zone][mask];
        let edge_wickets = self.edge[a] * self.after_edge[attitude][slips.min(MAX_SLIPS as usize)];
        Worth {
            runs: ball.runs,
            wickets: ball.wickets + edge_wickets,
        }
    }
}

impl Worth {
    /// The worth in runs, a wicket costing `wicket` runs.
    pub fn in_runs(self, wicket: f64) -> f64 {
        self.runs - wicket * self.wickets
    }
}

/// A ball's runs and wicket chance (the edges and slips included) when the batter plays
/// `zone` (1-5) with `attitude` at `advantage` against `field`: the price the sealed card vs
/// shot choice of [`super::sealed`] is played on. `None` when the built-in ruleset does not
/// load.
pub fn ball_worth(
    format: Format,
    pace: bool,
    advantage: i8,
    zone: u8,
    attitude: Attitude,
    field: Field,
) -> Option<Worth> {
    let ruleset = data::ruleset().ok()?;
    let zone = usize::from(zone.clamp(1, ZONES as u8) - 1);
    let mask = mask_in(field, zone);
    let slips = field.in_zone(0) as usize;
    Some(prices(ruleset, format, pace).worth(attitude.index(), advantage, zone, mask, slips))
}

/// The areas of zone `zone + 1` that `field` holds, as a mask (bit `area - 1`).
fn mask_in(field: Field, zone: usize) -> usize {
    ((field.0 >> ((zone as u32 + 1) * 4)) & 0b1111) as usize
}

/// The field `hard` sets for the coming ball: it keeps `current` through an over (a field is
/// set for an over; the ask comes before every ball) and prices a new one at each over's
/// start, or when `current` no longer fits the rules. Always legal.
pub fn choose(rules: &FieldRules, current: Field, bowl_type: BowlType, situation: &Situation) -> Field {
    let over_started = !situation.balls_left.is_multiple_of(6);
    if over_started && rules.check(current).is_ok() {
        return current;
    }
    let Ok(ruleset) = data::ruleset() else {
        return rules.repair(current);
    };
    let deck: Vec<u8> = ruleset.bowl_cards[bowl_type.index()]
        .iter()
        .map(|card| card.zones)
        .collect();
    let prices = prices(ruleset, rules.format, bowl_type == BowlType::Pace);
    let plan = Plan {
        prices,
        deck: &deck,
        weights: zone_weights(&situation.zone_counts),
        wicket: wicket_value(situation),
    };
    plan.best_field(rules).unwrap_or_else(|| rules.repair(current))
}

/// The zones' shares of the batting side's strokes: its counts against this bowler kind,
/// with a uniform prior worth [`PRIOR_BALLS`].
pub fn zone_weights(counts: &[u16; ZONES]) -> [f64; ZONES] {
    let seen: f64 = counts.iter().map(|c| f64::from(*c)).sum();
    counts.map(|c| (f64::from(c) + PRIOR_BALLS / ZONES as f64) / (seen + PRIOR_BALLS))
}

/// A wicket's price in runs: what the batting side expects to score from here with one
/// wicket fewer in hand. A side only loses runs to a wicket when it would otherwise have
/// batted balls it can no longer bat, so early wickets with many in hand cost little and the
/// last ones cost the balls the last pairs would have lasted ([`BATTED`]). The old price, the
/// runs still to come shared evenly among the wickets left (17.4 runs for the first wicket of
/// a T20), was three to thirty times what simulated innings lose: a reader of `hard`'s code
/// who broke its even choices toward the riskier Aggressive shot won 52-55 % of matches
/// (docs/performance.md).
pub fn wicket_value(situation: &Situation) -> f64 {
    let balls = usize::from(situation.balls_left).min(MAX_BALLS);
    let wickets_left = usize::from(10u8.saturating_sub(situation.wickets)).clamp(1, WICKETS);
    RUNS_PER_BALL * (BATTED[balls][wickets_left] - BATTED[balls][wickets_left - 1])
}

/// Wickets a ball, for the price of a wicket: what `crease solve ctg`'s innings lose
/// (`rules::ctg::calibrate`, 15 balls a wicket; hard against hard loses one in 21, so this
/// prices wickets on the dear side).
const WICKETS_PER_BALL: f64 = 0.067;

/// The most legal balls an innings has (T20).
const MAX_BALLS: usize = 120;
const WICKETS: usize = 10;

/// `BATTED[b][k]`: the balls a side expects to bat of `b` left with `k` wickets in hand, each
/// ball losing a wicket with [`WICKETS_PER_BALL`]. Measured against 20,000 simulated first
/// innings (docs/performance.md): with 60 balls left, the runs to come by wickets down were
/// 80.9, 81.2, 81.1, 80.6, 79.6, 76.9, 72.7, 62.8, 45.9 and 26.2; these balls at
/// [`RUNS_PER_BALL`] give 82.7 to 20.3 with the same shape.
const BATTED: [[f64; WICKETS + 1]; MAX_BALLS + 1] = batted();

const fn batted() -> [[f64; WICKETS + 1]; MAX_BALLS + 1] {
    let mut table = [[0.0; WICKETS + 1]; MAX_BALLS + 1];
    let mut balls = 1;
    while balls <= MAX_BALLS {
        let mut wickets = 1;
        while wickets <= WICKETS {
            table[balls][wickets] = 1.0
                + (1.0 - WICKETS_PER_BALL) * table[balls - 1][wickets]
                + WICKETS_PER_BALL * table[balls - 1][wickets - 1];
            wickets += 1;
        }
        balls += 1;
    }
    table
}

/// Everything a field is priced against for one decision.
struct Plan<'a> {
    prices: &'a Prices,
    /// The bowler's cards' zone bitmasks; the bowler is assumed to mix them evenly.
    deck: &'a [u8],
    weights: [f64; ZONES],
    wicket: f64,
}

impl Plan<'_> {
    /// A ball's worth to the batter, in runs, when it plays `zone` with `mask` fielded there
    /// and `slips` slips, averaged over the bowler's cards.
    fn zone_worth(&self, zone: usize, mask: usize, slips: usize) -> f64 {
        let cards = self.deck.len().max(1) as f64;
        // Either attitude, equally likely: the field is set before the batter declares one.
        self.deck
            .iter()
            .flat_map(|card_zones| {
                let advantage = resolve::advantage(ASSUMED_CONFIDENCE, zone as u8 + 1, *card_zones, false);
                (0..ATTITUDES.len()).map(move |attitude| {
                    self.prices
                        .worth(attitude, advantage, zone, mask, slips)
                        .in_runs(self.wicket)
                })
            })
            .sum::<f64>()
            / cards
            / ATTITUDES.len() as f64
    }

    /// The legal field with the least blended worth to the batter: [`HABIT_WEIGHT`] of the
    /// habit-weighted zones' worth plus the rest of the best zone's worth.
    fn best_field(&self, rules: &FieldRules) -> Option<Field> {
        let masks = 1usize << rules.format.areas();
        let max_slips = if rules.slips_allowed {
            MAX_SLIPS as usize
        } else {
            0
        };
        let mut best: Option<(f64, Field)> = None;
        for slips in 0..=max_slips {
            let mut worth = [[f64::INFINITY; MASKS]; ZONES];
            for (zone, row) in worth.iter_mut().enumerate() {
                for (mask, entry) in row.iter_mut().enumerate().take(masks) {
                    *entry = self.zone_worth(zone, mask, slips);
                }
            }
            let ring = FIELDERS as usize - slips;
            let weighted = |zone: usize, mask: usize| self.weights[zone] * worth[zone][mask];
            // With no cap, the habit term's least sum bounds what any cap can reach.
            let Some((floor, _)) = cheapest(rules, ring, &weighted, |_, _| true) else {
                continue;
            };
            let mut caps: Vec<f64> = worth
                .iter()
                .flat_map(|row| row[..masks].iter().copied())
                .collect();
            caps.sort_by(f64::total_cmp);
            caps.dedup();
            for cap in caps {
                let bound = HABIT_WEIGHT * floor + (1.0 - HABIT_WEIGHT) * cap;
                if best.is_some_and(|(kept, _)| bound >= kept) {
                    break;
                }
                let Some((sum, chosen)) =
                    cheapest(rules, ring, &weighted, |zone, mask| worth[zone][mask] <= cap)
                else {
                    continue;
                };
                let cost = HABIT_WEIGHT * sum + (1.0 - HABIT_WEIGHT) * cap;
                if best.is_none_or(|(kept, _)| cost < kept) {
                    best = Some((cost, field_of(slips, &chosen)));
                }
            }
        }
        best.map(|(_, field)| field)
            .filter(|field| rules.check(*field).is_ok())
    }
}

/// The legal placement of `ring` fielders in zones 1-5 (slips aside) with the least sum of
/// `cost(zone, mask)`, using only masks `allowed`: exact, by a dynamic programme over the
/// zones on (fielders placed, outfielders placed, whether a zone holds three).
fn cheapest(
    rules: &FieldRules,
    ring: usize,
    cost: &impl Fn(usize, usize) -> f64,
    allowed: impl Fn(usize, usize) -> bool,
) -> Option<(f64, [u8; ZONES])> {
    type Cell = Option<(f64, [u8; ZONES])>;
    let masks = 1usize << rules.format.areas();
    let limit = usize::from(rules.outfield_limit);
    let three_allowed = rules.format.one_zone_of_three();
    let index = |count: usize, out: usize, three: usize| (count * (limit + 1) + out) * 2 + three;
    let mut table: Vec<Cell> = vec![None; (ring + 1) * (limit + 1) * 2];
    table[index(0, 0, 0)] = Some((0.0, [0; ZONES]));
    for zone in 0..ZONES {
        let mut next: Vec<Cell> = vec![None; table.len()];
        for count in 0..=ring {
            for out in 0..=limit {
                for three in 0..2 {
                    let Some((sum, chosen)) = table[index(count, out, three)] else {
                        continue;
                    };
                    for mask in (0..masks).filter(|mask| allowed(zone, *mask)) {
                        let here = mask.count_ones() as usize;
                        let fits = here <= 2 || (here == 3 && three_allowed && three == 0);
                        let (count, out) = (count + here, out + (mask >> 2).count_ones() as usize);
                        if !fits || count > ring || out > limit {
                            continue;
                        }
                        let sum = sum + cost(zone, mask);
                        let cell = &mut next[index(count, out, three + usize::from(here == 3))];
                        if cell.is_none_or(|(kept, _)| sum < kept) {
                            let mut chosen = chosen;
                            chosen[zone] = mask as u8;
                            *cell = Some((sum, chosen));
                        }
                    }
                }
            }
        }
        table = next;
    }
    (0..=limit)
        .flat_map(|out| (0..2).map(move |three| (out, three)))
        .filter_map(|(out, three)| table[index(ring, out, three)])
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

fn field_of(slips: usize, masks: &[u8; ZONES]) -> Field {
    let mut field = Field::EMPTY;
    for area in 1..=slips as u8 {
        field = field.with(0, area);
    }
    for (zone, mask) in masks.iter().enumerate() {
        for area in 1..=4u8 {
            if mask & (1 << (area - 1)) != 0 {
                field = field.with(zone as u8 + 1, area);
            }
        }
    }
    field
}

/// The prices for a format and bowler kind, computed once per process: they depend on the
/// built-in ruleset only.
fn prices(ruleset: &Ruleset, format: Format, pace: bool) -> &'static Prices {
    static CACHE: OnceLock<[Prices; 4]> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        [
            compute_prices(ruleset, Format::T10, false),
            compute_prices(ruleset, Format::T10, true),
            compute_prices(ruleset, Format::T20, false),
            compute_prices(ruleset, Format::T20, true),
        ]
    });
    &all[usize::from(format == Format::T20) * 2 + usize::from(pace)]
}

fn compute_prices(ruleset: &Ruleset, format: Format, pace: bool) -> Prices {
    let mut ball = [[[[Worth::default(); MASKS]; ZONES]; ADVANTAGES]; 2];
    let mut edge = [0.0; ADVANTAGES];
    let areas = 1usize << format.areas();
    for (attitude, by_advantage) in ATTITUDES.iter().zip(ball.iter_mut()) {
        for (a, by_zone) in by_advantage.iter_mut().enumerate() {
            let advantage = ADVANTAGE_MIN + a as i8;
            for bowl in 1..=6u8 {
                for bat in 1..=6u8 {
                    let p = 1.0 / 36.0;
                    let contact = resolve::contact(bowl, 6, bat, advantage);
                    for (zone, by_mask) in by_zone.iter_mut().enumerate() {
                        for (mask, worth) in by_mask.iter_mut().enumerate().take(areas) {
                            let (runs, wickets) = match contact {
                                Contact::CleanBowled => (0.0, 1.0),
                                Contact::NaturalSix => (6.0, 0.0),
                                Contact::NaturalFour => (4.0, 0.0),
                                Contact::Block | Contact::Miss(_) => (0.0, 0.0),
                                Contact::Strike(margin) => {
                                    let strike = strike_outcome(
                                        ruleset,
                                        format,
                                        pace,
                                        zone as u8 + 1,
                                        mask as u8,
                                        margin >= 3,
                                        &[*attitude],
                                    );
                                    (strike.runs, strike.wickets)
                                }
                            };
                            worth.runs += p * runs;
                            worth.wickets += p * wickets;
                        }
                    }
                }
            }
        }
    }
    for bowl in 1..=6u8 {
        for bat in 1..=6u8 {
            for (a, chance) in edge.iter_mut().enumerate() {
                let contact = resolve::contact(bowl, 6, bat, ADVANTAGE_MIN + a as i8);
                if matches!(contact, Contact::Miss(margin) if margin >= ASSUMED_BOWLED_MARGIN) {
                    *chance += 1.0 / 36.0;
                }
            }
        }
    }
    let slip_catch = f64::from(7u8.saturating_sub(ruleset.slip_catch_min)) / 6.0;
    let mut after_edge = [[0.0; MAX_SLIPS as usize + 1]; 2];
    for (attitude, by_slips) in ATTITUDES.iter().zip(after_edge.iter_mut()) {
        let chance = ruleset.bowled_chance(BowledChanceReading::default(), *attitude);
        let bowled = f64::from((chance.sides + 1).saturating_sub(chance.min)) / f64::from(chance.sides);
        for (slips, wicket) in by_slips.iter_mut().enumerate() {
            let caught = if pace {
                1.0 - (1.0 - slip_catch).powi(slips as i32)
            } else {
                0.0
            };
            *wicket = bowled.max(caught);
        }
    }
    Prices {
        ball,
        edge,
        after_edge,
    }
}

/// The expected runs and catch chance of a strike into `zone` with `mask`'s areas fielded
/// (bit `area - 1`), over the distance die, the bounce die of `attitudes` (each equally
/// likely) and, against Pace, the add-one that a strike by 3 or more (`long`) may take, as
/// the heuristic batter takes it.
pub fn strike_outcome(
    ruleset: &Ruleset,
    format: Format,
    pace: bool,
    zone: u8,
    mask: u8,
    long: bool,
    attitudes: &[Attitude],
) -> Worth {
    let fielded = |area: u8| area >= 1 && mask & (1 << (area - 1)) != 0;
    let sides = format.distance_sides();
    let cap = resolve::PACE_ADD_ONE_MAX_DISTANCE.min(sides);
    let mut total = Worth::default();
    for roll in 1..=sides {
        let mut distance = roll;
        if pace && long && distance < cap && (distance + 1 == cap || !fielded(resolve::area_of(distance + 1)))
        {
            distance += 1;
        }
        for attitude in attitudes {
            for face in 1..=6u8 {
                let p = 1.0 / f64::from(sides) / attitudes.len() as f64 / 6.0;
                let bounce = ruleset.bounce_face(*attitude, face);
                let landing = resolve::area_of(distance);
                let (caught, dropped_in) = if fielded(landing) && bounce.red {
                    let target = resolve::catch_target(
                        ruleset.catch_values[usize::from(landing - 1)],
                        ruleset.red_outlines.has(zone, landing),
                    );
                    (f64::from(7u8.saturating_sub(target)) / 6.0, landing)
                } else {
                    (0.0, 0)
                };
                let runs = match resolve::travel(format, distance, bounce) {
                    Travel::Six => 6,
                    Travel::Four => 4,
                    Travel::Stops(area) => {
                        let stopped = fielded(area) && area != dropped_in;
                        resolve::run_choice(area, stopped, bounce.red, false).safe
                    }
                };
                total.wickets += p * caught;
                total.runs += p * (1.0 - caught) * f64::from(runs);
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ruleset() -> &'static Ruleset {
        data::ruleset().expect("the built-in ruleset")
    }

    fn medium_deck() -> Vec<u8> {
        ruleset().bowl_cards[BowlType::Medium.index()]
            .iter()
            .map(|card| card.zones)
            .collect()
    }

    fn plan<'a>(deck: &'a [u8], situation: &Situation) -> Plan<'a> {
        Plan {
            prices: prices(ruleset(), Format::T20, false),
            deck,
            weights: zone_weights(&situation.zone_counts),
            wicket: wicket_value(situation),
        }
    }

    fn at_over_start(format: Format, zone_counts: [u16; ZONES], wickets: u8, balls_left: u16) -> Situation {
        Situation {
            format,
            zone_counts,
            wickets,
            balls_left,
            ..Situation::default()
        }
    }

    #[test]
    fn every_field_it_sets_is_legal() {
        let habits = [
            [0, 0, 0, 0, 0],
            [0, 0, 60, 0, 0],
            [40, 0, 0, 0, 40],
            [3, 9, 1, 7, 2],
            [200, 0, 0, 0, 0],
        ];
        for format in [Format::T10, Format::T20] {
            for limit in [2, 5] {
                for (slips, bowl_type) in [
                    (false, BowlType::Spin),
                    (false, BowlType::Medium),
                    (true, BowlType::Pace),
                ] {
                    for zone_counts in habits {
                        for (wickets, balls_left) in [(0, 120), (9, 60), (3, 6)] {
                            let r = FieldRules::new(format, limit, slips);
                            let situation = at_over_start(format, zone_counts, wickets, balls_left);
                            let field = choose(&r, Field::EMPTY, bowl_type, &situation);
                            assert_eq!(r.check(field), Ok(()), "{r:?} {zone_counts:?} {field:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_field_stays_for_the_over() {
        let r = FieldRules::new(Format::T20, 5, true);
        let situation = at_over_start(Format::T20, [0, 0, 60, 0, 0], 2, 90);
        let set = choose(&r, Field::EMPTY, BowlType::Pace, &situation);
        let other = FieldRules::new(Format::T20, 5, false).repair(Field::EMPTY);
        assert_eq!(r.check(other), Ok(()));
        let mid_over = Situation {
            balls_left: 87,
            ..situation
        };
        assert_eq!(
            choose(&r, other, BowlType::Pace, &mid_over),
            other,
            "kept mid-over"
        );
        assert_eq!(
            choose(&r, other, BowlType::Pace, &situation),
            set,
            "priced at the over's start"
        );
        // A field that no longer fits (slips against Spin) is replaced at once.
        let spin = FieldRules::new(Format::T20, 5, false);
        let replaced = choose(&spin, set, BowlType::Spin, &mid_over);
        assert_eq!(spin.check(replaced), Ok(()));
    }

    /// Seed: 001_10260e69616bd853.txt "Catch" and 000_c44664d019aef0c0.txt "EXTRA RUNS": an
    /// empty zone catches nothing, and every stopped ball gives its safe runs. In T10 (D6
    /// distance, no add-one against a non-Pace bowler) each distance is equally likely.
    #[test]
    fn an_empty_zone_is_priced_from_the_travel_rules() {
        let ruleset = ruleset();
        let outcome = strike_outcome(ruleset, Format::T10, false, 3, 0, true, &ATTITUDES);
        assert_eq!(outcome.wickets, 0.0);
        let mut runs = 0.0;
        for distance in 1..=6u8 {
            for attitude in [Attitude::Aggressive, Attitude::Defensive] {
                for face in 1..=6u8 {
                    let bounce = ruleset.bounce_face(attitude, face);
                    runs += f64::from(match resolve::travel(Format::T10, distance, bounce) {
                        Travel::Six => 6,
                        Travel::Four => 4,
                        Travel::Stops(area) => resolve::run_choice(area, false, bounce.red, false).safe,
                    });
                }
            }
        }
        assert!(
            (outcome.runs - runs / 72.0).abs() < 1e-9,
            "{} vs {}",
            outcome.runs,
            runs / 72.0
        );
    }

    /// One more fielder never lowers the catch chance; against a non-Pace bowler (no add-one
    /// for the batter to change) it never adds runs either.
    #[test]
    fn a_fielder_never_helps_the_batter() {
        let ruleset = ruleset();
        for format in [Format::T10, Format::T20] {
            for (pace, long) in [(false, false), (false, true), (true, false), (true, true)] {
                for zone in 1..=5u8 {
                    for mask in 0..(1u8 << format.areas()) {
                        let base = strike_outcome(ruleset, format, pace, zone, mask, long, &ATTITUDES);
                        for area in 0..format.areas() {
                            let more = strike_outcome(
                                ruleset,
                                format,
                                pace,
                                zone,
                                mask | (1 << area),
                                long,
                                &ATTITUDES,
                            );
                            let case = format!(
                                "{format:?} pace {pace} zone {zone} {mask:04b} + area {}",
                                area + 1
                            );
                            assert!(more.wickets >= base.wickets - 1e-12, "{case}");
                            if !pace {
                                assert!(more.runs <= base.runs + 1e-12, "{case}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// Seed: 000_c44664d019aef0c0.txt Pace card "Up to 2 slips" with the spec's slip catch
    /// (ruleset `slip_catch_min`): one slip catches no more often than the bowled chance, so
    /// it adds nothing; two may.
    #[test]
    fn one_slip_is_worth_nothing_over_the_bowled_chance() {
        let prices = prices(ruleset(), Format::T20, true);
        for attitude in 0..ATTITUDES.len() {
            let after_edge = prices.after_edge[attitude];
            assert!((after_edge[1] - after_edge[0]).abs() < 1e-12);
            assert!(after_edge[2] > after_edge[0]);
            let spin = super::prices(ruleset(), Format::T20, false).after_edge[attitude];
            assert_eq!(spin[2], spin[0]);
        }
    }

    /// A batting side that plays one zone gets more of the field there than one with no
    /// habits, and the field that answers it is worth less to it than the neutral field.
    #[test]
    fn the_field_follows_the_batters_zone() {
        let r = FieldRules::new(Format::T20, 5, false);
        let spread = at_over_start(Format::T20, [0; ZONES], 2, 90);
        let straight = at_over_start(Format::T20, [0, 0, 60, 0, 0], 2, 90);
        let neutral = choose(&r, Field::EMPTY, BowlType::Medium, &spread);
        let answer = choose(&r, Field::EMPTY, BowlType::Medium, &straight);
        assert!(
            answer.in_zone(3) > neutral.in_zone(3),
            "{neutral:?} -> {answer:?}"
        );
        let deck = medium_deck();
        let plan = plan(&deck, &straight);
        let habit_worth = |field: Field| {
            (0..ZONES)
                .map(|zone| plan.weights[zone] * plan.zone_worth(zone, mask_in(field, zone), 0))
                .sum::<f64>()
        };
        assert!(
            habit_worth(answer) < habit_worth(neutral),
            "{} vs {}",
            habit_worth(answer),
            habit_worth(neutral)
        );
    }

    /// The field never leaves a zone so open that a batter who reads it gains more there than
    /// the neutral field would give it anywhere by much: the reading batter's half of the plan.
    #[test]
    fn answering_a_habit_keeps_the_other_zones_covered() {
        let r = FieldRules::new(Format::T20, 5, false);
        let straight = at_over_start(Format::T20, [0, 0, 60, 0, 0], 2, 90);
        let answer = choose(&r, Field::EMPTY, BowlType::Medium, &straight);
        let deck = medium_deck();
        let plan = plan(&deck, &straight);
        let best_zone = |field: Field| {
            (0..ZONES)
                .map(|zone| plan.zone_worth(zone, mask_in(field, zone), 0))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        // Everything in zone 3 (a habit-only answer) leaves far more open than the blend.
        let piled = [
            (3, 1),
            (3, 2),
            (3, 4),
            (1, 1),
            (1, 2),
            (2, 1),
            (4, 1),
            (5, 1),
            (5, 2),
        ]
        .into_iter()
        .fold(Field::EMPTY, |field, (zone, area)| field.with(zone, area));
        assert_eq!(r.check(piled), Ok(()));
        assert!(
            best_zone(answer) <= best_zone(piled) + 1e-9,
            "{} vs {}",
            best_zone(answer),
            best_zone(piled)
        );
    }

    #[test]
    fn a_wicket_costs_the_balls_it_takes_away() {
        let value =
            |wickets: u8, balls: u16| wicket_value(&at_over_start(Format::T20, [0; ZONES], wickets, balls));
        // Early, with every wicket in hand, a wicket costs a few runs; the old even share
        // priced it at 17.4.
        assert!((1.0..8.0).contains(&value(0, 120)), "{}", value(0, 120));
        // Dearer with each wicket down and cheaper as the balls run out.
        for balls in [120, 60, 12] {
            for wickets in 0..9 {
                assert!(
                    value(wickets + 1, balls) > value(wickets, balls),
                    "{wickets} down, {balls} left"
                );
            }
        }
        for wickets in 0..10 {
            assert!(value(wickets, 120) >= value(wickets, 60) && value(wickets, 60) >= value(wickets, 12));
        }
        // The last wicket costs the runs the last pair would have made: no more than a pair
        // lasts on average (the old price: all 60 balls left, 87 runs).
        let last = value(9, 60);
        assert!(last <= RUNS_PER_BALL / WICKETS_PER_BALL + 1e-9, "{last}");
        assert!(last > RUNS_PER_BALL * 10.0, "{last}");
        // With a few balls left and wickets in hand, a wicket costs almost nothing.
        assert!(value(2, 6) < 0.01, "{}", value(2, 6));
    }
}
