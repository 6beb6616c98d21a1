//! Scorecards: a match's events folded into what a cricket fan reads after the game.
//!
//! Each game has a pure fold from its own events ([`ctg`], [`wicketz`], [`champions`]); the
//! cricket games share [`InningsBuilder`]. Nothing here reads engine state: a scorecard is
//! rebuilt from the log alone, and the tests check its totals against the engine's score.

pub mod champions;
pub mod ctg;
pub mod wicketz;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One batter's line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BattingLine {
    /// The batter's index in the batting side's squad (CTG) or batting order (Wicketz).
    pub batter: u8,
    /// The player's name where the game's cards carry one (CTG squads); `None` otherwise.
    pub name: Option<String>,
    pub runs: u32,
    /// Legal deliveries faced.
    pub balls: u32,
    pub fours: u32,
    pub sixes: u32,
    /// "not out", "b Pace", "lbw b 7", "run out", ...
    pub how_out: String,
}

/// One bowler's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BowlingLine {
    /// The bowler's squad index (CTG) or the bowling style (Wicketz, which has no bowlers).
    pub bowler: String,
    /// Cricket notation: completed overs, a dot, then balls of the unfinished over.
    pub overs: String,
    /// Legal deliveries bowled.
    pub balls: u32,
    pub maidens: u32,
    /// Runs off the bat and extras the bowler is charged with (byes are not).
    pub runs: u32,
    pub wickets: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FallOfWicket {
    /// 1 for the first wicket.
    pub wicket: u32,
    /// The team total when it fell.
    pub score: u32,
    pub batter: u8,
    /// Overs bowled when it fell, in cricket notation.
    pub overs: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct InningsCard {
    /// 1-based, in match order.
    pub number: u32,
    pub batting_seat: u8,
    pub batting: Vec<BattingLine>,
    pub bowling: Vec<BowlingLine>,
    pub extras: u32,
    pub total: u32,
    pub wickets: u32,
    pub legal_balls: u32,
    pub overs: String,
    pub fall_of_wickets: Vec<FallOfWicket>,
}

/// One seat's line of a Champions points table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PointsRow {
    pub seat: u8,
    pub runs: u32,
    pub wickets: u32,
    pub championship: u32,
    pub unused_xp: u32,
    pub total: u32,
    /// 1 is best; absent until the match ends.
    pub placing: Option<u8>,
    pub eliminated: bool,
}

/// The scorecard of one match, by kind of game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GameScorecard {
    /// CTG and Wicketz: one card per innings.
    Cricket { innings: Vec<InningsCard> },
    /// Champions: the points table (filled when the match ends).
    Points { table: Vec<PointsRow> },
}

/// The scorecard of a match of `game` with `options` from its engine events (as JSON, in log
/// order). The options give the players' names (CTG squads). `None` for a game without a
/// scorecard; an error names an event or options that do not parse.
pub fn render(game: &str, options: &Value, events: &[Value]) -> Option<Result<GameScorecard, String>> {
    match game {
        "ctg" => Some(
            ctg::squads(options)
                .and_then(|squads| parse_all(events).map(|events| ctg::scorecard(&events, &squads))),
        ),
        "wicketz" => Some(parse_all(events).map(|events| wicketz::scorecard(&events))),
        "champions" => Some(parse_all(events).map(|events| champions::points_table(&events))),
        _ => None,
    }
}

/// [`render`] over a stored log: its engine events only (commands and forfeits are not play).
/// Every event in the log is public once its ball is over, so live matches get one too.
pub fn from_log(
    game: &str,
    options: &Value,
    log: &[crate::record::LogEntry],
) -> Option<Result<GameScorecard, String>> {
    let events: Vec<Value> = log
        .iter()
        .filter(|entry| entry.kind == crate::record::EntryKind::Event)
        .map(|entry| entry.payload.clone())
        .collect();
    render(game, options, &events)
}

fn parse_all<E: serde::de::DeserializeOwned>(events: &[Value]) -> Result<Vec<E>, String> {
    events
        .iter()
        .map(|event| {
            serde_json::from_value(event.clone()).map_err(|error| format!("unreadable event: {error}"))
        })
        .collect()
}

/// "12.3": twelve overs and three balls.
pub fn overs(legal_balls: u32) -> String {
    format!("{}.{}", legal_balls / 6, legal_balls % 6)
}

