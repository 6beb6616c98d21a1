//! Fielders on the six zones: a bitmask, and the placement restrictions of each over.
//!
//! Bit `zone * 4 + area - 1` is set when a fielder stands in that area (zone 0 Bye, 1 Leg
//! Glance / Hook, 2 Pull / Big Shot, 3 On / Straight Drive, 4 Off / Cover Drive, 5 Square /
//! Late Cut; areas are distance bands, area = ceil(distance / 2)). One fielder per area is
//! then a property of the representation, and checks are a few bit counts.

use super::types::Format;
use serde::{Deserialize, Serialize};

/// Seed: 001_10260e69616bd853.txt "The Fielding team then places their 9 Fielder tokens".
pub const FIELDERS: u32 = 9;
/// Seed: 000_c44664d019aef0c0.txt Pace card "Up to 2 slips".
pub const MAX_SLIPS: u32 = 2;
/// Outfield limit after the opening overs. Seed: ctg.md section 1 (both formats: 5).
pub const OUTFIELD_LIMIT: u32 = 5;
/// Outfield limit in restricted overs and the Power Play over.
pub const RESTRICTED_OUTFIELD_LIMIT: u32 = 2;

/// The fielders' positions, on the wire a number: bit `zone * 4 + area - 1` (value
/// `1 << (zone * 4 + area - 1)`) is set when a fielder stands in area `area` (1-4, the
/// distance band: area = ceil(distance / 2), so 1-2 infield, 3-4 outfield) of zone `zone`
/// (0 Bye = the slips, 1 Leg Glance / Hook, 2 Pull / Big Shot, 3 On / Straight Drive,
/// 4 Off / Cover Drive, 5 Square / Late Cut). One fielder per area.
///
/// A field is legal (see the `set_field` ask's `rules`) when: it has exactly 9 fielders;
/// each stands on this format's field (zone 0: areas 1-2 only; zones 1-5: T10 areas 1-3,
/// T20 areas 1-4); zone 0 is used only when `slips_allowed` (a Pace bowler bowls), with at
/// most 2 slips; at most `outfield_limit` fielders stand in areas 3-4 (5 normally, 2 in
/// the restricted opening overs and a Power Play over); and each of zones 1-5 holds at most
/// 2 fielders, except that in T20 one zone may hold 3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Field(pub u32);

const ZONE_MASK: u32 = 0b1111;
const INFIELD_MASK: u32 = 0x0033_3333;

impl Field {
    pub const EMPTY: Field = Field(0);

    fn bit(zone: u8, area: u8) -> u32 {
        if zone > 5 || !(1..=4).contains(&area) {
            return 0;
        }
        1 << (u32::from(zone) * 4 + u32::from(area) - 1)
    }

    pub fn with(self, zone: u8, area: u8) -> Field {
        Field(self.0 | Field::bit(zone, area))
    }

    pub fn has(self, zone: u8, area: u8) -> bool {
        let bit = Field::bit(zone, area);
        bit != 0 && self.0 & bit != 0
    }

    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub fn in_zone(self, zone: u8) -> u32 {
        (self.0 >> (u32::from(zone) * 4) & ZONE_MASK).count_ones()
    }

    pub fn slips(self) -> u32 {
        self.in_zone(0)
    }

    /// Fielders in areas 3 and 4 of any zone.
    pub fn outfield(self) -> u32 {
        (self.0 & !INFIELD_MASK).count_ones()
    }

    /// Every (zone, area) with a fielder.
    pub fn spots(self) -> impl Iterator<Item = (u8, u8)> {
        (0u8..24)
            .filter(move |bit| self.0 & (1 << bit) != 0)
            .map(|bit| (bit / 4, bit % 4 + 1))
    }
}

/// What the field must respect for the coming ball (the rules are listed with `Field`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FieldRules {
    /// Decides the areas per zone (T10 3, T20 4) and whether one zone may hold 3 (T20).
    pub format: Format,
    /// Most fielders allowed in areas 3-4 over all zones for this ball.
    pub outfield_limit: u8,
    /// Slips (zone 0) only while a Pace bowler bowls.
    pub slips_allowed: bool,
}

/// Why a field is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldError {
    #[error("a field has exactly 9 fielders, this one has {0}")]
    WrongCount(u32),
    #[error("a fielder stands outside the field of this format")]
    OffTheField,
    #[error("slips (the Bye zone) may only be set while a Pace bowler bowls")]
    SlipsAgainstNonPace,
    #[error("at most 2 slips, and only in the Bye zone's infield")]
    TooManySlips,
    #[error("{count} fielders in the outfield break this over's limit of {limit}")]
    OutfieldLimit { count: u32, limit: u8 },
    #[error("zone {0} holds more fielders than the format allows")]
    ZoneOverfull(u8),
}

impl FieldRules {
    pub const fn new(format: Format, outfield_limit: u8, slips_allowed: bool) -> Self {
        FieldRules {
            format,
            outfield_limit,
            slips_allowed,
        }
    }

