//! One delivery from the reveal of the sealed choices to the ball's end: skill cards, the
//! over card, the dice, the bowler's options after a miss, the struck ball, catches and runs.

use super::*;

pub(super) fn maybe_reveal(em: &mut Emit) {
    let ball = em.state().ball;
    let (Some(card), Some(shot)) = (ball.sealed_card, ball.sealed_shot) else {
        return;
    };
    let specialist = em.state().striker_card().role == Role::Batter;
    let zones = em.state().rules.bowl_cards[em.state().bowl_type().index()][usize::from(card)].zones;
    let advantage = resolve::advantage(em.state().striker_confidence(), shot.zone, zones, specialist);
    em.emit(Event::Revealed {
        card,
        shot,
        advantage,
    });
    let (add, d8) = skills_available(em.state());
    if add || d8 {
        em.wait(Phase::Skills);
    } else {
        reveal_over_card(em);
    }
}

/// Which once-per-over skill cards the batting side may play on this ball.
pub fn skills_available(state: &State) -> (bool, bool) {
    let allowance = state.rules.skills;
    let advantage = state.ball.advantage;
    (
        state.skills.add_one < allowance.add_one_advantage_per_over && advantage < resolve::ADVANTAGE_MAX,
        state.skills.roll_d8 < allowance.roll_d8_per_over && advantage < 2,
    )
}

/// Turns the next over card (none on a free hit) and applies "revealed" effects.
pub(super) fn reveal_over_card(em: &mut Emit) {
    if !em.state().free_hit {
        let slot = em.state().slot.min(5);
        let card = dealt_card(em.state(), slot);
        em.emit(Event::OverCardRevealed { slot, card });
        if em.state().ball.effect == Some(Effect::QuickSingle) {
            em.wait(Phase::QuickSingle);
            return;
        }
    }
    deliver(em);
}

pub(super) fn deliver(em: &mut Emit) {
    let s = em.state();
    let pitch_d8 = !s.delivered_this_over
        && s.pitch
            .and_then(|p| s.rules.pitch_cards.get(usize::from(p)))
            .and_then(|p| p.d8_first_ball_for)
            .is_some_and(|t| t == s.bowl_type());
    let inspired = s.ball.effect == Some(Effect::Inspired);
    let bowl_sides = if pitch_d8 || inspired || s.d8_next { 8 } else { 6 };
    let bat_sides = if s.ball.bat_sides == 8 { 8 } else { 6 };
    let bowl = em.roll(bowl_sides);
    let bat = em.roll(bat_sides);
    em.emit(Event::Delivered {
        bowl,
        bowl_sides,
        bat,
        bat_sides,
    });
    let clean = bowl == bowl_sides && bat == 1;
    if !clean && em.state().skills.reroll_to_hit < em.state().rules.skills.reroll_to_hit_per_innings {
        em.wait(Phase::RerollToHit);
    } else {
        judge(em);
    }
}

pub(super) fn contact_now(state: &State) -> Contact {
    let b = state.ball;
    resolve::contact(b.bowl, b.bowl_sides, b.bat, b.advantage)
}

pub(super) fn attitude_now(state: &State) -> Attitude {
    state.ball.shot.map(|s| s.attitude).unwrap_or_default()
}

/// The ways the bowler may try for a wicket after this miss, as [`MissOption::bit`]s.
pub fn miss_options(state: &State) -> u8 {
    let Contact::Miss(margin) = contact_now(state) else {
        return 0;
    };
    if state.protected() {
        return 0;
    }
    let mut options = 0;
    if margin >= state.bowled_chance_margin {
        options |= MissOption::Bowled.bit();
        if state.field.slips() > 0 && state.bowl_type() == BowlType::Pace {
            options |= MissOption::Slips.bit();
        }
    }
    if state.ball.effect == Some(Effect::Howzat) {
        options |= MissOption::Howzat.bit();
    }
    options
}

pub(super) fn judge(em: &mut Emit) {
    let protected = em.state().protected();
    match contact_now(em.state()) {
        Contact::CleanBowled if protected => dot(em),
        Contact::CleanBowled => out_ball(em, Dismissal::CleanBowled, 0, false),
        Contact::NaturalSix => boundary(em, 6),
        Contact::NaturalFour => boundary(em, 4),
        Contact::Block => dot(em),
        Contact::Miss(_) => {
            let options = miss_options(em.state());
            match options.count_ones() {
                0 => dot(em),
                1 => {
                    let option = MissOption::ALL.into_iter().find(|o| o.bit() == options);
                    if let Some(option) = option {
                        em.emit(Event::MissChosen { option });
                        resolve_miss(em, option);
                    }
                }
                _ => em.wait(Phase::Miss),
            }
        }
        Contact::Strike(margin) => strike(em, margin),
    }
}

