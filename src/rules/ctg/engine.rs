//! The rules: checks a command, draws dice, emits events.
//!
//! Every handler validates first and only then emits, so a refused command leaves the state
//! and the dice untouched; [`execute`] can therefore run on the live state (the simulator)
//! or on a scratch copy (`Game::decide`). Each emitted event is applied at once, so later
//! rules see its effect exactly as a replay will.

use super::command::{Command, TossChoice};
use super::event::{BallEnd, Event, RollFor, Shot, Skill, SquadChoice};
use super::reject::CtgReject;
use super::resolve::{self, Contact, Travel};
use super::state::{self, NONE, Phase, State, apply};
use super::types::{Attitude, BowlType, Dismissal, DistanceChoice, Effect, MissOption, Role};
use crate::rules::{Dice, Seat};

/// Where the engine's chance comes from: the match's [`Dice`], or exact faces in tests.
pub trait Roller {
    /// A uniform number in `0..n`.
    fn below(&mut self, n: u32) -> u32;

    /// A die with `sides` faces numbered from 1.
    fn roll(&mut self, sides: u8) -> u8 {
        self.below(u32::from(sides)) as u8 + 1
    }
}

impl Roller for Dice {
    fn below(&mut self, n: u32) -> u32 {
        Dice::below(self, n)
    }
}

