//! The whole game state and the fold of events into it.
//!
//! `apply` is deliberately dumb: it only records facts the events carry. All rule logic
//! lives in `engine`, which decides on a scratch copy by applying each event as it emits
//! it, so re-folding a log rebuilds exactly the state the engine saw.

use super::data::{Ruleset, Squad};
use super::event::{BallEnd, Event, RollFor, Shot, SquadChoice};
use super::field::{Field, FieldRules, OUTFIELD_LIMIT, RESTRICTED_OUTFIELD_LIMIT};
use super::options::{ExpressSixes, Options, TieRule};
/// The state's phase has its own file so that events, which the state folds, can name it.
pub use super::phase::Phase;
use super::types::{Attitude, BowlType, BowledChanceReading, Dismissal, Effect, Format, Role};
use crate::rules::Seat;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// No player in this place.
pub const NONE: u8 = u8::MAX;

/// One player's fixed card facts, copied out of the squad for fast access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    pub role: Role,
    pub bowl_type: Option<BowlType>,
    pub confidence: i8,
}

/// Runs, wickets and balls of one side's innings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Score {
    pub runs: u16,
    pub wickets: u8,
    /// Legal balls faced.
    pub balls: u16,
    pub extras: u16,
}

/// The delivery in progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ball {
    pub sealed_card: Option<u8>,
    pub sealed_shot: Option<Shot>,
    pub revealed: bool,
    pub card: u8,
    pub shot: Option<Shot>,
    pub advantage: i8,
    pub effect: Option<Effect>,
    pub no_ball: bool,
    pub bowl: u8,
    pub bowl_sides: u8,
    pub bat: u8,
    pub bat_sides: u8,
    pub distance: u8,
    pub distance_added: bool,
    pub bounce: u8,
    /// Area (1-based) of a fielder who dropped a catch, who may not run the batter out.
    pub dropped_in: u8,
    pub appeal: Option<Dismissal>,
    pub attempt: Option<bool>,
}

/// Skill cards used by the batting side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SkillsUsed {
    pub reroll_to_hit: u8,
    pub reroll_distance: u8,
    pub reroll_bounce: u8,
    /// This over.
    pub add_one: u8,
    /// This over.
    pub roll_d8: u8,
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub rules: &'static Ruleset,
    pub format: Format,
    /// Overs per innings: the format's, or fewer when the options ask for a shorter match.
    pub overs: u8,
    pub tie: TieRule,
    pub bowled_chance_margin: u8,
    pub bowled_chance_reading: BowledChanceReading,
    pub express_sixes_rule: ExpressSixes,
    pub squads: Arc<[Squad; 2]>,
    pub cards: [[Card; 12]; 2],
    pub phase: Phase,
    pub selection: [Option<SquadChoice>; 2],
    pub pitch: Option<u8>,
    pub toss_winner: Option<Seat>,
    pub innings: u8,
    pub batting: Seat,
    pub score: [Score; 2],
    /// By side, by squad index.
    pub confidence: [[i8; 12]; 2],
    /// The batting side's attitude tokens.
    pub attitude: [Attitude; 12],
    /// Batting side: players who came to the crease / are out (bit = squad index).
    pub batted: u16,
    pub out: u16,
    pub striker: u8,
    pub non_striker: u8,
    /// By side, by squad index: overs bowled this match.
    pub overs_bowled: [[u8; 12]; 2],
    pub bowler: u8,
    pub last_bowler: u8,
    /// Overs completed this innings.
    pub over: u8,
    pub balls_in_over: u8,
    /// Over cards used this over.
    pub slot: u8,
    pub dealt: Option<[u8; 6]>,
    pub power_play_used: [bool; 2],
    pub power_play_asked: bool,
    pub power_play_now: bool,
    pub field: Field,
    pub skills: SkillsUsed,
    pub drs_used: bool,
    /// Express 5: the bowler rolls a D8 on the next non-express ball.
    pub d8_next: bool,
    /// Express sixes revealed this over.
    pub express_sixes: u8,
    /// Express sixes in a row in this innings' express play, across overs (a non-six express
    /// card resets it).
    pub express_six_run: u8,
    pub free_hit: bool,
    pub delivered_this_over: bool,
    pub ball: Ball,
    pub winner: Option<Option<Seat>>,
    /// Public tendencies, folded from revealed balls only: by side and bowl type
    /// ([`BowlType::index`]), how often that side bowled each card of the type's deck, and
    /// how often it played each zone 1-5 batting against that type. Bots read them through
    /// the view's [`Situation`](super::view::Situation).
    pub cards_bowled: [[[u16; 8]; 3]; 2],
    pub zones_played: [[[u16; 5]; 3]; 2],
}

