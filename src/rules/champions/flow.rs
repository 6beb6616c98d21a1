//! `start` and `decide`: rolling, stopping, resolving an over and ending the match.
//!
//! `decide` emits through the shared [`Emitter`], which folds each event into the match's
//! copy as it is emitted, so "what comes next" (the next over, the buying turn, a new round) is always
//! computed from the state those events lead to, exactly as a replay will see it.

use super::Champions;
use super::cards::{apply_powers, role_mods};
use super::commands::Command;
use super::data::{Ruleset, ruleset};
use super::errors::ChampionsReject;
use super::events::{Event, HiddenPile, PowerUse};
use super::faces::Role;
use super::market::buy;
use super::resolve::{BattingSide, BowlingSide, resolve_over};
use super::rounds::{end_match, next_buyer_or_round, next_over_or_buying, start_round};
use super::scoring;
use super::state::{Phase, State};
use crate::rules::{Emitter, Seat};

/// Setup and the first round. Seed: 003_a3e523365b63d62b.txt "Setup".
pub fn start(em: &mut Emitter<Champions>) {
    let rules = ruleset();
    let mut deck: Vec<String> = rules.xp_cards.iter().map(|c| c.id.clone()).collect();
    em.dice().shuffle(&mut deck);
    let pile = deck.split_off((rules.market_size as usize).min(deck.len()));
    em.emit(Event::DeckShuffled {
        market: deck,
        draw_pile: HiddenPile {
            size: pile.len() as u32,
            order: Some(pile),
        },
    });
    start_round(em, rules, 1);
}

pub fn decide(em: &mut Emitter<Champions>, seat: Seat, command: &Command) -> Result<(), ChampionsReject> {
    let state = em.state();
    if state.phase == Phase::Finished {
        return Err(ChampionsReject::MatchOver);
    }
    if state.player(seat).is_none() {
        return Err(ChampionsReject::NoSuchSeat);
    }
    if !pending(state).contains(&seat) {
        return Err(ChampionsReject::NotYourTurn);
    }
    let rules = ruleset();
    match (&state.phase, command) {
        (Phase::Over(_), Command::Roll { dice: which }) => roll(em, rules, seat, which)?,
        (Phase::Over(_), Command::Stop { powers }) => stop(em, rules, seat, powers)?,
        (Phase::Over(_), Command::Buy { .. } | Command::Pass {}) => {
            return Err(ChampionsReject::NotBuyingNow);
        }
        (Phase::Buying { .. }, Command::Buy { card }) => buy(em, rules, seat, card)?,
        (Phase::Buying { .. }, Command::Pass {}) => {
            em.emit(Event::Passed { seat });
            next_buyer_or_round(em, rules, seat);
        }
        (Phase::Buying { .. }, Command::Roll { .. } | Command::Stop { .. }) => {
            return Err(ChampionsReject::NotRollingNow);
        }
        (Phase::Between | Phase::Finished, _) => return Err(ChampionsReject::NotYourTurn),
    }
    Ok(())
}

/// Seed: 003_a3e523365b63d62b.txt "Each player has a total of 3 rolls per turn. During each
/// roll, they can choose any subset of the 6 dice to re-roll".
fn roll(
    em: &mut Emitter<Champions>,
    rules: &Ruleset,
    seat: Seat,
    which: &[u8],
) -> Result<(), ChampionsReject> {
    let Some(over) = em.state().over() else {
        return Err(ChampionsReject::NotRollingNow);
    };
    let role = over.active_role();
    let turn = over.turn(role);
    let (rolls_used, roll_limit) = (turn.rolls_used, turn.roll_limit);
    let count = rules.dice_per_roll as u8;
    let chosen: Vec<u8> = if rolls_used == 0 {
        if !which.is_empty() {
            return Err(ChampionsReject::FirstRollRollsAll);
        }
        (0..count).collect()
    } else {
        if rolls_used >= roll_limit {
            return Err(ChampionsReject::NoRollsLeft { limit: roll_limit });
        }
        if which.is_empty() {
            return Err(ChampionsReject::NothingToReroll);
        }
        for (i, die) in which.iter().enumerate() {
            if *die >= count {
                return Err(ChampionsReject::DieOutOfRange {
                    die: *die,
                    last: count - 1,
                });
            }
            if which[..i].contains(die) {
                return Err(ChampionsReject::DieListedTwice { die: *die });
            }
        }
        which.to_vec()
    };
    let die_faces = rules.die(role);
    let faces = chosen
        .iter()
        .map(|_| die_faces[em.dice().below(die_faces.len() as u32) as usize])
        .collect();
    em.emit(Event::DiceRolled {
        seat,
        role,
        roll: rolls_used + 1,
        dice: chosen,
        faces,
    });
    Ok(())
}

