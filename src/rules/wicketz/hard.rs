//! The `hard` Wicketz bot: every stroke and every field priced from the outcome table
//! ([`super::outcomes`], solved offline from the cards), runs weighed against wickets by what
//! a wicket is worth at this point of the innings.
//!
//! Wicketz has no sealed simultaneous choice: the field is on the table before each stroke
//! and the batter sees the delivery. So the game between the sides is sequential, and its
//! equilibrium is a minimax: the batter plays the stroke worth most against the field it
//! sees (ties broken at random), and the bowler sets the field whose best stroke is worth
//! least. That is what no fixed bowling or field policy can farm as batter. A batter that
//! does not answer the field (a fixed stroke, always defending) is answered in turn: the
//! batter's public stroke counts ([`super::state::Habits`]) model it, the minimax reply is
//! its prior worth [`PRIOR_BALLS`] balls, and the field moves to where its strokes score.
//!
//! A wicket's price is the runs it costs the rest of the innings: the value of an innings
//! of `b` balls and `w` wickets in hand is solved once by dynamic programming over the
//! table against the ruleset's default field (best strokes, the indicator's delivery
//! weights), and a wicket costs `V(b-1, w) - V(b-1, w-1)`. A chase scales it by how far
//! the side's expected runs are from what it needs.

use super::cards::Card;
use super::commands::Command;
use super::data::{Ruleset, ruleset};
use super::field::{Field, LETTERS, Position, RINGS, bowler_positions, keeper_positions};
use super::indicator::{Delivery, Style};
use super::outcomes::{Outcomes, Price, outcomes, played_deliveries};
use super::reading::{Reading, read_card};
use super::state::{ALL_OUT, BALLS_PER_OVER, Habits, Innings};
use super::strokes::{Line, Stroke, legal_strokes};
use super::view::{Ask, View};
use crate::rules::Dice;
use std::borrow::Cow;
use std::sync::LazyLock;

/// How many balls of evidence the minimax reply counts for in the model of a batter's
/// habits: after a couple of overs of the same stroke its counts outweigh it.
const PRIOR_BALLS: f64 = 12.0;

/// Smoothing of the batter's best stroke while the bowler places fielders, in runs: a soft
/// maximum lets one fielder count for every stroke it stops, not only the best one.
const SOFTNESS: f64 = 0.05;

/// The least gain in runs for which the batter spends its wild card before the over's last
/// ball (on the last ball any gain spends it, since it is lost after the over).
const WILD_CARD_MARGIN: f64 = 1.0;

/// A chase scales a wicket's price by the side's expected runs over the runs it needs,
/// within these bounds.
const CHASE_SCALE: (f64, f64) = (0.35, 2.5);

/// The most balls an innings can have (the options' 100 overs).
const MAX_BALLS: usize = 600;

/// What a player reads besides the cards' table: the cards still to come in the dispenser,
/// and how far its field may lean toward the batting side's stroke habits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reads {
    /// Prices every stroke over the cards the next deal comes from (the view's
    /// `cards_to_come`), not over the whole deck: late in a cycle they differ a lot, and a
    /// player who counts the dealt cards knows them.
    pub dispenser: bool,
    /// How much a field set against the batter's habits may give a batter who plays the best
    /// reply to it, in runs less priced wickets a ball, over the minimax field (the one set
    /// against the best reply alone). 0 never leans; infinity always fields against the
    /// habits model. The bound is what keeps a field that follows habits from being lured:
    /// a batter who reads the code gains at most this much a ball from the lean.
    pub lean: f64,
}

/// What `hard` reads: it counts the cards, and leans toward habits within [`EXPLOIT_BOUND`].
pub const HARD: Reads = Reads {
    dispenser: true,
    lean: EXPLOIT_BOUND,
};

/// `hard`'s bound on the lean toward habits, in runs a ball (see [`Reads::lean`]): measured
/// in docs/performance.md against the arena's white-box responder.
pub const EXPLOIT_BOUND: f64 = 0.02;

