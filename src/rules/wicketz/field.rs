//! The field: where the eleven fielding players stand.
//!
//! Seed: 002_5b76236006f2f885.txt "The fielders can occupy any zone but the wicket-keeper must
//! be in A0 or A1 and the bowler in J0 or I0". A zone is a letter A-Q (the direction round the
//! bat, A behind the keeper, E square leg, I/J straight) and a ring 0-3 (0 closest to the bat).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Number of directions round the bat: letters A to Q.
pub const LETTERS: u8 = 17;
/// Number of rings: 0 (closest) to 3.
pub const RINGS: u8 = 4;
/// How many fielders besides the keeper and the bowler.
pub const OUTFIELDERS: usize = 9;
/// Rings counted as "inside" for the fielding restriction (0 and 1).
pub const INNER_RINGS: u8 = 2;

/// A zone of the board, written `A0` .. `Q3` on the wire and in data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Position {
    /// 0 for A .. 16 for Q.
    pub letter: u8,
    pub ring: u8,
}

impl Position {
    pub fn new(letter: char, ring: u8) -> Option<Self> {
        let index = (letter as u32).checked_sub('A' as u32)?;
        (index < u32::from(LETTERS) && ring < RINGS).then_some(Position {
            letter: index as u8,
            ring,
        })
    }

    pub fn letter_char(self) -> char {
        char::from(b'A' + self.letter)
    }

    pub fn is_inner(self) -> bool {
        self.ring < INNER_RINGS
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.letter_char(), self.ring)
    }
}

impl From<Position> for String {
    fn from(position: Position) -> String {
        position.to_string()
    }
}

impl TryFrom<String> for Position {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        let mut chars = text.chars();
        let parsed = match (
            chars.next(),
            chars.next().and_then(|c| c.to_digit(10)),
            chars.next(),
        ) {
            (Some(letter), Some(ring), None) => Position::new(letter, ring as u8),
            _ => None,
        };
        parsed
            .ok_or_else(|| format!("`{text}` is not a zone: expected a letter A-Q and a ring 0-3, e.g. `M2`"))
    }
}

impl schemars::JsonSchema for Position {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "WicketzPosition".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "pattern": "^[A-Q][0-3]$" })
    }
}

/// Where the keeper may stand. Seed: 002_5b76236006f2f885.txt "wicket-keeper must be in A0 or A1".
pub fn keeper_positions() -> [Position; 2] {
    [Position { letter: 0, ring: 0 }, Position { letter: 0, ring: 1 }]
}

/// Where the bowler may stand. Seed: 002_5b76236006f2f885.txt "the bowler in J0 or I0".
pub fn bowler_positions() -> [Position; 2] {
    [Position { letter: 9, ring: 0 }, Position { letter: 8, ring: 0 }]
}

/// The eleven: keeper, bowler and nine others, one per zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub keeper: Position,
    pub bowler: Position,
    pub fielders: Vec<Position>,
}

/// Why a field cannot be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "problem")]
pub enum FieldError {
    #[error("the wicket-keeper must stand at A0 or A1, not {at}")]
    KeeperMisplaced { at: Position },
    #[error("the bowler must stand at J0 or I0, not {at}")]
    BowlerMisplaced { at: Position },
    #[error("a field has 9 fielders besides the keeper and the bowler, not {got}")]
    WrongFielderCount { got: usize },
    #[error("two players stand at {at}; each zone holds one")]
    ZoneTakenTwice { at: Position },
    #[error("fielding restriction: at most {max} fielders outside rings 0 and 1 in this over, not {outside}")]
    RestrictionBroken { outside: usize, max: u8 },
}

impl Field {
    /// Every player on the field, keeper and bowler first.
    pub fn players(&self) -> impl Iterator<Item = Position> + '_ {
        [self.keeper, self.bowler]
            .into_iter()
            .chain(self.fielders.iter().copied())
    }

    pub fn occupied(&self, position: Position) -> bool {
        self.players().any(|p| p == position)
    }

    /// Seed: 002_5b76236006f2f885.txt "Saving Runs": a fielder in ring 2 or 3 of the line saves a four.
    pub fn guards_boundary(&self, letter: u8) -> bool {
        self.players().any(|p| p.letter == letter && p.ring >= 2)
    }

    pub fn outside_inner(&self) -> usize {
        self.players().filter(|p| !p.is_inner()).count()
    }

    /// Checks the seed's placement rules and, when `max_outside` is given, the restriction.
    pub fn validate(&self, max_outside: Option<u8>) -> Result<(), FieldError> {
        if !keeper_positions().contains(&self.keeper) {
            return Err(FieldError::KeeperMisplaced { at: self.keeper });
        }
        if !bowler_positions().contains(&self.bowler) {
            return Err(FieldError::BowlerMisplaced { at: self.bowler });
        }
        if self.fielders.len() != OUTFIELDERS {
            return Err(FieldError::WrongFielderCount {
                got: self.fielders.len(),
            });
        }
        let mut seen = Vec::with_capacity(OUTFIELDERS + 2);
        for position in self.players() {
            if seen.contains(&position) {
                return Err(FieldError::ZoneTakenTwice { at: position });
            }
            seen.push(position);
        }
        if let Some(max) = max_outside {
            let outside = self.outside_inner();
            if outside > usize::from(max) {
                return Err(FieldError::RestrictionBroken { outside, max });
            }
        }
        Ok(())
    }

    /// The same field with deep fielders brought in (to ring 1, else ring 0, of their own line,
    /// else the first free inner zone) until at most `max_outside` stand outside the inner rings.
    /// Gives the timeout default and the bots a legal field in restricted overs.
    pub fn pulled_in(&self, max_outside: u8) -> Field {
        let mut field = self.clone();
        let mut index = field.fielders.len();
        while field.outside_inner() > usize::from(max_outside) && index > 0 {
            index -= 1;
            let from = field.fielders[index];
            if from.is_inner() {
                continue;
            }
            let same_line = (0..INNER_RINGS).rev().map(|ring| Position {
                letter: from.letter,
                ring,
            });
            let anywhere = (0..LETTERS)
                .flat_map(|letter| (0..INNER_RINGS).rev().map(move |ring| Position { letter, ring }));
            if let Some(to) = same_line.chain(anywhere).find(|p| !field.occupied(*p)) {
                field.fielders[index] = to;
            }
        }
        field
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Position {
        Position::try_from(text.to_string()).unwrap()
    }

    #[test]
    fn zones_round_trip_and_bad_zones_are_refused() {
        assert_eq!(at("Q3").to_string(), "Q3");
        assert!(Position::try_from("R1".to_string()).is_err());
        assert!(Position::try_from("A4".to_string()).is_err());
        assert!(Position::try_from("A".to_string()).is_err());
    }

    #[test]
    fn pulling_in_respects_the_limit_and_keeps_zones_distinct() {
        let field = Field {
            keeper: at("A1"),
            bowler: at("J0"),
            fielders: ["Q2", "P1", "M2", "L1", "H2", "F2", "E1", "D2", "B2"]
                .map(at)
                .to_vec(),
        };
        assert!(field.validate(Some(2)).is_err());
        let pulled = field.pulled_in(2);
        assert_eq!(pulled.validate(Some(2)), Ok(()));
        assert_eq!(pulled.outside_inner(), 2);
    }
}
