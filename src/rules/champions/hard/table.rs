//! The hard bot's offline table: what the bowler's best reply costs the batsman, and what
//! each Xp card adds to an over, solved from the ruleset by `crease solve champions` and
//! committed as `data/champions/hard_bot.json` (a test checks it equals a fresh solve).
//!
//! The batsman stops before the bowler rolls, so the value of stopping on some dice
//! depends on how well the bowler then plays against them. For a bowler with no cards and no
//! championship to chase, that reply depends only on the runs on show, the Defence, the
//! wickets the batsman has left and how many overs they still have to bat, so it is solved
//! once for each of those here. The table's uses are what must not depend on one match's
//! cards: what a lost wicket costs in later overs, each card's worth, and the prior of the
//! arena's adaptive responder. In a match `hard` prices the reply with the bowler's own
//! cards and the championships open, solved for the over ([`super::reply`]).
//!
//! Everything is in points, the unit of the score: a run, a wicket and a championship card's
//! points count as printed, an Xp as `1 / xp_per_point` (its worth at the end), losing
//! the last wicket as [`ELIMINATION_POINTS`], and a wicket also costs what having one
//! wicket fewer is worth in the batsman's later overs (solved from the last over back).

use super::super::data::{Hook, Ruleset, XpCardDef};
use super::super::faces::{Face, Role};
use super::super::resolve::{BattingSide, BowlingSide, OverResult, RoleMods, resolve_over};
use super::super::scoring::over_award;
use super::turn::{Plan, TurnSpace};
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

const TABLE_JSON: &str = include_str!("../../../../data/champions/hard_bot.json");

/// What losing one's last wicket is worth in points: an eliminated player places after
/// every active one, so the match is lost whatever the score. A modelling choice of the
/// bot, not a rule: about two overs' worth of points, so a batsman near elimination
/// gives up runs for Defence and a bowler goes for the last wickets instead of saves.
pub const ELIMINATION_POINTS: f64 = 20.0;

/// The Xp a player is assumed to hold when a card that spends Xp (Long Game) is valued.
const ASSUMED_XP: u32 = 4;

/// What the championship cards still open mean for one over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Open {
    /// Indexes into the ruleset's `championship_cards` of the cards nobody holds yet.
    pub cards: u64,
}

impl Open {
    pub fn none() -> Self {
        Open { cards: 0 }
    }

    pub fn all(rules: &Ruleset) -> Self {
        Open {
            cards: (1u64 << rules.championship_cards.len().min(63)) - 1,
        }
    }

    /// Championship points the over wins for `role`.
    pub fn points(self, rules: &Ruleset, role: Role, result: &OverResult, eliminated: bool) -> f64 {
        rules
            .championship_cards
            .iter()
            .enumerate()
            .filter(|(i, _)| self.cards & (1 << i) != 0)
            .filter(|(_, card)| over_award(&card.award, result, eliminated) == Some(role))
            .map(|(_, card)| f64::from(card.points))
            .sum()
    }
}

/// What is at stake in one over besides its runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stakes {
    /// Wickets the batsman can lose before elimination.
    pub wickets_left: u32,
    /// The batsman's overs after this one.
    pub overs_after: u32,
    pub open: Open,
}

/// One row of the response table: a batsman with `wickets_left` and `overs_after` overs
/// to come.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResponseRow {
    pub wickets_left: u32,
    pub overs_after: u32,
    /// What the wickets the batsman has left are worth in its later overs, against having
    /// all of them: `future_cost[w]` for `w` wickets left (index 0 unused: elimination).
    pub future_cost: Vec<f64>,
    /// `by_runs[r][d]`: the change the bowler's best reply makes to the batsman's points
    /// (always <= 0) when the batsman stops on `r` runs and `d` Defence (both capped at
    /// the number of dice, beyond which the bowler's reply cannot change).
    pub by_runs: Vec<Vec<f64>>,
}