/// Chooses a command for the seat's ask, from its view alone.
pub fn choose(view: &View, rng: &mut Dice) -> Option<Command> {
    choose_reading(view, HARD, rng)
}

/// The table to price with: counted over the cards to come for `deliveries` when `reads`
/// says so, the whole deck's otherwise.
fn priced_table(
    view: &View,
    reads: Reads,
    deliveries: &[Delivery],
    rules: &Ruleset,
) -> Cow<'static, Outcomes> {
    if reads.dispenser {
        Cow::Owned(outcomes().counted(view.cards_to_come.ids(), deliveries, rules))
    } else {
        Cow::Borrowed(outcomes())
    }
}

/// [`choose`], reading what `reads` says.
pub fn choose_reading(view: &View, reads: Reads, rng: &mut Dice) -> Option<Command> {
    let ask = view.ask.as_ref()?;
    let rules = ruleset();
    Some(match ask {
        Ask::ChooseInnings => Command::ChooseInnings { bat: true },
        Ask::SetOver {
            styles,
            lines,
            max_outside_inner,
            ..
        } => {
            let deliveries: Vec<Delivery> = played_deliveries().collect();
            let table = priced_table(view, reads, &deliveries, rules);
            let (plan, _) = plan_over(view, reads, styles, lines, *max_outside_inner, &table, rules);
            Command::SetOver {
                style: plan.style,
                field: Some(plan.field),
                line: (plan.line != Line::Wicket).then_some(plan.line),
            }
        }
        Ask::Play {
            delivery,
            legal_strokes,
            wild_card,
            batter_number,
        } => {
            let wicket = wicket_price(view, 0);
            let caught = caught_chance(rules, *batter_number, *delivery);
            let table = priced_table(view, reads, &[*delivery], rules);
            let value = |stroke: Stroke| {
                let price = table.price(stroke, *delivery, &view.field, caught);
                price.runs - wicket * price.wicket
            };
            let (stroke, best) = best_of(legal_strokes, value, rng);
            if let Some(card) = wild_card {
                let wild_value = |stroke: Stroke| {
                    let price = wild_price(card, stroke, *delivery, &view.field, caught, rules);
                    price.runs - wicket * price.wicket
                };
                let (wild_stroke, wild_best) = best_of(legal_strokes, wild_value, rng);
                let last_ball = view
                    .over
                    .as_ref()
                    .is_some_and(|o| o.legal_balls + 1 >= BALLS_PER_OVER);
                let margin = if last_ball { 1e-9 } else { WILD_CARD_MARGIN };
                if wild_best - best >= margin && *delivery != Delivery::Wide {
                    return Some(Command::Play {
                        stroke: wild_stroke,
                        wild_card: true,
                    });
                }
            }
            Command::Play {
                stroke,
                wild_card: false,
            }
        }
    })
}

/// What playing `stroke` (with the face-up wild card when `wild_card`) is worth to the
/// batter now, in runs less priced wickets, over the table `reads` prices with; `None`
/// when no stroke is asked (or no wild card is there to use).
pub fn stroke_value(view: &View, reads: Reads, stroke: Stroke, wild_card: bool) -> Option<f64> {
    let Some(Ask::Play {
        delivery,
        wild_card: card,
        batter_number,
        ..
    }) = &view.ask
    else {
        return None;
    };
    let rules = ruleset();
    let caught = caught_chance(rules, *batter_number, *delivery);
    let price = if wild_card {
        wild_price(card.as_ref()?, stroke, *delivery, &view.field, caught, rules)
    } else {
        priced_table(view, reads, &[*delivery], rules).price(stroke, *delivery, &view.field, caught)
    };
    Some(price.runs - wicket_price(view, 0) * price.wicket)
}

