//! The rules: checks a command, draws dice, emits events.
//!
//! Every handler validates first and only then emits, so a refused command leaves the state
//! and the dice untouched; [`decide`] can therefore run on the live state (the simulator,
//! through [`execute`]) or on the match's copy (`Game::decide`). It writes through the
//! shared [`Emitter`], which applies each event at once, so later rules see its effect
//! exactly as a replay will.
//!
//! This file holds the command checks; `over` the flow between deliveries; `ball` one
//! delivery from the reveal to its end.

use super::Ctg;
use super::command::{Command, TossChoice};
use super::event::{BallEnd, Event, RollFor, Shot, Skill, SquadChoice};
use super::reject::CtgReject;
use super::resolve::{self, Contact, Travel};
use super::state::{self, NONE, Phase, State};
use super::types::{Attitude, BowlType, Dismissal, DistanceChoice, Effect, MissOption, Role};
use crate::rules::{Emitter, Roller, Seat};

mod ball;
mod over;

use ball::*;
pub use ball::{distance_options, miss_options, run_choice, skills_available};
use over::*;

/// The emitter the CTG rules write into.
type Emit<'a> = Emitter<'a, Ctg>;

/// The engine's own ways of emitting, shared by every handler.
impl Emitter<'_, Ctg> {
    fn wait(&mut self, phase: Phase) {
        self.emit(Event::Await { phase });
    }

    fn roll(&mut self, sides: u8) -> u8 {
        self.dice().roll(sides)
    }

    /// A logged chance roll: returns whether the face reached `min`.
    fn chance(&mut self, roll_for: RollFor, sides: u8, min: u8) -> bool {
        let face = self.roll(sides);
        self.emit(Event::Roll {
            roll_for,
            face,
            sides,
        });
        face >= min
    }
}

/// Emits the opening events: the game waits for both squads.
pub fn emit_start(em: &mut Emit) {
    em.wait(Phase::SelectSquad);
}

/// [`emit_start`] straight onto `state`, appending to `out`.
pub fn start(state: &mut State, out: &mut Vec<Event>) {
    let mut dice = NoDice;
    let mut em = Emit::new(state, &mut dice);
    emit_start(&mut em);
    out.extend(em.into_events());
}

/// The start draws nothing.
struct NoDice;

impl Roller for NoDice {
    fn below(&mut self, _: u32) -> u32 {
        unreachable!("the CTG start draws no dice")
    }
}

