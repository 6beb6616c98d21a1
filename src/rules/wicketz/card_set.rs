//! A set of the dispenser's cards on the wire: one hex digit per four cards, so a view that
//! changes it every ball costs a few dozen bytes, not a list of up to 246 numbers.
//!
//! Digit `k` (from the left, 0-based) holds cards `4k+1` (value 1), `4k+2` (2), `4k+3` (4)
//! and `4k+4` (8). The string has one digit per four cards of the deck, so its length is
//! fixed for a ruleset: `"f3..."` means cards 1, 2, 3, 4, 5 and 6 are in the set.

use serde::{Deserialize, Serialize};

/// Card ids (1-based), sorted, without repeats.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct CardSet {
    ids: Vec<u16>,
}

impl CardSet {
    /// The set of `ids`, in any order, repeats dropped.
    pub fn of(mut ids: Vec<u16>) -> CardSet {
        ids.sort_unstable();
        ids.dedup();
        CardSet { ids }
    }

    /// The ids, ascending.
    pub fn ids(&self) -> &[u16] {
        &self.ids
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The hex digits for a deck of `cards` cards (at least enough for the highest id).
    fn to_hex(&self, cards: usize) -> String {
        let highest = self.ids.last().map_or(0, |id| usize::from(*id));
        let digits = cards.max(highest).div_ceil(4);
        let mut nibbles = vec![0u8; digits];
        for id in self.ids.iter().filter(|id| **id > 0) {
            let bit = usize::from(*id) - 1;
            nibbles[bit / 4] |= 1 << (bit % 4);
        }
        nibbles
            .iter()
            .map(|nibble| char::from_digit(u32::from(*nibble), 16).unwrap_or('0'))
            .collect()
    }
}

impl From<CardSet> for String {
    fn from(set: CardSet) -> String {
        set.to_hex(super::data::deck().len())
    }
}

impl TryFrom<String> for CardSet {
    type Error = String;
    fn try_from(text: String) -> Result<CardSet, String> {
        let mut ids = Vec::new();
        for (index, digit) in text.chars().enumerate() {
            let nibble = digit
                .to_digit(16)
                .filter(|_| !digit.is_ascii_uppercase())
                .ok_or_else(|| format!("`{digit}` in a card set is not a lower-case hex digit"))?;
            for bit in 0..4 {
                if nibble & (1 << bit) != 0 {
                    let id = index * 4 + bit + 1;
                    ids.push(u16::try_from(id).map_err(|_| "a card set is too long".to_string())?);
                }
            }
        }
        Ok(CardSet { ids })
    }
}

impl schemars::JsonSchema for CardSet {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "WicketzCardSet".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[0-9a-f]*$",
            "description": "A set of card ids, one hex digit per four cards: digit k (0-based, \
                from the left) holds cards 4k+1 (1), 4k+2 (2), 4k+3 (4) and 4k+4 (8)."
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_reads_back_what_it_wrote() {
        let set = CardSet::of(vec![246, 1, 5, 6, 2, 5, 100]);
        let text = String::from(set.clone());
        assert_eq!(text.len(), 62, "one digit per four of the 246 cards");
        assert!(text.starts_with("33"), "{text}");
        assert_eq!(CardSet::try_from(text), Ok(set));
    }

    #[test]
    fn the_full_deck_and_the_empty_set_have_the_same_length() {
        let all = CardSet::of((1..=246).collect());
        let full = String::from(all.clone());
        assert_eq!(full.len(), String::from(CardSet::default()).len());
        assert!(full[..61].chars().all(|c| c == 'f'), "{full}");
        assert_eq!(&full[61..], "3", "cards 245 and 246 in the last digit");
        assert_eq!(CardSet::try_from(full).map(|set| set.len()), Ok(246));
    }

    #[test]
    fn anything_but_lower_case_hex_is_refused() {
        assert!(CardSet::try_from("0g".to_string()).unwrap_err().contains("`g`"));
        assert!(CardSet::try_from("0F".to_string()).is_err());
    }
}
