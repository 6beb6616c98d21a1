//! The bowler's reply as a batsman prices it.
//!
//! The batsman stops before the bowler rolls, so every stop is priced with the reply to come.
//! The offline table ([`TableReply`](super::table::TableReply)) prices it for a bowler with no cards and no championship
//! to chase. `hard` bowls by solving its turn against the batsman's final dice with its own
//! cards and the championships still open, so a batsman can solve that same turn for every
//! finish it might stop on ([`SolvedReply`]): `hard` does, and so does the arena's white-box
//! `best-response`, which reads `hard`'s code. [`reader_gain`] measures what a reader's
//! prices gain over `hard`'s own. A player who reads no code can still count what the
//! bowler's replies cost against what the table expected, over a series, and correct the
//! table by it ([`ReplyHabits`]): the arena's `adaptive`.

use super::super::cards::{apply_powers, role_mods, roll_limit, usable_cards};
use super::super::commands::Command;
use super::super::data::{Hook, Ruleset};
use super::super::faces::{Face, Role};
use super::super::resolve::{BattingSide, RoleMods, resolve_over};
use super::super::state::PlayerState;
use super::super::view::{Ask, View};
use super::table::{
    BattingCards, BattingStop, Model, Reply, Stakes, batting_stop, solve_batting, solve_bowling,
};
use super::turn::TurnSpace;
use std::collections::{BTreeMap, HashMap};

/// `hard`'s own bowling turn against each finish, with the bowler's cards and the over's
/// stakes (championships open included), solved when a finish is first priced.
///
/// The bowler's gain depends on the batsman's dice only through the runs they score and the
/// Defence they bring (the batting card powers are the over's, the same for every finish), so
/// one over needs a solve per distinct (runs, Defence), a few dozen, not one per finish.
pub struct SolvedReply<'s> {
    space: &'s TurnSpace,
    mods: RoleMods,
    set_faces: Vec<Face>,
    rerolls: usize,
    /// For one over's stakes: (dice runs, Defence) to the reply's cost.
    costs: HashMap<(u32, u32), f64>,
}

impl<'s> SolvedReply<'s> {
    /// The reply of `bowler` as `hard` would bowl it, for one over.
    pub fn of_bowler(rules: &Ruleset, space: &'s TurnSpace, bowler: &PlayerState) -> Self {
        let set_faces = usable_cards(rules, bowler, Role::Bowling)
            .into_iter()
            .filter_map(|card| match card.hook {
                Hook::SetDie { face } => Some(face),
                _ => None,
            })
            .collect();
        SolvedReply {
            space,
            mods: role_mods(rules, bowler, Role::Bowling),
            set_faces,
            rerolls: roll_limit(rules, bowler, Role::Bowling, false).saturating_sub(1) as usize,
            costs: HashMap::new(),
        }
    }
}

impl Reply for SolvedReply<'_> {
    fn cost(
        &mut self,
        model: &Model<'_>,
        stakes: &Stakes,
        bat: &BattingSide<'_>,
        dice_runs: u32,
        defence: u32,
    ) -> f64 {
        if let Some(cost) = self.costs.get(&(dice_runs, defence)) {
            return *cost;
        }
        let (_, plan) = solve_bowling(
            model,
            self.space,
            stakes,
            bat,
            &self.mods,
            &self.set_faces,
            self.rerolls,
        );
        let cost = -self.space.first_roll_value(&plan, self.rerolls);
        self.costs.insert((dice_runs, defence), cost);
        cost
    }
}

/// `dice` with each set-die power of `set_faces` used as `uses` says, in order.
fn with_set_dice(dice: &[Face], set_faces: &[Face], uses: &[Option<u8>]) -> Vec<Face> {
    let mut faces = dice.to_vec();
    for (face, die) in set_faces.iter().zip(uses) {
        if let Some(slot) = die.and_then(|d| faces.get_mut(usize::from(d))) {
            *slot = *face;
        }
    }
    faces
}

