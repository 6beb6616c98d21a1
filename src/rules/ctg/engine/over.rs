//! The flow between deliveries: innings and match ends, bowlers, batters, the Power Play
//! call, dealing the over and resolving its express cards.

use super::*;
use crate::rules::ctg::options::ExpressSixes;

pub(super) fn innings_complete(state: &State) -> bool {
    let score = state.score[state.bat_side()];
    score.wickets >= 10
        || state.over >= state.overs
        || state.target().is_some_and(|target| score.runs >= target)
}

/// Moves the game on until it needs a decision: innings and match ends, the next over,
/// batters, express cards, and finally the field for the next delivery.
pub(super) fn advance(em: &mut Emit) {
    loop {
        let s = em.state();
        if s.phase == Phase::MatchOver {
            return;
        }
        if s.innings <= 1 && innings_complete(s) && s.phase != Phase::NotStarted {
            let side = s.bat_side();
            let (innings, runs, wickets) = (s.innings, s.score[side].runs, s.score[side].wickets);
            em.emit(Event::InningsEnded {
                innings,
                runs,
                wickets,
            });
            if innings == 0 {
                let batting = em.state().fielding();
                em.emit(Event::InningsStarted { innings: 1, batting });
                continue;
            }
            let winner = winner(em.state());
            em.emit(Event::MatchEnded { winner });
            return;
        }
        if s.bowler == NONE {
            em.wait(Phase::ChooseBowler);
            return;
        }
        if s.striker == NONE && s.non_striker == NONE {
            em.wait(Phase::Openers);
            return;
        }
        if s.striker == NONE || s.non_striker == NONE {
            em.wait(Phase::NextBatter);
            return;
        }
        if s.format.has_power_play()
            && !s.power_play_asked
            && !s.power_play_used[s.bat_side()]
            && (2..=9).contains(&s.over)
            && s.balls_in_over == 0
            && s.slot == 0
        {
            em.wait(Phase::PowerPlay);
            return;
        }
        if s.dealt.is_none() {
            let deck = s.rules.over_decks[s.bowl_type().index()].len();
            let mut order: Vec<u8> = (0..deck as u8).collect();
            em.dice().shuffle(&mut order);
            let mut cards = [0u8; 6];
            cards.copy_from_slice(&order[..6]);
            em.emit(Event::OverDealt { cards: Some(cards) });
            continue;
        }
        if s.express_over() && s.slot < 2 && !s.free_hit {
            express(em);
            continue;
        }
        em.wait(Phase::SetField);
        return;
    }
}

pub(super) fn winner(state: &State) -> Option<Seat> {
    let second = state.batting;
    let first = state.fielding();
    let (a, b) = (state.score[first.index()].runs, state.score[second.index()].runs);
    if b > a {
        Some(second)
    } else if a > b {
        Some(first)
    } else {
        match state.tie {
            crate::rules::ctg::options::TieRule::Tie => None,
            crate::rules::ctg::options::TieRule::ChaserLoses => Some(first),
        }
    }
}

pub(super) fn dealt_card(state: &State, slot: u8) -> u8 {
    state
        .dealt
        .map(|cards| cards[usize::from(slot.min(5))])
        .unwrap_or(0)
}

/// Resolves the next express card. Seed: 000_c44664d019aef0c0.txt express values 1-9.
pub(super) fn express(em: &mut Emit) {
    let slot = em.state().slot;
    let card = dealt_card(em.state(), slot);
    let value = em.state().rules.over_decks[em.state().bowl_type().index()][usize::from(card)].express;
    em.emit(Event::OverCardRevealed { slot, card });
    let base = BallEnd {
        legal: true,
        express: true,
        ..BallEnd::default()
    };
    let ball = match value {
        1..=4 => {
            let runs = resolve::express_runs(value).unwrap_or(0);
            BallEnd {
                runs,
                swap: runs % 2 == 1,
                ..base
            }
        }
        6 if two_express_sixes(em.state(), slot) => {
            if em.chance(RollFor::ExpressSixes, 6, resolve::EXPRESS_SIXES_BOWLED_MIN) {
                BallEnd {
                    wicket: Some(Dismissal::Bowled),
                    ..base
                }
            } else {
                base
            }
        }
        7 => {
            let face = em.roll(8);
            em.emit(Event::Roll {
                roll_for: RollFor::ExpressSeven,
                face,
                sides: 8,
            });
            let runs = em.state().rules.express_seven[em.state().bowl_type().index()][usize::from(face - 1)];
            let boundary = if matches!(runs, 4 | 6) { runs } else { 0 };
            if boundary > 0 {
                boundary_confidence(em);
            }
            BallEnd {
                runs,
                boundary,
                swap: runs % 2 == 1,
                ..base
            }
        }
        8 => {
            let attitude = em.state().attitude[usize::from(em.state().striker.min(11))];
            let delta = em.state().rules.patience[attitude.index()];
            change_confidence(em, delta);
            base
        }
        9 => {
            let min = em.state().rules.express_run_out_min;
            if em.chance(RollFor::ExpressRunOut, 6, min) {
                BallEnd {
                    wicket: Some(Dismissal::RunOut),
                    swap: true,
                    ..base
                }
            } else {
                BallEnd {
                    runs: 1,
                    swap: true,
                    ..base
                }
            }
        }
        _ => base,
    };
    end_ball(em, ball);
}

/// Whether the express six just revealed completes two sixes under the match's option.
fn two_express_sixes(state: &State, slot: u8) -> bool {
    match state.express_sixes_rule {
        ExpressSixes::SameOver => slot == 1 && state.express_sixes >= 2,
        ExpressSixes::AcrossOvers => state.express_six_run >= 2,
    }
}

pub(super) fn change_confidence(em: &mut Emit, delta: i8) {
    if delta == 0 || em.state().striker == NONE {
        return;
    }
    let player = em.state().striker;
    let before = em.state().striker_confidence();
    let confidence = resolve::clamp_confidence(before + delta);
    if confidence != before {
        em.emit(Event::ConfidenceChanged { player, confidence });
    }
}

/// Seed: 001_10260e69616bd853.txt "Any time a Batter hits a Boundary, their Confidence
/// increases by 1."
pub(super) fn boundary_confidence(em: &mut Emit) {
    change_confidence(em, 1);
}
