//! Hand Cricket's extras: everything the product shows around a match, from this folder.

use super::{Event, HandCricket, Options, State};
use crease::rules::scorecard::{Delivery, GameScorecard, InningsBuilder};
use crease::rules::{CareerFigure, CareerView, Figure, GameExtras, Listing, OperatorViews, SetupError};

impl GameExtras for HandCricket {
    const LISTING: Listing = Listing {
        name: "Hand Cricket",
        players: "2 players",
        blurb: "Show one to six fingers at once: different, the batter scores; the same, out.",
    };

    /// Served at `/js/games/hand_cricket.js`, beside the client's own game modules.
    const CLIENT_MODULE: Option<&'static str> = Some(include_str!("client.js"));

    /// One row per ball, then the careers read from it.
    const OPERATOR_VIEWS: OperatorViews = OperatorViews {
        sqlite: &[
            include_str!("views.sqlite.sql"),
            include_str!("career.sqlite.sql"),
        ],
        postgres: &[
            include_str!("views.postgres.sql"),
            include_str!("career.postgres.sql"),
        ],
    };

    /// The profile's career figures, from `career.*.sql`: the other cricket games' columns.
    const CAREER: Option<CareerView> = Some(CareerView {
        view: "hand_cricket_player_career",
        figures: CareerFigure::CRICKET,
    });

    /// Two overs of two wickets is another game than ten of five.
    fn rating_pool(options: &Options) -> String {
        format!("{}ov_{}w", options.overs, options.wickets)
    }

    /// A cricket scorecard: each wicket brings the side's next batter in; the bowler is
    /// the fielding seat.
    fn scorecard(_: &Options, events: &[Event]) -> Result<Option<GameScorecard>, SetupError> {
        let mut innings: Vec<InningsBuilder> = Vec::new();
        let mut batter = 0u8;
        let mut balls_in_over = 0;
        for event in events {
            match event {
                Event::Bowled { ball } => {
                    if innings.len() < usize::from(ball.innings) {
                        innings.push(InningsBuilder::new(u32::from(ball.innings), ball.batting.0));
                        (batter, balls_in_over) = (0, 0);
                    }
                    let Some(card) = innings.last_mut() else { continue };
                    card.ball(&Delivery {
                        striker: batter,
                        bowler: format!("seat {}", 1 - ball.batting.0),
                        bat_runs: u32::from(ball.runs),
                        legal: true,
                        four: ball.runs == 4,
                        six: ball.runs == 6,
                        wicket: ball.out.then(|| {
                            (
                                batter,
                                format!("b seat {} ({} fingers)", 1 - ball.batting.0, ball.bowler_fingers),
                                true,
                            )
                        }),
                        ..Delivery::default()
                    });
                    batter += u8::from(ball.out);
                    balls_in_over += 1;
                    if balls_in_over == 6 {
                        card.over_ended();
                        balls_in_over = 0;
                    }
                }
                Event::InningsClosed { .. } => {
                    if let Some(card) = innings.last_mut()
                        && balls_in_over > 0
                    {
                        card.over_ended();
                        balls_in_over = 0;
                    }
                }
                Event::Tossed { .. } | Event::Shown { .. } => {}
            }
        }
        Ok(Some(GameScorecard::Cricket {
            innings: innings.into_iter().map(InningsBuilder::finish).collect(),
        }))
    }

    fn figures(state: &State) -> Vec<Figure> {
        let runs: u32 = state.scores.iter().map(|score| score.runs).sum();
        vec![
            Figure {
                name: "runs_per_innings",
                value: f64::from(runs) / 2.0,
            },
            Figure {
                name: "balls_per_wicket",
                value: balls_per_wicket(state),
            },
        ]
    }
}

/// Balls bowled per wicket over the whole match (all balls if no wicket fell).
fn balls_per_wicket(state: &State) -> f64 {
    let balls: u16 = state.scores.iter().map(|score| score.balls).sum();
    let wickets: u8 = state.scores.iter().map(|score| score.wickets).sum();
    f64::from(balls) / f64::from(wickets.max(1))
}