/// What pricing the reply exactly is worth to a batsman over pricing it with `bot`, in points
/// from the first roll: the over played with `reader`'s prices, less the over played as
/// `bot` prices it (its keeps and its stops), both valued with `reader`'s prices. Never below
/// zero: the first is the best play for those prices; zero when `bot` prices as the reader.
pub fn exact_reply_gain(
    model: &Model<'_>,
    space: &TurnSpace,
    stakes: &Stakes,
    cards: &BattingCards<'_>,
    reader: &mut SolvedReply<'_>,
    bot: &mut impl Reply,
    rerolls: usize,
) -> f64 {
    let (_, exact_plan) = solve_batting(model, space, stakes, cards, reader, rerolls);
    // The bot's stop on each state, once: its own price solves its plan, the reader's price
    // values what that plan ends on.
    let price = cards.buy_defence.map_or(0, |(price, _)| price);
    let (bot_terminal, bot_stops): (Vec<f64>, Vec<f64>) = space
        .states
        .iter()
        .map(|state| {
            let dice = space.faces_of(state);
            let (own_price, uses, bought) = batting_stop(model, stakes, cards, bot, &dice);
            let faces = with_set_dice(&dice, cards.set_faces, &uses);
            let stop = BattingStop {
                faces: &faces,
                bought,
                xp_spent: bought * price,
            };
            (own_price, stop.value(model, stakes, cards.mods, reader))
        })
        .unzip();
    let bot_plan = space.solve(&bot_terminal, rerolls);
    space.first_roll_value(&exact_plan, rerolls)
        - space.first_roll_value_following(&bot_plan, &bot_stops, rerolls)
}

/// The most observations of one (runs, Defence) that weigh as much as the table does: a few
/// overs move the estimate a little, dozens move it most of the way.
const TABLE_WEIGHT: f64 = 8.0;

/// What a bowler's replies cost a batsman beyond the table's price, counted over a series by
/// the runs and the Defence the batsman stopped on (each capped at the dice rolled, beyond
/// which the table does not tell them apart): an opponent's observed frequencies, without
/// reading its code.
#[derive(Clone, Debug, Default)]
pub struct ReplyHabits {
    /// (runs, Defence) to the sum of the replies' costs over the table's, and how many.
    seen: BTreeMap<(u32, u32), (f64, u32)>,
}

impl ReplyHabits {
    fn key(model: &Model<'_>, dice_runs: u32, defence: u32) -> (u32, u32) {
        let cap = model.rules.dice_per_roll;
        (dice_runs.min(cap), defence.min(cap))
    }

    /// The mean excess cost seen for this finish, shrunk toward the table's (zero) by
    /// [`TABLE_WEIGHT`] observations' worth.
    pub fn excess(&self, model: &Model<'_>, dice_runs: u32, defence: u32) -> f64 {
        self.seen
            .get(&Self::key(model, dice_runs, defence))
            .map_or(0.0, |(sum, n)| sum / (f64::from(*n) + TABLE_WEIGHT))
    }

    /// How many replies were counted.
    pub fn observations(&self) -> u32 {
        self.seen.values().map(|(_, n)| n).sum()
    }

    /// Counts the reply to `awaited` when `view`'s last over is that over; says whether it was.
    pub fn learn(&mut self, model: &Model<'_>, awaited: &AwaitedReply, view: &View) -> bool {
        let Some(over) = view
            .last_over
            .as_ref()
            .filter(|o| o.round == awaited.round && o.batsman == awaited.batsman && o.bowler.is_some())
        else {
            return false;
        };
        let cost = -model.bowler_gain(&awaited.stakes, &over.result);
        let expected = model.response(&awaited.stakes, awaited.dice_runs, awaited.defence);
        let entry = self
            .seen
            .entry(Self::key(model, awaited.dice_runs, awaited.defence))
            .or_insert((0.0, 0));
        entry.0 += cost - expected;
        entry.1 += 1;
        true
    }
}

/// The table's price corrected by the replies seen.
pub struct ObservedReply<'h>(pub &'h ReplyHabits);

impl Reply for ObservedReply<'_> {
    fn cost(
        &mut self,
        model: &Model<'_>,
        stakes: &Stakes,
        _: &BattingSide<'_>,
        dice_runs: u32,
        defence: u32,
    ) -> f64 {
        model.response(stakes, dice_runs, defence) + self.0.excess(model, dice_runs, defence)
    }
}

/// A batsman's stop whose bowler has yet to reply: what it needs to learn the reply's cost
/// once the over is on the record.
#[derive(Clone, Debug, PartialEq)]
pub struct AwaitedReply {
    round: u32,
    batsman: crate::rules::Seat,
    stakes: Stakes,
    dice_runs: u32,
    defence: u32,
}

