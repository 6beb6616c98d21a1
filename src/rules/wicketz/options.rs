//! Per-match options. `{}` is a standard 20-over, one-innings match with no advanced rules.

use serde::{Deserialize, Serialize};

/// Seed: 002_5b76236006f2f885.txt "The Duration: Can be decided before commencing".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// Overs per innings (the seed's "average" game is 40).
    pub overs: u16,
    /// One or two innings per side.
    pub innings_per_side: u8,
    /// Seed: a no-ball not scored from adds one extra, "subject to change": off gives no extra.
    pub no_ball_extra: bool,
    pub fielding_restriction: FieldingRestriction,
    /// What the Merit rating is scaled to.
    pub merit_scale: MeritScale,
    pub reshuffle: Reshuffle,
    /// The last innings stops as soon as the chasing side passes the target.
    pub stop_when_target_passed: bool,
    /// Advanced: the bowler declares a line per over; off/leg lines are pre-spun.
    pub bowling_variations: bool,
    /// Advanced: after a quiet over the batter draws a face-up card for one ball of the next.
    pub wild_card: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            overs: 20,
            innings_per_side: 1,
            no_ball_extra: true,
            fielding_restriction: FieldingRestriction::Scaled,
            merit_scale: MeritScale::AgreedOvers,
            reshuffle: Reshuffle::EveryCycle,
            stop_when_target_passed: true,
            bowling_variations: false,
            wild_card: false,
        }
    }
}

/// Seed example: "During the first 15 overs only 2 fielders ... the number of overs and fielders
/// can be varied and agreed on prior to the start of the game."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum FieldingRestriction {
    /// The data's example (15 of 40 overs, 2 fielders outside rings 0-1), scaled to `overs`.
    #[default]
    Scaled,
    Off,
    /// The first `overs` overs allow at most `max_outside_inner` fielders outside rings 0 and 1.
    Agreed {
        overs: u16,
        max_outside_inner: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MeritScale {
    /// The innings' agreed overs, so a side all out early is rated against the full length.
    #[default]
    AgreedOvers,
    /// The overs actually bowled (balls / 6, at least one over).
    OversBowled,
}

/// Seed: "The cards should be shuffled prior to the first game played"; used cards go "to the
/// rear of the box" after each over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reshuffle {
    /// Also reshuffle whenever every card has been dealt since the last shuffle, so a client
    /// that remembers the dealt cards can never predict the recycled ones.
    #[default]
    EveryCycle,
    /// Only the shuffle before the match, as in the box.
    SeedOnly,
}
