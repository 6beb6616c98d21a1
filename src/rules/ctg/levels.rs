//! The levels a player picks for a CTG bot: `easy`, `normal` and `hard` (issue 30).
//!
//! A weaker bot must still be a mixed strategy: a pure one (always the same card for a
//! bowler type, always the same shot) is farmed by the first fixed policy that answers it,
//! which is what the heuristic `normal` used to lose to. So `easy` and `normal` draw their
//! sealed choice (bowl card, shot) from a blend of `hard`'s calibrated equilibrium and a
//! uniform draw over their legal choices: weaker by the share they give away at random,
//! but with no choice they always make. The shares are tuned data
//! (`data/ctg/bot_levels.json`); every other decision is the heuristic's, `hard` plays
//! [`super::hard`].

use super::bot;
use super::command::Command;
use super::hard;
use super::safe::{self, Plan};
use super::view::{Ask, Situation};
use crate::rules::{BotLevel, BotPolicy, Dice};
use serde::Deserialize;
use std::sync::LazyLock;

/// The committed shares.
pub const LEVELS_JSON: &str = include_str!("../../../data/ctg/bot_levels.json");

/// How one level plays its sealed choice.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LevelMix {
    /// The share of the draw taken from the equilibrium (0 to 1); the rest is uniform.
    pub equilibrium_share: f64,
    /// How far, in runs a ball, that share leans toward the other side's habits seen this
    /// match ([`safe::sealed_plan`]'s bound): a fixed habit is answered, not farmed.
    pub exploit_bound: f64,
}

#[derive(Debug, Deserialize)]
struct Levels {
    #[serde(rename = "_doc")]
    _doc: String,
    easy: LevelMix,
    normal: LevelMix,
}

static LEVELS: LazyLock<Levels> = LazyLock::new(|| {
    let levels: Levels =
        serde_json::from_str(LEVELS_JSON).unwrap_or_else(|e| panic!("data/ctg/bot_levels.json: {e}"));
    for mix in [levels.easy, levels.normal] {
        assert!(
            (0.0..=1.0).contains(&mix.equilibrium_share) && mix.exploit_bound >= 0.0,
            "data/ctg/bot_levels.json: a share is 0 to 1 and a bound at least 0: {mix:?}"
        );
    }
    levels
});

/// The mix of `level`; `None` for `hard`, which plays the equilibrium alone.
pub fn level_mix(level: BotLevel) -> Option<LevelMix> {
    match level {
        BotLevel::Easy => Some(LEVELS.easy),
        BotLevel::Normal => Some(LEVELS.normal),
        BotLevel::Hard => None,
    }
}

/// Chooses a command for `ask` at `level`.
pub fn choose(level: BotLevel, ask: &Ask, situation: &Situation, rng: &mut Dice) -> Command {
    let Some(mix) = level_mix(level) else {
        return hard::choose(ask, situation, rng);
    };
    match safe::sealed_plan(ask, situation, mix.exploit_bound) {
        Some(sealed) => blended(&sealed.plan, mix).draw(rng),
        None => bot::choose(ask, situation, BotPolicy::Heuristic, rng),
    }
}

/// `plan` with `1 - share` of its weight spread evenly over its choices.
pub fn blended(plan: &Plan, mix: LevelMix) -> Plan {
    let share = mix.equilibrium_share;
    let even = (1.0 - share) / plan.mix.len().max(1) as f64;
    Plan {
        batting: plan.batting,
        mix: plan.mix.iter().map(|p| share * p + even).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ctg::hard::tests::shot_ask;

    #[test]
    fn the_committed_shares_load_and_normal_keeps_more_of_the_equilibrium_than_easy() {
        let easy = level_mix(BotLevel::Easy).expect("easy blends");
        let normal = level_mix(BotLevel::Normal).expect("normal blends");
        assert!(
            easy.equilibrium_share < normal.equilibrium_share,
            "{easy:?} {normal:?}"
        );
        assert_eq!(level_mix(BotLevel::Hard), None);
    }

    #[test]
    fn a_blend_is_a_distribution_that_gives_every_choice_a_chance() {
        let (ask, situation) = shot_ask();
        let plan = safe::sealed_plan(&ask, &situation, safe::EXPLOIT_BOUND)
            .expect("a sealed ask")
            .plan;
        let mix = LevelMix {
            equilibrium_share: 0.6,
            exploit_bound: 0.0,
        };
        let blend = blended(&plan, mix);
        assert!((blend.mix.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{blend:?}");
        let floor = 0.4 / plan.mix.len() as f64;
        assert!(blend.mix.iter().all(|p| *p >= floor - 1e-12), "{blend:?}");
        for (p, q) in plan.mix.iter().zip(&blend.mix) {
            assert!((q - (0.6 * p + floor)).abs() < 1e-12);
        }
    }

    #[test]
    fn easy_draws_the_shots_that_hard_all_but_never_plays() {
        let (ask, situation) = shot_ask();
        let plan = safe::sealed_plan(&ask, &situation, safe::EXPLOIT_BOUND)
            .expect("a sealed ask")
            .plan;
        // The solved equilibrium keeps a residue on every shot; "rare" is under 0.1 %.
        let rare: Vec<Command> = (0..plan.mix.len())
            .filter(|&i| plan.mix[i] < 0.001)
            .map(|i| plan.command(i))
            .collect();
        assert!(
            rare.len() >= 3,
            "the equilibrium all but leaves out some shots: {:?}",
            plan.mix
        );
        let count_rare = |level: BotLevel| {
            let mut rng = Dice::new(&crate::rules::Seed::from_u64(5));
            (0..400)
                .filter(|_| rare.contains(&choose(level, &ask, &situation, &mut rng)))
                .count()
        };
        // Easy spreads (1 - share) evenly: each rare shot about 6 % of its draws.
        let easy = level_mix(BotLevel::Easy).expect("easy blends");
        let expected = 400.0 * rare.len() as f64 * (1.0 - easy.equilibrium_share) / plan.mix.len() as f64;
        let drawn = count_rare(BotLevel::Easy) as f64;
        assert!(
            (drawn - expected).abs() < 0.3 * expected,
            "easy: {drawn} of about {expected}"
        );
        assert!(count_rare(BotLevel::Hard) <= 2, "hard all but never");
    }
}