/// The stroke of highest value, a random one among equals, with its value.
fn best_of(strokes: &[Stroke], value: impl Fn(Stroke) -> f64, rng: &mut Dice) -> (Stroke, f64) {
    let values: Vec<(Stroke, f64)> = strokes.iter().map(|s| (*s, value(*s))).collect();
    let best = values.iter().map(|(_, v)| *v).fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<Stroke> = values
        .iter()
        .filter(|(_, v)| *v >= best - 1e-9)
        .map(|(s, _)| *s)
        .collect();
    let stroke = ties
        .get(rng.below(ties.len().max(1) as u32) as usize)
        .copied()
        .unwrap_or(Stroke::ForwardDefence);
    (stroke, best)
}

/// The chance a catch chance is taken: the catch rule over the striker's lives.
fn caught_chance(rules: &Ruleset, batter_number: u8, delivery: Delivery) -> f64 {
    let dropped = f64::from(rules.catch_not_out.numerator) / f64::from(rules.catch_not_out.denominator);
    (1.0 - dropped).powi(i32::from(rules.lives(batter_number, delivery)))
}

/// The face-up wild card read for `stroke`: its price is certain but for the catch spins.
fn wild_price(
    card: &Card,
    stroke: Stroke,
    delivery: Delivery,
    field: &Field,
    caught: f64,
    rules: &Ruleset,
) -> Price {
    let reading = read_card(card, stroke, delivery, field, rules);
    Price {
        runs: f64::from(reading.bat_runs() + reading.byes()),
        wicket: match reading {
            Reading::Bowled | Reading::Lbw | Reading::RunOut { .. } => 1.0,
            Reading::CatchChance { .. } => caught,
            _ => 0.0,
        },
    }
}

/// The innings being played, if any.
fn current_innings(view: &View) -> Option<&Innings> {
    view.innings.last().filter(|i| !i.closed)
}

/// What a wicket costs the batting side now, in runs, `balls_ahead` legal balls from now.
fn wicket_price(view: &View, balls_ahead: u32) -> f64 {
    let Some(innings) = current_innings(view) else {
        return 0.0;
    };
    let total = u32::from(view.options.overs) * u32::from(BALLS_PER_OVER);
    let left = total.saturating_sub(innings.legal_balls + balls_ahead) as usize;
    let in_hand = usize::from(ALL_OUT.saturating_sub(innings.wickets));
    let values = innings_values();
    let price = marginal_wicket(values, left, in_hand);
    match view.target {
        Some(target) => {
            let needed = f64::from(target.saturating_sub(innings.runs)).max(1.0);
            let expected = values.value(left, in_hand);
            price * (expected / needed).clamp(CHASE_SCALE.0, CHASE_SCALE.1)
        }
        None => price,
    }
}

/// `V(b-1, w) - V(b-1, w-1)`: the runs lost by losing a wicket on this ball.
fn marginal_wicket(values: &InningsValues, balls_left: usize, in_hand: usize) -> f64 {
    if balls_left == 0 || in_hand == 0 {
        return 0.0;
    }
    values.value(balls_left - 1, in_hand) - values.value(balls_left - 1, in_hand - 1)
}

/// Expected runs of the rest of an innings, by legal balls left and wickets in hand.
pub struct InningsValues {
    values: Vec<[f64; ALL_OUT as usize + 1]>,
}

impl InningsValues {
    pub fn value(&self, balls_left: usize, in_hand: usize) -> f64 {
        self.values[balls_left.min(MAX_BALLS)][in_hand.min(usize::from(ALL_OUT))]
    }

