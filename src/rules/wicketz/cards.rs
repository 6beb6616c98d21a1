//! The result cards of the dispenser.
//!
//! Seed: 002_5b76236006f2f885.txt "The cards are headed WICKETZ and are numbered 1 or 2; card 2
//! is headed CATCH. Each card lists the twelve strokes plus Avoiding Action, with a lettered or
//! starred code in the central column and a result in the right-hand column." The window number
//! completes the code. The cards themselves are data (`data/wicketz/cards.json`): the file keeps
//! the printed result text verbatim and this module parses it once into [`CardResult`].

use super::field::{LETTERS, Position};
use super::indicator::Delivery;
use super::strokes::{CARD_ROWS, Stroke};
use serde::{Deserialize, Serialize};

/// Card type 1 (plain) or 2 (CATCH).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    Plain,
    Catch,
}

/// The central column: a direction letter, or ★ for no score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Code {
    Letter(u8),
    Star,
}

pub const STAR: &str = "★";

impl From<Code> for String {
    fn from(code: Code) -> String {
        match code {
            Code::Letter(letter) => char::from(b'A' + letter).to_string(),
            Code::Star => STAR.to_string(),
        }
    }
}

impl TryFrom<String> for Code {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        if text == STAR {
            return Ok(Code::Star);
        }
        match text.as_bytes() {
            [byte] if (b'A'..b'A' + LETTERS).contains(byte) => Ok(Code::Letter(byte - b'A')),
            _ => Err(format!(
                "`{text}` is not a card code: expected a letter A-Q or {STAR}"
            )),
        }
    }
}

impl schemars::JsonSchema for Code {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "WicketzCode".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "pattern": "^([A-Q]|★)$" })
    }
}

/// The right-hand column, parsed. Read first; when it does not apply the code is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum CardResult {
    /// "- -": nothing in the result column.
    Nothing,
    /// "Bowled if yorker": out bowled when the delivery matches.
    BowledIf { delivery: Delivery },
    /// "L.B.W. if good length".
    LbwIf { delivery: Delivery },
    /// "Run out if occupied": out when the coded zone holds a fielder.
    RunOutIfOccupied,
    /// "1 bye".
    Byes { runs: u8 },
    /// "Played and missed": a dot ball.
    PlayedAndMissed,
    /// "add overthrow/s".
    AddOverthrows,
}

impl CardResult {
    pub fn parse(text: &str) -> Option<CardResult> {
        let text = text.trim();
        if let Some(phrase) = text.strip_prefix("Bowled if ") {
            return Delivery::from_card_phrase(phrase).map(|delivery| CardResult::BowledIf { delivery });
        }
        if let Some(phrase) = text.strip_prefix("L.B.W. if ") {
            return Delivery::from_card_phrase(phrase).map(|delivery| CardResult::LbwIf { delivery });
        }
        if let Some(count) = text.strip_suffix(" bye").or_else(|| text.strip_suffix(" byes")) {
            return count.parse().ok().map(|runs| CardResult::Byes { runs });
        }
        match text {
            "- -" => Some(CardResult::Nothing),
            "Run out if occupied" => Some(CardResult::RunOutIfOccupied),
            "Played and missed" => Some(CardResult::PlayedAndMissed),
            "add overthrow/s" => Some(CardResult::AddOverthrows),
            _ => None,
        }
    }
}

/// One stroke's row: the code and the result text as printed, plus its parsed meaning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardRow {
    pub stroke: Stroke,
    pub code: Code,
    pub text: String,
    pub result: CardResult,
}

/// A card as the engine and the views use it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Card {
    /// The card's number in the dispenser, 1..=246.
    pub id: u16,
    pub kind: CardKind,
    /// The window number: 0-3 a ring, 4 a boundary along the ground, 6 over it.
    pub window: u8,
    /// Thirteen rows in printed order: cut, square_cut, cover_drive, off_drive,
    /// straight_drive, on_drive, pull, hook, leg_glance, forward_defence, back_defence, leave,
    /// avoiding_action.
    pub rows: Vec<CardRow>,
    /// Which printed card of the rulebook this is, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub printed: Option<String>,
}

/// Windows a card may show. [ASSUMED] reading, see `../shared/rules/wicketz.md` section 4.
pub const WINDOWS: [u8; 6] = [0, 1, 2, 3, 4, 6];

/// The card as stored in `data/wicketz/cards.json`: compact rows of `[code, text]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardRecord {
    pub id: u16,
    pub kind: CardKind,
    pub window: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub printed: Option<String>,
    pub rows: Vec<(String, String)>,
}

impl Card {
    pub fn row(&self, stroke: Stroke) -> &CardRow {
        // `from_record` guarantees thirteen rows in CARD_ROWS order.
        &self.rows[stroke.row()]
    }

    /// The zone a code points at with this card's window, when it is a ring (0-3).
    pub fn zone(&self, code: Code) -> Option<Position> {
        match code {
            Code::Letter(letter) if self.window <= 3 => Some(Position {
                letter,
                ring: self.window,
            }),
            _ => None,
        }
    }

    /// Validates a stored record; the error names the card and the bad field.
    pub fn from_record(record: &CardRecord) -> Result<Card, String> {
        let id = record.id;
        if !WINDOWS.contains(&record.window) {
            return Err(format!(
                "card {id}: `window` {} is not one of {WINDOWS:?}",
                record.window
            ));
        }
        if record.rows.len() != CARD_ROWS.len() {
            return Err(format!(
                "card {id}: `rows` has {} rows, expected {} (twelve strokes and Avoiding Action)",
                record.rows.len(),
                CARD_ROWS.len()
            ));
        }
        let mut rows = Vec::with_capacity(CARD_ROWS.len());
        for (stroke, (code, text)) in CARD_ROWS.into_iter().zip(&record.rows) {
            let name = stroke.snake_name();
            let code =
                Code::try_from(code.clone()).map_err(|e| format!("card {id}: `rows.{name}` code: {e}"))?;
            let result = CardResult::parse(text)
                .ok_or_else(|| format!("card {id}: `rows.{name}` result `{text}` is not a known result"))?;
            if result == CardResult::AddOverthrows && code == Code::Star {
                return Err(format!(
                    "card {id}: `rows.{name}` adds overthrows but has no zone (★)"
                ));
            }
            rows.push(CardRow {
                stroke,
                code,
                text: text.clone(),
                result,
            });
        }
        Ok(Card {
            id,
            kind: record.kind,
            window: record.window,
            rows,
            printed: record.printed.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_printed_result_text_of_the_seed_parses() {
        for text in [
            "Bowled if yorker",
            "1 bye",
            "Bowled if good length",
            "- -",
            "L.B.W. if good length",
            "Run out if occupied",
            "Played and missed",
            "L.B.W. if yorker",
            "add overthrow/s",
        ] {
            assert!(CardResult::parse(text).is_some(), "{text}");
        }
        assert_eq!(CardResult::parse("Caught if raining"), None);
    }
}