/// What one Xp card adds, in points per over, to its owner's batting and bowling overs,
/// against the same over without it (optimal play both times).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardValue {
    pub id: String,
    pub batting: f64,
    pub bowling: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HardTable {
    /// How the file was made.
    pub rebuild: String,
    pub xp_points: f64,
    pub elimination_points: f64,
    pub responses: Vec<ResponseRow>,
    pub card_values: Vec<CardValue>,
}

/// Rounds to 1e-4 so the committed JSON and a fresh solve compare exactly.
fn rounded(value: f64) -> f64 {
    let r = (value * 1e4).round() / 1e4;
    if r == 0.0 { 0.0 } else { r }
}

/// The two dice of the ruleset, rolled `dice_per_roll` at a time.
pub struct Spaces {
    pub batting: TurnSpace,
    pub bowling: TurnSpace,
}

impl Spaces {
    pub fn new(rules: &Ruleset) -> Self {
        let dice = rules.dice_per_roll as usize;
        Spaces {
            batting: TurnSpace::new(&rules.batting_die, dice),
            bowling: TurnSpace::new(&rules.bowling_die, dice),
        }
    }

    pub fn of(&self, role: Role) -> &TurnSpace {
        match role {
            Role::Batting => &self.batting,
            Role::Bowling => &self.bowling,
        }
    }
}

/// The set-die powers a side may use when it stops, as the faces they set.
pub fn best_set_dice(
    dice: &[Face],
    set_faces: &[Face],
    value: &mut impl FnMut(&[Face]) -> f64,
) -> (f64, Vec<Option<u8>>) {
    let Some((face, rest)) = set_faces.split_first() else {
        return (value(dice), Vec::new());
    };
    let (mut best, mut uses) = best_set_dice(dice, rest, value);
    uses.insert(0, None);
    let mut tried: Vec<Face> = Vec::new();
    for (i, current) in dice.iter().enumerate() {
        if current == face || tried.contains(current) {
            continue;
        }
        tried.push(*current);
        let mut changed = dice.to_vec();
        changed[i] = *face;
        let (v, mut rest_uses) = best_set_dice(&changed, rest, value);
        if v > best {
            rest_uses.insert(0, Some(i as u8));
            best = v;
            uses = rest_uses;
        }
    }
    (best, uses)
}

/// The model the bot plays by: the ruleset and the solved response table.
pub struct Model<'r> {
    pub rules: &'r Ruleset,
    pub xp_points: f64,
    pub elimination_points: f64,
    pub responses: &'r [ResponseRow],
}

impl<'r> Model<'r> {
    fn row(&self, stakes: &Stakes) -> Option<&'r ResponseRow> {
        let last = self.responses.iter().map(|r| r.overs_after).max().unwrap_or(0);
        let overs_after = stakes.overs_after.min(last);
        self.responses
            .iter()
            .find(|r| r.wickets_left == stakes.wickets_left && r.overs_after == overs_after)
    }

    /// What `wickets_left` wickets in hand are worth in later overs, against all of them.
    pub fn future_cost(&self, stakes: &Stakes, wickets_left: u32) -> f64 {
        if wickets_left == 0 {
            return self.elimination_points;
        }
        self.row(stakes)
            .and_then(|row| row.future_cost.get(wickets_left as usize).copied())
            .unwrap_or(0.0)
    }

    /// The bowler's gain from an over (the batsman's loss, apart from the dice runs and the
    /// batsman's own Xp, which the bowler cannot change).
    pub fn bowler_gain(&self, stakes: &Stakes, result: &OverResult) -> f64 {
        let eliminated = result.wickets >= stakes.wickets_left;
        let wicket_cost = self.future_cost(stakes, stakes.wickets_left.saturating_sub(result.wickets))
            - self.future_cost(stakes, stakes.wickets_left);
        f64::from(result.dice_runs) - f64::from(result.runs)
            + f64::from(result.wickets)
            + wicket_cost
            + self.xp_points * f64::from(result.bowler_xp)
            + stakes.open.points(self.rules, Role::Bowling, result, eliminated)
    }

    /// What the bowler's best reply costs a batsman who stops on `runs` and `defence`.
    pub fn response(&self, stakes: &Stakes, runs: u32, defence: u32) -> f64 {
        let Some(row) = self.row(stakes) else {
            return 0.0;
        };
        let r = (runs as usize).min(row.by_runs.len().saturating_sub(1));
        row.by_runs
            .get(r)
            .and_then(|by_defence| by_defence.get((defence as usize).min(by_defence.len().saturating_sub(1))))
            .copied()
            .unwrap_or(0.0)
    }

    /// The batsman's points from stopping on `result` (its own dice and powers), apart from
    /// what the bowler's reply still to come does to them.
    pub fn batting_own_value(&self, stakes: &Stakes, result: &OverResult, xp_spent: u32) -> f64 {
        f64::from(result.dice_runs + result.bonus_runs)
            + self.xp_points * (f64::from(result.batsman_xp) - f64::from(xp_spent))
            + stakes.open.points(self.rules, Role::Batting, result, false)
    }
}