    /// Solves the innings against `field` with the batter's best strokes, by delivery weight.
    pub fn solve(table: &Outcomes, field: &Field, rules: &Ruleset) -> InningsValues {
        let weights = rules.segment_weights();
        let total: f64 = weights.iter().map(|w| f64::from(*w)).sum();
        let deliveries: Vec<(Delivery, f64)> = rules
            .segments()
            .into_iter()
            .zip(&weights)
            .map(|(segment, weight)| (segment.delivery(Style::Pace), f64::from(*weight) / total))
            .collect();
        // Per delivery, every legal stroke's price with a middle-order batter's lives.
        let prices: Vec<(Delivery, f64, Vec<Price>)> = deliveries
            .iter()
            .filter(|(d, _)| *d != Delivery::Wide)
            .map(|(d, p)| {
                let caught = caught_chance(rules, 5, *d);
                let strokes = legal_strokes(*d, None);
                (
                    *d,
                    *p,
                    strokes
                        .iter()
                        .map(|s| table.price(*s, *d, field, caught))
                        .collect(),
                )
            })
            .collect();
        let wide = deliveries
            .iter()
            .filter(|(d, _)| *d == Delivery::Wide)
            .map(|(_, p)| p)
            .sum::<f64>();
        let wide_runs = f64::from(rules.wide_extra);
        let mut values = vec![[0.0; ALL_OUT as usize + 1]; MAX_BALLS + 1];
        for balls in 1..=MAX_BALLS {
            for in_hand in 1..=usize::from(ALL_OUT) {
                let after = (values[balls - 1][in_hand], values[balls - 1][in_hand - 1]);
                // A no-ball or a wide is bowled again: the value refers to itself, so it is
                // iterated to its fixed point from the value of one ball fewer.
                let mut value = after.0;
                for _ in 0..6 {
                    let again = (value, values[balls][in_hand - 1]);
                    let mut next = wide * (wide_runs + value);
                    for (delivery, p, strokes) in &prices {
                        let (stay, out) = if *delivery == Delivery::NoBall {
                            again
                        } else {
                            after
                        };
                        let best = strokes
                            .iter()
                            .map(|price| price.runs + price.wicket * out + (1.0 - price.wicket) * stay)
                            .fold(f64::NEG_INFINITY, f64::max);
                        next += p * best;
                    }
                    value = next;
                }
                values[balls][in_hand] = value;
            }
        }
        InningsValues { values }
    }
}

static INNINGS_VALUES: LazyLock<InningsValues> =
    LazyLock::new(|| InningsValues::solve(outcomes(), &ruleset().default_field(Style::Pace), ruleset()));

pub fn innings_values() -> &'static InningsValues {
    &INNINGS_VALUES
}

/// The bowling side's over: style, line and field.
struct OverPlan {
    style: Style,
    line: Line,
    field: Field,
}

/// One delivery the bowler plans for: its chance, the strokes the batter may play to it
/// (on a good restricted line and off it), and the batter's habit for deliveries like it.
struct Planned {
    delivery: Delivery,
    chance: f64,
    strokes: Vec<Stroke>,
    caught: f64,
    /// How much the minimax reply counts in the batter model (the rest is its habits).
    prior: f64,
    /// The batter's habit over `strokes`, as probabilities (empty when it has none).
    habit: Vec<f64>,
}

fn planned_deliveries(
    view: &View,
    habits: bool,
    style: Style,
    restricted: Option<Line>,
    rules: &Ruleset,
) -> Vec<Planned> {
    let weights = rules.segment_weights();
    let total: f64 = weights.iter().map(|w| f64::from(*w)).sum();
    let striker = current_innings(view).map_or(1, |i| i.striker + 1);
    rules
        .segments()
        .into_iter()
        .zip(&weights)
        .map(|(segment, weight)| (segment.delivery(style), f64::from(*weight) / total))
        .filter(|(d, _)| *d != Delivery::Wide)
        .map(|(delivery, chance)| {
            let strokes = legal_strokes(delivery, restricted);
            let (prior, habit) = if habits {
                habit_model(&view.habits, delivery, &strokes)
            } else {
                (1.0, Vec::new())
            };
            Planned {
                delivery,
                chance,
                caught: caught_chance(rules, striker, delivery),
                strokes,
                prior,
                habit,
            }
        })
        .collect()
}

