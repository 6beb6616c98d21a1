//! Checking commands and producing events: the only place Wicketz draws dice.
//!
//! `decide` works on a scratch copy of the state and folds each event as it emits it, so the
//! choices it makes after an event (end of over, end of innings, the next delivery) see
//! exactly the state a replay will see.

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
use crate::rules::{Dice, Outcome, Seat};

struct Turn<'a> {
    state: State,
    events: Vec<Event>,
    dice: &'a mut Dice,
}

impl Turn<'_> {
    fn emit(&mut self, event: Event) {
        self.state.apply(&event);
        self.events.push(event);
    }

    /// Takes the front card, reshuffling first when the cycle is spent (see [`Reshuffle`]).
    /// `announce` names the event: a card dealt for a ball, or a wild card drawn face up.
    fn draw_card(&mut self, announce: fn(u16) -> Event) -> u16 {
        let spent = self.state.fresh == 0 && self.state.options.reshuffle == Reshuffle::EveryCycle;
        if spent || self.state.dispenser.is_empty() {
            let mut order: Vec<u16> = if self.state.dispenser.is_empty() {
                self.state.out_this_over.clone()
            } else {
                self.state.dispenser.iter().copied().collect()
            };
            self.dice.shuffle(&mut order);
            self.emit(Event::DispenserShuffled { order });
        }
        // The deck is never empty (validated), so after the refill above a front card exists.
        let card = self.state.dispenser.front().copied().unwrap_or(1);
        self.emit(announce(card));
        card
    }
}

/// Seed: "The cards should be shuffled prior to the first game played"; then the coin toss.
pub fn start(state: &State, dice: &mut Dice) -> Vec<Event> {
    let mut turn = Turn {
        state: state.clone(),
        events: Vec::new(),
        dice,
    };
    let mut order: Vec<u16> = deck().iter().map(|c| c.id).collect();
    turn.dice.shuffle(&mut order);
    turn.emit(Event::DispenserShuffled { order });
    let seat = Seat(turn.dice.below(2) as u8);
    turn.emit(Event::TossWon { seat });
    turn.events
}