/// What the bowler's reply to a batsman's final dice does to the batsman's points (a change,
/// usually below zero). The batsman stops before the bowler rolls, so every stop is priced
/// with one of these.
pub trait Reply {
    /// The reply's cost to a batsman stopping on `bat`, whose own dice score `dice_runs`
    /// and whose Defence (faces, cards and bought) is `defence`.
    fn cost(
        &mut self,
        model: &Model<'_>,
        stakes: &Stakes,
        bat: &BattingSide<'_>,
        dice_runs: u32,
        defence: u32,
    ) -> f64;
}

impl<R: Reply + ?Sized> Reply for Box<R> {
    fn cost(
        &mut self,
        model: &Model<'_>,
        stakes: &Stakes,
        bat: &BattingSide<'_>,
        dice_runs: u32,
        defence: u32,
    ) -> f64 {
        (**self).cost(model, stakes, bat, dice_runs, defence)
    }
}

/// No bowler: an eliminated bowler's last over has no bowling dice.
pub struct NoBowler;

impl Reply for NoBowler {
    fn cost(&mut self, _: &Model<'_>, _: &Stakes, _: &BattingSide<'_>, _: u32, _: u32) -> f64 {
        0.0
    }
}

/// The offline table's best reply: a bowler with no cards, and no championship open to it.
/// One lookup per finish instead of a bowling solve: what the table's own solve and card
/// values assume, and what the adaptive responder starts from.
pub struct TableReply;

impl Reply for TableReply {
    fn cost(
        &mut self,
        model: &Model<'_>,
        stakes: &Stakes,
        _: &BattingSide<'_>,
        dice_runs: u32,
        defence: u32,
    ) -> f64 {
        model.response(stakes, dice_runs, defence)
    }
}

/// The batsman's dice with runs `runs` and no other effect: `runs` Ones, or a set of Sixes
/// and Ones above the number of dice. Only the run total matters to the bowler's reply.
fn dice_with_runs(rules: &Ruleset, runs: u32) -> Vec<Face> {
    let big = rules.run_sets.iter().max_by_key(|s| s.runs);
    let mut faces = Vec::new();
    let mut left = runs;
    if let Some(set) = big
        && runs > rules.dice_per_roll
    {
        while left >= set.runs {
            faces.extend(std::iter::repeat_n(set.face, set.size as usize));
            left -= set.runs;
        }
    }
    faces.extend(std::iter::repeat_n(Face::One, left as usize));
    faces
}

/// The bowler's best turn against a batsman: its value (the bowler's expected gain) from
/// the first roll, and the plan, with `mods` and `set_faces` its own cards.
pub fn solve_bowling(
    model: &Model<'_>,
    space: &TurnSpace,
    stakes: &Stakes,
    bat: &BattingSide<'_>,
    mods: &RoleMods,
    set_faces: &[Face],
    rerolls: usize,
) -> (Vec<f64>, Plan) {
    let terminal: Vec<f64> = space
        .states
        .iter()
        .map(|state| {
            let dice = space.faces_of(state);
            best_set_dice(&dice, set_faces, &mut |faces| {
                let bowl = BowlingSide { faces, mods };
                model.bowler_gain(stakes, &resolve_over(model.rules, bat, Some(&bowl)))
            })
            .0
        })
        .collect();
    let plan = space.solve(&terminal, rerolls);
    (terminal, plan)
}