/// The reply `command` will await, when it is the stop of a batsman facing a bowler in `view`.
pub fn awaited_reply(
    model: &Model<'_>,
    view: &View,
    stakes: Stakes,
    command: &Command,
) -> Option<AwaitedReply> {
    let (
        Some(Ask::Dice {
            role: Role::Batting,
            faces,
            ..
        }),
        Command::Stop { powers },
    ) = (&view.ask, command)
    else {
        return None;
    };
    let over = view.over.as_ref().filter(|o| o.bowler.is_some())?;
    let batsman = super::super::bots::player_of(view, over.batsman)?;
    let applied = apply_powers(model.rules, &batsman, Role::Batting, faces, powers).ok()?;
    let mods = role_mods(model.rules, &batsman, Role::Batting);
    let bat = BattingSide {
        faces: &applied.faces,
        mods: &mods,
        bought_defence: applied.bought_defence,
        wickets_left: stakes.wickets_left,
    };
    let result = resolve_over(model.rules, &bat, None);
    let stop = BattingStop {
        faces: &applied.faces,
        bought: applied.bought_defence,
        xp_spent: applied.xp_spent,
    };
    Some(AwaitedReply {
        round: view.round,
        batsman: over.batsman,
        stakes,
        dice_runs: result.dice_runs,
        defence: stop.defence(&mods),
    })
}

