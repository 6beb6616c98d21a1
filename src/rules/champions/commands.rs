//! What a seat may ask for.

use super::events::PowerUse;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum Command {
    /// Roll dice. The first roll of a turn rolls all six: send an empty `dice`. Later rolls
    /// re-roll the listed dice (0-based), any subset, including dice kept before.
    Roll {
        #[serde(default)]
        dice: Vec<u8>,
    },
    /// Stop rolling and apply the chosen powers; the dice are then final.
    Stop {
        #[serde(default)]
        powers: Vec<PowerUse>,
    },
    /// Buy a face-up Xp card by id.
    Buy { card: String },
    /// Stop buying for this round.
    // A struct variant, not a unit one: serde ignores extra fields next to the tag of a
    // unit variant, and unknown fields must be refused.
    Pass {},
}