/// The batter's habits for deliveries like `delivery`, over the strokes it may play: the
/// weight left to the minimax reply, and each stroke's share of its counts.
fn habit_model(habits: &Habits, delivery: Delivery, strokes: &[Stroke]) -> (f64, Vec<f64>) {
    let counts = habits.for_delivery(delivery);
    let seen: Vec<f64> = strokes
        .iter()
        .map(|s| f64::from(counts.get(s).copied().unwrap_or(0)))
        .collect();
    let total: f64 = seen.iter().sum();
    if total == 0.0 {
        return (1.0, Vec::new());
    }
    (
        PRIOR_BALLS / (PRIOR_BALLS + total),
        seen.iter().map(|c| c / total).collect(),
    )
}

/// What the field gives the batter per ball, in runs less priced wickets, for the model of
/// the batter: `prices[d][s]` are the running prices of the field placed so far.
fn field_cost(planned: &[Planned], prices: &[Vec<Price>], wicket: f64, soft: bool) -> f64 {
    planned
        .iter()
        .zip(prices)
        .map(|(plan, prices)| {
            let values: Vec<f64> = prices.iter().map(|p| p.runs - wicket * p.wicket).collect();
            let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let reply = if soft {
                let sum: f64 = values.iter().map(|v| ((v - best) / SOFTNESS).exp()).sum();
                best + SOFTNESS * sum.ln()
            } else {
                best
            };
            let habit: f64 = plan.habit.iter().zip(&values).map(|(h, v)| h * v).sum();
            plan.chance * (plan.prior * reply + (1.0 - plan.prior) * habit)
        })
        .sum()
}

/// Each planned stroke's price with nobody on the field yet: the table's empty-field figures.
fn empty_prices(planned: &[Planned], table: &Outcomes) -> Vec<Vec<Price>> {
    planned
        .iter()
        .map(|plan| {
            plan.strokes
                .iter()
                .map(|s| table.empty_price(*s, plan.delivery))
                .collect()
        })
        .collect()
}

/// Adds one player at `zone` to the running prices; a deep player guards its letter's
/// boundary for those placed after it.
fn place(
    planned: &[Planned],
    prices: &mut [Vec<Price>],
    guarded: &mut [bool; LETTERS as usize],
    zone: Position,
    table: &Outcomes,
) {
    for (plan, row) in planned.iter().zip(prices.iter_mut()) {
        for (s, price) in plan.strokes.iter().zip(row.iter_mut()) {
            *price = add(*price, effect(table, *s, plan, zone, guarded));
        }
    }
    if zone.ring >= 2 {
        guarded[usize::from(zone.letter)] = true;
    }
}

/// Places keeper, bowler and nine fielders one at a time, each where it lowers the cost
/// most, within the fielding restriction. Returns the field and its exact cost.
fn place_field(planned: &[Planned], wicket: f64, max_outside: Option<u8>, table: &Outcomes) -> (Field, f64) {
    let mut prices = empty_prices(planned, table);
    let mut guarded = [false; LETTERS as usize];
    let mut placed: Vec<Position> = Vec::new();
    let all: Vec<Position> = (0..LETTERS)
        .flat_map(|letter| (0..RINGS).map(move |ring| Position { letter, ring }))
        .collect();
    let slots: [&[Position]; 3] = [&keeper_positions(), &bowler_positions(), &all];
    for slot in 0..11 {
        let candidates = slots[slot.min(2)];
        let outside = placed.iter().filter(|p| !p.is_inner()).count();
        let mut best: Option<(f64, Position)> = None;
        for zone in candidates {
            if placed.contains(zone)
                || (!zone.is_inner() && max_outside.is_some_and(|m| outside >= usize::from(m)))
            {
                continue;
            }
            let trial: Vec<Vec<Price>> = planned
                .iter()
                .zip(&prices)
                .map(|(plan, row)| {
                    plan.strokes
                        .iter()
                        .zip(row)
                        .map(|(s, price)| add(*price, effect(table, *s, plan, *zone, &guarded)))
                        .collect()
                })
                .collect();
            let cost = field_cost(planned, &trial, wicket, true);
            if best.is_none_or(|(c, _)| cost < c - 1e-12) {
                best = Some((cost, *zone));
            }
        }
        let Some((_, zone)) = best else { break };
        place(planned, &mut prices, &mut guarded, zone, table);
        placed.push(zone);
    }
    let field = Field {
        keeper: placed.first().copied().unwrap_or(keeper_positions()[0]),
        bowler: placed.get(1).copied().unwrap_or(bowler_positions()[0]),
        fielders: placed.iter().skip(2).copied().collect(),
    };
    (field, field_cost(planned, &prices, wicket, false))
}