/// What a reader of `hard`'s code gains, in points, over `hard`'s own batting in the over
/// `view` asks its batsman to start: the reply solved exactly against the reply as `hard`
/// prices it ([`super::HARD`]), by [`exact_reply_gain`]. `None` unless `view` asks for a
/// batting first roll against a bowler.
pub fn reader_gain(view: &View) -> Option<f64> {
    let Some(Ask::Dice {
        role: Role::Batting,
        first_roll: true,
        rolls_left,
        powers,
        ..
    }) = &view.ask
    else {
        return None;
    };
    let batting = super::BattingSetup::of(view, powers)?;
    let bowler = batting.bowler.as_ref()?;
    let model = super::model();
    let space = &super::table::spaces().batting;
    let mut reader = SolvedReply::of_bowler(model.rules, &super::table::spaces().bowling, bowler);
    Some(exact_reply_gain(
        &model,
        space,
        &batting.stakes,
        &batting.cards(),
        &mut reader,
        &mut batting.reply(super::HARD),
        rolls_left.saturating_sub(1) as usize,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::table::{Open, TableReply, spaces};
    use super::*;

    fn fresh(open: Open) -> Stakes {
        Stakes {
            wickets_left: 10,
            overs_after: 3,
            open,
        }
    }

    fn bowler_with(cards: &[&str]) -> PlayerState {
        PlayerState {
            cards: cards.iter().map(|c| c.to_string()).collect(),
            ..PlayerState::default()
        }
    }

    /// The cost of the reply to a batsman on `ones` Ones and `defences` Defence faces.
    fn cost(reply: &mut impl Reply, stakes: &Stakes, ones: usize, defences: usize) -> f64 {
        let model = super::super::model();
        let mut faces = vec![Face::One; ones];
        faces.extend(std::iter::repeat_n(Face::Defence, defences));
        let mods = RoleMods::default();
        let bat = BattingSide {
            faces: &faces,
            mods: &mods,
            bought_defence: 0,
            wickets_left: stakes.wickets_left,
        };
        reply.cost(&model, stakes, &bat, ones as u32, defences as u32)
    }

    #[test]
    fn a_bowler_with_no_cards_and_no_championship_to_chase_replies_as_the_table_says() {
        // The table is this same solve, for the same bowler, rounded to 1e-4.
        let model = super::super::model();
        let stakes = fresh(Open::none());
        let mut solved = SolvedReply::of_bowler(model.rules, &spaces().bowling, &bowler_with(&[]));
        for (ones, defences) in [(0, 0), (3, 0), (2, 2), (6, 0), (0, 6), (4, 1)] {
            let exact = cost(&mut solved, &stakes, ones, defences);
            let table = cost(&mut TableReply, &stakes, ones, defences);
            assert!(
                (exact - table).abs() < 1e-3,
                "{ones} runs, {defences} Defence: {exact} v {table}"
            );
        }
    }

    #[test]
    fn the_table_underprices_a_bowler_with_cards_or_a_championship_to_chase() {
        let model = super::super::model();
        let space = &spaces().bowling;
        let plain = fresh(Open::none());
        let table = cost(&mut TableReply, &plain, 3, 0);
        // Yorker sets a die to Wicket and Attacking Field ignores a Defence: both cost more.
        let mut armed =
            SolvedReply::of_bowler(model.rules, space, &bowler_with(&["yorker", "attacking_field"]));
        let armed_cost = cost(&mut armed, &plain, 3, 1);
        assert!(
            armed_cost < cost(&mut TableReply, &plain, 3, 1) - 0.5,
            "{armed_cost}"
        );
        // Hat-Trick open: three wickets are worth 3 points more to the bowler.
        let mut chasing = SolvedReply::of_bowler(model.rules, space, &bowler_with(&[]));
        let open = fresh(Open::all(model.rules));
        let chasing_cost = cost(&mut chasing, &open, 3, 0);
        assert!(chasing_cost < table - 0.05, "{chasing_cost} v {table}");
    }

    #[test]
    fn the_table_leaves_a_reader_nothing_against_a_plain_bowler_and_something_against_an_armed_one() {
        let model = super::super::model();
        let mods = RoleMods::default();
        let cards = BattingCards {
            mods: &mods,
            set_faces: &[],
            buy_defence: None,
        };
        let batting = &spaces().batting;
        let bowling = &spaces().bowling;
        let stakes = fresh(Open::none());
        let mut plain = SolvedReply::of_bowler(model.rules, bowling, &bowler_with(&[]));
        let nothing = exact_reply_gain(&model, batting, &stakes, &cards, &mut plain, &mut TableReply, 2);
        assert!(nothing.abs() < 0.01, "{nothing}");
        let armed = bowler_with(&["yorker", "attacking_field"]);
        let mut reader = SolvedReply::of_bowler(model.rules, bowling, &armed);
        let something = exact_reply_gain(&model, batting, &stakes, &cards, &mut reader, &mut TableReply, 2);
        assert!(something > 0.01, "{something}");
        // A batsman who prices the reply as the reader does leaves the reader nothing.
        let mut same = SolvedReply::of_bowler(model.rules, bowling, &armed);
        let none = exact_reply_gain(&model, batting, &stakes, &cards, &mut reader, &mut same, 2);
        assert!(none.abs() < 1e-9, "{none}");
    }

    #[test]
    fn replies_seen_to_cost_more_than_the_table_move_its_price_by_their_weight() {
        let model = super::super::model();
        let stakes = fresh(Open::none());
        let mut habits = ReplyHabits::default();
        assert_eq!(habits.excess(&model, 3, 0), 0.0);
        // A reply that took five wickets and an Xp against 3 runs and no Defence (the mean
        // reply to no Defence takes between two and three).
        let over = super::super::super::state::OverRecord {
            round: 2,
            batsman: crate::rules::Seat(0),
            bowler: Some(crate::rules::Seat(1)),
            batting_faces: vec![Face::One; 3],
            bowling_faces: vec![
                Face::Wicket,
                Face::Wicket,
                Face::Wicket,
                Face::Wicket,
                Face::Wicket,
                Face::Xp,
            ],
            result: super::super::super::resolve::OverResult {
                dice_runs: 3,
                runs: 3,
                wickets: 5,
                bowler_xp: 1,
                ..Default::default()
            },
        };
        let awaited = AwaitedReply {
            round: 2,
            batsman: crate::rules::Seat(0),
            stakes,
            dice_runs: 3,
            defence: 0,
        };
        let mut view = {
            use crate::rules::champions::{Champions, Options};
            use crate::rules::{Game, MatchCore, Seed, Viewer};
            let mut core =
                MatchCore::<Champions>::new(&Options { players: 2 }, &Seed::from_u64(1)).expect("options");
            core.start();
            Champions::view(&core.state, Viewer::Seat(crate::rules::Seat(0)))
        };
        assert!(
            !habits.learn(&model, &awaited, &view),
            "no over on the record yet"
        );
        view.last_over = Some(over.clone());
        let seen = -model.bowler_gain(&stakes, &over.result) - model.response(&stakes, 3, 0);
        assert!(seen < -1.0, "five wickets cost more than the mean reply: {seen}");
        for n in 1..=24u32 {
            assert!(habits.learn(&model, &awaited, &view));
            let expected = seen * f64::from(n) / (f64::from(n) + TABLE_WEIGHT);
            assert!((habits.excess(&model, 3, 0) - expected).abs() < 1e-9);
        }
        assert_eq!(habits.observations(), 24);
        // Another finish keeps the table's price.
        assert_eq!(habits.excess(&model, 3, 1), 0.0);
        // A stop on some other over is not this one.
        let elsewhere = AwaitedReply { round: 3, ..awaited };
        assert!(!habits.learn(&model, &elsewhere, &view));
    }
}
