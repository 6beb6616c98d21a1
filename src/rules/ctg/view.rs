//! What one viewer may see, and what its seat is asked now.
//!
//! The [`Ask`] is the single description of a decision: the view carries it to clients and
//! to `bot_command`, and the simulator builds the same value straight from the state, so
//! one bot policy serves both without ever seeing more than its seat may.

use super::data::Squad;
use super::engine;
use super::event::{Event, Shot, SquadChoice};
use super::field::{Field, FieldRules};
use super::state::{self, NONE, Phase, Score, SkillsUsed, State};
use super::types::{Attitude, BowlType, Dismissal, Effect, Format, Role};
use crate::rules::{Seat, Viewer};
use serde::{Deserialize, Serialize};

/// The public match situation a decision depends on, from the asked seat's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Situation {
    pub format: Format,
    pub innings: u8,
    /// The asked seat is batting.
    pub batting: bool,
    pub runs: u16,
    pub wickets: u8,
    /// Legal balls left in the innings.
    pub balls_left: u16,
    /// Runs the chasing side needs to win, in the second innings.
    pub target: Option<u16>,
    /// Revealed balls of this match against the current bowler type (public: every seat
    /// saw them revealed): how often the fielding side bowled each card of the type's deck
    /// (`card_counts[i]`, card index i) and the batting side played each zone (`zone_counts[z
    /// - 1]`). What a player would remember of the other side's habits.
    pub card_counts: [u16; 8],
    pub zone_counts: [u16; 5],
}

/// One decision, with its legal options where they can be listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "ask", rename_all = "snake_case")]
pub enum Ask {
    /// Drop one Pace or Spin bowler and order the other 11. `droppable` is a bitmask over the
    /// squad: bit p (value `1 << p`) is set when squad player p (0-11) may be dropped.
    SelectSquad {
        roles: [Role; 12],
        confidence: [i8; 12],
        droppable: u16,
    },
    Toss,
    /// `legal` is a bitmask over the squad: bit p (value `1 << p`) is set when squad player p
    /// (0-11) may bowl this over.
    ChooseBowler {
        legal: u16,
        types: [Option<BowlType>; 12],
        overs_bowled: [u8; 12],
    },
    /// `available` is a bitmask over the squad: bit p (value `1 << p`) is set when squad player
    /// p (0-11) may bat; `order` is the side's batting order.
    Openers {
        available: u16,
        order: [u8; 11],
    },
    NextBatter {
        available: u16,
        order: [u8; 11],
    },
    PowerPlay {
        over: u8,
    },
    SetField {
        rules: FieldRules,
        current: Field,
        /// The bowler's type for the coming ball (public: the bowler was announced), whose
        /// deck says where the batter's strikes are likely to go.
        bowl_type: BowlType,
    },
    /// Any card index below `cards`. `zones[i]` is a bitmask of card i's vulnerable zones: bit
    /// z (value `1 << z`) is set when zone z (1-5) is on the card, so bit 0 is never set.
    Bowl {
        cards: u8,
        zones: [u8; 8],
        bowl_type: BowlType,
        /// The striker's Confidence and whether it is a specialist Batter (public on its
        /// card): what each card's Advantage against each zone depends on.
        confidence: i8,
        specialist: bool,
        /// The field this ball is bowled to.
        field: Field,
    },
    /// Any zone 1-5 and either attitude. `zones` as in `Bowl`.
    Shot {
        cards: u8,
        zones: [u8; 8],
        confidence: i8,
        specialist: bool,
        attitude: Attitude,
        field: Field,
        /// The bowler's type (Pace may add one to a long strike's distance).
        bowl_type: BowlType,
    },
    Skills {
        add_one: bool,
        roll_d8: bool,
        advantage: i8,
    },
    QuickSingle,
    RerollToHit {
        bowl: u8,
        bowl_sides: u8,
        bat: u8,
        bat_sides: u8,
        advantage: i8,
        bowled_chance_margin: u8,
    },
    /// `options` is a bitmask of what the bowler may try after this miss: 1 = `bowled`,
    /// 2 = `slips`, 4 = `howzat` (the `miss` command's `option`); `slips` is the slip
    /// fielders in place; `bowled_sides` / `bowled_min` the die of the bowled chance on this
    /// match's reading (bowled on `bowled_min` or more).
    Miss {
        options: u8,
        slips: u8,
        attitude: Attitude,
        bowled_sides: u8,
        bowled_min: u8,
    },
    Distance {
        distance: u8,
        add_one: bool,
        reroll: bool,
        max: u8,
        zone: u8,
        field: Field,
    },
    RerollBounce {
        areas: u8,
        red: bool,
        distance: u8,
        zone: u8,
        field: Field,
    },
    Run {
        safe: u8,
        attempt: u8,
        run_out_min: u8,
    },
    Review {
        dismissal: Dismissal,
    },
}

