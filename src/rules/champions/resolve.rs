//! Resolving an over: a pure function of the final faces and the passive card powers.
//!
//! Kept apart from `decide` so tests pass exact faces (the seed's worked example among
//! them) instead of hunting for seeds that roll them.
//! Seed: 003_a3e523365b63d62b.txt "Resolving Dice".

use super::data::{Hook, Ruleset};
use super::faces::{Face, count};
use serde::{Deserialize, Serialize};

/// The passive powers one side brings to an over, summed over its usable cards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoleMods {
    pub extra_defence: u32,
    pub cancel_defence: u32,
    pub extra_wicket_if_any: u32,
    pub ignored_faces: Vec<Face>,
    pub face_bonus_if_any: Vec<(Face, u32)>,
    pub xp_bonus_on_gain: u32,
    pub xp_per_over: u32,
    pub leftover_runs: Vec<(Face, u32)>,
    pub set_sizes: Vec<(Face, u32)>,
    pub runs_bonus: Vec<(u32, u32)>,
}

impl RoleMods {
    /// Sums the passive hooks; choice hooks (`set_die`, `buy_defence`) and `extra_roll` act
    /// elsewhere and are ignored here.
    pub fn from_hooks<'a>(hooks: impl IntoIterator<Item = &'a Hook>) -> Self {
        let mut mods = RoleMods::default();
        for hook in hooks {
            match hook {
                Hook::ExtraDefence { amount } => mods.extra_defence += amount,
                Hook::CancelDefence { amount } => mods.cancel_defence += amount,
                Hook::ExtraWicketIfAny { amount } => mods.extra_wicket_if_any += amount,
                Hook::IgnoreOwnFace { face } => mods.ignored_faces.push(*face),
                Hook::FaceBonusIfAny { face, amount } => mods.face_bonus_if_any.push((*face, *amount)),
                Hook::XpBonusOnGain { amount } => mods.xp_bonus_on_gain += amount,
                Hook::XpPerOver { amount } => mods.xp_per_over += amount,
                Hook::LeftoverRuns { face, runs } => mods.leftover_runs.push((*face, *runs)),
                Hook::SetSize { face, size } => mods.set_sizes.push((*face, *size)),
                Hook::RunsBonus { min_runs, bonus } => mods.runs_bonus.push((*min_runs, *bonus)),
                Hook::SetDie { .. } | Hook::BuyDefence { .. } | Hook::ExtraRoll { .. } => {}
            }
        }
        mods
    }

    /// How many `face` results these dice count for, after ignored faces and bonuses.
    fn effective(&self, faces: &[Face], face: Face) -> u32 {
        if self.ignored_faces.contains(&face) {
            return 0;
        }
        let rolled = count(faces, face);
        let bonus: u32 = if rolled > 0 {
            self.face_bonus_if_any
                .iter()
                .filter(|(f, _)| *f == face)
                .map(|(_, a)| a)
                .sum()
        } else {
            0
        };
        rolled + bonus
    }

    fn xp_gain(&self, faces: &[Face]) -> u32 {
        let gained = self.effective(faces, Face::Xp) + self.xp_per_over;
        if gained > 0 {
            gained + self.xp_bonus_on_gain
        } else {
            0
        }
    }
}

/// The batsman's side after their turn: final faces, powers already applied to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattingSide<'a> {
    pub faces: &'a [Face],
    pub mods: &'a RoleMods,
    /// Defence bought with Xp this over (Long Game).
    pub bought_defence: u32,
    /// Wickets the batsman can still lose before elimination: an over cannot take more.
    pub wickets_left: u32,
}

/// The bowler's side; absent in an eliminated bowler's last over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BowlingSide<'a> {
    pub faces: &'a [Face],
    pub mods: &'a RoleMods,
}

/// Everything an over changes, from both sides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OverResult {
    /// Runs from the batting dice and sets, before wides and saves.
    pub dice_runs: u32,
    /// Runs given as wides.
    pub wides: u32,
    /// Runs the saves actually removed (never more than the runs there were).
    pub saved: u32,
    /// Runs added by batting bonuses after saves.
    pub bonus_runs: u32,
    /// Runs credited to the batsman this over.
    pub runs: u32,
    /// Wickets the batsman lost (= wickets the bowler took).
    pub wickets: u32,
    pub batsman_xp: u32,
    pub bowler_xp: u32,
    /// Sixes on the batsman's final dice (First Six ignores the bowler).
    pub sixes: u32,
}

impl OverResult {
    /// Runs the batsman had before the bowler's saves.
    pub fn gross_runs(&self) -> u32 {
        self.dice_runs + self.wides
    }
}

fn dice_runs(ruleset: &Ruleset, faces: &[Face], mods: &RoleMods) -> u32 {
    ruleset
        .run_sets
        .iter()
        .map(|set| {
            let size = mods
                .set_sizes
                .iter()
                .filter(|(f, _)| *f == set.face)
                .map(|(_, s)| *s)
                .min()
                .unwrap_or(set.size)
                .max(1);
            let n = mods.effective(faces, set.face);
            let leftover: u32 = mods
                .leftover_runs
                .iter()
                .filter(|(f, _)| *f == set.face)
                .map(|(_, r)| r)
                .sum();
            (n / size) * set.runs + (n % size) * leftover
        })
        .sum()
}

/// Resolves one over. Seed: 003_a3e523365b63d62b.txt: runs by sets, each Wide +1 run, each
/// Save -1 run (never below zero), wickets = Wicket faces minus Defence, each Xp face 1 Xp.
pub fn resolve_over(ruleset: &Ruleset, bat: &BattingSide<'_>, bowl: Option<&BowlingSide<'_>>) -> OverResult {
    let no_mods = RoleMods::default();
    let (bowl_faces, bowl_mods): (&[Face], &RoleMods) = match bowl {
        Some(side) => (side.faces, side.mods),
        None => (&[], &no_mods),
    };
    let dice_runs = dice_runs(ruleset, bat.faces, bat.mods);
    let wides = bowl_mods.effective(bowl_faces, Face::Wide);
    let gross = dice_runs + wides;
    let saved = bowl_mods.effective(bowl_faces, Face::Save).min(gross);
    let after_saves = gross - saved;
    let bonus_runs: u32 = bat
        .mods
        .runs_bonus
        .iter()
        .filter(|(min, _)| after_saves >= *min)
        .map(|(_, bonus)| bonus)
        .sum();

    let defence =
        (bat.mods.effective(bat.faces, Face::Defence) + bat.mods.extra_defence + bat.bought_defence)
            .saturating_sub(bowl_mods.cancel_defence);
    let attack = bowl_mods.effective(bowl_faces, Face::Wicket);
    let mut wickets = attack.saturating_sub(defence);
    if wickets > 0 {
        wickets += bowl_mods.extra_wicket_if_any;
    }

    OverResult {
        dice_runs,
        wides,
        saved,
        bonus_runs,
        runs: after_saves + bonus_runs,
        wickets: wickets.min(bat.wickets_left),
        batsman_xp: bat.mods.xp_gain(bat.faces),
        bowler_xp: if bowl.is_some() {
            bowl_mods.xp_gain(bowl_faces)
        } else {
            0
        },
        sixes: count(bat.faces, Face::Six),
    }
}
