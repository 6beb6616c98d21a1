//! Per-match options. `{}` is a two-player match.

use crate::rules::SetupError;
use serde::{Deserialize, Serialize};

/// Seed: 003_a3e523365b63d62b.txt, 2 to 5 players (5 player order cards).
pub const MIN_PLAYERS: u8 = 2;
pub const MAX_PLAYERS: u8 = 5;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// Seats at the table, 2 to 5.
    pub players: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options { players: MIN_PLAYERS }
    }
}

impl Options {
    pub fn validated_players(&self) -> Result<u8, SetupError> {
        if (MIN_PLAYERS..=MAX_PLAYERS).contains(&self.players) {
            Ok(self.players)
        } else {
            Err(SetupError(format!(
                "`players` must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {}",
                self.players
            )))
        }
    }
}
