//! Ruleset data: every [ASSUMED] value of Wicketz, and the card deck.
//!
//! Embedded with `include_str!`, parsed and validated once. A bad file fails the first use
//! with an error naming the field (and `tests::embedded_data_is_valid` fails the build's tests),
//! so changing a weight or a card is a data edit, never an engine edit.

use super::cards::{Card, CardRecord};
use super::field::{Field, Position};
use super::indicator::{Delivery, Segment, Style};
use super::strokes::{CARD_ROWS, Stroke};
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

pub const RULESET_JSON: &str = include_str!("../../../data/wicketz/ruleset.json");
pub const CARDS_JSON: &str = include_str!("../../../data/wicketz/cards.json");
pub const PRINTED_CARDS_JSON: &str = include_str!("../../../data/wicketz/printed_cards.json");
pub const GENERATOR_JSON: &str = include_str!("../../../data/wicketz/generator.json");

/// A probability as a fraction, so draws are exact integers (`Dice::chance`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chance {
    pub numerator: u32,
    pub denominator: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SegmentWeight {
    pub segment: Segment,
    pub weight: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverthrowRuns {
    pub occupied: u8,
    pub empty: u8,
}

/// Seed: 002_5b76236006f2f885.txt "Batsmen 1, 2, 3 & 4 are allowed three lives ..."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LivesBand {
    pub from_batter: u8,
    pub to_batter: u8,
    pub lives: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeritRating {
    pub min_runs: u32,
    pub rating: String,
}

/// Seed: 002_5b76236006f2f885.txt "The Merit: For a 40 over game ... 275 Brilliant ...".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeritTable {
    pub per_overs: u32,
    pub ratings: Vec<MeritRating>,
    pub below: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefaultField {
    pub keeper_pace: Position,
    pub keeper_spin: Position,
    pub bowler: Position,
    pub fielders: Vec<Position>,
}

/// Seed example: "During the first 15 overs only 2 fielders ..." of a 40-over game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RestrictionData {
    pub per_overs: u32,
    pub overs: u32,
    pub max_outside_inner: u8,
}

/// A stroke's display name and the letters it usually sends the ball to (the seed's cue card).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrokeInfo {
    pub stroke: Stroke,
    pub name: String,
    pub cue: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotTuning {
    /// How often the heuristic bot attacks a delivery that commands respect.
    pub attack_respect_percent: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    pub indicator: Vec<SegmentWeight>,
    pub catch_not_out: Chance,
    pub line_pre_spin_good: Chance,
    pub wide_extra: u8,
    pub no_ball_extra: u8,
    pub saved_boundary_runs: u8,
    pub overthrow_runs: OverthrowRuns,
    pub wild_card_max_over_runs: u32,
    pub lives: Vec<LivesBand>,
    pub bouncer_lives: u8,
    pub merit: MeritTable,
    pub default_field: DefaultField,
    pub fielding_restriction: RestrictionData,
    pub strokes: Vec<StrokeInfo>,
    pub bot: BotTuning,
}

fn check_chance(chance: Chance, name: &str) -> Result<(), String> {
    if chance.denominator == 0 || chance.numerator > chance.denominator {
        return Err(format!("ruleset: `{name}` must be a fraction between 0 and 1"));
    }
    Ok(())
}

impl Ruleset {
    pub fn parse(text: &str) -> Result<Ruleset, String> {
        let ruleset: Ruleset = serde_json::from_str(text).map_err(|e| format!("ruleset: {e}"))?;
        ruleset.validate()?;
        Ok(ruleset)
    }

    fn validate(&self) -> Result<(), String> {
        if self.indicator.iter().map(|s| s.weight).sum::<u32>() == 0 {
            return Err("ruleset: `indicator` weights sum to zero".into());
        }
        check_chance(self.catch_not_out, "catch_not_out")?;
        check_chance(self.line_pre_spin_good, "line_pre_spin_good")?;
        for number in 1..=11u8 {
            if !self
                .lives
                .iter()
                .any(|b| (b.from_batter..=b.to_batter).contains(&number))
            {
                return Err(format!("ruleset: `lives` gives no band for batter {number}"));
            }
        }
        if self.bouncer_lives == 0 || self.lives.iter().any(|b| b.lives == 0) {
            return Err("ruleset: `lives` and `bouncer_lives` must be at least 1".into());
        }
        if self.merit.per_overs == 0
            || self
                .merit
                .ratings
                .windows(2)
                .any(|w| w[0].min_runs <= w[1].min_runs)
        {
            return Err("ruleset: `merit.ratings` must be in strictly falling order of min_runs".into());
        }
        for style in [Style::Pace, Style::Spin] {
            self.default_field(style)
                .validate(None)
                .map_err(|e| format!("ruleset: `default_field`: {e}"))?;
        }
        if self.fielding_restriction.per_overs == 0 {
            return Err("ruleset: `fielding_restriction.per_overs` must be positive".into());
        }
        for (index, stroke) in CARD_ROWS.iter().enumerate() {
            match self.strokes.get(index) {
                Some(info) if info.stroke == *stroke => {
                    if info.cue.is_empty() || info.cue.bytes().any(|b| !(b'A'..=b'Q').contains(&b)) {
                        return Err(format!(
                            "ruleset: `strokes.{}.cue` must be letters A-Q",
                            stroke.snake_name()
                        ));
                    }
                }
                _ => {
                    return Err(format!(
                        "ruleset: `strokes[{index}]` must be `{}` (the card row order)",
                        stroke.snake_name()
                    ));
                }
            }
        }
        if self.bot.attack_respect_percent > 100 {
            return Err("ruleset: `bot.attack_respect_percent` is a percentage".into());
        }
        Ok(())
    }

