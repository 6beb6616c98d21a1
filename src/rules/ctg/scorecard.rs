//! CTG scorecard: follows the striker, non-striker and bowler through the events exactly as
//! the engine's `apply` does (strike changes on `swap` and at each over's end; a wicket
//! removes whoever is on strike after the swap).

use crate::rules::ctg::data::Squad;
use crate::rules::ctg::event::Event;
use crate::rules::ctg::types::Dismissal;
use crate::rules::scorecard::{Delivery, GameScorecard, InningsBuilder};

/// The name of `index` in `squad`, or the index itself if the squad has no such player.
fn name_of(squad: &Squad, index: u8) -> String {
    squad
        .players
        .get(usize::from(index))
        .map_or_else(|| index.to_string(), |player| player.name.clone())
}

fn how_out(dismissal: Dismissal, bowler: &str) -> (String, bool) {
    match dismissal {
        Dismissal::CleanBowled | Dismissal::Bowled => (format!("b {bowler}"), true),
        Dismissal::Lbw => (format!("lbw b {bowler}"), true),
        Dismissal::Caught => (format!("c b {bowler}"), true),
        Dismissal::CaughtInSlips => (format!("c (slip) b {bowler}"), true),
        Dismissal::RunOut => ("run out".into(), false),
    }
}

/// The scorecard of a CTG match from its events, naming players from `squads`.
pub fn scorecard(events: &[Event], squads: &[Squad; 2]) -> GameScorecard {
    let mut innings: Vec<InningsBuilder> = Vec::new();
    let (mut striker, mut non_striker, mut bowler): (Option<u8>, Option<u8>, Option<u8>) = (None, None, None);
    let mut fielding_side = 1;
    for event in events {
        match *event {
            Event::InningsStarted {
                innings: number,
                batting,
            } => {
                innings.push(InningsBuilder::new(u32::from(number) + 1, batting.0));
                fielding_side = 1 - usize::from(batting.0.min(1));
                (striker, non_striker, bowler) = (None, None, None);
            }
            Event::BowlerChosen { bowler: chosen } => bowler = Some(chosen),
            Event::BatterIn { batter, .. } => {
                if striker.is_none() {
                    striker = Some(batter);
                } else {
                    non_striker = Some(batter);
                }
                if let Some(card) = innings.last_mut() {
                    card.batter_in(batter);
                }
            }
            Event::BallEnded { ball } => {
                let Some(card) = innings.last_mut() else { continue };
                let bowler_name =
                    bowler.map_or_else(|| "?".to_string(), |b| name_of(&squads[fielding_side], b));
                let facing = striker.unwrap_or(u8::MAX);
                if ball.swap {
                    std::mem::swap(&mut striker, &mut non_striker);
                }
                let wicket = ball.wicket.map(|dismissal| {
                    let (how, credited) = how_out(dismissal, &bowler_name);
                    (striker.unwrap_or(u8::MAX), how, credited)
                });
                card.ball(&Delivery {
                    striker: facing,
                    bowler: bowler_name,
                    bat_runs: u32::from(ball.runs),
                    bowler_extras: u32::from(ball.extras),
                    byes: 0,
                    legal: ball.legal,
                    four: ball.boundary == 4,
                    six: ball.boundary == 6,
                    wicket,
                });
                if ball.wicket.is_some() {
                    striker = None;
                }
            }
            Event::OverEnded => {
                if let Some(card) = innings.last_mut() {
                    card.over_ended();
                }
                bowler = None;
                std::mem::swap(&mut striker, &mut non_striker);
            }
            _ => {}
        }
    }
    let mut innings: Vec<_> = innings.into_iter().map(InningsBuilder::finish).collect();
    for card in &mut innings {
        let squad = &squads[usize::from(card.batting_seat.min(1))];
        for line in &mut card.batting {
            line.name = Some(name_of(squad, line.batter));
        }
    }
    GameScorecard::Cricket { innings }
}
