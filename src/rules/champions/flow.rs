//! `start` and `decide`: rolling, stopping, resolving an over and ending the match.
//!
//! `decide` builds its events on a scratch copy of the state, folding each one as it is
//! pushed, so "what comes next" (the next over, the buying turn, a new round) is always
//! computed from the state those events lead to, exactly as a replay will see it.

use super::cards::{apply_powers, role_mods};
use super::commands::Command;
use super::data::{Ruleset, ruleset};
use super::errors::ChampionsReject;
use super::events::{Event, HiddenPile, PowerUse};
use super::faces::Role;
use super::fold::apply;
use super::market::buy;
use super::resolve::{BattingSide, BowlingSide, resolve_over};
use super::rounds::{next_buyer_or_round, next_over_or_buying, start_round};
use super::scoring;
use super::state::{OverState, Phase, State};
use crate::rules::{Dice, Seat};

/// Events being built by one command, folded into a scratch state as they are pushed.
pub(super) struct Builder {
    pub(super) state: State,
    events: Vec<Event>,
}

impl Builder {
    fn new(state: &State) -> Self {
        Builder {
            state: state.clone(),
            events: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, event: Event) {
        apply(&mut self.state, &event);
        self.events.push(event);
    }
}

/// Setup and the first round. Seed: 003_a3e523365b63d62b.txt "Setup".
pub fn start(state: &State, dice: &mut Dice) -> Vec<Event> {
    let rules = ruleset();
    let mut b = Builder::new(state);
    let mut deck: Vec<String> = rules.xp_cards.iter().map(|c| c.id.clone()).collect();
    dice.shuffle(&mut deck);
    let pile = deck.split_off((rules.market_size as usize).min(deck.len()));
    b.push(Event::DeckShuffled {
        market: deck,
        draw_pile: HiddenPile {
            size: pile.len() as u32,
            order: Some(pile),
        },
    });
    start_round(&mut b, rules, 1, dice);
    b.events
}

pub fn decide(
    state: &State,
    seat: Seat,
    command: &Command,
    dice: &mut Dice,
) -> Result<Vec<Event>, ChampionsReject> {
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
    let mut b = Builder::new(state);
    match (&state.phase, command) {
        (Phase::Over(over), Command::Roll { dice: which }) => roll(&mut b, rules, over, seat, which, dice)?,
        (Phase::Over(over), Command::Stop { powers }) => stop(&mut b, rules, over, seat, powers)?,
        (Phase::Over(_), Command::Buy { .. } | Command::Pass {}) => {
            return Err(ChampionsReject::NotBuyingNow);
        }
        (Phase::Buying { .. }, Command::Buy { card }) => buy(&mut b, rules, seat, card)?,
        (Phase::Buying { .. }, Command::Pass {}) => {
            b.push(Event::Passed { seat });
            next_buyer_or_round(&mut b, rules, seat, dice);
        }
        (Phase::Buying { .. }, Command::Roll { .. } | Command::Stop { .. }) => {
            return Err(ChampionsReject::NotRollingNow);
        }
        (Phase::Between | Phase::Finished, _) => return Err(ChampionsReject::NotYourTurn),
    }
    Ok(b.events)
}

/// Seed: 003_a3e523365b63d62b.txt "Each player has a total of 3 rolls per turn. During each
/// roll, they can choose any subset of the 6 dice to re-roll".
fn roll(
    b: &mut Builder,
    rules: &Ruleset,
    over: &OverState,
    seat: Seat,
    which: &[u8],
    dice: &mut Dice,
) -> Result<(), ChampionsReject> {
    let role = over.active_role();
    let turn = over.turn(role);
    let count = rules.dice_per_roll as u8;
    let chosen: Vec<u8> = if turn.rolls_used == 0 {
        if !which.is_empty() {
            return Err(ChampionsReject::FirstRollRollsAll);
        }
        (0..count).collect()
    } else {
        if turn.rolls_used >= turn.roll_limit {
            return Err(ChampionsReject::NoRollsLeft {
                limit: turn.roll_limit,
            });
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
        .map(|_| die_faces[dice.below(die_faces.len() as u32) as usize])
        .collect();
    b.push(Event::DiceRolled {
        seat,
        role,
        roll: turn.rolls_used + 1,
        dice: chosen,
        faces,
    });
    Ok(())
}

fn stop(
    b: &mut Builder,
    rules: &Ruleset,
    over: &OverState,
    seat: Seat,
    powers: &[PowerUse],
) -> Result<(), ChampionsReject> {
    let role = over.active_role();
    let turn = over.turn(role);
    if turn.rolls_used == 0 {
        return Err(ChampionsReject::NotRolledYet);
    }
    let player = &b.state.players[seat.index()];
    let applied = apply_powers(rules, player, role, &turn.faces, powers)?;
    b.push(Event::TurnEnded {
        seat,
        role,
        powers: powers.to_vec(),
        faces: applied.faces,
        xp_spent: applied.xp_spent,
        bought_defence: applied.bought_defence,
    });
    if role == Role::Batting && over.bowler.is_some() {
        return Ok(());
    }
    finish_over(b, rules);
    Ok(())
}

/// Resolves the over just finished, awards cards, eliminates, and moves on.
fn finish_over(b: &mut Builder, rules: &Ruleset) {
    let Some(over) = b.state.over().cloned() else {
        return;
    };
    let batsman = &b.state.players[over.batsman.index()];
    let bat_mods = role_mods(rules, batsman, Role::Batting);
    let bat = BattingSide {
        faces: &over.batting.faces,
        mods: &bat_mods,
        bought_defence: over.batting.bought_defence,
        wickets_left: rules.elimination_wickets.saturating_sub(batsman.wickets_lost),
    };
    let bowl_mods = over
        .bowler
        .map(|s| role_mods(rules, &b.state.players[s.index()], Role::Bowling));
    let bowl = bowl_mods.as_ref().map(|mods| BowlingSide {
        faces: &over.bowling.faces,
        mods,
    });
    let result = resolve_over(rules, &bat, bowl.as_ref());
    let eliminated = batsman.wickets_lost + result.wickets >= rules.elimination_wickets;
    let firsts = scoring::firsts_won(rules, &b.state, over.batsman, over.bowler, &result, eliminated);
    b.push(Event::OverResolved {
        batsman: over.batsman,
        bowler: over.bowler,
        result,
    });
    for (seat, card) in firsts {
        b.push(Event::ChampionshipWon { seat, card });
    }
    if eliminated {
        b.push(Event::PlayerEliminated {
            seat: over.batsman,
            by: over.bowler,
        });
    }
    if b.state.active_seats().len() < rules.min_active_players as usize {
        end_match(b, rules);
        return;
    }
    next_over_or_buying(b, rules, over.index + 1);
}

/// Awards the caps, then scores. Seed: 003_a3e523365b63d62b.txt "Winning the Game".
pub(super) fn end_match(b: &mut Builder, rules: &Ruleset) {
    for (seat, card) in scoring::caps_won(rules, &b.state) {
        b.push(Event::ChampionshipWon { seat, card });
    }
    let points = scoring::points(rules, &b.state);
    let placings = scoring::placings(&b.state, &points);
    let summary = scoring::summary(&points, &placings);
    b.push(Event::MatchEnded {
        points,
        placings,
        summary,
    });
}

/// The seats awaited now: the roller during an over, the buyer while buying.
pub fn pending(state: &State) -> Vec<Seat> {
    match &state.phase {
        Phase::Over(over) => over.active_seat().into_iter().collect(),
        Phase::Buying { seat } => vec![*seat],
        Phase::Between | Phase::Finished => Vec::new(),
    }
}