pub(super) fn resolve_miss(em: &mut Emit, option: MissOption) {
    let attitude = attitude_now(em.state());
    let out = match option {
        MissOption::Bowled => {
            let chance = em
                .state()
                .rules
                .bowled_chance(em.state().bowled_chance_reading, attitude);
            em.chance(RollFor::BowledChance, chance.sides, chance.min)
                .then_some(Dismissal::Bowled)
        }
        MissOption::Slips => {
            let mut caught = false;
            let min = em.state().rules.slip_catch_min;
            for _ in 0..em.state().field.slips() {
                caught |= em.chance(RollFor::SlipCatch, 6, min);
            }
            caught.then_some(Dismissal::CaughtInSlips)
        }
        MissOption::Howzat => {
            if attitude == Attitude::Aggressive {
                change_confidence(em, -1);
            }
            em.chance(RollFor::Howzat, 6, resolve::HOWZAT_MIN)
                .then_some(Dismissal::Lbw)
        }
    };
    match out {
        Some(dismissal) => appeal(em, dismissal),
        None => dot(em),
    }
}

/// A dismissal the batting side may review once per innings, in formats with DRS.
pub(super) fn appeal(em: &mut Emit, dismissal: Dismissal) {
    if dismissal.reviewable() && em.state().format.has_drs() && !em.state().drs_used {
        em.emit(Event::Appeal { dismissal });
        em.wait(Phase::Review);
    } else {
        out_ball(em, dismissal, 0, false);
    }
}

pub(super) fn strike(em: &mut Emit, margin: u8) {
    let attitude = attitude_now(em.state());
    match em.state().ball.effect {
        Some(Effect::GreatShot) if margin >= 2 => {
            let runs = resolve::great_shot_runs(attitude);
            let ball = ball_runs(em.state(), runs, 0);
            return end_ball(em, ball);
        }
        Some(Effect::Boundary) => {
            let d6 = if attitude == Attitude::Aggressive {
                let face = em.roll(6);
                em.emit(Event::Roll {
                    roll_for: RollFor::BoundaryCard,
                    face,
                    sides: 6,
                });
                face
            } else {
                0
            };
            return boundary(em, resolve::boundary_card_runs(attitude, d6));
        }
        _ => {}
    }
    let rolled = em.roll(em.state().format.distance_sides());
    let distance = resolve::spin_distance(em.state().bowl_type(), margin, rolled);
    em.emit(Event::Distance {
        rolled,
        distance,
        rerolled: false,
        added_one: false,
    });
    ask_distance(em);
}

/// (may add one, may re-roll) for the distance now on the board.
pub fn distance_options(state: &State) -> (bool, bool) {
    let margin = match contact_now(state) {
        Contact::Strike(m) => m,
        _ => 0,
    };
    let add = !state.ball.distance_added
        && resolve::may_add_one(state.bowl_type(), margin, state.ball.distance, state.format);
    let reroll = state.skills.reroll_distance < state.rules.skills.reroll_distance_per_innings
        && !state.ball.distance_added;
    (add, reroll)
}

pub(super) fn ask_distance(em: &mut Emit) {
    let (add, reroll) = distance_options(em.state());
    if add || reroll {
        em.wait(Phase::Distance);
    } else {
        bounce(em);
    }
}

pub(super) fn distance_choice(em: &mut Emit, choice: DistanceChoice) -> Result<(), CtgReject> {
    let (add, reroll) = distance_options(em.state());
    match choice {
        DistanceChoice::Accept => bounce(em),
        DistanceChoice::AddOne => {
            if !add {
                return Err(CtgReject::AddOneUnavailable);
            }
            let rolled = em.state().ball.distance;
            em.emit(Event::Distance {
                rolled,
                distance: rolled + 1,
                rerolled: false,
                added_one: true,
            });
            bounce(em);
        }
        DistanceChoice::Reroll => {
            if !reroll {
                return Err(CtgReject::RerollUnavailable);
            }
            let margin = match contact_now(em.state()) {
                Contact::Strike(m) => m,
                _ => 0,
            };
            let rolled = em.roll(em.state().format.distance_sides());
            let distance = resolve::spin_distance(em.state().bowl_type(), margin, rolled);
            em.emit(Event::Distance {
                rolled,
                distance,
                rerolled: true,
                added_one: false,
            });
            let (add, _) = distance_options(em.state());
            if add { em.wait(Phase::Distance) } else { bounce(em) }
        }
    }
    Ok(())
}

