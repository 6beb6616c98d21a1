//! CTG's extras: its listing, rating pools (one per format) and scorecard.

use super::types::Format;
use super::{Ctg, Event, Options};
use crate::rules::scorecard::GameScorecard;
use crate::rules::{CareerFigure, CareerView, Game, GameExtras, Listing, SetupError};

impl GameExtras for Ctg {
    const RULES_DATA: &'static [(&'static str, &'static str)] = &[
        ("ruleset", super::data::RULESET_JSON),
        ("squads", super::data::SQUADS_JSON),
    ];
    const TUTORIAL: Option<&'static str> = Some(include_str!("../../../data/ctg/tutorial.json"));

    const LISTING: Listing = Listing {
        name: "Cricket: The Game",
        players: "2 players",
        blurb: "Hidden bowl card against a chosen zone, over cards, dice.",
    };

    /// Migration 0004's view.
    const CAREER: Option<CareerView> = Some(CareerView {
        view: "ctg_player_career",
        figures: CareerFigure::CRICKET,
    });

    /// A shorter match (`overs`) is rated apart from its format's full length.
    fn rating_pool(options: &Options) -> String {
        match options.overs {
            Some(overs) if overs < options.format.overs() => {
                format!("{}-{overs}ov", format_name(options.format))
            }
            _ => format_name(options.format).to_string(),
        }
    }

    fn rating_pools() -> Vec<String> {
        [Format::T10, Format::T20]
            .map(|format| format_name(format).to_string())
            .into()
    }

    /// Names players from the match's own squads (the built-in ones unless the options
    /// gave others), so the card reads "Ash Carver" instead of a squad index.
    fn scorecard(options: &Options, events: &[Event]) -> Result<Option<GameScorecard>, SetupError> {
        let state = Ctg::initial_state(options)?;
        Ok(Some(super::scorecard::scorecard(events, &state.squads)))
    }
}

/// The format's wire name, which is also its rating pool: `t10`, `t20`.
fn format_name(format: Format) -> &'static str {
    match format {
        Format::T10 => "t10",
        Format::T20 => "t20",
    }
}
