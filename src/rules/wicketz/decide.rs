//! Checking commands and producing events: the only place Wicketz draws dice.
//!
//! `decide` emits through the shared [`Emitter`], which folds each event into the match's
//! copy as it is emitted, so the choices it makes after an event (end of over, end of
//! innings, the next delivery) see exactly the state a replay will see.

use super::Wicketz;
use super::cards::Card;
use super::commands::Command;
use super::data::{Ruleset, card, deck, ruleset};
use super::errors::WicketzReject;
use super::events::{Ball, Dismissal, Event, HowOut};
use super::field::Field;
use super::indicator::{self, Delivery, Style};
use super::options::{MeritScale, Reshuffle};
use super::reading::{Reading, catch_rule, read_card};
use super::state::{ALL_OUT, BALLS_PER_OVER, Phase, State, other};
use super::strokes::{Line, Stroke, StrokeRefusal, check_stroke};
use crate::rules::{Emitter, Outcome, Seat};

/// The Wicketz rules' own way of emitting.
impl Emitter<'_, Wicketz> {
    /// Takes the front card, reshuffling first when the cycle is spent (see [`Reshuffle`]).
    /// `announce` names the event: a card dealt for a ball, or a wild card drawn face up.
    fn draw_card(&mut self, announce: fn(u16) -> Event) -> u16 {
        let state = self.state();
        let spent = state.fresh == 0 && state.options.reshuffle == Reshuffle::EveryCycle;
        if spent || state.dispenser.is_empty() {
            let mut order: Vec<u16> = if state.dispenser.is_empty() {
                state.out_this_over.clone()
            } else {
                state.dispenser.iter().copied().collect()
            };
            self.dice().shuffle(&mut order);
            self.emit(Event::DispenserShuffled { order });
        }
        // The deck is never empty (validated), so after the refill above a front card exists.
        let card = self.state().dispenser.front().copied().unwrap_or(1);
        self.emit(announce(card));
        card
    }
}

/// Seed: "The cards should be shuffled prior to the first game played"; then the coin toss.
pub fn start(em: &mut Emitter<Wicketz>) {
    let mut order: Vec<u16> = deck().iter().map(|c| c.id).collect();
    em.dice().shuffle(&mut order);
    em.emit(Event::DispenserShuffled { order });
    let seat = Seat(em.dice().below(2) as u8);
    em.emit(Event::TossWon { seat });
}

pub fn decide(em: &mut Emitter<Wicketz>, seat: Seat, command: &Command) -> Result<(), WicketzReject> {
    let state = em.state();
    let awaited = pending(state);
    match state.phase {
        Phase::Finished => return Err(WicketzReject::MatchOver),
        Phase::NotStarted => return Err(WicketzReject::NotStarted),
        _ if !awaited.contains(&seat) => return Err(WicketzReject::NotYourTurn { awaited }),
        _ => {}
    }
    match command {
        Command::ChooseInnings { bat } => choose_innings(em, seat, *bat),
        Command::SetOver { style, field, line } => set_over(em, *style, field.as_ref(), *line),
        Command::Play { stroke, wild_card } => play(em, *stroke, *wild_card),
    }
}

pub fn pending(state: &State) -> Vec<Seat> {
    let seat = match state.phase {
        Phase::AwaitToss => state.toss_winner,
        Phase::AwaitOverSetup => state.bowling_seat(),
        Phase::AwaitStroke => state.batting_seat(),
        Phase::NotStarted | Phase::Finished => None,
    };
    seat.into_iter().collect()
}

fn choose_innings(em: &mut Emitter<Wicketz>, seat: Seat, bat: bool) -> Result<(), WicketzReject> {
    if em.state().phase != Phase::AwaitToss {
        return Err(WicketzReject::NotTossTime);
    }
    let batting_first = if bat { seat } else { other(seat) };
    em.emit(Event::InningsChosen { batting_first });
    em.emit(Event::InningsOpened {
        number: 1,
        batting: batting_first,
    });
    Ok(())
}

/// The field a bowling side keeps when it sends none: its current one, brought in if this
/// over is restricted. Used by `SetOver` without a field, the timeout default and the bots.
pub fn field_to_keep(state: &State) -> Field {
    match state.restriction_for(state.next_over_number()) {
        Some(max) if state.field.validate(Some(max)).is_err() => state.field.pulled_in(max),
        _ => state.field.clone(),
    }
}

