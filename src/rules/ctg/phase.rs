//! What the game is waiting for: the phase of the state, which the waiting event carries too.
//!
//! A file of its own so that the events and the state both name it and the state alone imports
//! the events.

use serde::{Deserialize, Serialize};

/// What the game is waiting for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before `start`.
    #[default]
    NotStarted,
    /// Both seats, sealed.
    SelectSquad,
    /// The toss winner.
    Toss,
    /// Fielding side.
    ChooseBowler,
    /// Batting side.
    Openers,
    /// Batting side.
    NextBatter,
    /// Batting side (T10).
    PowerPlay,
    /// Fielding side.
    SetField,
    /// Both seats, sealed: bowl card and shot.
    Sealed,
    /// Batting side.
    Skills,
    /// Batting side.
    QuickSingle,
    /// Batting side.
    RerollToHit,
    /// Fielding side.
    Miss,
    /// Batting side.
    Distance,
    /// Batting side.
    RerollBounce,
    /// Batting side.
    Run,
    /// Batting side.
    Review,
    MatchOver,
}
