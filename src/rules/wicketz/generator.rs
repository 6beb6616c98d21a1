//! The card generator: how the 244 cards the rulebook does not print were made.
//!
//! The seed prints two cards (`data/wicketz/printed_cards.json`) and says there are 246. The
//! rest are [ASSUMED]: produced once by [`generate`], a pure function of its parameters
//! (`data/wicketz/generator.json`) and the stroke cues of the ruleset, and committed as
//! `data/wicketz/cards.json`. The test `tests/rules/wicketz_cards.rs` fails when the committed file
//! differs from the generator's output; `UPDATE_WICKETZ_CARDS=1 cargo test --test
//! rules wicketz_cards::` rewrites it.
//!
//! For each card number 1..=n, from one `Dice` stream seeded with `Seed::from_u64(seed)`:
//! 1. the card type: CATCH with `catch_percent` %, else plain;
//! 2. the window: drawn from `window_weights`;
//! 3. for each of the thirteen rows in printed order: the result text drawn from the stroke's
//!    profile weights; then the code: a letter of the stroke's cue (uniform) when the text
//!    adds overthrows (they need a zone), otherwise ★ with `star_percent` % and a cue letter
//!    otherwise.
//!
//! A printed card consumes the same draws, then keeps its printed type and every printed row
//! verbatim; only what the seed does not print (the window and the missing rows) comes from
//! the draws. So tuning a weight changes the generated cards, never the printed ones.

use super::cards::{CardKind, CardRecord, STAR};
use super::data::Ruleset;
use super::strokes::CARD_ROWS;
use crate::rules::{Dice, Seed};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowWeight {
    pub window: u8,
    pub weight: u32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrokeWeights {
    pub profile: String,
    pub star_percent: u32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratorParams {
    pub seed: u64,
    pub cards: u16,
    pub catch_percent: u32,
    pub window_weights: Vec<WindowWeight>,
    /// Named lists of `[result text, weight]`.
    pub profiles: BTreeMap<String, Vec<(String, u32)>>,
    /// Per stroke (snake_case id): its profile and how often its code is ★.
    pub strokes: BTreeMap<String, StrokeWeights>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrintedCard {
    pub label: String,
    pub id: u16,
    pub kind: CardKind,
    /// Stroke id -> `[code, result]` exactly as printed.
    pub rows: BTreeMap<String, (String, String)>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrintedCards {
    pub source: String,
    pub note: String,
    pub cards: Vec<PrintedCard>,
}

/// Generates the whole deck. Errors name the bad parameter.
pub fn generate(
    params: &GeneratorParams,
    printed: &PrintedCards,
    rules: &Ruleset,
) -> Result<Vec<CardRecord>, String> {
    let window_weights: Vec<u32> = params.window_weights.iter().map(|w| w.weight).collect();
    if window_weights.iter().sum::<u32>() == 0 {
        return Err("generator: `window_weights` sum to zero".into());
    }
    for printed_card in &printed.cards {
        if printed_card.id == 0 || printed_card.id > params.cards {
            return Err(format!(
                "printed cards: `{}` id {} is outside the deck",
                printed_card.label, printed_card.id
            ));
        }
        if let Some(name) = printed_card
            .rows
            .keys()
            .find(|name| !params.strokes.contains_key(*name))
        {
            return Err(format!(
                "printed cards: `{}` has an unknown stroke `{name}`",
                printed_card.label
            ));
        }
    }
    let mut dice = Dice::new(&Seed::from_u64(params.seed));
    let mut deck = Vec::with_capacity(usize::from(params.cards));
    for id in 1..=params.cards {
        let kind = if dice.chance(params.catch_percent, 100) {
            CardKind::Catch
        } else {
            CardKind::Plain
        };
        let window = params.window_weights[dice.weighted(&window_weights)].window;
        let mut rows = Vec::with_capacity(CARD_ROWS.len());
        for stroke in CARD_ROWS {
            let name = stroke.snake_name();
            let weights = params
                .strokes
                .get(name)
                .ok_or_else(|| format!("generator: `strokes.{name}` is missing"))?;
            let profile = params.profiles.get(&weights.profile).ok_or_else(|| {
                format!(
                    "generator: `strokes.{name}.profile` `{}` is not a profile",
                    weights.profile
                )
            })?;
            let texts: Vec<u32> = profile.iter().map(|(_, weight)| *weight).collect();
            let text = profile[dice.weighted(&texts)].0.clone();
            let cue = rules.stroke_info(stroke).cue.as_bytes();
            let star = dice.chance(weights.star_percent, 100);
            let letter = char::from(cue[dice.below(cue.len() as u32) as usize]).to_string();
            let code = if star && text != "add overthrow/s" {
                STAR.to_string()
            } else {
                letter
            };
            rows.push((code, text));
        }
        let mut record = CardRecord {
            id,
            kind,
            window,
            printed: None,
            rows,
        };
        if let Some(printed_card) = printed.cards.iter().find(|c| c.id == id) {
            record.kind = printed_card.kind;
            record.printed = Some(format!("{} ({})", printed_card.label, printed.source));
            for (stroke, row) in CARD_ROWS.iter().zip(record.rows.iter_mut()) {
                if let Some(printed_row) = printed_card.rows.get(stroke.snake_name()) {
                    *row = printed_row.clone();
                }
            }
        }
        deck.push(record);
    }
    Ok(deck)
}

/// The committed file's text: one card per line so a regenerated deck diffs card by card.
pub fn render_deck(deck: &[CardRecord]) -> String {
    let mut out = String::from(
        "{\n  \"generated_by\": \"src/rules/wicketz/generator.rs from data/wicketz/generator.json and \
         printed_cards.json; regenerate with UPDATE_WICKETZ_CARDS=1 cargo test --test rules wicketz_cards::\",\n  \
         \"cards\": [\n",
    );
    for (index, record) in deck.iter().enumerate() {
        let line = serde_json::to_string(record).unwrap_or_default();
        out.push_str("    ");
        out.push_str(&line);
        out.push_str(if index + 1 < deck.len() { ",\n" } else { "\n" });
    }
    out.push_str("  ]\n}\n");
    out
}

/// Parses the embedded generator parameters and printed cards.
pub fn embedded_inputs() -> Result<(GeneratorParams, PrintedCards), String> {
    let params =
        serde_json::from_str(super::data::GENERATOR_JSON).map_err(|e| format!("generator.json: {e}"))?;
    let printed = serde_json::from_str(super::data::PRINTED_CARDS_JSON)
        .map_err(|e| format!("printed_cards.json: {e}"))?;
    Ok((params, printed))
}
