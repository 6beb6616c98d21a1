//! Rounds: the shuffled player order, the stadium pairing of batsman and bowler, and the
//! hand-over from overs to buying to the next round and, after the last, to the match's end.

use super::Champions;
use super::cards::roll_limit;
use super::data::Ruleset;
use super::events::Event;
use super::faces::Role;
use super::scoring;
use super::state::State;
use crate::rules::{Emitter, Seat};

/// Stadium pairing [ASSUMED `stadium_bowler_offset` = 1]: in player order, player i bats
/// against player i+offset (wrapping; an offset that would pair a player with themselves
/// falls back to 1). An eliminated batsman's over is skipped; an eliminated bowler's over is the
/// special last over. Seed: 003_a3e523365b63d62b.txt "Player Elimination".
pub(super) fn next_over_or_buying(em: &mut Emitter<Champions>, rules: &Ruleset, from: u32) {
    let order = em.state().order.clone();
    let n = order.len() as u32;
    let offset = match rules.stadium_bowler_offset % n.max(1) {
        0 => 1,
        offset => offset,
    };
    for index in from..n {
        let batsman = order[index as usize];
        if em.state().players[batsman.index()].eliminated {
            continue;
        }
        let bowler_seat = order[((index + offset) % n) as usize];
        let bowler = (!em.state().players[bowler_seat.index()].eliminated).then_some(bowler_seat);
        let batting_rolls = roll_limit(
            rules,
            &em.state().players[batsman.index()],
            Role::Batting,
            bowler.is_none(),
        );
        let bowling_rolls = bowler
            .map(|s| roll_limit(rules, &em.state().players[s.index()], Role::Bowling, false))
            .unwrap_or(0);
        em.emit(Event::OverStarted {
            index,
            batsman,
            bowler,
            batting_rolls,
            bowling_rolls,
        });
        return;
    }
    match first_active_after(em.state(), None) {
        Some(seat) => em.emit(Event::BuyTurn { seat }),
        None => end_match(em, rules),
    }
}

/// The next active player in this round's order after `after` (or the first one).
fn first_active_after(state: &State, after: Option<Seat>) -> Option<Seat> {
    let start = match after {
        Some(seat) => state.order.iter().position(|s| *s == seat)? + 1,
        None => 0,
    };
    state.order[start..]
        .iter()
        .copied()
        .find(|s| !state.players[s.index()].eliminated)
}

/// Seed: 003_a3e523365b63d62b.txt "At the start of every round, take player order cards
/// equal to the number of players, shuffle and distribute."
pub(super) fn start_round(em: &mut Emitter<Champions>, rules: &Ruleset, round: u32) {
    let mut order = em.state().active_seats();
    em.dice().shuffle(&mut order);
    em.emit(Event::RoundStarted { round, order });
    next_over_or_buying(em, rules, 0);
}

pub(super) fn next_buyer_or_round(em: &mut Emitter<Champions>, rules: &Ruleset, after: Seat) {
    if let Some(seat) = first_active_after(em.state(), Some(after)) {
        em.emit(Event::BuyTurn { seat });
    } else if em.state().round >= rules.rounds {
        end_match(em, rules);
    } else {
        let next = em.state().round + 1;
        start_round(em, rules, next);
    }
}

/// Awards the caps, then scores. Seed: 003_a3e523365b63d62b.txt "Winning the Game".
pub(super) fn end_match(em: &mut Emitter<Champions>, rules: &Ruleset) {
    for (seat, card) in scoring::caps_won(rules, em.state()) {
        em.emit(Event::ChampionshipWon { seat, card });
    }
    let points = scoring::points(rules, em.state());
    let placings = scoring::placings(em.state(), &points);
    let summary = scoring::summary(&points, &placings);
    em.emit(Event::MatchEnded {
        points,
        placings,
        summary,
    });
}
