//! The faces printed on the two kinds of dice.
//!
//! One enum covers both dice because the `Xp` face is printed on both, and a card that
//! changes a die names a face without caring which die it came from. Which faces a die
//! carries is ruleset data (`batting_die`, `bowling_die`), checked when the data loads.

use serde::{Deserialize, Serialize};

/// A die face. Seed: 003_a3e523365b63d62b.txt "Each die face has the following result".
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// Batting: 1 run per die.
    One,
    /// Batting: 2 runs per pair.
    Two,
    /// Batting: 4 runs per set of three.
    Four,
    /// Batting: 6 runs per set of four.
    Six,
    /// Either die: 1 Xp token to the roller.
    Xp,
    /// Batting: cancels one `Wicket`.
    Defence,
    /// Bowling: takes one wicket.
    Wicket,
    /// Bowling: gives the batsman 1 run.
    Wide,
    /// Bowling: no effect.
    Dot,
    /// Bowling: removes 1 of the batsman's runs this over.
    Save,
}

/// Which side of the over a die or a player is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Batting,
    Bowling,
}

impl Face {
    /// Faces that only make sense on a batting die (what a black `set_die` may produce).
    pub fn is_batting(self) -> bool {
        matches!(
            self,
            Face::One | Face::Two | Face::Four | Face::Six | Face::Xp | Face::Defence
        )
    }

    /// Faces that only make sense on a bowling die.
    pub fn is_bowling(self) -> bool {
        matches!(
            self,
            Face::Wicket | Face::Xp | Face::Wide | Face::Dot | Face::Save
        )
    }

    pub fn belongs_to(self, role: Role) -> bool {
        match role {
            Role::Batting => self.is_batting(),
            Role::Bowling => self.is_bowling(),
        }
    }
}

/// How many dice in `faces` show `face`.
pub fn count(faces: &[Face], face: Face) -> u32 {
    faces.iter().filter(|f| **f == face).count() as u32
}
