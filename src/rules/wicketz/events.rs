//! What happened. Every chance outcome (shuffle, toss, spins, dealt cards) is in an event, so
//! folding a log rebuilds the match without dice.

use super::field::{Field, Position};
use super::indicator::{Delivery, Style};
use super::reading::{CatchSpins, Reading};
use super::strokes::{Line, Stroke};
use crate::rules::{Outcome, Seat};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum HowOut {
    Bowled,
    Lbw,
    Caught { zone: Position },
    RunOut { zone: Position },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Dismissal {
    /// Batting-order index (0 = batter no. 1).
    pub batter: u8,
    pub how: HowOut,
}

/// One delivery, wides included, with everything needed to score it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Ball {
    pub delivery: Delivery,
    /// Batting-order index of the batter on strike.
    pub striker: u8,
    /// `None` for a wide (no card, no stroke).
    pub stroke: Option<Stroke>,
    pub card: Option<u16>,
    /// The card was the batter's wild card, not a dealt one.
    pub wild_card: bool,
    pub reading: Option<Reading>,
    pub catch: Option<CatchSpins>,
    pub bat_runs: u8,
    pub byes: u8,
    /// Wide and no-ball extras (they never change ends).
    pub extras: u8,
    /// Counts towards the six balls of the over (not a wide or a no-ball).
    pub legal: bool,
    pub dismissal: Option<Dismissal>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// The dispenser's new order. Redacted for every viewer: the order is never sent.
    DispenserShuffled {
        order: Vec<u16>,
    },
    TossWon {
        seat: Seat,
    },
    InningsChosen {
        batting_first: Seat,
    },
    InningsOpened {
        number: u8,
        batting: Seat,
    },
    OverStarted {
        number: u16,
        style: Style,
        line: Line,
        field: Field,
    },
    /// The pre-spin of an off- or leg-side line: red (good) or black (strays).
    LineSpun {
        good: bool,
    },
    /// Drawn face up; both sides see it.
    WildCardDrawn {
        card: u16,
    },
    Delivered {
        delivery: Delivery,
    },
    CardDealt {
        card: u16,
    },
    BallCompleted {
        ball: Ball,
    },
    OverCompleted {
        number: u16,
        runs: u32,
    },
    InningsClosed {
        number: u8,
        runs: u32,
        wickets: u8,
        legal_balls: u32,
        merit: String,
    },
    MatchFinished {
        outcome: Outcome,
    },
}