pub(super) fn bounce(em: &mut Emit) {
    let face = em.roll(6);
    em.emit(Event::Bounce {
        face,
        rerolled: false,
    });
    if em.state().skills.reroll_bounce < em.state().rules.skills.reroll_bounce_per_innings {
        em.wait(Phase::RerollBounce);
    } else {
        land(em);
    }
}

/// Catch, boundary or where the ball stops. Seed: 001_10260e69616bd853.txt "Catch".
pub(super) fn land(em: &mut Emit) {
    let s = em.state();
    let zone = s.ball.shot.map(|s| s.zone).unwrap_or(1);
    let face = s.rules.bounce_face(attitude_now(s), s.ball.bounce);
    let distance = s.ball.distance;
    let area = resolve::area_of(distance);
    let great_catch = s.ball.effect == Some(Effect::GreatCatch);
    if s.field.has(zone, area) && !s.protected() && (face.red || great_catch) {
        let value = s.rules.catch_values[usize::from(area - 1)];
        let mut target = resolve::catch_target(value, s.rules.red_outlines.has(zone, area));
        if great_catch {
            target = target.min(resolve::GREAT_CATCH_MIN);
        }
        // A drop is folded from the catch roll (`state::apply`): the fielder's area is kept.
        if em.chance(RollFor::Catch, 6, target) {
            return appeal(em, Dismissal::Caught);
        }
    }
    match resolve::travel(em.state().format, distance, face) {
        Travel::Six => boundary(em, 6),
        Travel::Four => boundary(em, 4),
        Travel::Stops(_) => em.wait(Phase::Run),
    }
}

/// The safe and the risky run of the ball now stopped.
pub fn run_choice(state: &State) -> resolve::RunChoice {
    let zone = state.ball.shot.map(|s| s.zone).unwrap_or(1);
    let face = state.rules.bounce_face(attitude_now(state), state.ball.bounce);
    let area = resolve::area_of(state.ball.distance + face.areas).max(1);
    let fielded = state.field.has(zone, area) && state.ball.dropped_in != area;
    let card = state.ball.effect == Some(Effect::RunOut);
    resolve::run_choice(area, fielded, face.red, card)
}

pub(super) fn run(em: &mut Emit, attempt: bool) {
    let choice = run_choice(em.state());
    em.emit(Event::RunDecided { attempt });
    if !attempt {
        let ball = ball_runs(em.state(), choice.safe, 0);
        return end_ball(em, ball);
    }
    if em.state().ball.effect == Some(Effect::RunOut)
        && choice.run_out_min == resolve::RUN_OUT_CARD_MIN
        && attitude_now(em.state()) == Attitude::Aggressive
    {
        change_confidence(em, -1);
    }
    if em.chance(RollFor::RunOut, 6, choice.run_out_min) {
        out_ball(em, Dismissal::RunOut, choice.attempt - 1, choice.attempt % 2 == 1);
    } else {
        let ball = ball_runs(em.state(), choice.attempt, 0);
        end_ball(em, ball);
    }
}

/// A ball that scored `runs` (odd runs swap the batters; a no-ball adds its extra).
pub(super) fn ball_runs(state: &State, runs: u8, boundary: u8) -> BallEnd {
    BallEnd {
        runs,
        extras: u8::from(state.ball.no_ball),
        legal: !state.ball.no_ball,
        boundary,
        wicket: None,
        swap: runs % 2 == 1,
        express: false,
    }
}

pub(super) fn dot(em: &mut Emit) {
    let ball = ball_runs(em.state(), 0, 0);
    end_ball(em, ball);
}

pub(super) fn boundary(em: &mut Emit, runs: u8) {
    boundary_confidence(em);
    let ball = ball_runs(em.state(), runs, runs);
    end_ball(em, ball);
}

pub(super) fn out_ball(em: &mut Emit, dismissal: Dismissal, runs: u8, swap: bool) {
    let ball = BallEnd {
        wicket: Some(dismissal),
        swap,
        ..ball_runs(em.state(), runs, 0)
    };
    end_ball(em, ball);
}

pub(super) fn end_ball(em: &mut Emit, ball: BallEnd) {
    em.emit(Event::BallEnded { ball });
    if em.state().balls_in_over >= 6 && !em.state().free_hit {
        em.emit(Event::OverEnded);
    }
    advance(em);
}