impl State {
    pub fn new(options: &Options, rules: &'static Ruleset) -> State {
        let squads: [Squad; 2] = match &options.squads {
            Some(list) if list.len() == 2 => [list[0].clone(), list[1].clone()],
            _ => rules.squads.clone(),
        };
        let card_of = |squad: &Squad| -> [Card; 12] {
            std::array::from_fn(|i| {
                let p = &squad.players[i.min(squad.players.len() - 1)];
                Card {
                    role: p.role,
                    bowl_type: p.bowling.bowl_type(),
                    confidence: p.confidence,
                }
            })
        };
        let cards = [card_of(&squads[0]), card_of(&squads[1])];
        State {
            rules,
            format: options.format,
            overs: options.overs_per_innings(),
            tie: options.tie,
            bowled_chance_margin: options.bowled_chance_margin,
            bowled_chance_reading: options.bowled_chance_reading,
            express_sixes_rule: options.express_sixes,
            cards,
            squads: Arc::new(squads),
            phase: Phase::NotStarted,
            selection: [None; 2],
            pitch: None,
            toss_winner: None,
            innings: 0,
            batting: Seat(0),
            score: [Score::default(); 2],
            confidence: [[0; 12]; 2],
            attitude: [Attitude::Defensive; 12],
            batted: 0,
            out: 0,
            striker: NONE,
            non_striker: NONE,
            overs_bowled: [[0; 12]; 2],
            bowler: NONE,
            last_bowler: NONE,
            over: 0,
            balls_in_over: 0,
            slot: 0,
            dealt: None,
            cards_bowled: [[[0; 8]; 3]; 2],
            zones_played: [[[0; 5]; 3]; 2],
            power_play_used: [false; 2],
            power_play_asked: false,
            power_play_now: false,
            field: Field::EMPTY,
            skills: SkillsUsed::default(),
            drs_used: false,
            d8_next: false,
            express_sixes: 0,
            express_six_run: 0,
            free_hit: false,
            delivered_this_over: false,
            ball: Ball::default(),
            winner: None,
        }
    }

    pub fn fielding(&self) -> Seat {
        Seat(1 - self.batting.0)
    }

    pub fn bat_side(&self) -> usize {
        self.batting.index()
    }

    pub fn field_side(&self) -> usize {
        self.fielding().index()
    }

    pub fn card(&self, side: usize, player: u8) -> Card {
        self.cards[side][usize::from(player.min(11))]
    }

    pub fn bowl_type(&self) -> BowlType {
        self.card(self.field_side(), self.bowler)
            .bowl_type
            .unwrap_or(BowlType::Medium)
    }

    pub fn striker_card(&self) -> Card {
        self.card(self.bat_side(), self.striker)
    }

    pub fn striker_confidence(&self) -> i8 {
        self.confidence[self.bat_side()][usize::from(self.striker.min(11))]
    }

    pub fn dropped(&self, side: usize) -> u8 {
        self.selection[side].map(|c| c.drop).unwrap_or(NONE)
    }

