//! What happened, including every die face drawn. Folding these rebuilds the state.

use super::faces::{Face, Role};
use super::resolve::OverResult;
use super::state::Points;
use crate::rules::Seat;
use serde::{Deserialize, Serialize};

/// The face-down Xp cards: everyone sees how many, nobody sees the order (`redact` drops it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HiddenPile {
    pub size: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Vec<String>>,
}

/// A power chosen when a player stops rolling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum PowerUse {
    /// A `set_die` card: change die `die` (0-based) to the card's face.
    SetDie { card: String, die: u8 },
    /// A `buy_defence` card: pay its Xp price `times` times.
    BuyDefence { card: String, times: u32 },
}

impl PowerUse {
    pub fn card(&self) -> &str {
        match self {
            PowerUse::SetDie { card, .. } | PowerUse::BuyDefence { card, .. } => card,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// Setup: the Xp cards shuffled, the first ones face up.
    DeckShuffled {
        market: Vec<String>,
        draw_pile: HiddenPile,
    },
    /// A round begins with a freshly shuffled player order.
    RoundStarted {
        round: u32,
        order: Vec<Seat>,
    },
    /// An over begins. `bowler: None` is an eliminated bowler's last over.
    OverStarted {
        index: u32,
        batsman: Seat,
        bowler: Option<Seat>,
        batting_rolls: u32,
        bowling_rolls: u32,
    },
    /// Dice `dice` (0-based) were (re-)rolled and now show `faces`, in the same order.
    DiceRolled {
        seat: Seat,
        role: Role,
        roll: u32,
        dice: Vec<u8>,
        faces: Vec<Face>,
    },
    /// A player stopped; `faces` are final after their powers.
    TurnEnded {
        seat: Seat,
        role: Role,
        powers: Vec<PowerUse>,
        faces: Vec<Face>,
        xp_spent: u32,
        bought_defence: u32,
    },
    OverResolved {
        batsman: Seat,
        bowler: Option<Seat>,
        result: OverResult,
    },
    ChampionshipWon {
        seat: Seat,
        card: String,
    },
    PlayerEliminated {
        seat: Seat,
        by: Option<Seat>,
    },
    /// It is `seat`'s turn to buy Xp cards.
    BuyTurn {
        seat: Seat,
    },
    CardBought {
        seat: Seat,
        card: String,
        cost: u32,
        /// The card drawn from the pile into the freed market slot.
        replacement: Option<String>,
    },
    Passed {
        seat: Seat,
    },
    MatchEnded {
        points: Vec<Points>,
        placings: Vec<u8>,
        summary: String,
    },
}
