//! Xp cards in play: which of a player's cards work in a role, the passive modifiers they
//! add, the extra rolls, and the choice powers chosen when a player stops rolling.
//! Seed: 003_a3e523365b63d62b.txt "Reading an Xp card".

use super::data::{Hook, Ruleset, XpCardDef};
use super::errors::ChampionsReject;
use super::events::PowerUse;
use super::faces::{Face, Role};
use super::resolve::RoleMods;
use super::state::PlayerState;

/// The owned cards whose colour works in `role` (black batting, green bowling, blue both).
pub fn usable_cards<'r>(ruleset: &'r Ruleset, player: &PlayerState, role: Role) -> Vec<&'r XpCardDef> {
    player
        .cards
        .iter()
        .filter_map(|id| ruleset.xp_card(id))
        .filter(|card| card.colour.usable_in(role))
        .collect()
}

pub fn role_mods(ruleset: &Ruleset, player: &PlayerState, role: Role) -> RoleMods {
    RoleMods::from_hooks(usable_cards(ruleset, player, role).into_iter().map(|c| &c.hook))
}

/// Rolls a player gets this turn: the ruleset's rolls plus `extra_roll` cards. In an
/// eliminated bowler's last over the batsman rolls exactly `last_over_rolls` ("just once").
pub fn roll_limit(ruleset: &Ruleset, player: &PlayerState, role: Role, last_over: bool) -> u32 {
    if last_over {
        return ruleset.last_over_rolls;
    }
    let extra: u32 = usable_cards(ruleset, player, role)
        .iter()
        .map(|c| match c.hook {
            Hook::ExtraRoll { rolls } => rolls,
            _ => 0,
        })
        .sum();
    ruleset.rolls_per_turn + extra
}

/// The outcome of the chosen powers: the final faces and what they cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedPowers {
    pub faces: Vec<Face>,
    pub xp_spent: u32,
    pub bought_defence: u32,
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Batting => "batting",
        Role::Bowling => "bowling",
    }
}

/// Checks the chosen powers and applies them in the order given. Each card once per over.
pub fn apply_powers(
    ruleset: &Ruleset,
    player: &PlayerState,
    role: Role,
    faces: &[Face],
    powers: &[PowerUse],
) -> Result<AppliedPowers, ChampionsReject> {
    let mut applied = AppliedPowers {
        faces: faces.to_vec(),
        xp_spent: 0,
        bought_defence: 0,
    };
    let mut used: Vec<&str> = Vec::new();
    for power in powers {
        let id = power.card();
        if !player.cards.iter().any(|c| c == id) {
            return Err(ChampionsReject::CardNotOwned { card: id.to_string() });
        }
        let card = ruleset
            .xp_card(id)
            .ok_or_else(|| ChampionsReject::CardNotOwned { card: id.to_string() })?;
        if !card.colour.usable_in(role) {
            return Err(ChampionsReject::ColourNotUsableNow {
                card: id.to_string(),
                colour: format!("{:?}", card.colour).to_lowercase(),
                role: role_name(role).to_string(),
            });
        }
        if !card.hook.is_choice() {
            return Err(ChampionsReject::PowerNeedsNoChoice { card: id.to_string() });
        }
        if used.contains(&id) {
            return Err(ChampionsReject::PowerUsedTwice { card: id.to_string() });
        }
        used.push(id);
        match (power, &card.hook) {
            (PowerUse::SetDie { die, .. }, Hook::SetDie { face }) => {
                let last = applied.faces.len().saturating_sub(1) as u8;
                let slot = applied
                    .faces
                    .get_mut(usize::from(*die))
                    .ok_or(ChampionsReject::DieOutOfRange { die: *die, last })?;
                *slot = *face;
            }
            (PowerUse::BuyDefence { times, .. }, Hook::BuyDefence { xp_per_defence }) => {
                let needed = applied
                    .xp_spent
                    .saturating_add(times.saturating_mul(*xp_per_defence));
                if needed > player.xp {
                    return Err(ChampionsReject::CannotAffordPower {
                        needed,
                        have: player.xp,
                    });
                }
                applied.xp_spent = needed;
                applied.bought_defence += times;
            }
            _ => return Err(ChampionsReject::PowerKindMismatch { card: id.to_string() }),
        }
    }
    Ok(applied)
}