fn stop(
    em: &mut Emitter<Champions>,
    rules: &Ruleset,
    seat: Seat,
    powers: &[PowerUse],
) -> Result<(), ChampionsReject> {
    let Some(over) = em.state().over() else {
        return Err(ChampionsReject::NotRollingNow);
    };
    let role = over.active_role();
    let turn = over.turn(role);
    if turn.rolls_used == 0 {
        return Err(ChampionsReject::NotRolledYet);
    }
    let player = &em.state().players[seat.index()];
    let applied = apply_powers(rules, player, role, &turn.faces, powers)?;
    let bowler_rolls_next = role == Role::Batting && over.bowler.is_some();
    em.emit(Event::TurnEnded {
        seat,
        role,
        powers: powers.to_vec(),
        faces: applied.faces,
        xp_spent: applied.xp_spent,
        bought_defence: applied.bought_defence,
    });
    if bowler_rolls_next {
        return Ok(());
    }
    finish_over(em, rules);
    Ok(())
}

/// Resolves the over just finished, awards cards, eliminates, and moves on.
fn finish_over(em: &mut Emitter<Champions>, rules: &Ruleset) {
    let Some(over) = em.state().over().cloned() else {
        return;
    };
    let batsman = &em.state().players[over.batsman.index()];
    let bat_mods = role_mods(rules, batsman, Role::Batting);
    let bat = BattingSide {
        faces: &over.batting.faces,
        mods: &bat_mods,
        bought_defence: over.batting.bought_defence,
        wickets_left: rules.elimination_wickets.saturating_sub(batsman.wickets_lost),
    };
    let bowl_mods = over
        .bowler
        .map(|s| role_mods(rules, &em.state().players[s.index()], Role::Bowling));
    let bowl = bowl_mods.as_ref().map(|mods| BowlingSide {
        faces: &over.bowling.faces,
        mods,
    });
    let result = resolve_over(rules, &bat, bowl.as_ref());
    let eliminated = batsman.wickets_lost + result.wickets >= rules.elimination_wickets;
    let firsts = scoring::firsts_won(rules, em.state(), over.batsman, over.bowler, &result, eliminated);
    em.emit(Event::OverResolved {
        batsman: over.batsman,
        bowler: over.bowler,
        result,
    });
    for (seat, card) in firsts {
        em.emit(Event::ChampionshipWon { seat, card });
    }
    if eliminated {
        em.emit(Event::PlayerEliminated {
            seat: over.batsman,
            by: over.bowler,
        });
    }
    if em.state().active_seats().len() < rules.min_active_players as usize {
        end_match(em, rules);
        return;
    }
    next_over_or_buying(em, rules, over.index + 1);
}

/// The seats awaited now: the roller during an over, the buyer while buying.
pub fn pending(state: &State) -> Vec<Seat> {
    match &state.phase {
        Phase::Over(over) => over.active_seat().into_iter().collect(),
        Phase::Buying { seat } => vec![*seat],
        Phase::Between | Phase::Finished => Vec::new(),
    }
}