/// [`decide`] straight onto `state`, appending to `out`: for the simulator and rule tests,
/// which keep no copy (a refused command has emitted nothing, see the module's doc).
pub fn execute(
    state: &mut State,
    seat: Seat,
    command: &Command,
    dice: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> Result<(), CtgReject> {
    let mut em = Emit::new(state, dice);
    let decided = decide(&mut em, seat, command);
    out.extend(em.into_events());
    decided
}

/// Checks `command` from `seat` and, if legal, emits it with its consequences.
pub fn decide(em: &mut Emit, seat: Seat, command: &Command) -> Result<(), CtgReject> {
    let state = em.state();
    if state.phase == Phase::MatchOver {
        return Err(CtgReject::MatchOver);
    }
    let sealed_already = match state.phase {
        Phase::SelectSquad => state.selection.get(seat.index()).is_some_and(|s| s.is_some()),
        Phase::Sealed => {
            (seat == state.fielding() && state.ball.sealed_card.is_some())
                || (seat == state.batting && state.ball.sealed_shot.is_some())
        }
        _ => false,
    };
    if seat.0 <= 1 && sealed_already {
        return Err(CtgReject::AlreadySealed);
    }
    if seat.0 > 1 || state.pending_mask() & (1 << seat.0) == 0 {
        return Err(CtgReject::NotYourTurn {
            waiting_for: state.phase,
        });
    }
    let phase = state.phase;
    let wrong = || CtgReject::WrongCommand { asked: phase };
    match (phase, *command) {
        (Phase::SelectSquad, Command::SelectSquad { drop, batting_order }) => {
            select_squad(em, seat, drop, batting_order)
        }
        (Phase::Toss, Command::Toss { choice }) => {
            let batting = match choice {
                TossChoice::Bat => seat,
                TossChoice::Bowl => Seat(1 - seat.0),
            };
            em.emit(Event::InningsStarted { innings: 0, batting });
            advance(em);
            Ok(())
        }
        (Phase::ChooseBowler, Command::ChooseBowler { bowler }) => choose_bowler(em, bowler),
        (
            Phase::Openers,
            Command::Openers {
                striker,
                non_striker,
                striker_attitude,
                non_striker_attitude,
            },
        ) => {
            let available = state::available_batters(em.state());
            for p in [striker, non_striker] {
                check_batter(em.state(), available, p)?;
            }
            if striker == non_striker {
                return Err(CtgReject::SameBatterTwice);
            }
            em.emit(Event::BatterIn {
                batter: striker,
                attitude: striker_attitude,
            });
            em.emit(Event::BatterIn {
                batter: non_striker,
                attitude: non_striker_attitude,
            });
            advance(em);
            Ok(())
        }
        (Phase::NextBatter, Command::NextBatter { batter, attitude }) => {
            check_batter(em.state(), state::available_batters(em.state()), batter)?;
            em.emit(Event::BatterIn { batter, attitude });
            advance(em);
            Ok(())
        }
        (Phase::PowerPlay, Command::PowerPlay { call }) => {
            em.emit(Event::PowerPlay { called: call });
            advance(em);
            Ok(())
        }
        (Phase::SetField, Command::SetField { field }) => {
            em.state()
                .field_rules()
                .check(field)
                .map_err(CtgReject::IllegalField)?;
            em.emit(Event::FieldSet { field });
            em.wait(Phase::Sealed);
            Ok(())
        }
        (Phase::Sealed, Command::Bowl { card }) if seat == em.state().fielding() => {
            let deck = &em.state().rules.bowl_cards[em.state().bowl_type().index()];
            if usize::from(card) >= deck.len() {
                return Err(CtgReject::CardNotInHand(card));
            }
            em.emit(Event::BowlSealed { card: Some(card) });
            maybe_reveal(em);
            Ok(())
        }
        (Phase::Sealed, Command::Shot { zone, attitude }) if seat == em.state().batting => {
            if !(1..=5).contains(&zone) {
                return Err(CtgReject::NoSuchZone(zone));
            }
            em.emit(Event::ShotSealed {
                shot: Some(Shot { zone, attitude }),
            });
            maybe_reveal(em);
            Ok(())
        }
        (Phase::Skills, Command::Skills { add_one, roll_d8 }) => {
            let (can_add, can_d8) = skills_available(em.state());
            if (add_one && !can_add) || (roll_d8 && !can_d8) {
                return Err(CtgReject::SkillUnavailable);
            }
            if roll_d8 {
                let advantage = em.state().ball.advantage;
                em.emit(Event::SkillPlayed {
                    skill: Skill::RollD8,
                    advantage,
                });
            }
            if add_one {
                let specialist = em.state().striker_card().role == Role::Batter;
                let advantage = resolve::clamp_advantage(em.state().ball.advantage + 1, specialist);
                em.emit(Event::SkillPlayed {
                    skill: Skill::AddOne,
                    advantage,
                });
            }
            reveal_over_card(em);
            Ok(())
        }
        (Phase::QuickSingle, Command::QuickSingle { take }) => {
            em.emit(Event::QuickSingle { taken: take });
            if take {
                let legal = !em.state().ball.no_ball;
                end_ball(
                    em,
                    BallEnd {
                        runs: 1,
                        legal,
                        swap: true,
                        ..BallEnd::default()
                    },
                );
            } else {
                deliver(em);
            }
            Ok(())
        }
        (Phase::RerollToHit, Command::Reroll { reroll }) => {
            if reroll {
                let sides = em.state().ball.bat_sides;
                let bat = em.roll(sides);
                em.emit(Event::ToHitRerolled { bat });
            }
            judge(em);
            Ok(())
        }
        (Phase::Miss, Command::Miss { option }) => {
            if miss_options(em.state()) & option.bit() == 0 {
                return Err(CtgReject::MissOptionUnavailable);
            }
            em.emit(Event::MissChosen { option });
            resolve_miss(em, option);
            Ok(())
        }
        (Phase::Distance, Command::Distance { choice }) => distance_choice(em, choice),
        (Phase::RerollBounce, Command::Reroll { reroll }) => {
            if reroll {
                let face = em.roll(6);
                em.emit(Event::Bounce { face, rerolled: true });
            }
            land(em);
            Ok(())
        }
        (Phase::Run, Command::Run { attempt }) => {
            run(em, attempt);
            Ok(())
        }
        (Phase::Review, Command::Review { review }) => {
            let Some(dismissal) = em.state().ball.appeal else {
                return Err(wrong());
            };
            if review {
                let min = em.state().rules.drs_overturn_min;
                let face = em.roll(6);
                em.emit(Event::Roll {
                    roll_for: RollFor::Review,
                    face,
                    sides: 6,
                });
                let overturned = face >= min;
                em.emit(Event::Reviewed { face, overturned });
                if overturned {
                    dot(em);
                    return Ok(());
                }
            }
            out_ball(em, dismissal, 0, false);
            Ok(())
        }
        _ => Err(wrong()),
    }
}

fn select_squad(em: &mut Emit, seat: Seat, drop: u8, order: [u8; 11]) -> Result<(), CtgReject> {
    let side = seat.index();
    if em.state().selection[side].is_some() {
        return Err(CtgReject::AlreadySealed);
    }
    if drop >= 12 {
        return Err(CtgReject::NoSuchPlayer(drop));
    }
    if !matches!(
        em.state().cards[side][usize::from(drop)].role,
        Role::Pace | Role::Spin
    ) {
        return Err(CtgReject::DropNotPaceOrSpin);
    }
    let mut seen = 1u16 << drop;
    for p in order {
        if p >= 12 || seen & (1 << p) != 0 {
            return Err(CtgReject::BadBattingOrder);
        }
        seen |= 1 << p;
    }
    let choice = SquadChoice {
        drop,
        batting_order: order,
    };
    em.emit(Event::SquadChosen {
        seat,
        choice: Some(choice),
    });
    if let [Some(a), Some(b)] = em.state().selection {
        em.emit(Event::SquadsRevealed { choices: [a, b] });
        let cards = em.state().rules.pitch_cards.len() as u32;
        let card = em.dice().below(cards) as u8;
        em.emit(Event::PitchDrawn { card });
        let seat = Seat(em.dice().below(2) as u8);
        em.emit(Event::TossWon { seat });
        em.wait(Phase::Toss);
    }
    Ok(())
}

fn check_batter(state: &State, available: u16, player: u8) -> Result<(), CtgReject> {
    if player >= 12 {
        return Err(CtgReject::NoSuchPlayer(player));
    }
    if player == state.dropped(state.bat_side()) {
        return Err(CtgReject::PlayerDropped(player));
    }
    if available & (1 << player) == 0 {
        return Err(CtgReject::BatterNotAvailable(player));
    }
    Ok(())
}

/// Why `player` may not bowl the next over, if any.
pub fn bowler_reject(state: &State, player: u8) -> Option<CtgReject> {
    let side = state.field_side();
    if player >= 12 {
        return Some(CtgReject::NoSuchPlayer(player));
    }
    if player == state.dropped(side) {
        return Some(CtgReject::PlayerDropped(player));
    }
    if state.card(side, player).bowl_type.is_none() {
        return Some(CtgReject::NotABowler(player));
    }
    if player == state.last_bowler {
        return Some(CtgReject::BowlerBowledLastOver(player));
    }
    if state.overs_bowled[side][usize::from(player)] >= state.format.max_overs_per_bowler() {
        return Some(CtgReject::BowlerOverCap(player));
    }
    if !state::innings_completable_with(state, player) {
        return Some(CtgReject::WouldLeaveNoBowler(player));
    }
    None
}

/// Legal bowlers for the next over, as a bitmask of squad indices.
pub fn legal_bowlers(state: &State) -> u16 {
    (0..12u8)
        .filter(|&p| bowler_reject(state, p).is_none())
        .fold(0, |m, p| m | 1 << p)
}

fn choose_bowler(em: &mut Emit, bowler: u8) -> Result<(), CtgReject> {
    if let Some(reject) = bowler_reject(em.state(), bowler) {
        return Err(reject);
    }
    em.emit(Event::BowlerChosen { bowler });
    advance(em);
    Ok(())
}
