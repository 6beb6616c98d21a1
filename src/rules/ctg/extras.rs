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

    /// The seed rules the engine holds in code: each format's length, dice, quotas and field
    /// restrictions, and the rolls of the over cards and of running.
    fn engine_rules() -> Option<serde_json::Value> {
        use super::field::{OUTFIELD_LIMIT, RESTRICTED_OUTFIELD_LIMIT};
        use super::resolve::*;
        let format = |format: Format| {
            serde_json::json!({
                "overs": format.overs(),
                "distance_sides": format.distance_sides(),
                "areas": format.areas(),
                "max_overs_per_bowler": format.max_overs_per_bowler(),
                "restricted_overs": format.restricted_overs(),
                "one_zone_of_three": format.one_zone_of_three(),
                "has_drs": format.has_drs(),
                "has_power_play": format.has_power_play(),
            })
        };
        Some(serde_json::json!({
            "formats": { "t10": format(Format::T10), "t20": format(Format::T20) },
            "outfield_limit": OUTFIELD_LIMIT,
            "restricted_outfield_limit": RESTRICTED_OUTFIELD_LIMIT,
            "howzat_min": HOWZAT_MIN,
            "great_catch_min": GREAT_CATCH_MIN,
            "express_sixes_bowled_min": EXPRESS_SIXES_BOWLED_MIN,
            "run_out_fielded_min": RUN_OUT_FIELDED_MIN,
            "run_out_extra_run_min": RUN_OUT_EXTRA_RUN_MIN,
            "run_out_card_min": RUN_OUT_CARD_MIN,
            "pace_add_one_max_distance": PACE_ADD_ONE_MAX_DISTANCE,
        }))
    }

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

    fn innings_quota_balls(options: &Options) -> Option<u32> {
        Some(u32::from(options.overs_per_innings()) * 6)
    }

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
