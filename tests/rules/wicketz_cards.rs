//! The committed deck is exactly the generator's output, and the printed cards of the seed
//! are in it verbatim. `UPDATE_WICKETZ_CARDS=1 cargo test --test rules wicketz_cards::`
//! rewrites `data/wicketz/cards.json` after a change to `data/wicketz/generator.json`.

use crease::rules::wicketz::cards::{CardKind, CardResult, Code};
use crease::rules::wicketz::data::{CARDS_JSON, deck, ruleset};
use crease::rules::wicketz::generator::{embedded_inputs, generate, render_deck};
use crease::rules::wicketz::strokes::Stroke;

#[test]
fn committed_cards_match_the_generator() {
    let (params, printed) = embedded_inputs().unwrap();
    let rendered = render_deck(&generate(&params, &printed, ruleset()).unwrap());
    if std::env::var("UPDATE_WICKETZ_CARDS").as_deref() == Ok("1") {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/wicketz/cards.json");
        std::fs::write(path, &rendered).unwrap();
        return;
    }
    assert!(
        rendered == CARDS_JSON,
        "data/wicketz/cards.json differs from the generator; run UPDATE_WICKETZ_CARDS=1 cargo test --test rules wicketz_cards::"
    );
}

#[test]
fn the_generator_is_reproducible_and_seed_dependent() {
    let (mut params, printed) = embedded_inputs().unwrap();
    let first = generate(&params, &printed, ruleset()).unwrap();
    assert_eq!(first, generate(&params, &printed, ruleset()).unwrap());
    params.seed += 1;
    assert_ne!(first, generate(&params, &printed, ruleset()).unwrap());
}

/// Seed: 002_5b76236006f2f885.txt "246 different playing cards".
#[test]
fn seed_002_the_dispenser_holds_246_cards_of_both_types() {
    let cards = deck();
    assert_eq!(cards.len(), 246);
    assert!(cards.iter().any(|c| c.kind == CardKind::Catch));
    assert!(cards.iter().any(|c| c.kind == CardKind::Plain));
}

fn row(card: u16, stroke: Stroke) -> (String, String) {
    let row = deck()[usize::from(card) - 1].row(stroke);
    (String::from(row.code), row.text.clone())
}

fn printed(code: &str, text: &str) -> (String, String) {
    (code.to_string(), text.to_string())
}

/// Seed: 002_5b76236006f2f885.txt "Card 1": every printed row, verbatim.
#[test]
fn seed_002_printed_card_1_is_in_the_deck_verbatim() {
    let card = &deck()[56];
    assert_eq!(card.id, 57);
    assert_eq!(card.kind, CardKind::Plain);
    assert_eq!(row(57, Stroke::Cut), printed("P", "Bowled if yorker"));
    assert_eq!(row(57, Stroke::SquareCut), printed("★", "1 bye"));
    assert_eq!(row(57, Stroke::CoverDrive), printed("N", "Bowled if good length"));
    assert_eq!(row(57, Stroke::OffDrive), printed("L", "- -"));
    assert_eq!(
        row(57, Stroke::StraightDrive),
        printed("I", "L.B.W. if good length")
    );
    assert_eq!(row(57, Stroke::OnDrive), printed("H", "Run out if occupied"));
    assert_eq!(row(57, Stroke::Pull), printed("★", "Played and missed"));
    assert_eq!(row(57, Stroke::Hook), printed("E", "L.B.W. if yorker"));
    assert_eq!(
        card.row(Stroke::Cut).result,
        CardResult::BowledIf {
            delivery: crease::rules::wicketz::indicator::Delivery::Yorker
        }
    );
    assert_eq!(card.row(Stroke::SquareCut).code, Code::Star);
}

/// Seed: 002_5b76236006f2f885.txt "Card 2 (CATCH)": every printed row, verbatim.
#[test]
fn seed_002_printed_card_2_catch_is_in_the_deck_verbatim() {
    let card = &deck()[169];
    assert_eq!(card.id, 170);
    assert_eq!(card.kind, CardKind::Catch);
    assert_eq!(row(170, Stroke::Cut), printed("O", "- -"));
    assert_eq!(row(170, Stroke::SquareCut), printed("N", "- -"));
    assert_eq!(row(170, Stroke::CoverDrive), printed("M", "- -"));
    assert_eq!(row(170, Stroke::OffDrive), printed("L", "- -"));
    assert_eq!(row(170, Stroke::StraightDrive), printed("★", "Played and missed"));
    assert_eq!(row(170, Stroke::OnDrive), printed("G", "Bowled if good length"));
    assert_eq!(row(170, Stroke::Pull), printed("D", "- -"));
    assert_eq!(row(170, Stroke::Hook), printed("E", "L.B.W. if good length"));
}

/// Only Avoiding Action rows may be played to a bouncer alone; every card has all 13 rows.
#[test]
fn every_card_has_thirteen_rows_and_a_legal_window() {
    for card in deck() {
        assert_eq!(card.rows.len(), 13, "card {}", card.id);
        assert!([0, 1, 2, 3, 4, 6].contains(&card.window), "card {}", card.id);
    }
}
