//! The arithmetic of one ball, as pure functions of die faces.
//!
//! The engine draws the dice and feeds the faces in here, so every rule can be tested with
//! exact faces and no seed hunting.

use super::data::BounceFace;
use super::types::{Attitude, BowlType, Format};

/// Lowest and highest Advantage. Seed: 001_10260e69616bd853.txt "The meter cannot go above
/// 3 for the Batter or 1 for the Bowler."
pub const ADVANTAGE_MIN: i8 = -1;
pub const ADVANTAGE_MAX: i8 = 3;
/// Confidence bounds. Seed: 000_c44664d019aef0c0.txt "cannot go above 3 or below -1".
pub const CONFIDENCE_MIN: i8 = -1;
pub const CONFIDENCE_MAX: i8 = 3;

/// Advantage after the bowl card is revealed.
/// Seed: 001_10260e69616bd853.txt "If the Batter's Shot chosen is in a Zone that matches a
/// shot on the Bowl card, the Batter gains full Advantage (3)"; otherwise one step per zone
/// line crossed, never through Bye. Specialist batters never drop below neutral
/// (seed 000_c44664d019aef0c0.txt "Specialist Batter").
pub fn advantage(confidence: i8, zone: u8, card_zones: u8, specialist: bool) -> i8 {
    let raw = if card_zones & (1 << zone) != 0 {
        ADVANTAGE_MAX
    } else {
        let nearest = (1..=5u8)
            .filter(|z| card_zones & (1 << z) != 0)
            .map(|z| z.abs_diff(zone))
            .min()
            .unwrap_or(0);
        confidence - nearest as i8
    };
    clamp_advantage(raw, specialist)
}

pub fn clamp_advantage(value: i8, specialist: bool) -> i8 {
    let floor = if specialist { 0 } else { ADVANTAGE_MIN };
    value.clamp(floor, ADVANTAGE_MAX)
}

pub fn clamp_confidence(value: i8) -> i8 {
    value.clamp(CONFIDENCE_MIN, CONFIDENCE_MAX)
}

/// What the two to-hit dice say, checked in the spec's order (ctg.md section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contact {
    /// Bowler's maximum face and batter's 1. Seed: 001_10260e69616bd853.txt "No effect,
    /// card ability, or re-roll can alter this result."
    CleanBowled,
    /// Seed: 001_10260e69616bd853.txt "A roll of 1 from the Bowler and a roll of 8 from the Batter".
    NaturalSix,
    /// Seed: 001_10260e69616bd853.txt "A roll of 1 from the Bowler and a roll of 6 or higher".
    NaturalFour,
    /// Seed: 001_10260e69616bd853.txt "An equal result (by dice face-value OR
    /// Advantage-adjusted result)".
    Block,
    /// Hit, by this margin.
    Strike(u8),
    /// Missed, by this margin.
    Miss(u8),
}

/// Classifies a delivery. `bowl_sides` is the bowler's die (6 or 8).
pub fn contact(bowl: u8, bowl_sides: u8, bat: u8, advantage: i8) -> Contact {
    if bowl == bowl_sides && bat == 1 {
        return Contact::CleanBowled;
    }
    if bowl == 1 && bat == 8 {
        return Contact::NaturalSix;
    }
    if bowl == 1 && bat >= 6 {
        return Contact::NaturalFour;
    }
    let batter = i16::from(bat) + i16::from(advantage.max(0));
    let bowler = i16::from(bowl) + i16::from((-advantage).max(0));
    if bat == bowl || batter == bowler {
        Contact::Block
    } else if batter > bowler {
        Contact::Strike((batter - bowler) as u8)
    } else {
        Contact::Miss((bowler - batter) as u8)
    }
}

/// The farthest distance the Pace add-one may reach, in both formats. Seed:
/// 000_c44664d019aef0c0.txt Pace card "add 1 to the distance roll (maximum total of 6)" and
/// "This can only adjust the Distance die to a maximum distance of 6"; 001_10260e69616bd853.txt
/// "(maximum distance of 6)".
pub const PACE_ADD_ONE_MAX_DISTANCE: u8 = 6;

/// Pace strikes by 3 or more may add 1 to the distance, to at most 6 (T20's D8 included).
/// Seed: 001_10260e69616bd853.txt "Strike against a Pace Bowler".
pub fn may_add_one(bowl_type: BowlType, margin: u8, distance: u8, format: Format) -> bool {
    let cap = PACE_ADD_ONE_MAX_DISTANCE.min(format.distance_sides());
    bowl_type == BowlType::Pace && margin >= 3 && distance < cap
}

/// Spin strikes by less than 3 lose 1 distance, never below 1.
/// Seed: 001_10260e69616bd853.txt "Strike against a Spin Bowler".
pub fn spin_distance(bowl_type: BowlType, margin: u8, distance: u8) -> u8 {
    if bowl_type == BowlType::Spin && margin < 3 {
        distance.saturating_sub(1).max(1)
    } else {
        distance
    }
}

/// The area of a distance: ceil(d / 2).
pub fn area_of(distance: u8) -> u8 {
    distance.div_ceil(2)
}

/// Where a struck ball ends after the distance and the bounce (no catch taken).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Travel {
    /// Distance in the outermost area and a green 2. Seed: 001_10260e69616bd853.txt.
    Six,
    /// Distance plus bounce beyond the format's maximum.
    Four,
    /// The ball stops in this area (1-based).
    Stops(u8),
}