pub fn decide(
    state: &State,
    seat: Seat,
    command: &Command,
    dice: &mut Dice,
) -> Result<Vec<Event>, WicketzReject> {
    let awaited = pending(state);
    match state.phase {
        Phase::Finished => return Err(WicketzReject::MatchOver),
        Phase::NotStarted => return Err(WicketzReject::NotStarted),
        _ if !awaited.contains(&seat) => return Err(WicketzReject::NotYourTurn { awaited }),
        _ => {}
    }
    let mut turn = Turn {
        state: state.clone(),
        events: Vec::new(),
        dice,
    };
    match command {
        Command::ChooseInnings { bat } => choose_innings(&mut turn, seat, *bat)?,
        Command::SetOver { style, field, line } => set_over(&mut turn, *style, field.as_ref(), *line)?,
        Command::Play { stroke, wild_card } => play(&mut turn, *stroke, *wild_card)?,
    }
    Ok(turn.events)
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

fn choose_innings(turn: &mut Turn, seat: Seat, bat: bool) -> Result<(), WicketzReject> {
    if turn.state.phase != Phase::AwaitToss {
        return Err(WicketzReject::NotTossTime);
    }
    let batting_first = if bat { seat } else { other(seat) };
    turn.emit(Event::InningsChosen { batting_first });
    turn.emit(Event::InningsOpened {
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
    turn: &mut Turn,
    style: Style,
    field: Option<&Field>,
    line: Option<Line>,
) -> Result<(), WicketzReject> {
    if turn.state.phase != Phase::AwaitOverSetup {
        return Err(WicketzReject::NotBetweenOvers);
    }
    let line = line.unwrap_or_default();
    if line != Line::Wicket && !turn.state.options.bowling_variations {
        return Err(WicketzReject::BowlingVariationsOff { line });
    }
    let number = turn.state.next_over_number();
    // Without a field the side keeps its own, brought in if this over is restricted: the
    // field the view suggests, so a bare `set_over` is never refused for a field not sent.
    let field = match field {
        Some(field) => field.clone(),
        None => field_to_keep(&turn.state),
    };
    field
        .validate(turn.state.restriction_for(number))
        .map_err(WicketzReject::IllegalField)?;
    turn.emit(Event::OverStarted {
        number,
        style,
        line,
        field,
    });
    let rules = ruleset();
    if line != Line::Wicket {
        let chance = rules.line_pre_spin_good;
        let good = turn.dice.chance(chance.numerator, chance.denominator);
        turn.emit(Event::LineSpun { good });
    }
    if turn.state.options.wild_card && turn.state.wild_card_due {
        turn.draw_card(|card| Event::WildCardDrawn { card });
    }
    bowl_next(turn, rules);
    Ok(())
}

/// Spins the indicator until a ball needs a stroke; wides are scored at once and re-bowled.
fn bowl_next(turn: &mut Turn, rules: &Ruleset) {
    let Some(style) = turn.state.over.as_ref().map(|o| o.style) else {
        return;
    };
    let segments = rules.segments();
    let weights = rules.segment_weights();
    loop {
        let index = turn.dice.weighted(&weights);
        let delivery = indicator::spin(&segments, index, style);
        turn.emit(Event::Delivered { delivery });
        if delivery != Delivery::Wide {
            return;
        }
        let striker = turn.state.current().map_or(0, |i| i.striker);
        turn.emit(Event::BallCompleted {
            ball: wide_ball(striker, rules),
        });
        if innings_finished(&turn.state) {
            close_innings(turn, rules);
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

fn play(turn: &mut Turn, stroke: Stroke, use_wild_card: bool) -> Result<(), WicketzReject> {
    let (Phase::AwaitStroke, Some(delivery), Some(over)) =
        (turn.state.phase, turn.state.delivery, &turn.state.over)
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
        None => turn.draw_card(|card| Event::CardDealt { card }),
    };
    let striker = turn.state.current().map_or(0, |i| i.striker);
    let catch_chance = rules.catch_not_out;
    let dice = &mut *turn.dice;
    let ball = resolve_ball(
        &BallSetup {
            card: card(card_id),
            stroke,
            delivery,
            field: &turn.state.field,
            striker,
            wild_card: wild.is_some(),
            no_ball_extra: turn.state.options.no_ball_extra,
        },
        rules,
        || dice.chance(catch_chance.numerator, catch_chance.denominator),
    );
    turn.emit(Event::BallCompleted { ball });
    after_ball(turn, rules);
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

fn after_ball(turn: &mut Turn, rules: &Ruleset) {
    if innings_finished(&turn.state) {
        close_innings(turn, rules);
        return;
    }
    if let Some(over) = &turn.state.over
        && over.legal_balls >= BALLS_PER_OVER
    {
        let (number, runs) = (over.number, over.runs);
        turn.emit(Event::OverCompleted { number, runs });
        return;
    }
    bowl_next(turn, rules);
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

fn close_innings(turn: &mut Turn, rules: &Ruleset) {
    let Some(innings) = turn.state.current() else {
        return;
    };
    let overs = match turn.state.options.merit_scale {
        MeritScale::AgreedOvers => u32::from(turn.state.options.overs),
        MeritScale::OversBowled => innings.legal_balls.div_ceil(u32::from(BALLS_PER_OVER)).max(1),
    };
    let (number, batting) = (innings.number, innings.batting);
    turn.emit(Event::InningsClosed {
        number,
        runs: innings.runs,
        wickets: innings.wickets,
        legal_balls: innings.legal_balls,
        merit: rules.merit(innings.runs, overs),
    });
    // A side that would bat last while already ahead on aggregate has won by an innings: with
    // `stop_when_target_passed` its chase would end before the first ball, so it is not opened.
    let next = other(batting);
    let won_by_an_innings = turn.state.options.stop_when_target_passed
        && turn.state.innings.len() + 1 == turn.state.total_innings()
        && turn.state.aggregate_target(next) == 0;
    if turn.state.innings.len() < turn.state.total_innings() && !won_by_an_innings {
        turn.emit(Event::InningsOpened {
            number: number + 1,
            batting: next,
        });
    } else {
        let outcome = outcome_of(&turn.state);
        turn.emit(Event::MatchFinished { outcome });
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