/// A revealed over card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OverCardView {
    pub slot: u8,
    pub express: u8,
    pub effect: Effect,
}

/// The delivery in progress as this viewer may see it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BallView {
    /// The fielding side has sealed its card / the batting side its shot.
    pub card_sealed: bool,
    pub shot_sealed: bool,
    /// Own sealed choice before the reveal; both after it.
    pub card: Option<u8>,
    pub shot: Option<Shot>,
    pub advantage: Option<i8>,
    pub effect: Option<Effect>,
    pub no_ball: bool,
    pub free_hit: bool,
    pub bowl: Option<(u8, u8)>,
    pub bat: Option<(u8, u8)>,
    pub distance: Option<u8>,
    pub bounce_face: Option<u8>,
    pub appeal: Option<Dismissal>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    pub viewer: Viewer,
    pub phase: Phase,
    /// Seats whose command is awaited now.
    pub pending: Vec<Seat>,
    pub format: Format,
    /// Overs per innings (the format's, or fewer when the options asked for a shorter match).
    pub overs: u8,
    pub squads: Vec<Squad>,
    /// Own squad choice always; the other's only after both are revealed.
    pub selections: [Option<SquadChoice>; 2],
    pub pitch: Option<String>,
    pub toss_winner: Option<Seat>,
    pub innings: u8,
    pub batting: Seat,
    pub scores: [Score; 2],
    pub target: Option<u16>,
    pub overs_completed: u8,
    pub balls_in_over: u8,
    pub striker: Option<u8>,
    pub non_striker: Option<u8>,
    /// The batting side's attitude tokens, by squad index.
    pub attitudes: [Attitude; 12],
    pub confidence: [[i8; 12]; 2],
    pub overs_bowled: [[u8; 12]; 2],
    pub bowler: Option<u8>,
    pub last_bowler: Option<u8>,
    pub field: Field,
    pub field_rules: FieldRules,
    pub power_play_used: [bool; 2],
    pub power_play_now: bool,
    pub skills_used: SkillsUsed,
    pub drs_used: bool,
    pub over_cards: Vec<OverCardView>,
    pub ball: BallView,
    pub situation: Situation,
    /// What this seat must decide now (none for spectators).
    pub ask: Option<Ask>,
    /// Set when the match is over: `Some(None)` is a tie.
    pub winner: Option<Option<Seat>>,
}

fn opt(player: u8) -> Option<u8> {
    (player != NONE).then_some(player)
}

pub fn situation(state: &State, seat: Seat) -> Situation {
    let score = state.score[state.bat_side()];
    let kind = state.bowl_type().index();
    let total = u16::from(state.overs) * 6;
    Situation {
        format: state.format,
        innings: state.innings,
        batting: seat == state.batting,
        runs: score.runs,
        wickets: score.wickets,
        balls_left: total.saturating_sub(score.balls),
        target: state.target(),
        card_counts: state.cards_bowled[state.field_side()][kind],
        zone_counts: state.zones_played[state.bat_side()][kind],
    }
}

fn deck_zones(state: &State) -> (u8, [u8; 8]) {
    let deck = &state.rules.bowl_cards[state.bowl_type().index()];
    let mut zones = [0u8; 8];
    for (slot, card) in zones.iter_mut().zip(deck) {
        *slot = card.zones;
    }
    (deck.len() as u8, zones)
}