fn effect(
    table: &Outcomes,
    stroke: Stroke,
    plan: &Planned,
    zone: Position,
    guarded: &[bool; LETTERS as usize],
) -> Price {
    table.zone_effect(stroke, plan.delivery, zone, guarded, plan.caught)
}

/// A price with one more player's effect: runs saved come off, wicket chances add.
fn add(price: Price, effect: Price) -> Price {
    Price {
        runs: price.runs - effect.runs,
        wicket: price.wicket + effect.wicket,
    }
}

/// The deliveries a style and line bring, in their proportions: a declared line restricts
/// the batter only when its pre-spin comes up good, so it plans for the restricted and the
/// free batter in those proportions.
fn planned_over(view: &View, habits: bool, style: Style, line: Line, rules: &Ruleset) -> Vec<Planned> {
    if line == Line::Wicket {
        return planned_deliveries(view, habits, style, None, rules);
    }
    let good =
        f64::from(rules.line_pre_spin_good.numerator) / f64::from(rules.line_pre_spin_good.denominator);
    let mut planned = planned_deliveries(view, habits, style, Some(line), rules);
    for plan in &mut planned {
        plan.chance *= good;
    }
    let free = planned_deliveries(view, habits, style, None, rules);
    planned.extend(free.into_iter().map(|mut plan| {
        plan.chance *= 1.0 - good;
        plan
    }));
    planned
}

/// What `field` gives a batter who plays the best reply to each delivery (no habits), a
/// ball: the measure of a field's exploitability.
fn reply_cost(planned: &[Planned], field: &Field, wicket: f64, table: &Outcomes) -> f64 {
    let mut prices = empty_prices(planned, table);
    let mut guarded = [false; LETTERS as usize];
    let placed = [field.keeper, field.bowler]
        .into_iter()
        .chain(field.fielders.iter().copied());
    for zone in placed {
        place(planned, &mut prices, &mut guarded, zone, table);
    }
    field_cost(planned, &prices, wicket, false)
}

/// The cheapest style, line and field the ask allows for the batter model (`habits` or the
/// best reply alone), with its cost in that model.
fn cheapest_over(
    view: &View,
    habits: bool,
    styles: &[Style],
    lines: &[Line],
    max_outside: Option<u8>,
    table: &Outcomes,
    rules: &Ruleset,
) -> Option<(f64, OverPlan)> {
    let wicket = wicket_price(view, 0);
    let mut best: Option<(f64, OverPlan)> = None;
    for style in styles.iter().copied() {
        for line in lines.iter().copied() {
            let planned = planned_over(view, habits, style, line, rules);
            let (field, cost) = place_field(&planned, wicket, max_outside, table);
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, OverPlan { style, line, field }));
            }
        }
    }
    best
}