fn set_over(
    em: &mut Emitter<Wicketz>,
    style: Style,
    field: Option<&Field>,
    line: Option<Line>,
) -> Result<(), WicketzReject> {
    if em.state().phase != Phase::AwaitOverSetup {
        return Err(WicketzReject::NotBetweenOvers);
    }
    let line = line.unwrap_or_default();
    if line != Line::Wicket && !em.state().options.bowling_variations {
        return Err(WicketzReject::BowlingVariationsOff { line });
    }
    let number = em.state().next_over_number();
    // Without a field the side keeps its own, brought in if this over is restricted: the
    // field the view suggests, so a bare `set_over` is never refused for a field not sent.
    let field = match field {
        Some(field) => field.clone(),
        None => field_to_keep(em.state()),
    };
    field
        .validate(em.state().restriction_for(number))
        .map_err(WicketzReject::IllegalField)?;
    em.emit(Event::OverStarted {
        number,
        style,
        line,
        field,
    });
    let rules = ruleset();
    if line != Line::Wicket {
        let chance = rules.line_pre_spin_good;
        let good = em.dice().chance(chance.numerator, chance.denominator);
        em.emit(Event::LineSpun { good });
    }
    if em.state().options.wild_card && em.state().wild_card_due {
        em.draw_card(|card| Event::WildCardDrawn { card });
    }
    bowl_next(em, rules);
    Ok(())
}

/// Spins the indicator until a ball needs a stroke; wides are scored at once and re-bowled.
fn bowl_next(em: &mut Emitter<Wicketz>, rules: &Ruleset) {
    let Some(style) = em.state().over.as_ref().map(|o| o.style) else {
        return;
    };
    let segments = rules.segments();
    let weights = rules.segment_weights();
    loop {
        let index = em.dice().weighted(&weights);
        let delivery = indicator::spin(&segments, index, style);
        em.emit(Event::Delivered { delivery });
        if delivery != Delivery::Wide {
            return;
        }
        let striker = em.state().current().map_or(0, |i| i.striker);
        em.emit(Event::BallCompleted {
            ball: wide_ball(striker, rules),
        });
        if innings_finished(em.state()) {
            close_innings(em, rules);
            return;
        }
    }
}

/// Seed: "Wide: Add one run to the extras." No card is dealt and the ball does not count.
pub fn wide_ball(striker: u8, rules: &Ruleset) -> Ball {
    Ball {
        delivery: Delivery::Wide,
        striker,
        stroke: None,
        card: None,
        wild_card: false,
        reading: None,
        catch: None,
        bat_runs: 0,
        byes: 0,
        extras: rules.wide_extra,
        legal: false,
        dismissal: None,
    }
}

fn play(em: &mut Emitter<Wicketz>, stroke: Stroke, use_wild_card: bool) -> Result<(), WicketzReject> {
    let (Phase::AwaitStroke, Some(delivery), Some(over)) =
        (em.state().phase, em.state().delivery, &em.state().over)
    else {
        return Err(WicketzReject::NoDeliveryToPlay);
    };
    check_stroke(stroke, delivery, over.restricting_line()).map_err(|refusal| match refusal {
        StrokeRefusal::AvoidingActionNeedsBouncer => WicketzReject::AvoidingActionOnlyAgainstBouncer,
        StrokeRefusal::OffTheGoodLine => WicketzReject::StrokeOffTheLine {
            stroke,
            line: over.line,
        },
    })?;
    let wild = if use_wild_card {
        match (over.wild_card, over.wild_card_used) {
            (None, _) => return Err(WicketzReject::NoWildCard),
            (Some(_), true) => return Err(WicketzReject::WildCardUsed),
            (Some(card), false) => Some(card),
        }
    } else {
        None
    };
    let rules = ruleset();
    let card_id = match wild {
        Some(card) => card,
        None => em.draw_card(|card| Event::CardDealt { card }),
    };
    let striker = em.state().current().map_or(0, |i| i.striker);
    let catch_chance = rules.catch_not_out;
    let (state, dice) = em.state_and_dice();
    let ball = resolve_ball(
        &BallSetup {
            card: card(card_id),
            stroke,
            delivery,
            field: &state.field,
            striker,
            wild_card: wild.is_some(),
            no_ball_extra: state.options.no_ball_extra,
        },
        rules,
        || dice.chance(catch_chance.numerator, catch_chance.denominator),
    );
    em.emit(Event::BallCompleted { ball });
    after_ball(em, rules);
    Ok(())
}

/// Everything a ball's resolution depends on besides the catch spins.
pub struct BallSetup<'a> {
    pub card: &'a Card,
    pub stroke: Stroke,
    pub delivery: Delivery,
    pub field: &'a Field,
    /// Batting-order index (0 = batter no. 1) on strike.
    pub striker: u8,
    pub wild_card: bool,
    pub no_ball_extra: bool,
}

