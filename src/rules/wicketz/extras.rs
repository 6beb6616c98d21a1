//! Wicketz's extras: its listing, rating pools (by overs and innings) and scorecard.

use super::{Event, Options, Wicketz};
use crate::rules::scorecard::GameScorecard;
use crate::rules::{CareerFigure, CareerView, GameExtras, Listing, SetupError};

impl GameExtras for Wicketz {
    const RULES_DATA: &'static [(&'static str, &'static str)] = &[
        ("ruleset", super::data::RULESET_JSON),
        ("cards", super::data::CARDS_JSON),
        ("printed_cards", super::data::PRINTED_CARDS_JSON),
        ("outcomes", super::outcomes::OUTCOMES_JSON),
    ];
    const TUTORIAL: Option<&'static str> = Some(include_str!("../../../data/wicketz/tutorial.json"));

    const LISTING: Listing = Listing {
        name: "Wicketz",
        players: "2 players",
        blurb: "Bowling indicator, nominated stroke, result cards.",
    };

    /// Migration 0004's view.
    const CAREER: Option<CareerView> = Some(CareerView {
        view: "wicketz_player_career",
        figures: CareerFigure::CRICKET,
    });

    fn innings_quota_balls(options: &Options) -> Option<u32> {
        Some(u32::from(options.overs) * 6)
    }

    /// `20ov` for one innings of 20 overs each, `20ov_x2` for two.
    fn rating_pool(options: &Options) -> String {
        match options.innings_per_side {
            1 => format!("{}ov", options.overs),
            innings => format!("{}ov_x{innings}", options.overs),
        }
    }

    /// The formats people play, the default first.
    fn rating_pools() -> Vec<String> {
        ["20ov", "10ov", "5ov", "1ov", "20ov_x2"].map(String::from).into()
    }

    fn scorecard(_: &Options, events: &[Event]) -> Result<Option<GameScorecard>, SetupError> {
        Ok(Some(super::scorecard::scorecard(events)))
    }
}