    /// Every area a fielder may stand in under this format: Bye infield, zones 1-5 to the
    /// format's last area.
    pub fn on_field(&self) -> u32 {
        let per_zone = (1u32 << self.format.areas()) - 1;
        0b11 | (per_zone * 0x1_1111) << 4
    }

    /// Whether one more fielder at (zone, area) keeps a partial field within the limits.
    pub fn fits(&self, field: Field, zone: u8, area: u8) -> bool {
        let next = field.with(zone, area);
        next != field
            && next.0 & !self.on_field() == 0
            && next.count() <= FIELDERS
            && (next.slips() == 0 || self.slips_allowed)
            && next.slips() <= MAX_SLIPS
            && next.outfield() <= u32::from(self.outfield_limit)
            && (zone == 0 || next.in_zone(zone) <= 2)
    }

    pub fn check(&self, field: Field) -> Result<(), FieldError> {
        let on_field = self.on_field();
        if field.0 & !on_field != 0 {
            return Err(FieldError::OffTheField);
        }
        if field.count() != FIELDERS {
            return Err(FieldError::WrongCount(field.count()));
        }
        if field.slips() > 0 && !self.slips_allowed {
            return Err(FieldError::SlipsAgainstNonPace);
        }
        if field.slips() > MAX_SLIPS {
            return Err(FieldError::TooManySlips);
        }
        if field.outfield() > u32::from(self.outfield_limit) {
            return Err(FieldError::OutfieldLimit {
                count: field.outfield(),
                limit: self.outfield_limit,
            });
        }
        let mut threes = 0;
        for zone in 1..=5u8 {
            match field.in_zone(zone) {
                0..=2 => {}
                3 if self.format.one_zone_of_three() => threes += 1,
                _ => return Err(FieldError::ZoneOverfull(zone)),
            }
            if threes > 1 {
                return Err(FieldError::ZoneOverfull(zone));
            }
        }
        Ok(())
    }

    /// A legal field close to `wanted`: keeps what it can and fills the rest infield
    /// first. Used by default commands and bots, so it always returns a legal field.
    pub fn repair(&self, wanted: Field) -> Field {
        if self.check(wanted).is_ok() {
            return wanted;
        }
        let mut kept = Field::EMPTY;
        // Keep wanted spots in a fixed order while each keeps the partial field within limits.
        for (zone, area) in wanted.spots() {
            if self.fits(kept, zone, area) {
                kept = kept.with(zone, area);
            }
        }
        for area in 1..=self.format.areas() {
            for zone in [3u8, 4, 2, 5, 1] {
                if kept.count() < FIELDERS && self.fits(kept, zone, area) {
                    kept = kept.with(zone, area);
                }
            }
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(format: Format, outfield_limit: u8, slips_allowed: bool) -> FieldRules {
        FieldRules::new(format, outfield_limit, slips_allowed)
    }

    #[test]
    fn repair_always_gives_a_legal_field() {
        for format in [Format::T10, Format::T20] {
            for limit in [2, 5] {
                for slips in [false, true] {
                    let r = rules(format, limit, slips);
                    for wanted in [0u32, 0x00ff_ffff, 0x0f0f_0f0f, 0x0000_0003, 0x00f0_0f03] {
                        let field = r.repair(Field(wanted));
                        assert_eq!(r.check(field), Ok(()), "{format:?} {limit} {slips} {wanted:x}");
                    }
                }
            }
        }
    }

    #[test]
    fn restrictions_are_enforced() {
        let base = Field::EMPTY
            .with(1, 1)
            .with(1, 2)
            .with(2, 1)
            .with(2, 2)
            .with(3, 1)
            .with(3, 2)
            .with(4, 1)
            .with(4, 2)
            .with(5, 1);
        assert_eq!(rules(Format::T10, 2, false).check(base), Ok(()));
        let with_slip = Field(base.0 & !Field::bit(5, 1)).with(0, 1);
        assert_eq!(
            rules(Format::T10, 2, false).check(with_slip),
            Err(FieldError::SlipsAgainstNonPace)
        );
        assert_eq!(rules(Format::T10, 2, true).check(with_slip), Ok(()));
        let deep = Field(base.0 & !Field::bit(1, 1) & !Field::bit(2, 1) & !Field::bit(3, 1))
            .with(1, 3)
            .with(2, 3)
            .with(3, 3);
        assert!(matches!(
            rules(Format::T10, 2, false).check(deep),
            Err(FieldError::OutfieldLimit { .. })
        ));
        assert_eq!(rules(Format::T10, 5, false).check(deep), Ok(()));
        let three = Field(base.0 & !Field::bit(5, 1)).with(3, 3);
        assert_eq!(
            rules(Format::T10, 5, false).check(three),
            Err(FieldError::ZoneOverfull(3))
        );
        assert_eq!(rules(Format::T20, 5, false).check(three), Ok(()));
        assert_eq!(
            rules(Format::T10, 5, false).check(base.with(1, 4)),
            Err(FieldError::OffTheField)
        );
    }
}