/// What one delivery did, in the terms every cricket scorecard uses.
#[derive(Clone, Debug, Default)]
pub struct Delivery {
    pub striker: u8,
    pub bowler: String,
    pub bat_runs: u32,
    /// Extras charged to the bowler (wides, no-balls, penalty runs).
    pub bowler_extras: u32,
    /// Extras not charged to the bowler (byes, leg byes).
    pub byes: u32,
    pub legal: bool,
    pub four: bool,
    pub six: bool,
    /// The batter out, how, and whether the bowler is credited with the wicket.
    pub wicket: Option<(u8, String, bool)>,
}

/// Accumulates one innings ball by ball.
#[derive(Clone, Debug)]
pub struct InningsBuilder {
    card: InningsCard,
    over_runs: u32,
    over_bowler: Option<String>,
    over_legal: u32,
}

impl InningsBuilder {
    pub fn new(number: u32, batting_seat: u8) -> Self {
        InningsBuilder {
            card: InningsCard {
                number,
                batting_seat,
                batting: Vec::new(),
                bowling: Vec::new(),
                extras: 0,
                total: 0,
                wickets: 0,
                legal_balls: 0,
                overs: overs(0),
                fall_of_wickets: Vec::new(),
            },
            over_runs: 0,
            over_bowler: None,
            over_legal: 0,
        }
    }

    fn batter(&mut self, batter: u8) -> &mut BattingLine {
        let index = match self.card.batting.iter().position(|line| line.batter == batter) {
            Some(index) => index,
            None => {
                self.card.batting.push(BattingLine {
                    batter,
                    name: None,
                    runs: 0,
                    balls: 0,
                    fours: 0,
                    sixes: 0,
                    how_out: "not out".into(),
                });
                self.card.batting.len() - 1
            }
        };
        &mut self.card.batting[index]
    }

    fn bowler(&mut self, bowler: &str) -> &mut BowlingLine {
        let index = match self.card.bowling.iter().position(|line| line.bowler == bowler) {
            Some(index) => index,
            None => {
                self.card.bowling.push(BowlingLine {
                    bowler: bowler.to_string(),
                    overs: overs(0),
                    balls: 0,
                    maidens: 0,
                    runs: 0,
                    wickets: 0,
                });
                self.card.bowling.len() - 1
            }
        };
        &mut self.card.bowling[index]
    }

    /// A batter walked in (listed even if they never face a ball).
    pub fn batter_in(&mut self, batter: u8) {
        self.batter(batter);
    }

    pub fn ball(&mut self, ball: &Delivery) {
        let line = self.batter(ball.striker);
        line.runs += ball.bat_runs;
        line.balls += u32::from(ball.legal);
        line.fours += u32::from(ball.four);
        line.sixes += u32::from(ball.six);
        let conceded = ball.bat_runs + ball.bowler_extras;
        let figures = self.bowler(&ball.bowler);
        figures.runs += conceded;
        figures.balls += u32::from(ball.legal);
        figures.wickets += u32::from(ball.wicket.as_ref().is_some_and(|(_, _, credited)| *credited));
        self.over_bowler = Some(ball.bowler.clone());
        self.over_runs += conceded;
        self.over_legal += u32::from(ball.legal);
        self.card.total += ball.bat_runs + ball.bowler_extras + ball.byes;
        self.card.extras += ball.bowler_extras + ball.byes;
        self.card.legal_balls += u32::from(ball.legal);
        if let Some((out, how, _)) = &ball.wicket {
            self.card.wickets += 1;
            self.batter(*out).how_out = how.clone();
            self.card.fall_of_wickets.push(FallOfWicket {
                wicket: self.card.wickets,
                score: self.card.total,
                batter: *out,
                overs: overs(self.card.legal_balls),
            });
        }
    }

    /// The over ended: a full over without a run conceded is a maiden.
    pub fn over_ended(&mut self) {
        if let Some(bowler) = self.over_bowler.take()
            && self.over_runs == 0
            && self.over_legal == 6
        {
            self.bowler(&bowler).maidens += 1;
        }
        self.over_runs = 0;
        self.over_legal = 0;
    }

    pub fn finish(mut self) -> InningsCard {
        self.card.overs = overs(self.card.legal_balls);
        for figures in &mut self.card.bowling {
            figures.overs = overs(figures.balls);
        }
        self.card
    }
}
