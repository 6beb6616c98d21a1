//! What happened. Every event is a small `Copy` value holding every die face it used, so a
//! log replays without dice and the simulator allocates nothing per ball.

use super::field::Field;
use super::phase::Phase;
use super::types::{Attitude, Dismissal, MissOption};
use crate::rules::Seat;
use serde::{Deserialize, Serialize};

/// A side's sealed squad choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SquadChoice {
    pub drop: u8,
    pub batting_order: [u8; 11],
}

/// A batter's sealed shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Shot {
    pub zone: u8,
    pub attitude: Attitude,
}

/// What a die roll decided, for the log and for people reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RollFor {
    Howzat,
    BowledChance,
    SlipCatch,
    Catch,
    RunOut,
    BoundaryCard,
    ExpressSeven,
    ExpressSixes,
    ExpressRunOut,
    Review,
}

/// The batting side's once-per-over skill cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Skill {
    AddOne,
    RollD8,
}

/// The summary of one delivery (express, legal, no-ball or free hit). The score is the sum
/// of these and nothing else.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BallEnd {
    /// Runs credited to the batter.
    pub runs: u8,
    /// No-ball extras.
    pub extras: u8,
    /// Counts as one of the over's six.
    pub legal: bool,
    /// 4 or 6 when the runs were a boundary, else 0.
    pub boundary: u8,
    /// Set when a batter is out; the batter at the striker's end after crossing is out.
    pub wicket: Option<Dismissal>,
    /// The batters crossed an odd number of times.
    pub swap: bool,
    /// Resolved by an express value, not a delivery.
    pub express: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Sealed: `choice` is hidden from everyone but `seat` until both are in.
    SquadChosen {
        seat: Seat,
        choice: Option<SquadChoice>,
    },
    SquadsRevealed {
        choices: [SquadChoice; 2],
    },
    PitchDrawn {
        card: u8,
    },
    TossWon {
        seat: Seat,
    },
    InningsStarted {
        innings: u8,
        batting: Seat,
    },
    BowlerChosen {
        bowler: u8,
    },
    /// A batter walks in at the vacant end (the striker's end first).
    BatterIn {
        batter: u8,
        attitude: Attitude,
    },
    PowerPlay {
        called: bool,
    },
    /// Face down: hidden from every viewer.
    OverDealt {
        cards: Option<[u8; 6]>,
    },
    OverCardRevealed {
        slot: u8,
        card: u8,
    },
    FieldSet {
        field: Field,
    },
    /// Sealed: `card` hidden from all but the fielding seat until the reveal.
    BowlSealed {
        card: Option<u8>,
    },
    /// Sealed: `shot` hidden from all but the batting seat until the reveal.
    ShotSealed {
        shot: Option<Shot>,
    },
    Revealed {
        card: u8,
        shot: Shot,
        advantage: i8,
    },
    SkillPlayed {
        skill: Skill,
        advantage: i8,
    },
    QuickSingle {
        taken: bool,
    },
    Delivered {
        bowl: u8,
        bowl_sides: u8,
        bat: u8,
        bat_sides: u8,
    },
    ToHitRerolled {
        bat: u8,
    },
    MissChosen {
        option: MissOption,
    },
    Roll {
        roll_for: RollFor,
        face: u8,
        sides: u8,
    },
    /// The distance die after its rules: `rolled` is the face, `distance` the value used.
    Distance {
        rolled: u8,
        distance: u8,
        rerolled: bool,
        added_one: bool,
    },
    /// The bounce face (1-6) of the die of the batter's attitude.
    Bounce {
        face: u8,
        rerolled: bool,
    },
    RunDecided {
        attempt: bool,
    },
    ConfidenceChanged {
        player: u8,
        confidence: i8,
    },
    /// A dismissal waiting for the batting side's DRS decision.
    Appeal {
        dismissal: Dismissal,
    },
    Reviewed {
        face: u8,
        overturned: bool,
    },
    BallEnded {
        ball: BallEnd,
    },
    OverEnded,
    InningsEnded {
        innings: u8,
        runs: u16,
        wickets: u8,
    },
    MatchEnded {
        winner: Option<Seat>,
    },
    /// What the game waits for next.
    Await {
        phase: Phase,
    },
}
