//! What a seat may ask for. Each command is legal in one phase only.

use super::field::Field;
use super::types::{Attitude, DistanceChoice, MissOption};
use serde::{Deserialize, Serialize};

/// Who bats first, chosen by the toss winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TossChoice {
    Bat,
    Bowl,
}

/// A CTG command. Players are named by their index (0..12) in their squad.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Sealed: drop one Pace or Spin bowler and give the batting order of the other 11.
    SelectSquad { drop: u8, batting_order: [u8; 11] },
    /// The toss winner bats or bowls first.
    Toss { choice: TossChoice },
    /// Fielding side, at the start of each over.
    ChooseBowler { bowler: u8 },
    /// Batting side, at the start of its innings.
    Openers {
        striker: u8,
        non_striker: u8,
        striker_attitude: Attitude,
        non_striker_attitude: Attitude,
    },
    /// Batting side, after a wicket.
    NextBatter { batter: u8, attitude: Attitude },
    /// Batting side (T10), after the bowler is chosen for overs 3-10.
    PowerPlay { call: bool },
    /// Fielding side, before every delivery (resubmit the same field to keep it).
    SetField { field: Field },
    /// Sealed, fielding side: index of the card in the bowler's deck.
    Bowl { card: u8 },
    /// Sealed, batting side: the zone (1-5) and the facing batter's attitude.
    Shot { zone: u8, attitude: Attitude },
    /// Batting side, after the reveal: the once-per-over skill cards.
    Skills { add_one: bool, roll_d8: bool },
    /// Batting side, on a Quick Single over card.
    QuickSingle { take: bool },
    /// Batting side, after the to-hit roll or the bounce roll: play the Re-roll card or not.
    Reroll { reroll: bool },
    /// Fielding side, after a miss with more than one way to take a wicket.
    Miss { option: MissOption },
    /// Batting side, after the distance roll.
    Distance { choice: DistanceChoice },
    /// Batting side, sealed until resolved: take the safe runs or try the extra one.
    Run { attempt: bool },
    /// Batting side, after a reviewable dismissal: use DRS or walk.
    Review { review: bool },
}