/// A batsman's cards as the valuation sees them.
pub struct BattingCards<'a> {
    pub mods: &'a RoleMods,
    pub set_faces: &'a [Face],
    /// Xp per bought Defence (Long Game) and how many it can afford.
    pub buy_defence: Option<(u32, u32)>,
}

/// The batsman's best stop on `dice`: its value, the die each set-die power changes (in
/// the order of `cards.set_faces`), and the Defence to buy.
pub fn batting_stop(
    model: &Model<'_>,
    stakes: &Stakes,
    cards: &BattingCards<'_>,
    reply: &mut impl Reply,
    dice: &[Face],
) -> (f64, Vec<Option<u8>>, u32) {
    let (price, max_times) = cards.buy_defence.unwrap_or((0, 0));
    let mut best = (f64::NEG_INFINITY, Vec::new(), 0);
    for times in 0..=max_times.min(model.rules.dice_per_roll) {
        let (value, uses) = best_set_dice(dice, cards.set_faces, &mut |faces| {
            let stop = BattingStop {
                faces,
                bought: times,
                xp_spent: times * price,
            };
            stop.value(model, stakes, cards.mods, reply)
        });
        if value > best.0 {
            best = (value, uses, times);
        }
    }
    best
}

/// A batsman's stop: the final dice after its set-die powers, and the Defence it bought.
pub struct BattingStop<'a> {
    pub faces: &'a [Face],
    pub bought: u32,
    pub xp_spent: u32,
}

impl BattingStop<'_> {
    /// The Defence the stop brings before any bowler card cancels some: faces, the
    /// batsman's cards and what it bought.
    pub fn defence(&self, mods: &RoleMods) -> u32 {
        self.faces.iter().filter(|f| **f == Face::Defence).count() as u32 + mods.extra_defence + self.bought
    }

    /// The stop's worth to the batsman, the bowler's reply priced by `reply`.
    pub fn value(&self, model: &Model<'_>, stakes: &Stakes, mods: &RoleMods, reply: &mut impl Reply) -> f64 {
        let bat = BattingSide {
            faces: self.faces,
            mods,
            bought_defence: self.bought,
            wickets_left: stakes.wickets_left,
        };
        let result = resolve_over(model.rules, &bat, None);
        model.batting_own_value(stakes, &result, self.xp_spent)
            + reply.cost(model, stakes, &bat, result.dice_runs, self.defence(mods))
    }
}

/// The batsman's optimal over: terminal values per state and the plan.
pub fn solve_batting(
    model: &Model<'_>,
    space: &TurnSpace,
    stakes: &Stakes,
    cards: &BattingCards<'_>,
    reply: &mut impl Reply,
    rerolls: usize,
) -> (Vec<f64>, Plan) {
    let terminal: Vec<f64> = space
        .states
        .iter()
        .map(|state| batting_stop(model, stakes, cards, reply, &space.faces_of(state)).0)
        .collect();
    let plan = space.solve(&terminal, rerolls);
    (terminal, plan)
}