    /// Whether express play applies to the current over: every over but the first and last.
    /// Seed: ctg.md section 1 (from 000_c44664d019aef0c0.txt GAME LENGTH).
    pub fn express_over(&self) -> bool {
        self.over > 0 && self.over + 1 < self.overs
    }

    pub fn target(&self) -> Option<u16> {
        (self.innings == 1).then(|| self.score[1 - self.bat_side()].runs + 1)
    }

    pub fn field_rules(&self) -> FieldRules {
        let restricted = self.over < self.format.restricted_overs() || self.power_play_now;
        FieldRules {
            format: self.format,
            outfield_limit: if restricted {
                RESTRICTED_OUTFIELD_LIMIT
            } else {
                OUTFIELD_LIMIT
            } as u8,
            slips_allowed: self.bowler != NONE && self.bowl_type() == BowlType::Pace,
        }
    }

    /// The ball is protected from bowled, caught and LBW (no-ball or free hit).
    pub fn protected(&self) -> bool {
        self.free_hit || self.ball.no_ball
    }

    /// Who is asked now.
    pub fn pending_mask(&self) -> u8 {
        let bat = 1u8 << self.batting.0;
        let field = 1u8 << self.fielding().0;
        match self.phase {
            Phase::NotStarted | Phase::MatchOver => 0,
            Phase::SelectSquad => {
                (u8::from(self.selection[0].is_none())) | (u8::from(self.selection[1].is_none()) << 1)
            }
            Phase::Toss => self.toss_winner.map(|s| 1u8 << s.0).unwrap_or(0),
            Phase::ChooseBowler | Phase::SetField | Phase::Miss => field,
            Phase::Sealed => {
                (if self.ball.sealed_card.is_none() { field } else { 0 })
                    | (if self.ball.sealed_shot.is_none() { bat } else { 0 })
            }
            _ => bat,
        }
    }

    pub fn eligible_bowler(&self, side: usize, player: u8) -> bool {
        player < 12 && player != self.dropped(side) && self.card(side, player).bowl_type.is_some()
    }
}

fn swap(state: &mut State) {
    std::mem::swap(&mut state.striker, &mut state.non_striker);
}