/// Fisher-Yates, last index first: the same order of draws as [`Dice::shuffle`].
fn shuffle<T>(roller: &mut dyn Roller, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = roller.below(i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// Where the engine writes events: the state they fold into and the log.
struct Emit<'a> {
    state: &'a mut State,
    out: &'a mut Vec<Event>,
    dice: &'a mut dyn Roller,
}

impl Emit<'_> {
    fn emit(&mut self, event: Event) {
        apply(self.state, &event);
        self.out.push(event);
    }

    fn wait(&mut self, phase: Phase) {
        self.emit(Event::Await { phase });
    }

    fn roll(&mut self, sides: u8) -> u8 {
        self.dice.roll(sides)
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
pub fn start(state: &mut State, out: &mut Vec<Event>) {
    let event = Event::Await {
        phase: Phase::SelectSquad,
    };
    apply(state, &event);
    out.push(event);
}

/// Checks `command` from `seat` and, if legal, applies it with its consequences.
pub fn execute(
    state: &mut State,
    seat: Seat,
    command: &Command,
    dice: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> Result<(), CtgReject> {
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
    let mut em = Emit { state, out, dice };
    match (phase, *command) {
        (Phase::SelectSquad, Command::SelectSquad { drop, batting_order }) => {
            select_squad(&mut em, seat, drop, batting_order)
        }
        (Phase::Toss, Command::Toss { choice }) => {
            let batting = match choice {
                TossChoice::Bat => seat,
                TossChoice::Bowl => Seat(1 - seat.0),
            };
            em.emit(Event::InningsStarted { innings: 0, batting });
            advance(&mut em);
            Ok(())
        }
        (Phase::ChooseBowler, Command::ChooseBowler { bowler }) => choose_bowler(&mut em, bowler),
        (
            Phase::Openers,
            Command::Openers {
                striker,
                non_striker,
                striker_attitude,
                non_striker_attitude,
            },
        ) => {
            let available = state::available_batters(em.state);
            for p in [striker, non_striker] {
                check_batter(em.state, available, p)?;
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
            advance(&mut em);
            Ok(())
        }
        (Phase::NextBatter, Command::NextBatter { batter, attitude }) => {
            check_batter(em.state, state::available_batters(em.state), batter)?;
            em.emit(Event::BatterIn { batter, attitude });
            advance(&mut em);
            Ok(())
        }
        (Phase::PowerPlay, Command::PowerPlay { call }) => {
            em.emit(Event::PowerPlay { called: call });
            advance(&mut em);
            Ok(())
        }
        (Phase::SetField, Command::SetField { field }) => {
            em.state
                .field_rules()
                .check(field)
                .map_err(CtgReject::IllegalField)?;
            em.emit(Event::FieldSet { field });
            em.wait(Phase::Sealed);
            Ok(())
        }
        (Phase::Sealed, Command::Bowl { card }) if seat == em.state.fielding() => {
            let deck = &em.state.rules.bowl_cards[em.state.bowl_type().index()];
            if usize::from(card) >= deck.len() {
                return Err(CtgReject::CardNotInHand(card));
            }
            em.emit(Event::BowlSealed { card: Some(card) });
            maybe_reveal(&mut em);
            Ok(())
        }
        (Phase::Sealed, Command::Shot { zone, attitude }) if seat == em.state.batting => {
            if !(1..=5).contains(&zone) {
                return Err(CtgReject::NoSuchZone(zone));
            }
            em.emit(Event::ShotSealed {
                shot: Some(Shot { zone, attitude }),
            });
            maybe_reveal(&mut em);
            Ok(())
        }
        (Phase::Skills, Command::Skills { add_one, roll_d8 }) => {
            let (can_add, can_d8) = skills_available(em.state);
            if (add_one && !can_add) || (roll_d8 && !can_d8) {
                return Err(CtgReject::SkillUnavailable);
            }
            if roll_d8 {
                let advantage = em.state.ball.advantage;
                em.emit(Event::SkillPlayed {
                    skill: Skill::RollD8,
                    advantage,
                });
            }
            if add_one {
                let specialist = em.state.striker_card().role == Role::Batter;
                let advantage = resolve::clamp_advantage(em.state.ball.advantage + 1, specialist);
                em.emit(Event::SkillPlayed {
                    skill: Skill::AddOne,
                    advantage,
                });
            }
            reveal_over_card(&mut em);
            Ok(())
        }
        (Phase::QuickSingle, Command::QuickSingle { take }) => {
            em.emit(Event::QuickSingle { taken: take });
            if take {
                let legal = !em.state.ball.no_ball;
                end_ball(
                    &mut em,
                    BallEnd {
                        runs: 1,
                        legal,
                        swap: true,
                        ..BallEnd::default()
                    },
                );
            } else {
                deliver(&mut em);
            }
            Ok(())
        }
        (Phase::RerollToHit, Command::Reroll { reroll }) => {
            if reroll {
                let sides = em.state.ball.bat_sides;
                let bat = em.roll(sides);
                em.emit(Event::ToHitRerolled { bat });
            }
            judge(&mut em);
            Ok(())
        }
        (Phase::Miss, Command::Miss { option }) => {
            if miss_options(em.state) & option.bit() == 0 {
                return Err(CtgReject::MissOptionUnavailable);
            }
            em.emit(Event::MissChosen { option });
            resolve_miss(&mut em, option);
            Ok(())
        }
        (Phase::Distance, Command::Distance { choice }) => distance_choice(&mut em, choice),
        (Phase::RerollBounce, Command::Reroll { reroll }) => {
            if reroll {
                let face = em.roll(6);
                em.emit(Event::Bounce { face, rerolled: true });
            }
            land(&mut em);
            Ok(())
        }
        (Phase::Run, Command::Run { attempt }) => {
            run(&mut em, attempt);
            Ok(())
        }
        (Phase::Review, Command::Review { review }) => {
            let Some(dismissal) = em.state.ball.appeal else {
                return Err(wrong());
            };
            if review {
                let min = em.state.rules.drs_overturn_min;
                let face = em.roll(6);
                em.emit(Event::Roll {
                    roll_for: RollFor::Review,
                    face,
                    sides: 6,
                });
                let overturned = face >= min;
                em.emit(Event::Reviewed { face, overturned });
                if overturned {
                    dot(&mut em);
                    return Ok(());
                }
            }
            out_ball(&mut em, dismissal, 0, false);
            Ok(())
        }
        _ => Err(wrong()),
    }
}

fn select_squad(em: &mut Emit, seat: Seat, drop: u8, order: [u8; 11]) -> Result<(), CtgReject> {
    let side = seat.index();
    if em.state.selection[side].is_some() {
        return Err(CtgReject::AlreadySealed);
    }
    if drop >= 12 {
        return Err(CtgReject::NoSuchPlayer(drop));
    }
    if !matches!(
        em.state.cards[side][usize::from(drop)].role,
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
    if let [Some(a), Some(b)] = em.state.selection {
        em.emit(Event::SquadsRevealed { choices: [a, b] });
        let cards = em.state.rules.pitch_cards.len() as u32;
        let card = em.dice.below(cards) as u8;
        em.emit(Event::PitchDrawn { card });
        let seat = Seat(em.dice.below(2) as u8);
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
    if let Some(reject) = bowler_reject(em.state, bowler) {
        return Err(reject);
    }
    em.emit(Event::BowlerChosen { bowler });
    advance(em);
    Ok(())
}

fn innings_complete(state: &State) -> bool {
    let score = state.score[state.bat_side()];
    score.wickets >= 10
        || state.over >= state.format.overs()
        || state.target().is_some_and(|target| score.runs >= target)
}

/// Moves the game on until it needs a decision: innings and match ends, the next over,
/// batters, express cards, and finally the field for the next delivery.
fn advance(em: &mut Emit) {
    loop {
        let s = &*em.state;
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
                let batting = em.state.fielding();
                em.emit(Event::InningsStarted { innings: 1, batting });
                continue;
            }
            let winner = winner(em.state);
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
            shuffle(em.dice, &mut order);
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

fn winner(state: &State) -> Option<Seat> {
    let second = state.batting;
    let first = state.fielding();
    let (a, b) = (state.score[first.index()].runs, state.score[second.index()].runs);
    if b > a {
        Some(second)
    } else if a > b {
        Some(first)
    } else {
        match state.tie {
            super::options::TieRule::Tie => None,
            super::options::TieRule::ChaserLoses => Some(first),
        }
    }
}

fn dealt_card(state: &State, slot: u8) -> u8 {
    state
        .dealt
        .map(|cards| cards[usize::from(slot.min(5))])
        .unwrap_or(0)
}

/// Resolves the next express card. Seed: 000_c44664d019aef0c0.txt express values 1-9.
fn express(em: &mut Emit) {
    let slot = em.state.slot;
    let card = dealt_card(em.state, slot);
    let value = em.state.rules.over_decks[em.state.bowl_type().index()][usize::from(card)].express;
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
        6 if slot == 1 && em.state.express_sixes >= 2 => {
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
            let runs = em.state.rules.express_seven[em.state.bowl_type().index()][usize::from(face - 1)];
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
            let attitude = em.state.attitude[usize::from(em.state.striker.min(11))];
            let delta = em.state.rules.patience[attitude.index()];
            change_confidence(em, delta);
            base
        }
        9 => {
            let min = em.state.rules.express_run_out_min;
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

fn change_confidence(em: &mut Emit, delta: i8) {
    if delta == 0 || em.state.striker == NONE {
        return;
    }
    let player = em.state.striker;
    let before = em.state.striker_confidence();
    let confidence = resolve::clamp_confidence(before + delta);
    if confidence != before {
        em.emit(Event::ConfidenceChanged { player, confidence });
    }
}

/// Seed: 001_10260e69616bd853.txt "Any time a Batter hits a Boundary, their Confidence
/// increases by 1."
fn boundary_confidence(em: &mut Emit) {
    change_confidence(em, 1);
}

fn maybe_reveal(em: &mut Emit) {
    let ball = em.state.ball;
    let (Some(card), Some(shot)) = (ball.sealed_card, ball.sealed_shot) else {
        return;
    };
    let specialist = em.state.striker_card().role == Role::Batter;
    let zones = em.state.rules.bowl_cards[em.state.bowl_type().index()][usize::from(card)].zones;
    let advantage = resolve::advantage(em.state.striker_confidence(), shot.zone, zones, specialist);
    em.emit(Event::Revealed {
        card,
        shot,
        advantage,
    });
    let (add, d8) = skills_available(em.state);
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
fn reveal_over_card(em: &mut Emit) {
    if !em.state.free_hit {
        let slot = em.state.slot.min(5);
        let card = dealt_card(em.state, slot);
        em.emit(Event::OverCardRevealed { slot, card });
        if em.state.ball.effect == Some(Effect::QuickSingle) {
            em.wait(Phase::QuickSingle);
            return;
        }
    }
    deliver(em);
}

fn deliver(em: &mut Emit) {
    let s = &*em.state;
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
    if !clean && em.state.skills.reroll_to_hit < em.state.rules.skills.reroll_to_hit_per_innings {
        em.wait(Phase::RerollToHit);
    } else {
        judge(em);
    }
}

fn contact_now(state: &State) -> Contact {
    let b = state.ball;
    resolve::contact(b.bowl, b.bowl_sides, b.bat, b.advantage)
}

fn attitude_now(state: &State) -> Attitude {
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

fn judge(em: &mut Emit) {
    let protected = em.state.protected();
    match contact_now(em.state) {
        Contact::CleanBowled if protected => dot(em),
        Contact::CleanBowled => out_ball(em, Dismissal::CleanBowled, 0, false),
        Contact::NaturalSix => boundary(em, 6),
        Contact::NaturalFour => boundary(em, 4),
        Contact::Block => dot(em),
        Contact::Miss(_) => {
            let options = miss_options(em.state);
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

fn resolve_miss(em: &mut Emit, option: MissOption) {
    let attitude = attitude_now(em.state);
    let out = match option {
        MissOption::Bowled => {
            let chance = em.state.rules.bowled_chance[attitude.index()];
            em.chance(RollFor::BowledChance, chance.sides, chance.min)
                .then_some(Dismissal::Bowled)
        }
        MissOption::Slips => {
            let mut caught = false;
            for _ in 0..em.state.field.slips() {
                caught |= em.chance(RollFor::SlipCatch, 6, resolve::SLIP_CATCH_MIN);
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

/// A dismissal the batting side may review once per innings.
fn appeal(em: &mut Emit, dismissal: Dismissal) {
    if dismissal.reviewable() && !em.state.drs_used {
        em.emit(Event::Appeal { dismissal });
        em.wait(Phase::Review);
    } else {
        out_ball(em, dismissal, 0, false);
    }
}

fn strike(em: &mut Emit, margin: u8) {
    let attitude = attitude_now(em.state);
    match em.state.ball.effect {
        Some(Effect::GreatShot) if margin >= 2 => {
            let runs = resolve::great_shot_runs(attitude);
            let ball = ball_runs(em.state, runs, 0);
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
    let rolled = em.roll(em.state.format.distance_sides());
    let distance = resolve::spin_distance(em.state.bowl_type(), margin, rolled);
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

fn ask_distance(em: &mut Emit) {
    let (add, reroll) = distance_options(em.state);
    if add || reroll {
        em.wait(Phase::Distance);
    } else {
        bounce(em);
    }
}

fn distance_choice(em: &mut Emit, choice: DistanceChoice) -> Result<(), CtgReject> {
    let (add, reroll) = distance_options(em.state);
    match choice {
        DistanceChoice::Accept => bounce(em),
        DistanceChoice::AddOne => {
            if !add {
                return Err(CtgReject::AddOneUnavailable);
            }
            let rolled = em.state.ball.distance;
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
            let margin = match contact_now(em.state) {
                Contact::Strike(m) => m,
                _ => 0,
            };
            let rolled = em.roll(em.state.format.distance_sides());
            let distance = resolve::spin_distance(em.state.bowl_type(), margin, rolled);
            em.emit(Event::Distance {
                rolled,
                distance,
                rerolled: true,
                added_one: false,
            });
            let (add, _) = distance_options(em.state);
            if add { em.wait(Phase::Distance) } else { bounce(em) }
        }
    }
    Ok(())
}

fn bounce(em: &mut Emit) {
    let face = em.roll(6);
    em.emit(Event::Bounce {
        face,
        rerolled: false,
    });
    if em.state.skills.reroll_bounce < em.state.rules.skills.reroll_bounce_per_innings {
        em.wait(Phase::RerollBounce);
    } else {
        land(em);
    }
}

/// Catch, boundary or where the ball stops. Seed: 001_10260e69616bd853.txt "Catch".
fn land(em: &mut Emit) {
    let s = &*em.state;
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
        if em.chance(RollFor::Catch, 6, target) {
            return appeal(em, Dismissal::Caught);
        }
        em.state.ball.dropped_in = area;
    }
    match resolve::travel(em.state.format, distance, face) {
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

fn run(em: &mut Emit, attempt: bool) {
    let choice = run_choice(em.state);
    em.emit(Event::RunDecided { attempt });
    if !attempt {
        let ball = ball_runs(em.state, choice.safe, 0);
        return end_ball(em, ball);
    }
    if em.state.ball.effect == Some(Effect::RunOut)
        && choice.run_out_min == resolve::RUN_OUT_CARD_MIN
        && attitude_now(em.state) == Attitude::Aggressive
    {
        change_confidence(em, -1);
    }
    if em.chance(RollFor::RunOut, 6, choice.run_out_min) {
        out_ball(em, Dismissal::RunOut, choice.attempt - 1, choice.attempt % 2 == 1);
    } else {
        let ball = ball_runs(em.state, choice.attempt, 0);
        end_ball(em, ball);
    }
}

/// A ball that scored `runs` (odd runs swap the batters; a no-ball adds its extra).
fn ball_runs(state: &State, runs: u8, boundary: u8) -> BallEnd {
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

fn dot(em: &mut Emit) {
    let ball = ball_runs(em.state, 0, 0);
    end_ball(em, ball);
}

fn boundary(em: &mut Emit, runs: u8) {
    boundary_confidence(em);
    let ball = ball_runs(em.state, runs, runs);
    end_ball(em, ball);
}

fn out_ball(em: &mut Emit, dismissal: Dismissal, runs: u8, swap: bool) {
    let ball = BallEnd {
        wicket: Some(dismissal),
        swap,
        ..ball_runs(em.state, runs, 0)
    };
    end_ball(em, ball);
}

fn end_ball(em: &mut Emit, ball: BallEnd) {
    em.emit(Event::BallEnded { ball });
    if em.state.balls_in_over >= 6 && !em.state.free_hit {
        em.emit(Event::OverEnded);
    }
    advance(em);
}