/// The over `reads` plays: the minimax over (set against the best reply), or the over set
/// against the batter's habits when that gives a best-replying batter at most `reads.lean`
/// a ball more than the minimax over does; with that excess (0 for the minimax over).
fn plan_over(
    view: &View,
    reads: Reads,
    styles: &[Style],
    lines: &[Line],
    max_outside: Option<u8>,
    table: &Outcomes,
    rules: &Ruleset,
) -> (OverPlan, f64) {
    let fallback = || OverPlan {
        style: Style::Pace,
        line: Line::Wicket,
        field: view.field.clone(),
    };
    let has_habits = !view.habits.respect.is_empty() || !view.habits.loose.is_empty();
    let minimax = cheapest_over(view, false, styles, lines, max_outside, table, rules);
    if reads.lean <= 0.0 || !has_habits {
        return (minimax.map_or_else(fallback, |(_, plan)| plan), 0.0);
    }
    let Some((_, leaning)) = cheapest_over(view, true, styles, lines, max_outside, table, rules) else {
        return (fallback(), 0.0);
    };
    let Some((safe_cost, minimax)) = minimax else {
        return (leaning, 0.0);
    };
    let planned = planned_over(view, false, leaning.style, leaning.line, rules);
    let excess = reply_cost(&planned, &leaning.field, wicket_price(view, 0), table) - safe_cost;
    if excess <= reads.lean {
        (leaning, excess.max(0.0))
    } else {
        (minimax, 0.0)
    }
}

