//! The ruleset as data: dice faces, the 17 Xp cards, the championship cards and every
//! [ASSUMED] number. Embedded with `include_str!`, parsed and validated once, so changing a
//! card is a data edit and a bad edit fails loudly, naming the field.

use super::faces::{Face, Role};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::LazyLock;

pub(crate) const RULESET_JSON: &str = include_str!("../../../data/champions/ruleset.json");

/// When an Xp card's power works. Seed: 003_a3e523365b63d62b.txt "Black cards while
/// batting, Green cards while bowling, and Blue cards during either."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Black,
    Green,
    Blue,
}

impl Colour {
    pub fn usable_in(self, role: Role) -> bool {
        matches!(
            (self, role),
            (Colour::Blue, _) | (Colour::Black, Role::Batting) | (Colour::Green, Role::Bowling)
        )
    }
}

/// The one engine hook a card plugs into, with its numbers. Each variant is applied in
/// exactly one place: choice hooks in `cards::apply_powers`, passive ones in
/// `cards::RoleMods::from_cards`, `extra_roll` in the roll limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Hook {
    /// Choice: after the rolls, change one of your dice to `face`.
    SetDie { face: Face },
    /// Choice: after the rolls, spend `xp_per_defence` Xp per extra Defence, any number of times.
    BuyDefence { xp_per_defence: u32 },
    /// Batting: `amount` extra Defence every over.
    ExtraDefence { amount: u32 },
    /// Bowling: `amount` of the batsman's Defence faces are ignored.
    CancelDefence { amount: u32 },
    /// Bowling: `amount` extra wickets when at least one wicket is taken.
    ExtraWicketIfAny { amount: u32 },
    /// Your own `face` has no effect (e.g. wides give no runs).
    IgnoreOwnFace { face: Face },
    /// `amount` extra `face` results when you rolled at least one `face`.
    FaceBonusIfAny { face: Face, amount: u32 },
    /// `amount` extra Xp whenever you gain at least one Xp in an over.
    XpBonusOnGain { amount: u32 },
    /// `amount` Xp in every over you play.
    XpPerOver { amount: u32 },
    /// Batting: each `face` left over after making sets scores `runs`.
    LeftoverRuns { face: Face, runs: u32 },
    /// Batting: a set of `face` needs only `size` dice.
    SetSize { face: Face, size: u32 },
    /// Batting: `bonus` runs when the over's runs (after saves) reach `min_runs`.
    RunsBonus { min_runs: u32, bonus: u32 },
    /// `rolls` extra rolls per turn (not in an eliminated bowler's last over).
    ExtraRoll { rolls: u32 },
}

impl Hook {
    /// The roles in which this hook has any meaning; a card's colour must fit it.
    fn roles(&self) -> &'static [Role] {
        match self {
            Hook::ExtraDefence { .. } | Hook::LeftoverRuns { .. } | Hook::SetSize { .. } => &[Role::Batting],
            Hook::RunsBonus { .. } | Hook::BuyDefence { .. } => &[Role::Batting],
            Hook::CancelDefence { .. } | Hook::ExtraWicketIfAny { .. } => &[Role::Bowling],
            Hook::SetDie { face } | Hook::IgnoreOwnFace { face } | Hook::FaceBonusIfAny { face, .. } => {
                if face.is_batting() && face.is_bowling() {
                    &[Role::Batting, Role::Bowling]
                } else if face.is_batting() {
                    &[Role::Batting]
                } else {
                    &[Role::Bowling]
                }
            }
            Hook::XpBonusOnGain { .. } | Hook::XpPerOver { .. } | Hook::ExtraRoll { .. } => {
                &[Role::Batting, Role::Bowling]
            }
        }
    }

    /// Hooks that need the owner to choose something when they stop rolling.
    pub fn is_choice(&self) -> bool {
        matches!(self, Hook::SetDie { .. } | Hook::BuyDefence { .. })
    }
}

/// Whether a card is printed in the seed or designed for this project.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    Seed,
    Designed,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct XpCardDef {
    pub id: String,
    pub name: String,
    pub cost: u32,
    pub colour: Colour,
    pub origin: Origin,
    pub text: String,
    pub hook: Hook,
}

