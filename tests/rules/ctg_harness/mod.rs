//! The shared harness of the CTG rule tests: exact die faces for `engine::execute`, and
//! helpers that reach a situation by playing default commands with real dice.
#![allow(dead_code)] // each test file uses its own subset

use crease::rules::ctg::command::Command;
use crease::rules::ctg::engine;
use crease::rules::ctg::event::{BallEnd, Event};
use crease::rules::ctg::field::Field;
use crease::rules::ctg::state::{Phase, SkillsUsed, State};
use crease::rules::ctg::types::{Attitude, BowlType, Effect, Format, Role};
use crease::rules::ctg::{Ctg, Options, bot, view};
use crease::rules::{Dice, Game, Roller, Seat, Seed};

/// Exact faces, in the order the engine draws them; fails if the engine draws more.
pub struct Faces(pub Vec<u8>);

impl Roller for Faces {
    fn below(&mut self, n: u32) -> u32 {
        assert!(!self.0.is_empty(), "the engine drew more dice than the test gave");
        let face = self.0.remove(0);
        assert!(
            face >= 1 && u32::from(face) <= n,
            "face {face} does not fit a draw below {n}"
        );
        u32::from(face - 1)
    }
}

pub fn run(state: &mut State, seat: Seat, command: Command, faces: &[u8]) -> Vec<Event> {
    let mut roller = Faces(faces.to_vec());
    let mut out = Vec::new();
    engine::execute(state, seat, &command, &mut roller, &mut out)
        .unwrap_or_else(|e| panic!("{command:?} refused: {e}"));
    assert!(roller.0.is_empty(), "faces left unused: {:?}", roller.0);
    out
}

/// Plays default commands with real dice until `stop` holds.
pub fn play_until(state: &mut State, dice: &mut Dice, stop: impl Fn(&State) -> bool) {
    let mut out = Vec::new();
    for _ in 0..100_000 {
        if stop(state) {
            return;
        }
        let seat = Seat(state.pending_mask().trailing_zeros() as u8);
        let ask = view::ask(state, seat).expect("something is asked");
        engine::execute(state, seat, &bot::default_command(&ask), dice, &mut out).expect("default is legal");
    }
    panic!("situation never reached");
}

/// Over `over` (0-based) of the first innings, waiting for the field, all skill cards used
/// (so no optional phase interrupts), every over card "play on".
pub fn at_ball(format: Format, over: u8) -> State {
    let options = Options {
        format,
        ..Options::default()
    };
    let mut state = Ctg::initial_state(&options).expect("options");
    let mut out = Vec::new();
    engine::start(&mut state, &mut out);
    let mut dice = Dice::new(&Seed::from_u64(7));
    play_until(&mut state, &mut dice, |s| {
        s.phase == Phase::SetField && s.over == over && s.innings == 0
    });
    state.skills = SkillsUsed {
        reroll_to_hit: 9,
        reroll_distance: 9,
        reroll_bounce: 9,
        add_one: 9,
        roll_d8: 9,
    };
    state.drs_used = true;
    let play_on = card_with(&state, Effect::PlayOn);
    state.dealt = Some([play_on; 6]);
    state
}

pub fn card_with(state: &State, effect: Effect) -> u8 {
    let deck = &state.rules.over_decks[state.bowl_type().index()];
    deck.iter()
        .position(|c| c.effect == effect)
        .expect("effect in deck") as u8
}

pub fn set_field(state: &mut State, field: Field) {
    let field = state.field_rules().repair(field);
    let fielding = state.fielding();
    run(state, fielding, Command::SetField { field }, &[]);
}

/// Makes the striker a non-specialist with this confidence.
pub fn striker(state: &mut State, confidence: i8, role: Role) {
    let side = state.bat_side();
    let p = usize::from(state.striker);
    state.confidence[side][p] = confidence;
    state.cards[side][p].role = role;
}

/// A bowl card and the zone at `distance` from its nearest shot.
pub fn card_and_zone(state: &State, distance: u8) -> (u8, u8) {
    let deck = &state.rules.bowl_cards[state.bowl_type().index()];
    for (i, card) in deck.iter().enumerate() {
        for zone in 1..=5u8 {
            let nearest = (1..=5u8)
                .filter(|z| card.zones & (1 << z) != 0)
                .map(|z| z.abs_diff(zone))
                .min();
            if nearest == Some(distance) {
                return (i as u8, zone);
            }
        }
    }
    panic!("no card with a zone at distance {distance}");
}

pub fn deliver(state: &mut State, card: u8, zone: u8, attitude: Attitude, faces: &[u8]) -> Vec<Event> {
    let (fielding, batting) = (state.fielding(), state.batting);
    run(state, fielding, Command::Bowl { card }, &[]);
    run(state, batting, Command::Shot { zone, attitude }, faces)
}

pub fn ball_end(events: &[Event]) -> BallEnd {
    events
        .iter()
        .find_map(|e| match e {
            Event::BallEnded { ball } => Some(*ball),
            _ => None,
        })
        .expect("the ball ended")
}

pub fn advantage_of(events: &[Event]) -> i8 {
    events
        .iter()
        .find_map(|e| match e {
            Event::Revealed { advantage, .. } => Some(*advantage),
            _ => None,
        })
        .expect("revealed")
}

/// Puts a bowler of `bowl_type` on for this ball (the over's cards become that deck's "play
/// on") and makes the pitch Dead, so no pitch card changes the bowler's die.
pub fn bowler_of(state: &mut State, bowl_type: BowlType) {
    let side = state.field_side();
    let dropped = state.dropped(side);
    state.bowler = (0..12u8)
        .find(|&p| p != dropped && state.cards[side][usize::from(p)].bowl_type == Some(bowl_type))
        .expect("a bowler of that type");
    let dead = state
        .rules
        .pitch_cards
        .iter()
        .position(|p| p.d8_first_ball_for.is_none())
        .expect("a pitch card without effect");
    state.pitch = Some(dead as u8);
    let play_on = card_with(state, Effect::PlayOn);
    state.dealt = Some([play_on; 6]);
}