/// Folds one event. Never fails, never draws dice.
pub fn apply(state: &mut State, event: &Event) {
    match *event {
        Event::SquadChosen { seat, choice } => {
            // A redacted copy carries no choice; remember only that one was made.
            let side = seat.index().min(1);
            state.selection[side] = Some(choice.unwrap_or(SquadChoice {
                drop: NONE,
                batting_order: [NONE; 11],
            }));
        }
        Event::SquadsRevealed { choices } => state.selection = [Some(choices[0]), Some(choices[1])],
        Event::PitchDrawn { card } => state.pitch = Some(card),
        Event::TossWon { seat } => state.toss_winner = Some(seat),
        Event::InningsStarted { innings, batting } => {
            state.innings = innings;
            state.batting = batting;
            let side = batting.index().min(1);
            state.confidence[side] = std::array::from_fn(|i| state.cards[side][i].confidence);
            state.attitude = [Attitude::Defensive; 12];
            state.batted = 0;
            state.out = 0;
            state.striker = NONE;
            state.non_striker = NONE;
            state.bowler = NONE;
            state.last_bowler = NONE;
            state.over = 0;
            state.balls_in_over = 0;
            state.slot = 0;
            state.dealt = None;
            state.power_play_asked = false;
            state.power_play_now = false;
            state.field = Field::EMPTY;
            state.skills = SkillsUsed::default();
            state.drs_used = false;
            state.d8_next = false;
            state.express_sixes = 0;
            state.express_six_run = 0;
            state.free_hit = false;
            state.delivered_this_over = false;
            state.ball = Ball::default();
        }
        Event::BowlerChosen { bowler } => state.bowler = bowler,
        Event::BatterIn { batter, attitude } => {
            state.batted |= 1 << batter.min(15);
            state.attitude[usize::from(batter.min(11))] = attitude;
            if state.striker == NONE {
                state.striker = batter;
            } else {
                state.non_striker = batter;
            }
        }
        Event::PowerPlay { called } => {
            state.power_play_asked = true;
            if called {
                let side = state.bat_side();
                state.power_play_used[side] = true;
                state.power_play_now = true;
            }
        }
        Event::OverDealt { cards } => state.dealt = Some(cards.unwrap_or([NONE; 6])),
        Event::OverCardRevealed { slot, card } => {
            state.slot = slot + 1;
            let deck = &state.rules.over_decks[state.bowl_type().index()];
            let Some(over_card) = deck.get(usize::from(card)).copied() else {
                return;
            };
            if state.express_over() && slot < 2 {
                match over_card.express {
                    5 => state.d8_next = true,
                    6 => state.express_sixes += 1,
                    _ => {}
                }
                state.express_six_run = if over_card.express == 6 {
                    state.express_six_run.saturating_add(1)
                } else {
                    0
                };
            } else {
                state.ball.effect = Some(over_card.effect);
                state.ball.no_ball = over_card.effect == Effect::NoBall;
            }
        }
        Event::FieldSet { field } => state.field = field,
        Event::BowlSealed { card } => state.ball.sealed_card = Some(card.unwrap_or(NONE)),
        Event::ShotSealed { shot } => {
            state.ball.sealed_shot = Some(shot.unwrap_or(Shot {
                zone: 0,
                attitude: Attitude::Defensive,
            }))
        }
        Event::Revealed {
            card,
            shot,
            advantage,
        } => {
            state.ball.revealed = true;
            state.ball.card = card;
            state.ball.shot = Some(shot);
            state.ball.sealed_card = Some(card);
            state.ball.sealed_shot = Some(shot);
            state.ball.advantage = advantage;
            if state.striker != NONE {
                state.attitude[usize::from(state.striker.min(11))] = shot.attitude;
            }
            let kind = state.bowl_type().index();
            let (field_side, bat_side) = (state.field_side(), state.bat_side());
            if let Some(count) = state.cards_bowled[field_side][kind].get_mut(usize::from(card)) {
                *count = count.saturating_add(1);
            }
            if let Some(count) =
                state.zones_played[bat_side][kind].get_mut(usize::from(shot.zone).wrapping_sub(1))
            {
                *count = count.saturating_add(1);
            }
        }
        Event::SkillPlayed { skill, advantage } => {
            state.ball.advantage = advantage;
            match skill {
                super::event::Skill::AddOne => state.skills.add_one += 1,
                super::event::Skill::RollD8 => {
                    state.skills.roll_d8 += 1;
                    state.ball.bat_sides = 8;
                }
            }
        }
        Event::QuickSingle { .. } => {}
        Event::Delivered {
            bowl,
            bowl_sides,
            bat,
            bat_sides,
        } => {
            state.ball.bowl = bowl;
            state.ball.bowl_sides = bowl_sides;
            state.ball.bat = bat;
            state.ball.bat_sides = bat_sides;
            state.d8_next = false;
            state.delivered_this_over = true;
        }
        Event::ToHitRerolled { bat } => {
            state.ball.bat = bat;
            state.skills.reroll_to_hit += 1;
        }
        // A catch held ends the ball (a review that overturns it makes a dot), so while the
        // ball goes on, its last catch roll was a drop, in the area the ball went to.
        Event::Roll {
            roll_for: RollFor::Catch,
            ..
        } => state.ball.dropped_in = super::resolve::area_of(state.ball.distance),
        Event::MissChosen { .. } | Event::Roll { .. } => {}
        Event::Distance {
            distance,
            rerolled,
            added_one,
            ..
        } => {
            state.ball.distance = distance;
            state.ball.distance_added |= added_one;
            if rerolled {
                state.skills.reroll_distance += 1;
            }
        }
        Event::Bounce { face, rerolled } => {
            state.ball.bounce = face;
            if rerolled {
                state.skills.reroll_bounce += 1;
            }
        }
        Event::RunDecided { attempt } => state.ball.attempt = Some(attempt),
        Event::ConfidenceChanged { player, confidence } => {
            let side = state.bat_side();
            state.confidence[side][usize::from(player.min(11))] = confidence;
        }
        Event::Appeal { dismissal } => state.ball.appeal = Some(dismissal),
        Event::Reviewed { .. } => state.drs_used = true,
        Event::BallEnded { ball } => end_ball(state, &ball),
        Event::OverEnded => {
            let side = state.field_side();
            if state.bowler != NONE {
                state.overs_bowled[side][usize::from(state.bowler.min(11))] += 1;
            }
            state.last_bowler = state.bowler;
            state.bowler = NONE;
            state.over += 1;
            state.balls_in_over = 0;
            state.slot = 0;
            state.dealt = None;
            state.power_play_asked = false;
            state.power_play_now = false;
            state.skills.add_one = 0;
            state.skills.roll_d8 = 0;
            state.d8_next = false;
            state.express_sixes = 0;
            state.delivered_this_over = false;
            swap(state);
        }
        Event::InningsEnded { .. } => {}
        Event::MatchEnded { winner } => {
            state.winner = Some(winner);
            state.phase = Phase::MatchOver;
        }
        Event::Await { phase } => state.phase = phase,
    }
}