    pub fn segments(&self) -> Vec<Segment> {
        self.indicator.iter().map(|s| s.segment).collect()
    }

    pub fn segment_weights(&self) -> Vec<u32> {
        self.indicator.iter().map(|s| s.weight).collect()
    }

    /// Seed: "A0 for spin (or A1 for pace), Q2, P1, M2, L1, J0 (or I0), H2, F2, E1, D2, B2".
    pub fn default_field(&self, style: Style) -> Field {
        let data = &self.default_field;
        Field {
            keeper: match style {
                Style::Pace => data.keeper_pace,
                Style::Spin => data.keeper_spin,
            },
            bowler: data.bowler,
            fielders: data.fielders.clone(),
        }
    }

    /// Lives for the catch rule. Seed: 002_5b76236006f2f885.txt "when the delivery is a bouncer
    /// then only one life is allowed, regardless of the batting order."
    pub fn lives(&self, batter_number: u8, delivery: Delivery) -> u8 {
        if delivery == Delivery::Bouncer {
            return self.bouncer_lives;
        }
        self.lives
            .iter()
            .find(|b| (b.from_batter..=b.to_batter).contains(&batter_number))
            .map_or(1, |b| b.lives)
    }

    /// The Merit rating of `runs` in an innings of `overs` overs: the 40-over table scaled.
    pub fn merit(&self, runs: u32, overs: u32) -> String {
        let table = &self.merit;
        table
            .ratings
            .iter()
            .find(|r| {
                u64::from(runs) * u64::from(table.per_overs) >= u64::from(r.min_runs) * u64::from(overs)
            })
            .map_or_else(|| table.below.clone(), |r| r.rating.clone())
    }

    /// The restricted overs of an innings of `overs`, scaled from the data (15 of 40), rounded down.
    pub fn scaled_restriction_overs(&self, overs: u16) -> u16 {
        let data = self.fielding_restriction;
        (u32::from(overs) * data.overs / data.per_overs) as u16
    }

    pub fn stroke_info(&self, stroke: Stroke) -> &StrokeInfo {
        &self.strokes[stroke.row()]
    }
}

/// Parses and validates the committed deck: ids 1..=n in order, thirteen rows each.
pub fn parse_deck(text: &str) -> Result<Vec<Card>, String> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct DeckFile {
        #[allow(dead_code)]
        generated_by: String,
        cards: Vec<CardRecord>,
    }
    let file: DeckFile = serde_json::from_str(text).map_err(|e| format!("cards: {e}"))?;
    let mut cards = Vec::with_capacity(file.cards.len());
    for (index, record) in file.cards.iter().enumerate() {
        if usize::from(record.id) != index + 1 {
            return Err(format!(
                "cards: `cards[{index}].id` is {}, expected {}",
                record.id,
                index + 1
            ));
        }
        cards.push(Card::from_record(record)?);
    }
    if cards.is_empty() {
        return Err("cards: the deck is empty".into());
    }
    Ok(cards)
}

static RULESET: LazyLock<Ruleset> = LazyLock::new(|| {
    Ruleset::parse(RULESET_JSON).unwrap_or_else(|e| panic!("data/wicketz/ruleset.json: {e}"))
});
static DECK: LazyLock<Vec<Card>> =
    LazyLock::new(|| parse_deck(CARDS_JSON).unwrap_or_else(|e| panic!("data/wicketz/cards.json: {e}")));

/// The embedded ruleset. Its validity is checked by `embedded_data_is_valid`.
pub fn ruleset() -> &'static Ruleset {
    &RULESET
}

/// The embedded 246-card deck, indexed by `id - 1`.
pub fn deck() -> &'static [Card] {
    &DECK
}

/// The card with this id. Ids in the state come from the deck, so this always finds one.
pub fn card(id: u16) -> &'static Card {
    let deck = deck();
    &deck[usize::from(id.saturating_sub(1)).min(deck.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_data_is_valid() {
        Ruleset::parse(RULESET_JSON).unwrap();
        assert_eq!(parse_deck(CARDS_JSON).unwrap().len(), 246);
    }

    #[test]
    fn a_bad_field_is_named() {
        let broken = RULESET_JSON.replace("\"bouncer_lives\": 1", "\"bouncer_lives\": 0");
        assert!(Ruleset::parse(&broken).unwrap_err().contains("bouncer_lives"));
    }
}