/// Solves the response table from the ruleset, from the last over back: an over's
/// bowler reply prices a lost wicket by what it costs in the batsman's later overs, which
/// the rows of fewer overs-after give.
pub fn solve(rules: &Ruleset) -> HardTable {
    let spaces = Spaces::new(rules);
    let xp_points = 1.0 / f64::from(rules.xp_per_point.max(1));
    let cap = rules.dice_per_roll;
    let rerolls = rules.rolls_per_turn.saturating_sub(1) as usize;
    let max_wickets = rules.elimination_wickets;
    let mut responses: Vec<ResponseRow> = Vec::new();
    let no_mods = RoleMods::default();
    let no_cards = BattingCards {
        mods: &no_mods,
        set_faces: &[],
        buy_defence: None,
    };
    for overs_after in 0..rules.rounds {
        // What each number of wickets left is worth over the later overs: the batsman's next
        // over with all wickets, less the same over with `w` (0 before the last over).
        let future_cost: Vec<f64> = (0..=max_wickets)
            .map(|w| {
                if overs_after == 0 {
                    return if w == 0 { ELIMINATION_POINTS } else { 0.0 };
                }
                if w == 0 {
                    return ELIMINATION_POINTS;
                }
                let model = Model {
                    rules,
                    xp_points,
                    elimination_points: ELIMINATION_POINTS,
                    responses: &responses,
                };
                let value = |wickets_left| {
                    let stakes = Stakes {
                        wickets_left,
                        overs_after: overs_after - 1,
                        open: Open::none(),
                    };
                    let (_, plan) = solve_batting(
                        &model,
                        &spaces.batting,
                        &stakes,
                        &no_cards,
                        &mut TableReply,
                        rerolls,
                    );
                    spaces.batting.first_roll_value(&plan, rerolls) - model.future_cost(&stakes, wickets_left)
                };
                rounded(value(max_wickets) - value(w))
            })
            .collect();
        let mut rows = Vec::new();
        for wickets_left in 1..=max_wickets {
            let mut row = ResponseRow {
                wickets_left,
                overs_after,
                future_cost: future_cost.clone(),
                by_runs: Vec::new(),
            };
            let stakes = Stakes {
                wickets_left,
                overs_after,
                open: Open::none(),
            };
            for runs in 0..=cap {
                let faces = dice_with_runs(rules, runs);
                let mut by_defence = Vec::new();
                for defence in 0..=cap {
                    let single = [row.clone()];
                    let model = Model {
                        rules,
                        xp_points,
                        elimination_points: ELIMINATION_POINTS,
                        responses: &single,
                    };
                    let bat = BattingSide {
                        faces: &faces,
                        mods: &no_mods,
                        bought_defence: defence,
                        wickets_left,
                    };
                    let (_, plan) =
                        solve_bowling(&model, &spaces.bowling, &stakes, &bat, &no_mods, &[], rerolls);
                    by_defence.push(rounded(-spaces.bowling.first_roll_value(&plan, rerolls)));
                }
                row.by_runs.push(by_defence);
            }
            rows.push(row);
        }
        responses.extend(rows);
    }
    let model = Model {
        rules,
        xp_points,
        elimination_points: ELIMINATION_POINTS,
        responses: &responses,
    };
    let card_values = rules
        .xp_cards
        .iter()
        .map(|card| card_value(&model, &spaces, card))
        .collect();
    HardTable {
        rebuild: "crease solve champions".to_string(),
        xp_points: rounded(xp_points),
        elimination_points: ELIMINATION_POINTS,
        responses,
        card_values,
    }
}

/// A fresh over of the first round: every wicket in hand, every championship open.
fn fresh_stakes(rules: &Ruleset) -> Stakes {
    Stakes {
        wickets_left: rules.elimination_wickets,
        overs_after: rules.rounds.saturating_sub(1),
        open: Open::all(rules),
    }
}

