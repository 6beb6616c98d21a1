//! Championship cards and final scoring.
//! Seed: 003_a3e523365b63d62b.txt "Championship Cards" and "Winning the Game".

use super::data::{Award, Ruleset};
use super::faces::Role;
use super::resolve::OverResult;
use super::state::{Points, State};
use crate::rules::Seat;

/// The "first to ..." cards this over wins, in ruleset order, skipping cards already held.
/// `eliminated_batsman` is true when the over took the batsman's last wicket.
pub fn firsts_won(
    ruleset: &Ruleset,
    state: &State,
    batsman: Seat,
    bowler: Option<Seat>,
    result: &OverResult,
    eliminated_batsman: bool,
) -> Vec<(Seat, String)> {
    let mut won = Vec::new();
    for card in &ruleset.championship_cards {
        if !state.holders(&card.id).is_empty() {
            continue;
        }
        let winner = match over_award(&card.award, result, eliminated_batsman) {
            Some(Role::Batting) => Some(batsman),
            Some(Role::Bowling) => bowler,
            None => None,
        };
        if let Some(seat) = winner {
            won.push((seat, card.id.clone()));
        }
    }
    won
}

/// Which side of an over `award` goes to when the over ends with `result` (`None`: neither,
/// or an end-of-game cap). Bots weigh a championship card with this same rule.
pub fn over_award(award: &Award, result: &OverResult, eliminated_batsman: bool) -> Option<Role> {
    match award {
        Award::FirstSix { sixes } => (result.sixes >= *sixes).then_some(Role::Batting),
        Award::HatTrick { wickets } => (result.wickets >= *wickets).then_some(Role::Bowling),
        Award::AllOut => eliminated_batsman.then_some(Role::Bowling),
        Award::BestFielder { min_runs, min_saved } => {
            (result.gross_runs() >= *min_runs && result.saved >= *min_saved).then_some(Role::Bowling)
        }
        Award::PurpleCap | Award::OrangeCap => None,
    }
}

/// The end-of-game caps: each goes to every eligible player with the most wickets taken /
/// runs scored (at least `cap_minimum`), shared on a tie.
pub fn caps_won(ruleset: &Ruleset, state: &State) -> Vec<(Seat, String)> {
    let eligible: Vec<Seat> = (0..state.players.len())
        .map(|i| Seat(i as u8))
        .filter(|s| ruleset.caps_consider_eliminated || !state.players[s.index()].eliminated)
        .collect();
    let mut won = Vec::new();
    for card in &ruleset.championship_cards {
        let measure: fn(&super::state::PlayerState) -> u32 = match card.award {
            Award::PurpleCap => |p| p.wickets_taken,
            Award::OrangeCap => |p| p.runs,
            _ => continue,
        };
        let best = eligible
            .iter()
            .map(|s| measure(&state.players[s.index()]))
            .max()
            .unwrap_or(0);
        if best < ruleset.cap_minimum {
            continue;
        }
        for seat in eligible
            .iter()
            .filter(|s| measure(&state.players[s.index()]) == best)
        {
            won.push((*seat, card.id.clone()));
        }
    }
    won
}

/// Each player's points, part by part, from the state as it stands.
pub fn points(ruleset: &Ruleset, state: &State) -> Vec<Points> {
    (0..state.players.len())
        .map(|i| {
            let player = &state.players[i];
            let seat = Seat(i as u8);
            let championship = state
                .championships
                .iter()
                .filter(|(_, holders)| holders.contains(&seat))
                .filter_map(|(id, _)| ruleset.championship(id))
                .map(|c| c.points)
                .sum();
            let unused_xp = player.xp / ruleset.xp_per_point;
            let mut points = Points {
                runs: player.runs,
                wickets: player.wickets_taken,
                championship,
                unused_xp,
                total: 0,
            };
            points.total = points.runs + points.wickets + points.championship + points.unused_xp;
            points
        })
        .collect()
}

/// Places by seat: active players by points (equal points share a place, so a tie shares the
/// win, [ASSUMED]); eliminated players after every active one, by points among themselves.
pub fn placings(state: &State, points: &[Points]) -> Vec<u8> {
    let active_count = state.players.iter().filter(|p| !p.eliminated).count();
    (0..state.players.len())
        .map(|i| {
            let eliminated = state.players[i].eliminated;
            let better = (0..state.players.len())
                .filter(|j| state.players[*j].eliminated == eliminated && points[*j].total > points[i].total)
                .count();
            let offset = if eliminated { active_count } else { 0 };
            (1 + offset + better) as u8
        })
        .collect()
}

pub fn summary(points: &[Points], placings: &[u8]) -> String {
    let winners: Vec<String> = placings
        .iter()
        .enumerate()
        .filter(|(_, p)| **p == 1)
        .map(|(i, _)| format!("seat {i}"))
        .collect();
    let best = placings
        .iter()
        .position(|p| *p == 1)
        .map(|i| points[i].total)
        .unwrap_or(0);
    let verb = if winners.len() > 1 {
        "share the win"
    } else {
        "wins"
    };
    format!("{} {verb} with {best} points", winners.join(" and "))
}
