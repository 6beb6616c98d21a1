//! `apply`: folding events into the state. Never fails and never draws dice, so a match is
//! rebuilt by folding its log.

use super::data::ruleset;
use super::events::Event;
use super::faces::Face;
use super::state::{OverRecord, OverState, Phase, State, TurnState};
use crate::rules::Outcome;

/// Folds one event. Never fails: an event that does not fit is ignored.
pub fn apply(state: &mut State, event: &Event) {
    match event {
        Event::DeckShuffled { market, draw_pile } => {
            let start_xp = ruleset().start_xp;
            for player in &mut state.players {
                player.xp = start_xp;
            }
            state.market = market.clone();
            state.draw_pile = draw_pile.order.clone().unwrap_or_default();
        }
        Event::RoundStarted { round, order } => {
            state.round = *round;
            state.order = order.clone();
            state.phase = Phase::Between;
        }
        Event::OverStarted {
            index,
            batsman,
            bowler,
            batting_rolls,
            bowling_rolls,
        } => {
            state.phase = Phase::Over(OverState {
                index: *index,
                batsman: *batsman,
                bowler: *bowler,
                batting: TurnState {
                    roll_limit: *batting_rolls,
                    ..TurnState::default()
                },
                bowling: TurnState {
                    roll_limit: *bowling_rolls,
                    ..TurnState::default()
                },
            });
        }
        Event::DiceRolled {
            role,
            roll,
            dice,
            faces,
            ..
        } => {
            if let Phase::Over(over) = &mut state.phase {
                let turn = over.turn_mut(*role);
                // The first roll creates the dice; the placeholder is overwritten just below.
                let needed = dice.iter().map(|d| usize::from(*d) + 1).max().unwrap_or(0);
                if turn.faces.len() < needed {
                    turn.faces.resize(needed, Face::Dot);
                }
                for (die, face) in dice.iter().zip(faces) {
                    turn.faces[usize::from(*die)] = *face;
                }
                turn.rolls_used = *roll;
            }
        }
        Event::TurnEnded {
            seat,
            role,
            faces,
            xp_spent,
            bought_defence,
            ..
        } => {
            if let Some(player) = state.players.get_mut(seat.index()) {
                player.xp = player.xp.saturating_sub(*xp_spent);
            }
            if let Phase::Over(over) = &mut state.phase {
                let turn = over.turn_mut(*role);
                turn.faces = faces.clone();
                turn.finished = true;
                turn.bought_defence = *bought_defence;
            }
        }
        Event::OverResolved {
            batsman,
            bowler,
            result,
        } => {
            if let Some(p) = state.players.get_mut(batsman.index()) {
                p.runs += result.runs;
                p.wickets_lost += result.wickets;
                p.xp += result.batsman_xp;
            }
            if let Some(p) = bowler.and_then(|s| state.players.get_mut(s.index())) {
                p.wickets_taken += result.wickets;
                p.xp += result.bowler_xp;
            }
            let (batting_faces, bowling_faces) = match &state.phase {
                Phase::Over(over) => (over.batting.faces.clone(), over.bowling.faces.clone()),
                _ => (Vec::new(), Vec::new()),
            };
            state.last_over = Some(OverRecord {
                round: state.round,
                batsman: *batsman,
                bowler: *bowler,
                batting_faces,
                bowling_faces,
                result: result.clone(),
            });
            state.phase = Phase::Between;
        }
        Event::ChampionshipWon { seat, card } => {
            match state.championships.iter_mut().find(|(id, _)| id == card) {
                Some((_, holders)) => holders.push(*seat),
                None => state.championships.push((card.clone(), vec![*seat])),
            }
        }
        Event::PlayerEliminated { seat, .. } => {
            if let Some(p) = state.players.get_mut(seat.index()) {
                p.eliminated = true;
            }
        }
        Event::BuyTurn { seat } => state.phase = Phase::Buying { seat: *seat },
        Event::CardBought {
            seat,
            card,
            cost,
            replacement,
        } => {
            if let Some(p) = state.players.get_mut(seat.index()) {
                p.xp = p.xp.saturating_sub(*cost);
                p.cards.push(card.clone());
            }
            if let Some(slot) = state.market.iter().position(|c| c == card) {
                match replacement {
                    Some(next) => state.market[slot] = next.clone(),
                    None => {
                        state.market.remove(slot);
                    }
                }
            }
            if replacement.is_some() && !state.draw_pile.is_empty() {
                state.draw_pile.remove(0);
            }
        }
        Event::Passed { .. } => {}
        Event::MatchEnded {
            points,
            placings,
            summary,
        } => {
            state.final_points = Some(points.clone());
            state.outcome = Some(Outcome {
                placings: placings.clone(),
                summary: summary.clone(),
            });
            state.phase = Phase::Finished;
        }
    }
}