/// What `seat` is asked now, or `None`.
pub fn ask(state: &State, seat: Seat) -> Option<Ask> {
    if seat.0 > 1 || state.pending_mask() & (1 << seat.0) == 0 {
        return None;
    }
    let side = seat.index();
    let order = state.selection[side].map(|c| c.batting_order).unwrap_or([0; 11]);
    Some(match state.phase {
        Phase::NotStarted | Phase::MatchOver => return None,
        Phase::SelectSquad => {
            let cards = state.cards[side];
            Ask::SelectSquad {
                roles: cards.map(|c| c.role),
                confidence: cards.map(|c| c.confidence),
                droppable: (0..12u8)
                    .filter(|&p| matches!(cards[usize::from(p)].role, Role::Pace | Role::Spin))
                    .fold(0, |m, p| m | 1 << p),
            }
        }
        Phase::Toss => Ask::Toss,
        Phase::ChooseBowler => Ask::ChooseBowler {
            legal: engine::legal_bowlers(state),
            types: state.cards[side].map(|c| c.bowl_type),
            overs_bowled: state.overs_bowled[side],
        },
        Phase::Openers => Ask::Openers {
            available: state::available_batters(state),
            order,
        },
        Phase::NextBatter => Ask::NextBatter {
            available: state::available_batters(state),
            order,
        },
        Phase::PowerPlay => Ask::PowerPlay { over: state.over + 1 },
        Phase::SetField => {
            let rules = state.field_rules();
            // The field on the ground may not fit this ball (none yet before the first,
            // slips after a change to a non-Pace bowler, a restricted over): offer the
            // closest legal one, so a client can always send `current` back.
            Ask::SetField {
                current: rules.repair(state.field),
                rules,
                bowl_type: state.bowl_type(),
            }
        }
        Phase::Sealed => {
            let (cards, zones) = deck_zones(state);
            let confidence = state.striker_confidence();
            let specialist = state.striker_card().role == Role::Batter;
            if seat == state.batting {
                Ask::Shot {
                    cards,
                    zones,
                    confidence,
                    specialist,
                    attitude: state.attitude[usize::from(state.striker.min(11))],
                    field: state.field,
                    bowl_type: state.bowl_type(),
                }
            } else {
                Ask::Bowl {
                    cards,
                    zones,
                    bowl_type: state.bowl_type(),
                    confidence,
                    specialist,
                    field: state.field,
                }
            }
        }
        Phase::Skills => {
            let (add_one, roll_d8) = engine::skills_available(state);
            Ask::Skills {
                add_one,
                roll_d8,
                advantage: state.ball.advantage,
            }
        }
        Phase::QuickSingle => Ask::QuickSingle,
        Phase::RerollToHit => Ask::RerollToHit {
            bowl: state.ball.bowl,
            bowl_sides: state.ball.bowl_sides,
            bat: state.ball.bat,
            bat_sides: state.ball.bat_sides,
            advantage: state.ball.advantage,
            bowled_chance_margin: state.bowled_chance_margin,
        },
        Phase::Miss => {
            let attitude = state.ball.shot.map(|s| s.attitude).unwrap_or_default();
            let bowled = state.rules.bowled_chance(state.bowled_chance_reading, attitude);
            Ask::Miss {
                options: engine::miss_options(state),
                slips: state.field.slips() as u8,
                attitude,
                bowled_sides: bowled.sides,
                bowled_min: bowled.min,
            }
        }
        Phase::Distance => {
            let (add_one, reroll) = engine::distance_options(state);
            Ask::Distance {
                distance: state.ball.distance,
                add_one,
                reroll,
                max: state.format.distance_sides(),
                zone: state.ball.shot.map(|s| s.zone).unwrap_or(1),
                field: state.field,
            }
        }
        Phase::RerollBounce => {
            let attitude = state.ball.shot.map(|s| s.attitude).unwrap_or_default();
            let face = state.rules.bounce_face(attitude, state.ball.bounce);
            Ask::RerollBounce {
                areas: face.areas,
                red: face.red,
                distance: state.ball.distance,
                zone: state.ball.shot.map(|s| s.zone).unwrap_or(1),
                field: state.field,
            }
        }
        Phase::Run => {
            let choice = engine::run_choice(state);
            Ask::Run {
                safe: choice.safe,
                attempt: choice.attempt,
                run_out_min: choice.run_out_min,
            }
        }
        Phase::Review => Ask::Review {
            dismissal: state.ball.appeal.unwrap_or(Dismissal::Caught),
        },
    })
}