/// When a championship card is won.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Award {
    /// First batsman whose final dice show `sixes` sixes.
    FirstSix { sixes: u32 },
    /// First bowler to take `wickets` wickets in one over.
    HatTrick { wickets: u32 },
    /// First bowler to take another player's last wicket.
    AllOut,
    /// First bowler to save `min_saved` runs in an over where the batsman made `min_runs`.
    BestFielder { min_runs: u32, min_saved: u32 },
    /// Most wickets taken at the end (shared on a tie).
    PurpleCap,
    /// Most runs scored at the end (shared on a tie).
    OrangeCap,
}

impl Award {
    pub fn at_game_end(&self) -> bool {
        matches!(self, Award::PurpleCap | Award::OrangeCap)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChampionshipDef {
    pub id: String,
    pub name: String,
    pub points: u32,
    pub award: Award,
}

/// "`size` dice showing `face` score `runs`". Seed: 003_a3e523365b63d62b.txt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunSet {
    pub face: Face,
    pub size: u32,
    pub runs: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    pub batting_die: Vec<Face>,
    /// [ASSUMED] the sixth face is a second `dot`.
    pub bowling_die: Vec<Face>,
    pub dice_per_roll: u32,
    pub rolls_per_turn: u32,
    /// Rolls of the batsman facing an eliminated bowler ("rolls their dice just once").
    pub last_over_rolls: u32,
    pub rounds: u32,
    pub start_xp: u32,
    pub market_size: u32,
    pub elimination_wickets: u32,
    pub xp_per_point: u32,
    pub run_sets: Vec<RunSet>,
    /// [ASSUMED] stadium pairing: the bowler is the player this many places after the
    /// batsman in the round's player order (wrapping).
    pub stadium_bowler_offset: u32,
    /// [ASSUMED] the match ends at once when fewer active players remain (nobody to play).
    pub min_active_players: u32,
    /// [ASSUMED] whether eliminated players can hold the Purple/Orange cap.
    pub caps_consider_eliminated: bool,
    /// [ASSUMED] the least wickets/runs that can win a cap (nobody gets a cap for zero).
    pub cap_minimum: u32,
    pub championship_cards: Vec<ChampionshipDef>,
    pub xp_cards: Vec<XpCardDef>,
}

/// Why the embedded ruleset is unusable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesetError {
    #[error("ruleset JSON does not parse: {0}")]
    Parse(String),
    #[error("field `{field}` is invalid: {why}")]
    Invalid { field: String, why: String },
}

fn invalid(field: impl Into<String>, why: impl Into<String>) -> RulesetError {
    RulesetError::Invalid {
        field: field.into(),
        why: why.into(),
    }
}

impl Ruleset {
    pub fn parse(json: &str) -> Result<Self, RulesetError> {
        let ruleset: Ruleset = serde_json::from_str(json).map_err(|e| RulesetError::Parse(e.to_string()))?;
        ruleset.validate()?;
        Ok(ruleset)
    }

