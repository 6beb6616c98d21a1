//! What a viewer may see, and the decision asked of a seat.
//!
//! Wicketz has one secret: the order of the dispenser. Everything else (the delivery, the
//! field, dealt cards, the face-up wild card) is on the table for both sides. So views carry
//! the number of cards left and which cards the next deal comes from (what a player who
//! counts the dealt cards knows), never their order, and the shuffle event is redacted.

use super::card_set::CardSet;
use super::cards::Card;
use super::data::card;
use super::decide::{field_to_keep, pending};
use super::events::{Ball, Event};
use super::field::{Field, Position, bowler_positions, keeper_positions};
use super::indicator::{Delivery, Style};
use super::options::Options;
use super::state::{Habits, Innings, Over, Phase, State};
use super::strokes::{Line, Stroke, legal_strokes};
use crate::rules::{Outcome, Seat, Viewer};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    pub viewer: Viewer,
    pub options: Options,
    pub phase: Phase,
    pub toss_winner: Option<Seat>,
    pub batting: Option<Seat>,
    pub bowling: Option<Seat>,
    pub innings: Vec<Innings>,
    /// Runs the side batting last needs to win.
    pub target: Option<u32>,
    pub over: Option<Over>,
    /// The face of the wild card of this over, when one was drawn (it is face up).
    pub wild_card: Option<Card>,
    pub field: Field,
    pub delivery: Option<Delivery>,
    pub last_ball: Option<Ball>,
    /// The face of the last dealt card (already face up).
    pub last_card: Option<Card>,
    /// How many cards are in the dispenser; their order is never sent.
    pub cards_in_dispenser: usize,
    /// The cards the next deal comes from: those not dealt since the last shuffle (every
    /// dealt card is face up, so a player who counts knows them), or the whole dispenser once
    /// all have been dealt. Each is equally likely to be next.
    pub cards_to_come: CardSet,
    /// The batting side's strokes this innings (public: every stroke is played on the table).
    pub habits: Habits,
    /// What this seat is asked now, with its legal choices; `None` when nothing is asked.
    pub ask: Option<Ask>,
    pub outcome: Option<Outcome>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "decision")]
pub enum Ask {
    /// You won the toss: bat or bowl first (`ChooseInnings`).
    ChooseInnings,
    /// Set the next over (`SetOver`).
    SetOver {
        over: u16,
        styles: Vec<Style>,
        /// Lines you may declare (only `wicket` without the bowling variations option).
        lines: Vec<Line>,
        keeper_positions: Vec<Position>,
        bowler_positions: Vec<Position>,
        /// At most this many players outside rings 0 and 1 in this over, if restricted.
        max_outside_inner: Option<u8>,
        /// A legal field for this over: the current one, brought in if restricted.
        suggested_field: Field,
    },
    /// Nominate a stroke to this delivery (`Play`).
    Play {
        delivery: Delivery,
        legal_strokes: Vec<Stroke>,
        /// The wild card you may use instead of a dealt card, if unused.
        wild_card: Option<Card>,
        /// Batting-order number (1-11) of the batter on strike, for the catch rule's lives.
        batter_number: u8,
    },
}

pub fn view(state: &State, viewer: Viewer) -> View {
    let ask = match viewer {
        Viewer::Seat(seat) if pending(state).contains(&seat) => ask(state),
        _ => None,
    };
    let over = state.over.clone();
    View {
        viewer,
        options: state.options.clone(),
        phase: state.phase,
        toss_winner: state.toss_winner,
        batting: state.batting_seat(),
        bowling: state.bowling_seat(),
        innings: state.innings.clone(),
        target: state.target(),
        wild_card: over.as_ref().and_then(|o| o.wild_card).map(|id| card(id).clone()),
        over,
        field: state.field.clone(),
        delivery: state.delivery,
        last_ball: state.last_ball.clone(),
        last_card: state
            .last_ball
            .as_ref()
            .and_then(|b| b.card)
            .map(|id| card(id).clone()),
        cards_in_dispenser: state.dispenser.len(),
        cards_to_come: CardSet::of(state.cards_to_come()),
        habits: state.habits.clone(),
        ask,
        outcome: state.outcome.clone(),
    }
}

fn ask(state: &State) -> Option<Ask> {
    match state.phase {
        Phase::AwaitToss => Some(Ask::ChooseInnings),
        Phase::AwaitOverSetup => {
            let over = state.next_over_number();
            let lines = if state.options.bowling_variations {
                vec![Line::Wicket, Line::OffSide, Line::LegSide]
            } else {
                vec![Line::Wicket]
            };
            Some(Ask::SetOver {
                over,
                styles: vec![Style::Pace, Style::Spin],
                lines,
                keeper_positions: keeper_positions().to_vec(),
                bowler_positions: bowler_positions().to_vec(),
                max_outside_inner: state.restriction_for(over),
                suggested_field: field_to_keep(state),
            })
        }
        Phase::AwaitStroke => {
            let over = state.over.as_ref()?;
            let delivery = state.delivery?;
            Some(Ask::Play {
                delivery,
                legal_strokes: legal_strokes(delivery, over.restricting_line()),
                wild_card: over.wild_card_available().map(|id| card(id).clone()),
                batter_number: state.current().map_or(1, |i| i.striker + 1),
            })
        }
        Phase::NotStarted | Phase::Finished => None,
    }
}

/// Every event is public except the dispenser's order, which nobody may see: the shuffle is
/// announced with an empty order.
pub fn redact(event: &Event, _viewer: Viewer) -> Option<Event> {
    match event {
        Event::DispenserShuffled { .. } => Some(Event::DispenserShuffled { order: Vec::new() }),
        other => Some(other.clone()),
    }
}
