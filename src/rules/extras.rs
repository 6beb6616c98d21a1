//! What a game offers around its rules: how the lobby lists it, which rating pool a match
//! counts in, its scorecard, the figures `crease simulate` reports, its browser module, its
//! SQL views for operators and the one a player's career is read from.
//!
//! [`Game`] is what a match needs to be played; [`GameExtras`] is what the rest of the
//! product needs to show it. The registry (`matches::GameRegistry`) reaches every extra
//! through this trait, so a new game writes all of it in its own folder and the server,
//! the ratings, the simulator and the browser client pick it up from one `register` line.
//! Everything but the listing has a default, so a game can start with its rules alone.

use super::Game;
use super::scorecard::GameScorecard;

/// How the lobby and the game pages name a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listing {
    /// "Cricket: The Game".
    pub name: &'static str,
    /// How many play, for people: "2 players", "2-5 players".
    pub players: &'static str,
    /// One line on what playing it is like.
    pub blurb: &'static str,
}

/// SQL views over the match log for operators, one text per backend (the dialects read
/// JSON differently). Each statement must be idempotent (`CREATE VIEW IF NOT EXISTS` on
/// SQLite, `CREATE OR REPLACE VIEW` on PostgreSQL): the server runs them at every start,
/// after the migrations, so a game's views live with the game instead of in a migration
/// every other game shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct OperatorViews {
    pub sqlite: &'static [&'static str],
    pub postgres: &'static [&'static str],
}

/// Where a player's career in the game is read from: one of the game's SQL views (a
/// migration's or one of its [`OperatorViews`]), one row per `player_id`, with the columns
/// `matches`, `runs` and `wickets` and a column of the same name for each of `figures`.
/// The profile reads the career from the view, on either backend, so the profile and an
/// operator's SQL always agree; the figures a view lacks are absent from the profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CareerView {
    pub view: &'static str,
    pub figures: &'static [CareerFigure],
}

/// A career figure beside the matches, runs and wickets every career has; its column in a
/// [`CareerView`] is its snake_case name ([`CareerFigure::column`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CareerFigure {
    BallsFaced,
    Fours,
    Sixes,
    Dismissals,
    RunsConceded,
    BallsBowled,
    /// Runs per hundred balls faced.
    StrikeRate,
    /// Runs conceded per six balls bowled.
    Economy,
    Wins,
    Points,
    AveragePoints,
}

impl CareerFigure {
    /// Every figure, in the order the profile lists them.
    pub const ALL: [CareerFigure; 11] = [
        CareerFigure::BallsFaced,
        CareerFigure::Fours,
        CareerFigure::Sixes,
        CareerFigure::Dismissals,
        CareerFigure::RunsConceded,
        CareerFigure::BallsBowled,
        CareerFigure::StrikeRate,
        CareerFigure::Economy,
        CareerFigure::Wins,
        CareerFigure::Points,
        CareerFigure::AveragePoints,
    ];

    /// A cricket career's figures: batting and bowling, with strike rate and economy (the
    /// first eight of [`ALL`](Self::ALL), which lists them first for that reason).
    pub const CRICKET: &'static [CareerFigure] = Self::ALL.split_at(8).0;

    /// The figure's column in a career view (and its key in the profile).
    pub const fn column(self) -> &'static str {
        match self {
            CareerFigure::BallsFaced => "balls_faced",
            CareerFigure::Fours => "fours",
            CareerFigure::Sixes => "sixes",
            CareerFigure::Dismissals => "dismissals",
            CareerFigure::RunsConceded => "runs_conceded",
            CareerFigure::BallsBowled => "balls_bowled",
            CareerFigure::StrikeRate => "strike_rate",
            CareerFigure::Economy => "economy",
            CareerFigure::Wins => "wins",
            CareerFigure::Points => "points",
            CareerFigure::AveragePoints => "average_points",
        }
    }

    /// A ratio, not a count.
    pub const fn is_ratio(self) -> bool {
        matches!(
            self,
            CareerFigure::StrikeRate | CareerFigure::Economy | CareerFigure::AveragePoints
        )
    }
}

/// One figure of a simulated match, averaged over every match by `crease simulate`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// snake_case, stable: it is a JSON key of `crease simulate --json`.
    pub name: &'static str,
    pub value: f64,
}

/// A game's extras. See the module documentation.
/// A game's tutorial match, read from `data/<game>/tutorial.json`.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TutorialSpec {
    /// The match seed, 64 hex digits: public, as the tutorial is never rated.
    pub seed: String,
    /// The game's options (a short match).
    pub options: serde_json::Value,
    /// The opponent's level.
    pub bot_level: super::BotLevel,
    /// Seats the player does not take (all bots).
    pub bots: u8,
}

pub trait GameExtras: Game {
    const LISTING: Listing;

    /// The game's browser module (an ES module, the same shape as `web/js/games/ctg.js`),
    /// when the game ships it in its own folder (`include_str!`). `None`: the module is
    /// one of the web client's own files, `web/js/games/<id>.js`. Either way the client
    /// loads it from `/js/games/<id>.js`.
    const CLIENT_MODULE: Option<&'static str> = None;

    /// The data files the engine plays by, as (name, JSON text): the browser's rules
    /// reference draws its tables from them (`GET /v1/games/{game}/rules`), so what a page
    /// shows cannot drift from what the engine enforces.
    const RULES_DATA: &'static [(&'static str, &'static str)] = &[];

    /// The rule values the engine holds in code rather than in `data/` (the rulebooks' own
    /// numbers, such as a format's overs or a card's roll), served beside the data files as
    /// `engine`, so the rules reference reads every value it shows from the engine.
    fn engine_rules() -> Option<serde_json::Value> {
        None
    }

    /// The tutorial match (JSON text, [`TutorialSpec`]): a fixed seed and short options, so
    /// every newcomer's dice come from the same stream (the bot's choices are drawn from its own
    /// private stream, as in every match) and the guide can be tested to its end. `None`:
    /// the game has no tutorial.
    const TUTORIAL: Option<&'static str> = None;

    /// Operator views created at start; the first three games' views predate this and are
    /// in migrations 0002, 0004 and 0005.
    const OPERATOR_VIEWS: OperatorViews = OperatorViews {
        sqlite: &[],
        postgres: &[],
    };

    /// The view a player's career in the game is read from, or `None` for a game whose
    /// profile shows no career.
    const CAREER: Option<CareerView> = None;

    /// The rating pool a match with these options counts in: a T10 says little about a T20.
    /// Read from the typed options, so defaults are the game's own and never repeated.
    fn rating_pool(_options: &Self::Options) -> String {
        "standard".to_string()
    }

    /// The legal balls of one innings' full quota with these options, for a game whose
    /// innings are limited overs (a league's net run rate counts a side bowled out as having
    /// faced all of them); `None` for a game without innings.
    fn innings_quota_balls(_options: &Self::Options) -> Option<u32> {
        None
    }

    /// The pools a leaderboard offers, the default options' pool first.
    fn rating_pools() -> Vec<String> {
        vec![Self::rating_pool(&Self::Options::default())]
    }

    /// The scorecard of a match from its events in log order, or `None` for a game without
    /// one. `Err` when the options no longer set up a match.
    fn scorecard(
        _options: &Self::Options,
        _events: &[Self::Event],
    ) -> Result<Option<GameScorecard>, super::SetupError> {
        Ok(None)
    }

    /// What `crease simulate` reports of one finished match beside its result.
    fn figures(_state: &Self::State) -> Vec<Figure> {
        Vec::new()
    }
}