/// Resolves one ball from the card: reading order, catch rule, no-ball extra. `spin` is one
/// spin of the catch indicator (`true` = not out); only called on a catch chance.
pub fn resolve_ball(setup: &BallSetup, rules: &Ruleset, spin: impl FnMut() -> bool) -> Ball {
    let reading = read_card(setup.card, setup.stroke, setup.delivery, setup.field, rules);
    let mut catch = None;
    let how = match reading {
        Reading::Bowled => Some(HowOut::Bowled),
        Reading::Lbw => Some(HowOut::Lbw),
        Reading::RunOut { zone } => Some(HowOut::RunOut { zone }),
        Reading::CatchChance { zone } => {
            let spins = catch_rule(rules.lives(setup.striker + 1, setup.delivery), spin);
            let caught = spins.caught();
            catch = Some(spins);
            caught.then_some(HowOut::Caught { zone })
        }
        _ => None,
    };
    let bat_runs = reading.bat_runs();
    let byes = reading.byes();
    let no_ball = setup.delivery == Delivery::NoBall;
    // Seed: "No Ball ... Add one run to the extras if not scored from."
    let extras = if no_ball && setup.no_ball_extra && bat_runs + byes == 0 {
        rules.no_ball_extra
    } else {
        0
    };
    Ball {
        delivery: setup.delivery,
        striker: setup.striker,
        stroke: Some(setup.stroke),
        card: Some(setup.card.id),
        wild_card: setup.wild_card,
        reading: Some(reading),
        catch,
        bat_runs,
        byes,
        extras,
        legal: !no_ball,
        dismissal: how.map(|how| Dismissal {
            batter: setup.striker,
            how,
        }),
    }
}

fn after_ball(em: &mut Emitter<Wicketz>, rules: &Ruleset) {
    if innings_finished(em.state()) {
        close_innings(em, rules);
        return;
    }
    if let Some(over) = &em.state().over
        && over.legal_balls >= BALLS_PER_OVER
    {
        let (number, runs) = (over.number, over.runs);
        em.emit(Event::OverCompleted { number, runs });
        return;
    }
    bowl_next(em, rules);
}

/// Seed: "until the side is dismissed at the fall of the tenth wicket or if the prescribed
/// number of previously agreed overs has been bowled"; and a chase ends once the target is
/// reached (option `stop_when_target_passed`).
pub fn innings_finished(state: &State) -> bool {
    let Some(innings) = state.current() else {
        return false;
    };
    let overs_done = innings.legal_balls >= u32::from(state.options.overs) * u32::from(BALLS_PER_OVER);
    let chased = state.options.stop_when_target_passed && state.target().is_some_and(|t| innings.runs >= t);
    innings.wickets >= ALL_OUT || overs_done || chased
}

fn close_innings(em: &mut Emitter<Wicketz>, rules: &Ruleset) {
    let Some(innings) = em.state().current() else {
        return;
    };
    let overs = match em.state().options.merit_scale {
        MeritScale::AgreedOvers => u32::from(em.state().options.overs),
        MeritScale::OversBowled => innings.legal_balls.div_ceil(u32::from(BALLS_PER_OVER)).max(1),
    };
    let (number, batting) = (innings.number, innings.batting);
    em.emit(Event::InningsClosed {
        number,
        runs: innings.runs,
        wickets: innings.wickets,
        legal_balls: innings.legal_balls,
        merit: rules.merit(innings.runs, overs),
    });
    // A side that would bat last while already ahead on aggregate has won by an innings: with
    // `stop_when_target_passed` its chase would end before the first ball, so it is not opened.
    let next = other(batting);
    let won_by_an_innings = em.state().options.stop_when_target_passed
        && em.state().innings.len() + 1 == em.state().total_innings()
        && em.state().aggregate_target(next) == 0;
    if em.state().innings.len() < em.state().total_innings() && !won_by_an_innings {
        em.emit(Event::InningsOpened {
            number: number + 1,
            batting: next,
        });
    } else {
        let outcome = outcome_of(em.state());
        em.emit(Event::MatchFinished { outcome });
    }
}

/// The side with more runs wins; "by N runs" when the side batting last fell short,
/// "by N wickets" when it passed the target.
pub fn outcome_of(state: &State) -> Outcome {
    let totals = [state.total_of(Seat(0)), state.total_of(Seat(1))];
    let last = state.innings.last();
    if totals[0] == totals[1] {
        return Outcome {
            placings: vec![1, 1],
            summary: format!("Match tied at {} runs each", totals[0]),
        };
    }
    let winner = if totals[0] > totals[1] { Seat(0) } else { Seat(1) };
    let loser = other(winner);
    let margin = match last {
        Some(innings) if innings.batting == winner => {
            let left = ALL_OUT - innings.wickets;
            format!("{left} wicket{}", if left == 1 { "" } else { "s" })
        }
        _ => {
            let runs = totals[winner.index()] - totals[loser.index()];
            let batted = |seat: Seat| state.innings.iter().filter(|i| i.batting == seat).count();
            let by_an_innings = if batted(winner) < batted(loser) {
                "an innings and "
            } else {
                ""
            };
            format!("{by_an_innings}{runs} run{}", if runs == 1 { "" } else { "s" })
        }
    };
    let mut placings = vec![2, 2];
    placings[winner.index()] = 1;
    Outcome {
        placings,
        summary: format!(
            "Seat {} won by {margin} ({} to {})",
            winner.0,
            totals[winner.index()],
            totals[loser.index()]
        ),
    }
}