/// How much more the over `reads` plays for the view's `SetOver` ask gives a batter who
/// plays the best reply, a ball, than the minimax over does (0 when it plays the minimax
/// over; never more than `reads.lean`). `None` when no over is asked. The arena reports it
/// as what a white-box best responder gains against the bot's lean.
pub fn lean_excess(view: &View, reads: Reads) -> Option<f64> {
    let Some(Ask::SetOver {
        styles,
        lines,
        max_outside_inner,
        ..
    }) = &view.ask
    else {
        return None;
    };
    let rules = ruleset();
    let deliveries: Vec<Delivery> = played_deliveries().collect();
    let table = priced_table(view, reads, &deliveries, rules);
    Some(plan_over(view, reads, styles, lines, *max_outside_inner, &table, rules).1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::wicketz::{Options, Wicketz};
    use crate::rules::{Game, Seat, Seed, Viewer};

    /// A started match, played by the heuristic up to the bowling side's first over of the
    /// first innings: its view as the bowler sees it.
    fn bowler_view() -> View {
        let mut core =
            crate::rules::MatchCore::<Wicketz>::new(&Options::default(), &Seed::from_u64(1)).unwrap();
        core.start();
        while !matches!(core.state.phase, super::super::state::Phase::AwaitOverSetup) {
            let seat = Wicketz::pending(&core.state)[0];
            let command = Wicketz::default_command(&core.state, seat).unwrap();
            core.submit(seat, &command).unwrap();
        }
        let seat: Seat = Wicketz::pending(&core.state)[0];
        Wicketz::view(&core.state, Viewer::Seat(seat))
    }

    fn planned_field(view: &View, rng: &mut Dice) -> Field {
        field_reading(view, HARD, rng)
    }

    fn field_reading(view: &View, reads: Reads, rng: &mut Dice) -> Field {
        match choose_reading(view, reads, rng) {
            Some(Command::SetOver {
                field: Some(field), ..
            }) => field,
            other => panic!("expected an over with a field, got {other:?}"),
        }
    }

    /// Fielders per letter, any ring.
    fn on_letters(field: &Field, letters: &[u8]) -> usize {
        field
            .fielders
            .iter()
            .filter(|p| letters.contains(&p.letter))
            .count()
    }

    /// A bowler's view where the batter has driven straight (cue I, J) to everything for
    /// five overs.
    fn straight_driver_view() -> View {
        let mut view = bowler_view();
        view.habits.respect.insert(Stroke::StraightDrive, 15);
        view.habits.loose.insert(Stroke::StraightDrive, 15);
        view
    }

    const UNBOUNDED: Reads = Reads {
        dispenser: true,
        lean: f64::INFINITY,
    };

    #[test]
    fn a_field_free_to_lean_moves_to_where_a_batter_keeps_scoring() {
        let mut rng = Dice::new(&Seed::from_u64(2));
        let before = planned_field(&bowler_view(), &mut rng);
        let view = straight_driver_view();
        let after = field_reading(&view, UNBOUNDED, &mut rng);
        assert_eq!(after.validate(None), Ok(()));
        let straight = [7, 8, 9, 10];
        assert!(
            on_letters(&after, &straight) > on_letters(&before, &straight),
            "before {before:?}, after {after:?}"
        );
        // Every zone the straight drive reaches most often is covered.
        let table = crate::rules::wicketz::outcomes::solve_embedded();
        let entry = table
            .entries
            .iter()
            .find(|e| e.stroke == Stroke::StraightDrive && e.delivery == Delivery::HalfVolley)
            .unwrap();
        let most = entry.zones.iter().max_by_key(|z| z.2).unwrap();
        assert!(after.occupied(most.0), "{most:?} not covered by {after:?}");
    }

    /// The lean toward habits is taken only within its bound: a field that gives a
    /// best-replying batter more than `lean` a ball over the minimax field is not played.
    #[test]
    fn a_field_leans_toward_habits_only_within_its_bound() {
        let mut rng = Dice::new(&Seed::from_u64(5));
        let view = straight_driver_view();
        let excess = lean_excess(&view, UNBOUNDED).unwrap();
        assert!(excess > 0.01, "leaning all the way gives {excess} a ball");
        let minimax = field_reading(&view, Reads { lean: 0.0, ..HARD }, &mut rng);
        assert_eq!(minimax, field_reading(&bowler_view(), HARD, &mut rng));
        let leaning = field_reading(&view, UNBOUNDED, &mut rng);
        assert_ne!(leaning, minimax);
        let under = Reads {
            lean: excess * 0.99,
            ..HARD
        };
        assert_eq!(field_reading(&view, under, &mut rng), minimax);
        assert_eq!(lean_excess(&view, under), Some(0.0));
        let over = Reads {
            lean: excess * 1.01,
            ..HARD
        };
        assert_eq!(field_reading(&view, over, &mut rng), leaning);
        assert_eq!(lean_excess(&view, over), Some(excess));
    }

    /// Pricing a placed field afresh gives the cost its placement reported: the bound
    /// compares like with like.
    #[test]
    fn a_fields_reply_cost_is_what_placing_it_cost() {
        let view = bowler_view();
        let rules = ruleset();
        let wicket = wicket_price(&view, 0);
        for line in [Line::Wicket, Line::OffSide] {
            let planned = planned_over(&view, false, Style::Spin, line, rules);
            let (field, cost) = place_field(&planned, wicket, Some(2), outcomes());
            let again = reply_cost(&planned, &field, wicket, outcomes());
            assert!(
                (cost - again).abs() < 1e-9,
                "{line:?}: {cost} placed, {again} priced"
            );
        }
    }

    #[test]
    fn the_planned_field_is_legal_in_restricted_overs() {
        let mut rng = Dice::new(&Seed::from_u64(4));
        let view = bowler_view();
        let Some(Ask::SetOver {
            max_outside_inner, ..
        }) = view.ask
        else {
            panic!("no over to set");
        };
        assert!(
            max_outside_inner.is_some(),
            "the first over of a 20-over match is restricted"
        );
        assert_eq!(planned_field(&view, &mut rng).validate(max_outside_inner), Ok(()));
    }

    #[test]
    fn a_wicket_costs_more_with_more_balls_and_fewer_wickets_left() {
        let values = innings_values();
        assert!(values.value(120, 10) > values.value(60, 10));
        assert!(marginal_wicket(values, 120, 10) > marginal_wicket(values, 6, 10));
        assert!(marginal_wicket(values, 120, 2) > marginal_wicket(values, 120, 10));
        // A Wicketz innings of 20 overs is worth a plausible score against the default field.
        let twenty = values.value(120, 10);
        assert!((60.0..250.0).contains(&twenty), "{twenty}");
    }
}
