//! Competitions on the wire: `POST /v1/competitions` and the competition as every route
//! answers it (entries, fixtures, the league table or the knockout's bracket).

use crate::rules::BotLevel;
use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// League (round robin) or knockout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CompetitionFormat {
    League,
    Knockout,
}

impl CompetitionFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            CompetitionFormat::League => "league",
            CompetitionFormat::Knockout => "knockout",
        }
    }
}

/// `POST /v1/competitions`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateCompetition {
    /// 1 to 60 printable characters.
    pub name: String,
    pub game: String,
    /// The game's options, as for a match (`GET /v1/games` lists them); default if absent.
    #[serde(default)]
    pub options: Option<Value>,
    pub format: CompetitionFormat,
    /// Leagues only (a knockout ignores it): every pair meets twice, each side at home once.
    #[serde(default)]
    pub double_round: bool,
    /// Play against the clock: each round must be played within this many hours of its
    /// opening (round `n` closes `n × round_hours` after the start). A fixture not played
    /// by then is a walkover to the side that was ready, or no result if neither was (a
    /// knockout's goes to the higher seed). 1 to 720; none: no clock.
    #[serde(default)]
    pub round_hours: Option<u32>,
}

/// `POST /v1/competitions/{id}/bots`: server bots entered by the creator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddBots {
    /// 1 to 15.
    pub count: u8,
    #[serde(default)]
    pub level: BotLevel,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CompetitionEntry {
    /// The player's id, or `bot-<n>` for a server bot.
    pub player_id: String,
    pub name: String,
    pub bot: bool,
    /// The knockout seed (1 = best rated) or the league's entry order; from the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u32>,
    /// The rating the seeding used (the player's in the competition's rating pool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
}

/// Where a fixture is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FixtureStatus {
    /// Its sides are not both known (a knockout), or not both ready.
    Waiting,
    /// Both are ready: its match is being made.
    Ready,
    Live,
    Finished,
    /// A knockout's bye: `home` goes through.
    Bye,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CompetitionFixture {
    pub fixture_id: u32,
    /// 1-based.
    pub round: u32,
    /// Its place in the round (the bracket's order in a knockout).
    pub slot: u32,
    /// Seat 0 of its match: an entry's `player_id`, or absent while not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub away: Option<String>,
    pub status: FixtureStatus,
    pub home_ready: bool,
    pub away_ready: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<String>,
    /// Absent for a tie or no result (a knockout's goes through by seed: see `advances`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Who goes through in a knockout (the winner, or the higher seed after a tie or no result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advances: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// When the fixture's round closes (competitions against the clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<DateTime<Utc>>,
}

/// One row of a league's table, in rank order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Standing {
    pub position: u32,
    pub player_id: String,
    pub name: String,
    pub played: u32,
    pub won: u32,
    pub lost: u32,
    pub tied: u32,
    pub no_result: u32,
    pub points: u32,
    pub runs_for: u32,
    /// Cricket notation ("29.4"), counting a side bowled out at its full quota.
    pub overs_faced: String,
    pub runs_against: u32,
    pub overs_bowled: String,
    /// Rounded to three decimals.
    pub net_run_rate: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Competition {
    pub competition_id: String,
    pub name: String,
    pub game: String,
    pub options: Value,
    pub format: CompetitionFormat,
    pub double_round: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_hours: Option<u32>,
    /// `open` (taking entries), `running`, `finished`.
    pub status: String,
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<DateTime<Utc>>,
    pub entries: Vec<CompetitionEntry>,
    pub fixtures: Vec<CompetitionFixture>,
    /// A league's table (empty for a knockout, and before the start).
    pub standings: Vec<Standing>,
    /// League rounds, or knockout rounds (the final is the last).
    pub rounds: u32,
    /// Once finished: the top of the table, or the final's winner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub champion: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CompetitionList {
    pub competitions: Vec<Competition>,
}
