//! Champions' extras: its listing, rating pools (one per table size) and points table.

use super::Champions;
use super::events::Event;
use super::options::Options;
use crate::rules::scorecard::GameScorecard;
use crate::rules::{CareerFigure, CareerView, GameExtras, Listing, SetupError};

impl GameExtras for Champions {
    const RULES_DATA: &'static [(&'static str, &'static str)] = &[("ruleset", super::data::RULESET_JSON)];
    const TUTORIAL: Option<&'static str> = Some(include_str!("../../../data/champions/tutorial.json"));

    const LISTING: Listing = Listing {
        name: "Cricket Champions",
        players: "2-5 players",
        blurb: "Batting and bowling dice with re-rolls, Xp market.",
    };

    /// Migration 0004's view: matches, wins and championship points.
    const CAREER: Option<CareerView> = Some(CareerView {
        view: "champions_player_career",
        figures: &[
            CareerFigure::Wins,
            CareerFigure::Points,
            CareerFigure::AveragePoints,
        ],
    });

    /// A win at a table of five says little about a duel: `2p` ... `5p`.
    fn rating_pool(options: &Options) -> String {
        format!("{}p", options.players)
    }

    fn rating_pools() -> Vec<String> {
        (2..=5).map(|players| format!("{players}p")).collect()
    }

    fn scorecard(_: &Options, events: &[Event]) -> Result<Option<GameScorecard>, SetupError> {
        Ok(Some(super::scorecard::points_table(events)))
    }
}