pub fn pending(state: &State) -> Vec<Seat> {
    let mask = state.pending_mask();
    (0..2u8).filter(|s| mask & (1 << s) != 0).map(Seat).collect()
}

pub fn view(state: &State, viewer: Viewer) -> View {
    let me = match viewer {
        Viewer::Seat(seat) => Some(seat),
        Viewer::Spectator => None,
    };
    let both_in = state.selection.iter().all(|s| s.is_some_and(|c| c.drop != NONE));
    let revealed_squads = both_in && state.phase != Phase::SelectSquad;
    let selections = [0usize, 1].map(|side| {
        let mine = me.is_some_and(|s| s.index() == side);
        if mine || revealed_squads {
            state.selection[side].filter(|c| c.drop != NONE)
        } else {
            None
        }
    });
    let b = state.ball;
    let fielder = me == Some(state.fielding());
    let batter = me == Some(state.batting);
    let delivered = b.bowl_sides > 0;
    let ball = BallView {
        card_sealed: b.sealed_card.is_some(),
        shot_sealed: b.sealed_shot.is_some(),
        card: if b.revealed || fielder {
            b.sealed_card.filter(|&c| c != NONE)
        } else {
            None
        },
        shot: if b.revealed || batter {
            b.sealed_shot.filter(|s| s.zone != 0)
        } else {
            None
        },
        advantage: b.revealed.then_some(b.advantage),
        effect: b.effect,
        no_ball: b.no_ball,
        free_hit: state.free_hit,
        bowl: delivered.then_some((b.bowl, b.bowl_sides)),
        bat: delivered.then_some((b.bat, b.bat_sides)),
        distance: (b.distance > 0).then_some(b.distance),
        bounce_face: (b.bounce > 0).then_some(b.bounce),
        appeal: b.appeal,
    };
    let over_cards = match state.dealt {
        Some(cards) if state.bowler != NONE => {
            let deck = &state.rules.over_decks[state.bowl_type().index()];
            (0..state.slot.min(6))
                .filter_map(|slot| {
                    let card = deck.get(usize::from(cards[usize::from(slot)]))?;
                    Some(OverCardView {
                        slot,
                        express: card.express,
                        effect: card.effect,
                    })
                })
                .collect()
        }
        _ => Vec::new(),
    };
    View {
        viewer,
        phase: state.phase,
        pending: pending(state),
        format: state.format,
        overs: state.overs,
        squads: state.squads.to_vec(),
        selections,
        pitch: state
            .pitch
            .and_then(|p| state.rules.pitch_cards.get(usize::from(p)))
            .map(|p| p.name.clone()),
        toss_winner: state.toss_winner,
        innings: state.innings,
        batting: state.batting,
        scores: state.score,
        target: state.target(),
        overs_completed: state.over,
        balls_in_over: state.balls_in_over,
        striker: opt(state.striker),
        non_striker: opt(state.non_striker),
        attitudes: state.attitude,
        confidence: state.confidence,
        overs_bowled: state.overs_bowled,
        bowler: opt(state.bowler),
        last_bowler: opt(state.last_bowler),
        field: state.field,
        field_rules: state.field_rules(),
        power_play_used: state.power_play_used,
        power_play_now: state.power_play_now,
        skills_used: state.skills,
        drs_used: state.drs_used,
        over_cards,
        ball,
        situation: situation(state, me.unwrap_or(state.batting)),
        ask: me.and_then(|seat| ask(state, seat)),
        winner: state.winner,
    }
}

/// `event` as `viewer` may see it: sealed choices only to their maker, face-down over
/// cards to nobody.
pub fn redact(state: &State, event: &Event, viewer: Viewer) -> Option<Event> {
    let is = |seat: Seat| viewer == Viewer::Seat(seat);
    Some(match *event {
        Event::SquadChosen { seat, choice } => Event::SquadChosen {
            seat,
            choice: choice.filter(|_| is(seat)),
        },
        Event::BowlSealed { card } => Event::BowlSealed {
            card: card.filter(|_| is(state.fielding())),
        },
        Event::ShotSealed { shot } => Event::ShotSealed {
            shot: shot.filter(|_| is(state.batting)),
        },
        Event::OverDealt { .. } => Event::OverDealt { cards: None },
        other => other,
    })
}