pub fn travel(format: Format, distance: u8, bounce: BounceFace) -> Travel {
    let max = format.distance_sides();
    if area_of(distance) == format.areas() && !bounce.red && bounce.areas == 2 {
        Travel::Six
    } else if distance + bounce.areas > max {
        Travel::Four
    } else {
        Travel::Stops(area_of(distance + bounce.areas))
    }
}

/// The runs a stopped ball gives without risk, and with the extra run tried.
/// Seed: 001_10260e69616bd853.txt "Fielded / Run-Out" and 000_c44664d019aef0c0.txt
/// "EXTRA RUNS".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunChoice {
    pub safe: u8,
    pub attempt: u8,
    /// The least D6 face that runs the batter out if the attempt is made.
    pub run_out_min: u8,
}

/// Standard run-out roll on a fielded ball with a red bounce: D6 6. Seed:
/// 000_c44664d019aef0c0.txt "A standard Run-out attempt ... requiring a roll of 6 on a D6".
pub const RUN_OUT_FIELDED_MIN: u8 = 6;
/// An extra run, from an empty area or off a fielded green bounce: D6 5-6. Seed:
/// 000_c44664d019aef0c0.txt "EXTRA RUNS ... a result of 5 or 6 being a Run-Out"; a fielded
/// green bounce "will take 1 Run [2 in the outfield], unless they decide to attempt an Extra
/// Run (see below)", so it is the same roll.
pub const RUN_OUT_EXTRA_RUN_MIN: u8 = 5;
/// Run Out? over card: 4+. Seed: 000_c44664d019aef0c0.txt "4+ RUN OUT".
pub const RUN_OUT_CARD_MIN: u8 = 4;

pub fn run_choice(area: u8, fielded: bool, red: bool, run_out_card: bool) -> RunChoice {
    let outfield = area > 2;
    let (safe, min) = match (fielded, outfield, red) {
        (false, false, _) => (1, RUN_OUT_EXTRA_RUN_MIN),
        (false, true, _) => (2, RUN_OUT_EXTRA_RUN_MIN),
        (true, false, true) => (0, RUN_OUT_FIELDED_MIN),
        (true, false, false) => (1, RUN_OUT_EXTRA_RUN_MIN),
        (true, true, true) => (1, RUN_OUT_FIELDED_MIN),
        (true, true, false) => (2, RUN_OUT_EXTRA_RUN_MIN),
    };
    let min = if fielded && run_out_card {
        RUN_OUT_CARD_MIN
    } else {
        min
    };
    RunChoice {
        safe,
        attempt: safe + 1,
        run_out_min: min,
    }
}

/// Catch target for an area: the data's value, one less when red-outlined.
pub fn catch_target(catch_value: u8, red_outline: bool) -> u8 {
    if red_outline {
        catch_value.saturating_sub(1)
    } else {
        catch_value
    }
}

/// Runs of a Boundary over card. Seed: 000_c44664d019aef0c0.txt "D- 4 runs, A- Roll D6
/// 1-4 4 runs 5-6 6 runs".
pub fn boundary_card_runs(attitude: Attitude, d6: u8) -> u8 {
    match attitude {
        Attitude::Defensive => 4,
        Attitude::Aggressive if d6 >= 5 => 6,
        Attitude::Aggressive => 4,
    }
}

/// Runs of a Great Shot over card. Seed: 000_c44664d019aef0c0.txt "D - 3 RUNS, A - 4 RUNS".
pub fn great_shot_runs(attitude: Attitude) -> u8 {
    match attitude {
        Attitude::Defensive => 3,
        Attitude::Aggressive => 4,
    }
}

/// Runs of express values 1-4. Seed: 000_c44664d019aef0c0.txt "1 Dot ball ... 4 Three runs".
pub fn express_runs(value: u8) -> Option<u8> {
    match value {
        1..=4 => Some(value - 1),
        _ => None,
    }
}

/// Two express sixes in one over: D6 5+ bowled. Seed: 000_c44664d019aef0c0.txt "If two
/// subsequent Balls are drawn in express play, Bowler rolls a D6: 5+ Batter out - BOWLED".
pub const EXPRESS_SIXES_BOWLED_MIN: u8 = 5;
/// Howzat!: D6 5+ out LBW. Seed: 000_c44664d019aef0c0.txt "Roll D6 5+ Batter out, LBW".
pub const HOWZAT_MIN: u8 = 5;
/// Great Catch: D6 4+. Seed: 000_c44664d019aef0c0.txt "catch batter OUT on a 4+ (D6)".
pub const GREAT_CATCH_MIN: u8 = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contact_order() {
        assert_eq!(contact(6, 6, 1, 3), Contact::CleanBowled);
        assert_eq!(contact(8, 8, 1, 3), Contact::CleanBowled);
        assert_eq!(contact(6, 8, 1, 0), Contact::Miss(5));
        assert_eq!(contact(1, 6, 6, -1), Contact::NaturalFour);
        assert_eq!(contact(1, 6, 8, -1), Contact::NaturalSix);
        assert_eq!(contact(3, 6, 3, 2), Contact::Block);
        assert_eq!(contact(5, 6, 2, 3), Contact::Block);
        assert_eq!(contact(2, 6, 4, 1), Contact::Strike(3));
        assert_eq!(contact(5, 6, 2, -1), Contact::Miss(4));
    }
}