fn end_ball(state: &mut State, ball: &BallEnd) {
    let side = state.bat_side();
    let score = &mut state.score[side];
    score.runs += u16::from(ball.runs) + u16::from(ball.extras);
    score.extras += u16::from(ball.extras);
    if ball.wicket.is_some() {
        score.wickets += 1;
    }
    if ball.legal {
        score.balls += 1;
        state.balls_in_over += 1;
    }
    if ball.swap {
        swap(state);
    }
    if ball.wicket.is_some() {
        if state.striker != NONE {
            state.out |= 1 << state.striker.min(15);
        }
        state.striker = NONE;
    }
    state.free_hit = state.ball.no_ball && !ball.express;
    state.ball = Ball::default();
}

/// The batting side's players who may still come in.
pub fn available_batters(state: &State) -> u16 {
    let side = state.bat_side();
    let dropped = state.dropped(side);
    let mut mask = 0u16;
    for p in 0..12u8 {
        if p != dropped && state.batted & (1 << p) == 0 {
            mask |= 1 << p;
        }
    }
    mask
}

/// Whether a player is in a side's eleven.
pub fn in_eleven(state: &State, side: usize, player: u8) -> bool {
    player < 12 && player != state.dropped(side)
}

/// Players of the fielding side who may bowl the next over, before the feasibility rule.
pub fn bowler_ok(state: &State, player: u8) -> bool {
    let side = state.field_side();
    state.eligible_bowler(side, player)
        && player != state.last_bowler
        && state.overs_bowled[side][usize::from(player)] < state.format.max_overs_per_bowler()
}

/// Whether the rest of the innings can still be bowled if `player` takes this over:
/// every bowler's remaining overs, capped by how often one can bowl without two in a row.
pub fn innings_completable_with(state: &State, player: u8) -> bool {
    let side = state.field_side();
    let remaining = u32::from(state.overs.saturating_sub(state.over + 1));
    if remaining == 0 {
        return true;
    }
    let cap = state.format.max_overs_per_bowler();
    let mut capacity = 0u32;
    for p in 0..12u8 {
        if !state.eligible_bowler(side, p) {
            continue;
        }
        let used = state.overs_bowled[side][usize::from(p)] + u8::from(p == player);
        let left = u32::from(cap.saturating_sub(used));
        let limit = if p == player {
            remaining / 2
        } else {
            remaining.div_ceil(2)
        };
        capacity += left.min(limit);
    }
    capacity >= remaining
}
