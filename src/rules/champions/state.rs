//! The whole match state, including the draw pile order that no view may show.

use super::faces::{Face, Role};
use super::resolve::OverResult;
use crate::rules::{Outcome, Seat};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PlayerState {
    pub xp: u32,
    pub runs: u32,
    pub wickets_lost: u32,
    pub wickets_taken: u32,
    /// Xp cards owned, by id, in the order bought.
    pub cards: Vec<String>,
    pub eliminated: bool,
}

/// One side's dice during an over.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TurnState {
    pub faces: Vec<Face>,
    pub rolls_used: u32,
    pub roll_limit: u32,
    /// The player stopped and their powers are applied: `faces` are final.
    pub finished: bool,
    /// Defence bought with Xp (Long Game) when the turn ended.
    pub bought_defence: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OverState {
    /// Position in the round's player order of the batsman.
    pub index: u32,
    pub batsman: Seat,
    /// `None` in the last over of a bowler eliminated earlier this round: no bowling dice.
    pub bowler: Option<Seat>,
    pub batting: TurnState,
    pub bowling: TurnState,
}

impl OverState {
    /// Who is rolling now.
    pub fn active_role(&self) -> Role {
        if self.batting.finished {
            Role::Bowling
        } else {
            Role::Batting
        }
    }

    pub fn active_seat(&self) -> Option<Seat> {
        match self.active_role() {
            Role::Batting => Some(self.batsman),
            Role::Bowling => self.bowler,
        }
    }

    pub fn turn(&self, role: Role) -> &TurnState {
        match role {
            Role::Batting => &self.batting,
            Role::Bowling => &self.bowling,
        }
    }

    pub fn turn_mut(&mut self, role: Role) -> &mut TurnState {
        match role {
            Role::Batting => &mut self.batting,
            Role::Bowling => &mut self.bowling,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Phase {
    /// Before `start`, and for an instant between the events of one command.
    Between,
    Over(OverState),
    Buying {
        seat: Seat,
    },
    Finished,
}

/// The last resolved over, kept so views can show what just happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OverRecord {
    pub round: u32,
    pub batsman: Seat,
    pub bowler: Option<Seat>,
    pub batting_faces: Vec<Face>,
    pub bowling_faces: Vec<Face>,
    pub result: OverResult,
}

/// One player's final score, part by part. Seed: 003_a3e523365b63d62b.txt "There are four
/// ways to score championship points".
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Points {
    pub runs: u32,
    pub wickets: u32,
    pub championship: u32,
    pub unused_xp: u32,
    pub total: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub players: Vec<PlayerState>,
    pub round: u32,
    /// This round's player order (active players at the round's start).
    pub order: Vec<Seat>,
    pub phase: Phase,
    pub market: Vec<String>,
    /// Hidden: the face-down Xp cards, top first. Never in a view.
    pub draw_pile: Vec<String>,
    /// Championship card id -> holders (several only for shared caps).
    pub championships: Vec<(String, Vec<Seat>)>,
    pub last_over: Option<OverRecord>,
    pub final_points: Option<Vec<Points>>,
    pub outcome: Option<Outcome>,
}

impl State {
    pub fn new(players: u8) -> Self {
        State {
            players: vec![PlayerState::default(); usize::from(players)],
            round: 0,
            order: Vec::new(),
            phase: Phase::Between,
            market: Vec::new(),
            draw_pile: Vec::new(),
            championships: Vec::new(),
            last_over: None,
            final_points: None,
            outcome: None,
        }
    }

    pub fn player(&self, seat: Seat) -> Option<&PlayerState> {
        self.players.get(seat.index())
    }

    pub fn active_seats(&self) -> Vec<Seat> {
        (0..self.players.len())
            .filter(|i| !self.players[*i].eliminated)
            .map(|i| Seat(i as u8))
            .collect()
    }

    pub fn holders(&self, card: &str) -> &[Seat] {
        self.championships
            .iter()
            .find(|(id, _)| id == card)
            .map(|(_, seats)| seats.as_slice())
            .unwrap_or(&[])
    }

    pub fn over(&self) -> Option<&OverState> {
        match &self.phase {
            Phase::Over(over) => Some(over),
            _ => None,
        }
    }
}