    fn validate(&self) -> Result<(), RulesetError> {
        if self.dice_per_roll == 0 || self.dice_per_roll > 12 {
            return Err(invalid("dice_per_roll", "must be 1..=12"));
        }
        for (field, die, role) in [
            ("batting_die", &self.batting_die, Role::Batting),
            ("bowling_die", &self.bowling_die, Role::Bowling),
        ] {
            if die.is_empty() {
                return Err(invalid(field, "a die needs at least one face"));
            }
            if let Some(face) = die.iter().find(|f| !f.belongs_to(role)) {
                return Err(invalid(
                    field,
                    format!("face {face:?} does not belong on this die"),
                ));
            }
        }
        for (field, value) in [
            ("rolls_per_turn", self.rolls_per_turn),
            ("last_over_rolls", self.last_over_rolls),
            ("rounds", self.rounds),
            ("elimination_wickets", self.elimination_wickets),
            ("xp_per_point", self.xp_per_point),
            ("stadium_bowler_offset", self.stadium_bowler_offset),
        ] {
            if value == 0 {
                return Err(invalid(field, "must be at least 1"));
            }
        }
        if self.min_active_players < 2 {
            return Err(invalid(
                "min_active_players",
                "a match needs at least 2 active players",
            ));
        }
        for (i, set) in self.run_sets.iter().enumerate() {
            if set.size == 0 || !set.face.is_batting() {
                return Err(invalid(
                    format!("run_sets[{i}]"),
                    "size must be >= 1 and face a batting face",
                ));
            }
        }
        let mut ids = BTreeSet::new();
        for (i, card) in self.xp_cards.iter().enumerate() {
            let field = format!("xp_cards[{i}] ({})", card.id);
            if !ids.insert(card.id.as_str()) {
                return Err(invalid(field, "duplicate id"));
            }
            if card.cost == 0 {
                return Err(invalid(format!("{field}.cost"), "must be at least 1"));
            }
            let roles = card.hook.roles();
            let fits = match card.colour {
                Colour::Black => roles.contains(&Role::Batting),
                Colour::Green => roles.contains(&Role::Bowling),
                Colour::Blue => roles.len() == 2,
            };
            if !fits {
                return Err(invalid(
                    format!("{field}.colour"),
                    "the hook has no effect in the role(s) this colour allows",
                ));
            }
            match &card.hook {
                Hook::BuyDefence { xp_per_defence: 0 } => {
                    return Err(invalid(
                        format!("{field}.hook.xp_per_defence"),
                        "must be at least 1",
                    ));
                }
                Hook::SetSize { size: 0, .. } => {
                    return Err(invalid(format!("{field}.hook.size"), "must be at least 1"));
                }
                Hook::SetSize { face, .. } | Hook::LeftoverRuns { face, .. }
                    if !self.run_sets.iter().any(|s| s.face == *face) =>
                {
                    return Err(invalid(format!("{field}.hook.face"), "face has no run set"));
                }
                _ => {}
            }
        }
        if (self.market_size as usize) > self.xp_cards.len() {
            return Err(invalid("market_size", "larger than the number of Xp cards"));
        }
        let mut champ_ids = BTreeSet::new();
        for (i, card) in self.championship_cards.iter().enumerate() {
            if !champ_ids.insert(card.id.as_str()) {
                return Err(invalid(format!("championship_cards[{i}]"), "duplicate id"));
            }
        }
        Ok(())
    }

    pub fn xp_card(&self, id: &str) -> Option<&XpCardDef> {
        self.xp_cards.iter().find(|c| c.id == id)
    }

    pub fn championship(&self, id: &str) -> Option<&ChampionshipDef> {
        self.championship_cards.iter().find(|c| c.id == id)
    }

    pub fn die(&self, role: Role) -> &[Face] {
        match role {
            Role::Batting => &self.batting_die,
            Role::Bowling => &self.bowling_die,
        }
    }
}

static RULESET: LazyLock<Ruleset> = LazyLock::new(|| match Ruleset::parse(RULESET_JSON) {
    Ok(ruleset) => ruleset,
    // The data is compiled in; a bad edit must stop every test at once, naming the field.
    Err(error) => panic!("data/champions/ruleset.json: {error}"),
});

/// The embedded, validated ruleset.
pub fn ruleset() -> &'static Ruleset {
    &RULESET
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_ruleset_is_valid_with_17_cards_6_from_the_seed() {
        let r = Ruleset::parse(RULESET_JSON).expect("valid");
        assert_eq!(r.xp_cards.len(), 17);
        assert_eq!(r.xp_cards.iter().filter(|c| c.origin == Origin::Seed).count(), 6);
        assert_eq!(r.championship_cards.len(), 6);
    }

    #[test]
    fn a_bad_field_is_named() {
        let json = RULESET_JSON.replace("\"rounds\": 5", "\"rounds\": 0");
        let err = Ruleset::parse(&json).unwrap_err();
        assert!(err.to_string().contains("rounds"), "{err}");
        let json = RULESET_JSON.replace("\"face\": \"save\" }", "\"face\": \"four\" }");
        let err = Ruleset::parse(&json).unwrap_err();
        assert!(err.to_string().contains("fielders_trap"), "{err}");
    }
}
