//! CTG scorecard: follows the striker, non-striker and bowler through the events exactly as
//! the engine's `apply` does (strike changes on `swap` and at each over's end; a wicket
//! removes whoever is on strike after the swap).

use super::{Delivery, GameScorecard, InningsBuilder};
use crate::rules::ctg::event::Event;
use crate::rules::ctg::types::Dismissal;

fn how_out(dismissal: Dismissal, bowler: &str) -> (String, bool) {
    match dismissal {
        Dismissal::CleanBowled | Dismissal::Bowled => (format!("b {bowler}"), true),
        Dismissal::Lbw => (format!("lbw b {bowler}"), true),
        Dismissal::Caught => (format!("c b {bowler}"), true),
        Dismissal::CaughtInSlips => (format!("c (slip) b {bowler}"), true),
        Dismissal::RunOut => ("run out".into(), false),
    }
}

/// The scorecard of a CTG match from its events.
pub fn scorecard(events: &[Event]) -> GameScorecard {
    let mut innings: Vec<InningsBuilder> = Vec::new();
    let (mut striker, mut non_striker, mut bowler): (Option<u8>, Option<u8>, Option<u8>) = (None, None, None);
    for event in events {
        match *event {
            Event::InningsStarted {
                innings: number,
                batting,
            } => {
                innings.push(InningsBuilder::new(u32::from(number) + 1, batting.0));
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
                let bowler_name = bowler.map_or_else(|| "?".to_string(), |b| b.to_string());
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
    GameScorecard::Cricket {
        innings: innings.into_iter().map(InningsBuilder::finish).collect(),
    }
}