/// A card's worth in each role: the over with it less the over without it.
fn card_value(model: &Model<'_>, spaces: &Spaces, card: &XpCardDef) -> CardValue {
    let rules = model.rules;
    let stakes = fresh_stakes(rules);
    let base_rolls = rules.rolls_per_turn as usize;
    let extra = |role: Role| match card.hook {
        Hook::ExtraRoll { rolls } if card.colour.usable_in(role) => rolls as usize,
        _ => 0,
    };
    let set_faces: Vec<Face> = match card.hook {
        Hook::SetDie { face } => vec![face],
        _ => Vec::new(),
    };
    let mods = RoleMods::from_hooks([&card.hook]);
    let no_mods = RoleMods::default();
    let batting = if card.colour.usable_in(Role::Batting) {
        let with = BattingCards {
            mods: &mods,
            set_faces: if set_faces.first().is_some_and(|f| f.is_batting()) {
                &set_faces
            } else {
                &[]
            },
            buy_defence: match card.hook {
                Hook::BuyDefence { xp_per_defence } => {
                    Some((xp_per_defence, ASSUMED_XP / xp_per_defence.max(1)))
                }
                _ => None,
            },
        };
        let without = BattingCards {
            mods: &no_mods,
            set_faces: &[],
            buy_defence: None,
        };
        let value = |cards: &BattingCards<'_>, rolls: usize| {
            let (_, plan) = solve_batting(model, &spaces.batting, &stakes, cards, &mut TableReply, rolls - 1);
            spaces.batting.first_roll_value(&plan, rolls - 1)
        };
        value(&with, base_rolls + extra(Role::Batting)) - value(&without, base_rolls)
    } else {
        0.0
    };
    let bowling = if card.colour.usable_in(Role::Bowling) {
        let own_set: &[Face] = if set_faces.first().is_some_and(|f| f.is_bowling()) {
            &set_faces
        } else {
            &[]
        };
        bowling_gain_against_typical_batting(model, spaces, &stakes, &mods, own_set, extra(Role::Bowling))
    } else {
        0.0
    };
    CardValue {
        id: card.id.clone(),
        batting: rounded(batting),
        bowling: rounded(bowling),
    }
}

/// The bowler's gain from a card, averaged over where an optimal batsman without cards
/// stops.
fn bowling_gain_against_typical_batting(
    model: &Model<'_>,
    spaces: &Spaces,
    stakes: &Stakes,
    mods: &RoleMods,
    set_faces: &[Face],
    extra_rolls: usize,
) -> f64 {
    let rules = model.rules;
    let rerolls = rules.rolls_per_turn.saturating_sub(1) as usize;
    let no_mods = RoleMods::default();
    let no_cards = BattingCards {
        mods: &no_mods,
        set_faces: &[],
        buy_defence: None,
    };
    let (_, plan) = solve_batting(
        model,
        &spaces.batting,
        stakes,
        &no_cards,
        &mut TableReply,
        rerolls,
    );
    let stops = spaces.batting.stop_distribution(&plan, rerolls);
    let mut gain = 0.0;
    for (state, p) in stops.iter().enumerate() {
        if *p < 1e-12 {
            continue;
        }
        let faces = spaces.batting.faces_of(&spaces.batting.states[state]);
        let bat = BattingSide {
            faces: &faces,
            mods: &no_mods,
            bought_defence: 0,
            wickets_left: stakes.wickets_left,
        };
        let value = |mods: &RoleMods, set: &[Face], rerolls: usize| {
            let (_, plan) = solve_bowling(model, &spaces.bowling, stakes, &bat, mods, set, rerolls);
            spaces.bowling.first_roll_value(&plan, rerolls)
        };
        gain += p * (value(mods, set_faces, rerolls + extra_rolls) - value(&no_mods, &[], rerolls));
    }
    gain
}

static TABLE: LazyLock<HardTable> = LazyLock::new(|| match serde_json::from_str::<HardTable>(TABLE_JSON) {
    Ok(table) => table,
    // Compiled in; a bad edit must fail every test at once. Rebuild: `crease solve champions`.
    Err(error) => panic!("data/champions/hard_bot.json: {error}"),
});

/// The committed table.
pub fn table() -> &'static HardTable {
    &TABLE
}

/// The ruleset's dice spaces, built once.
pub fn spaces() -> &'static Spaces {
    static SPACES: LazyLock<Spaces> = LazyLock::new(|| Spaces::new(super::super::data::ruleset()));
    &SPACES
}

/// The committed table as JSON, the way `crease solve champions` writes it.
pub fn to_json(table: &HardTable) -> String {
    let mut text = serde_json::to_string_pretty(table).unwrap_or_default();
    text.push('\n');
    text
}
