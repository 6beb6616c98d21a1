//! The Xp card market: buying a face-up card and refilling its slot from the draw pile.

use super::Champions;
use super::data::Ruleset;
use super::errors::ChampionsReject;
use super::events::Event;
use crate::rules::Emitter;
use crate::rules::Seat;

/// Seed: 003_a3e523365b63d62b.txt "A player can buy as many cards as they want and can
/// afford ... As soon as a card is bought, replace it with a new one from the draw pile."
pub(super) fn buy(
    em: &mut Emitter<Champions>,
    rules: &Ruleset,
    seat: Seat,
    card: &str,
) -> Result<(), ChampionsReject> {
    if !em.state().market.iter().any(|c| c == card) {
        return Err(ChampionsReject::CardNotInMarket {
            card: card.to_string(),
        });
    }
    let def = rules
        .xp_card(card)
        .ok_or_else(|| ChampionsReject::CardNotInMarket {
            card: card.to_string(),
        })?;
    let have = em.state().players[seat.index()].xp;
    if def.cost > have {
        return Err(ChampionsReject::CannotAffordCard { cost: def.cost, have });
    }
    em.emit(Event::CardBought {
        seat,
        card: card.to_string(),
        cost: def.cost,
        replacement: em.state().draw_pile.first().cloned(),
    });
    Ok(())
}
