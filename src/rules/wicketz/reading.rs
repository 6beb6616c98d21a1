//! Reading a dealt card for the nominated stroke: the card reading order.
//!
//! Seed: 002_5b76236006f2f885.txt "The right-hand column should be read initially, but if this
//! does not apply then the central column is read in conjunction with the numbered 'window'
//! display." Pure: no dice. The catch indicator is spun afterwards (see `catch`), only when
//! the reading is [`Reading::CatchChance`].

use super::cards::{Card, CardKind, CardResult, Code};
use super::data::Ruleset;
use super::field::{Field, Position};
use super::indicator::Delivery;
use super::strokes::Stroke;
use serde::{Deserialize, Serialize};

/// What the card says happened to this ball, before any catch spin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Reading {
    /// "Bowled if ..." applied.
    Bowled,
    /// "L.B.W. if ..." applied.
    Lbw,
    /// "Run out if occupied" with a fielder in the coded zone.
    RunOut {
        zone: Position,
    },
    /// "1 bye": byes, which count for changing ends.
    Byes {
        runs: u8,
    },
    /// "Played and missed".
    PlayedAndMissed,
    /// Seed "The Overthrow Rule": occupied zone 1 run, empty zone 2 runs.
    Overthrows {
        zone: Position,
        occupied: bool,
        runs: u8,
    },
    /// ★: no score.
    NoScore,
    /// Window 0: the ball stays at ring 0, no run; or a fielder in the zone on a plain card.
    Fielded {
        zone: Position,
    },
    /// Nobody in the zone: the window's runs.
    Runs {
        zone: Position,
        runs: u8,
    },
    /// Seed "Fielding - Saving Runs": a four on a line with a fielder in ring 2 or 3.
    SavedBoundary {
        letter: char,
        runs: u8,
    },
    Four {
        letter: char,
    },
    Six {
        letter: char,
    },
    /// A fielder in the zone of a CATCH card: the catch rule decides.
    CatchChance {
        zone: Position,
    },
}

impl Reading {
    /// Runs off the bat (including overthrows and saved boundaries).
    pub fn bat_runs(self) -> u8 {
        match self {
            Reading::Overthrows { runs, .. }
            | Reading::Runs { runs, .. }
            | Reading::SavedBoundary { runs, .. } => runs,
            Reading::Four { .. } => 4,
            Reading::Six { .. } => 6,
            _ => 0,
        }
    }

    pub fn byes(self) -> u8 {
        match self {
            Reading::Byes { runs } => runs,
            _ => 0,
        }
    }
}

/// Reads `card` for `stroke` against `delivery` and `field`.
///
/// On a no-ball the batter "can only be dismissed by a run out" (seed): bowled and L.B.W.
/// results do not apply (the code is read instead) and a catch chance is only fielded.
pub fn read_card(card: &Card, stroke: Stroke, delivery: Delivery, field: &Field, rules: &Ruleset) -> Reading {
    let row = card.row(stroke);
    let zone = card.zone(row.code);
    let no_ball = delivery == Delivery::NoBall;
    let from_result = match row.result {
        CardResult::Nothing => None,
        CardResult::BowledIf { delivery: when } => (when == delivery && !no_ball).then_some(Reading::Bowled),
        CardResult::LbwIf { delivery: when } => (when == delivery && !no_ball).then_some(Reading::Lbw),
        CardResult::RunOutIfOccupied => zone
            .filter(|z| field.occupied(*z))
            .map(|zone| Reading::RunOut { zone }),
        CardResult::Byes { runs } => Some(Reading::Byes { runs }),
        CardResult::PlayedAndMissed => Some(Reading::PlayedAndMissed),
        CardResult::AddOverthrows => zone.map(|zone| {
            let occupied = field.occupied(zone);
            let runs = if occupied {
                rules.overthrow_runs.occupied
            } else {
                rules.overthrow_runs.empty
            };
            Reading::Overthrows { zone, occupied, runs }
        }),
    };
    if let Some(reading) = from_result {
        return reading;
    }
    let Code::Letter(letter) = row.code else {
        return Reading::NoScore;
    };
    let letter_char = char::from(b'A' + letter);
    match (card.window, zone) {
        (_, Some(zone)) if field.occupied(zone) => {
            if card.kind == CardKind::Catch && !no_ball {
                Reading::CatchChance { zone }
            } else {
                Reading::Fielded { zone }
            }
        }
        (0, Some(zone)) => Reading::Fielded { zone },
        (runs, Some(zone)) => Reading::Runs { zone, runs },
        (4, None) if field.guards_boundary(letter) => Reading::SavedBoundary {
            letter: letter_char,
            runs: rules.saved_boundary_runs,
        },
        (4, None) => Reading::Four { letter: letter_char },
        _ => Reading::Six { letter: letter_char },
    }
}

/// The catch indicator's spins for one chance: spun until "not out" or the lives run out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CatchSpins {
    pub lives: u8,
    /// One entry per spin: `true` = "not out" (dropped).
    pub spins: Vec<bool>,
}

impl CatchSpins {
    pub fn caught(&self) -> bool {
        !self.spins.iter().any(|not_out| *not_out)
    }
}

/// Seed: 002_5b76236006f2f885.txt "The Catch Rule": `spin` gives one spin of the catch
/// indicator (`true` = "not out"); tests pass exact spins, `decide` passes the dice.
pub fn catch_rule(lives: u8, mut spin: impl FnMut() -> bool) -> CatchSpins {
    let mut spins = Vec::with_capacity(usize::from(lives));
    for _ in 0..lives {
        let not_out = spin();
        spins.push(not_out);
        if not_out {
            break;
        }
    }
    CatchSpins { lives, spins }
}
