//! Wicketz scorecard. Each ball names its striker and its dismissed batter, so no strike
//! tracking is needed; Wicketz has no individual bowlers, so bowling figures are kept per
//! bowling style (pace, spin) as the fielding side declared each over.

use crate::rules::scorecard::{Delivery, GameScorecard, InningsBuilder};
use crate::rules::wicketz::Event;
use crate::rules::wicketz::events::HowOut;
use crate::rules::wicketz::indicator::Style;

fn style_name(style: Style) -> String {
    match style {
        Style::Pace => "pace".into(),
        Style::Spin => "spin".into(),
    }
}

fn how_out(how: &HowOut, bowling: &str) -> (String, bool) {
    match how {
        HowOut::Bowled => (format!("b {bowling}"), true),
        HowOut::Lbw => (format!("lbw b {bowling}"), true),
        HowOut::Caught { zone } => (format!("c {zone} b {bowling}"), true),
        HowOut::RunOut { zone } => (format!("run out ({zone})"), false),
    }
}

/// The scorecard of a Wicketz match from its events.
pub fn scorecard(events: &[Event]) -> GameScorecard {
    let mut innings: Vec<InningsBuilder> = Vec::new();
    let mut style = String::from("?");
    for event in events {
        match event {
            Event::InningsOpened { number, batting } => {
                innings.push(InningsBuilder::new(u32::from(*number), batting.0));
            }
            Event::OverStarted { style: declared, .. } => style = style_name(*declared),
            Event::BallCompleted { ball } => {
                let Some(card) = innings.last_mut() else { continue };
                card.batter_in(ball.striker);
                let wicket = ball.dismissal.as_ref().map(|out| {
                    let (how, credited) = how_out(&out.how, &style);
                    (out.batter, how, credited)
                });
                card.ball(&Delivery {
                    striker: ball.striker,
                    bowler: style.clone(),
                    bat_runs: u32::from(ball.bat_runs),
                    bowler_extras: u32::from(ball.extras),
                    byes: u32::from(ball.byes),
                    legal: ball.legal,
                    four: ball.bat_runs == 4,
                    six: ball.bat_runs == 6,
                    wicket,
                });
            }
            Event::OverCompleted { .. } => {
                if let Some(card) = innings.last_mut() {
                    card.over_ended();
                }
            }
            _ => {}
        }
    }
    GameScorecard::Cricket {
        innings: innings.into_iter().map(InningsBuilder::finish).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::wicketz::field::Position;

    /// A scorecard is read by players: a zone is named as the field picture labels it (J0),
    /// never as the engine's struct.
    #[test]
    fn a_dismissal_names_its_zone_as_the_field_labels_it() {
        let zone = Position { letter: 9, ring: 0 };
        assert_eq!(
            how_out(&HowOut::RunOut { zone }, "spin"),
            ("run out (J0)".into(), false)
        );
        assert_eq!(
            how_out(&HowOut::Caught { zone }, "pace"),
            ("c J0 b pace".into(), true)
        );
    }
}
