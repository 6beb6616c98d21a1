//! Small shared vocabulary of the game: formats, attitudes, bowling types, zones.
//!
//! Everything here is `Copy` and at most a few bytes, because these values travel in every
//! per-ball event and the simulator plays millions of balls a second.

use serde::{Deserialize, Serialize};

/// The match length. Seed: 001_10260e69616bd853.txt "a 10 Over game (T10) or a 20 Over game (T20)".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    #[default]
    T10,
    T20,
}

impl Format {
    /// Overs per innings.
    pub fn overs(self) -> u8 {
        match self {
            Format::T10 => 10,
            Format::T20 => 20,
        }
    }

    /// Faces of the distance die, which is also the outermost distance on the field.
    /// Seed: 001_10260e69616bd853.txt "T10 format uses a D6 ... T20 format uses a D8".
    pub fn distance_sides(self) -> u8 {
        match self {
            Format::T10 => 6,
            Format::T20 => 8,
        }
    }

    /// Distance bands per zone: ceil(distance / 2).
    pub fn areas(self) -> u8 {
        self.distance_sides() / 2
    }

    /// Seed: 000_c44664d019aef0c0.txt "Each Bowler may only bowl 2 overs" (T10); 3 in T20.
    pub fn max_overs_per_bowler(self) -> u8 {
        match self {
            Format::T10 => 2,
            Format::T20 => 3,
        }
    }

    /// The last over (1-based) of the opening restriction of 2 fielders in the outfield.
    pub fn restricted_overs(self) -> u8 {
        match self {
            Format::T10 => 2,
            Format::T20 => 6,
        }
    }

    /// Whether one zone may hold a third fielder (T20 only).
    pub fn one_zone_of_three(self) -> bool {
        matches!(self, Format::T20)
    }

    /// Whether the batting side has its once-per-innings DRS review. Seed:
    /// 000_c44664d019aef0c0.txt rule cards, T10 "EXPRESS PLAY: 2 (OVERS 2-9) DRS: DISABLED",
    /// T20 "EXPRESS PLAY: 2 (OVERS 2-19) DRS: ENABLED".
    pub fn has_drs(self) -> bool {
        matches!(self, Format::T20)
    }

    /// Whether the batting side may call a Power Play over (T10 only, overs 3-10).
    pub fn has_power_play(self) -> bool {
        matches!(self, Format::T10)
    }
}

/// The batter's attitude token: it picks the bounce die and several card effects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Attitude {
    Aggressive,
    #[default]
    Defensive,
}

impl Attitude {
    pub fn index(self) -> usize {
        match self {
            Attitude::Aggressive => 0,
            Attitude::Defensive => 1,
        }
    }
}

/// A bowler's type, which picks the bowling deck, the over deck and the express table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BowlType {
    Pace,
    Spin,
    Medium,
}

impl BowlType {
    pub const ALL: [BowlType; 3] = [BowlType::Pace, BowlType::Spin, BowlType::Medium];

    pub fn index(self) -> usize {
        match self {
            BowlType::Pace => 0,
            BowlType::Spin => 1,
            BowlType::Medium => 2,
        }
    }
}

/// A player card's role. Only bowlers and all-rounders may bowl.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Batter,
    AllRounder,
    Pace,
    Spin,
}

/// What a bowler may do instead of nothing after a miss by the bowled-chance margin, or
/// with a Howzat! card. Seed: 000_c44664d019aef0c0.txt conflicts rule: one option only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MissOption {
    Bowled,
    Slips,
    Howzat,
}

impl MissOption {
    pub const ALL: [MissOption; 3] = [MissOption::Bowled, MissOption::Slips, MissOption::Howzat];

    pub fn bit(self) -> u8 {
        match self {
            MissOption::Bowled => 1,
            MissOption::Slips => 2,
            MissOption::Howzat => 4,
        }
    }
}

/// How a batter got out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Dismissal {
    /// The bowler's die maximum against a batter's 1: never reviewed, never re-rolled.
    CleanBowled,
    Bowled,
    Lbw,
    Caught,
    CaughtInSlips,
    RunOut,
}

impl Dismissal {
    /// DRS may review LBW, caught and (not clean) bowled, never a run out or a clean bowled.
    /// Seed: 000_c44664d019aef0c0.txt "'DRS' cannot be used when Run-Out or Clean Bowled."
    pub fn reviewable(self) -> bool {
        !matches!(self, Dismissal::CleanBowled | Dismissal::RunOut)
    }
}

/// The over-deck effects. Seed: 000_c44664d019aef0c0.txt card texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    Howzat,
    NoBall,
    GreatCatch,
    Inspired,
    Boundary,
    QuickSingle,
    RunOut,
    GreatShot,
    PlayOn,
}

/// The batter's once-per-over skill cards, played when the bowl card is revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DistanceChoice {
    /// Keep the distance die as it is.
    Accept,
    /// Add 1 (Pace, strike by 3 or more; never past the format's maximum).
    AddOne,
    /// Play the once-per-innings Re-roll Distance skill card.
    Reroll,
}

/// The zone distance along 1-2-3-4-5, never through Bye (zone 0).
/// Seed: 001_10260e69616bd853.txt "The BYE zone is not counted through."
pub fn zone_distance(a: u8, b: u8) -> u8 {
    a.abs_diff(b)
}

/// [FIX] Which batting attitude gets which bowled-chance die after a miss by the margin. The
/// seeds read both ways: the "Bowled" paragraph of 000_c44664d019aef0c0.txt and of
/// 001_10260e69616bd853.txt gives "Defensive, a D8 ... 7+ being Bowled ... Aggressive, a D6 ...
/// 6 being Bowled" (default); the "MISSED STRIKE" paragraph of seed 000 gives "Aggressive ...
/// Bowled Out on a 7 or 8 ... Defensive ... on a 6". The dice are ruleset data per reading.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BowledChanceReading {
    /// Defensive D8 7+, Aggressive D6 6 (the "Bowled" paragraph of seeds 000 and 001).
    #[default]
    BowledParagraph,
    /// Aggressive D8 7+, Defensive D6 6 (the "MISSED STRIKE" paragraph of seed 000).
    MissedStrike,
}

impl BowledChanceReading {
    pub fn index(self) -> usize {
        match self {
            BowledChanceReading::BowledParagraph => 0,
            BowledChanceReading::MissedStrike => 1,
        }
    }
}
