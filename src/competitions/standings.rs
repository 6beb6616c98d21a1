//! A league table the cricket way.
//!
//! Each finished fixture gives each side a result and, when it was played out, the runs it
//! scored and the legal balls it faced. Points: 2 for a win, 1 for a tie or a no result, 0
//! for a loss (the points are the competition's options, defaulting to these).
//!
//! Net run rate is the runs a side scored per over faced minus the runs it conceded per
//! over bowled, over all its matches with a result, as cricket's playing conditions
//! define it: overs are balls / 6 (ten overs and three balls are 10.5 overs, not 10.3),
//! and a side bowled out counts as having faced its full quota of overs, whatever it
//! actually faced, so being dismissed early is not a faster scoring rate. A match with no
//! result (abandoned) does not count in the rate.
//!
//! Ties in the table are broken, in order, by: points; wins; net run rate; the points won
//! in the matches among the tied sides (head to head); fewer matches played (a side that
//! got there in fewer games ranks higher); and last the entrant's place in the entry list,
//! so the table is always a total order.

use std::cmp::Ordering;

/// One side's innings in a fixture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Innings {
    pub runs: u32,
    /// Legal balls faced.
    pub balls: u32,
    /// Bowled out (all wickets lost): the rate counts the full quota of balls.
    pub all_out: bool,
}

/// How a fixture ended for the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    HomeWon,
    AwayWon,
    Tied,
    /// Abandoned or walked over with no play that counts: a point each, no run rate.
    NoResult,
    /// One side did not turn up: a win for the other, no run rate (the walkover rule).
    Walkover {
        home_won: bool,
    },
}

/// A finished fixture between two entrants (indices into the competition's list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub home: usize,
    pub away: usize,
    pub outcome: Outcome,
    /// Each side's batting, when the match was played out.
    pub home_innings: Option<Innings>,
    pub away_innings: Option<Innings>,
    /// The quota of legal balls per innings (overs × 6), for a side bowled out.
    pub quota_balls: u32,
}

/// Points for each result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointsRule {
    pub win: u32,
    pub tie: u32,
    pub no_result: u32,
    pub loss: u32,
}

impl Default for PointsRule {
    fn default() -> Self {
        PointsRule {
            win: 2,
            tie: 1,
            no_result: 1,
            loss: 0,
        }
    }
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub entrant: usize,
    pub played: u32,
    pub won: u32,
    pub lost: u32,
    pub tied: u32,
    pub no_result: u32,
    pub points: u32,
    pub runs_for: u32,
    /// Balls faced as the rate counts them (the quota when bowled out).
    pub balls_faced: u32,
    pub runs_against: u32,
    pub balls_bowled: u32,
    /// Net run rate; 0 before any match with a rate.
    pub net_run_rate: f64,
}

impl Row {
    fn new(entrant: usize) -> Self {
        Row {
            entrant,
            played: 0,
            won: 0,
            lost: 0,
            tied: 0,
            no_result: 0,
            points: 0,
            runs_for: 0,
            balls_faced: 0,
            runs_against: 0,
            balls_bowled: 0,
            net_run_rate: 0.0,
        }
    }
}

/// Net run rate from runs and balls both ways: runs per over faced minus runs per over
/// bowled; a side with no balls either way has 0 for that half.
pub fn net_run_rate(runs_for: u32, balls_faced: u32, runs_against: u32, balls_bowled: u32) -> f64 {
    let per_over = |runs: u32, balls: u32| {
        if balls == 0 {
            0.0
        } else {
            f64::from(runs) * 6.0 / f64::from(balls)
        }
    };
    per_over(runs_for, balls_faced) - per_over(runs_against, balls_bowled)
}

/// The balls an innings counts for the rate: the quota when the side was bowled out.
pub fn counted_balls(innings: Innings, quota_balls: u32) -> u32 {
    if innings.all_out {
        quota_balls.max(innings.balls)
    } else {
        innings.balls
    }
}

/// The table of `entrants` after `results`, in rank order.
pub fn table(entrants: usize, results: &[Played], points: PointsRule) -> Vec<Row> {
    let mut rows: Vec<Row> = (0..entrants).map(Row::new).collect();
    for played in results {
        if played.home >= entrants || played.away >= entrants || played.home == played.away {
            continue;
        }
        for (side, won, lost) in [
            (played.home, Outcome::HomeWon, Outcome::AwayWon),
            (played.away, Outcome::AwayWon, Outcome::HomeWon),
        ] {
            let row = &mut rows[side];
            row.played += 1;
            match played.outcome {
                o if o == won => {
                    row.won += 1;
                    row.points += points.win;
                }
                o if o == lost => {
                    row.lost += 1;
                    row.points += points.loss;
                }
                Outcome::Tied => {
                    row.tied += 1;
                    row.points += points.tie;
                }
                Outcome::NoResult => {
                    row.no_result += 1;
                    row.points += points.no_result;
                }
                Outcome::Walkover { home_won } => {
                    if home_won == (side == played.home) {
                        row.won += 1;
                        row.points += points.win;
                    } else {
                        row.lost += 1;
                        row.points += points.loss;
                    }
                }
                _ => unreachable!("every outcome is matched above"),
            }
        }
        // The rate counts matches with a result that were played out.
        let rated = matches!(
            played.outcome,
            Outcome::HomeWon | Outcome::AwayWon | Outcome::Tied
        );
        if let (true, Some(home), Some(away)) = (rated, played.home_innings, played.away_innings) {
            let home_balls = counted_balls(home, played.quota_balls);
            let away_balls = counted_balls(away, played.quota_balls);
            let h = &mut rows[played.home];
            h.runs_for += home.runs;
            h.balls_faced += home_balls;
            h.runs_against += away.runs;
            h.balls_bowled += away_balls;
            let a = &mut rows[played.away];
            a.runs_for += away.runs;
            a.balls_faced += away_balls;
            a.runs_against += home.runs;
            a.balls_bowled += home_balls;
        }
    }
    for row in &mut rows {
        row.net_run_rate = net_run_rate(row.runs_for, row.balls_faced, row.runs_against, row.balls_bowled);
    }
    rank(rows, results, points)
}

/// Sorts by the documented tie-breaks.
fn rank(mut rows: Vec<Row>, results: &[Played], points: PointsRule) -> Vec<Row> {
    let before_head_to_head = |a: &Row, b: &Row| {
        b.points
            .cmp(&a.points)
            .then(b.won.cmp(&a.won))
            .then(b.net_run_rate.total_cmp(&a.net_run_rate))
    };
    rows.sort_by(|a, b| before_head_to_head(a, b).then(a.entrant.cmp(&b.entrant)));
    // Within each group still level, head to head among the group, then fewer played,
    // then entry order.
    let mut start = 0;
    while start < rows.len() {
        let mut end = start + 1;
        while end < rows.len() && before_head_to_head(&rows[start], &rows[end]) == Ordering::Equal {
            end += 1;
        }
        if end - start > 1 {
            let group: Vec<usize> = rows[start..end].iter().map(|r| r.entrant).collect();
            let mini = table_among(&group, results, points);
            rows[start..end].sort_by(|a, b| {
                mini(b.entrant)
                    .cmp(&mini(a.entrant))
                    .then(a.played.cmp(&b.played))
                    .then(a.entrant.cmp(&b.entrant))
            });
        }
        start = end;
    }
    rows
}

/// Points each entrant of `group` won in the matches among the group.
fn table_among(group: &[usize], results: &[Played], points: PointsRule) -> impl Fn(usize) -> u32 {
    let among: Vec<Played> = results
        .iter()
        .filter(|p| group.contains(&p.home) && group.contains(&p.away))
        .copied()
        .collect();
    let max = group.iter().copied().max().unwrap_or(0) + 1;
    let mut won = vec![0u32; max];
    for played in &among {
        let (home, away) = match played.outcome {
            Outcome::HomeWon | Outcome::Walkover { home_won: true } => (points.win, points.loss),
            Outcome::AwayWon | Outcome::Walkover { home_won: false } => (points.loss, points.win),
            Outcome::Tied => (points.tie, points.tie),
            Outcome::NoResult => (points.no_result, points.no_result),
        };
        won[played.home] += home;
        won[played.away] += away;
    }
    move |entrant| won.get(entrant).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const T10: u32 = 60;

    fn innings(runs: u32, balls: u32, all_out: bool) -> Option<Innings> {
        Some(Innings { runs, balls, all_out })
    }

    fn played(home: usize, away: usize, outcome: Outcome, h: Option<Innings>, a: Option<Innings>) -> Played {
        Played {
            home,
            away,
            outcome,
            home_innings: h,
            away_innings: a,
            quota_balls: T10,
        }
    }

    #[test]
    fn net_run_rate_counts_a_side_bowled_out_as_facing_its_full_quota() {
        // Home bat first, 80 in their 10 overs; away are bowled out for 50 in 5.2 overs (32
        // balls). Away's rate counts 10 overs faced, not 5.2: 50/10 - 80/10 = -3.0, and
        // home's is the mirror, +3.0. Counting 5.2 overs would have given away 9.375 - 8.
        let results = [played(
            0,
            1,
            Outcome::HomeWon,
            innings(80, 60, false),
            innings(50, 32, true),
        )];
        let table = table(2, &results, PointsRule::default());
        assert_eq!(table[0].entrant, 0);
        assert!(
            (table[0].net_run_rate - 3.0).abs() < 1e-9,
            "{}",
            table[0].net_run_rate
        );
        assert!(
            (table[1].net_run_rate + 3.0).abs() < 1e-9,
            "{}",
            table[1].net_run_rate
        );
        assert_eq!(table[1].balls_faced, 60);
        assert_eq!(table[0].balls_bowled, 60);
    }

    #[test]
    fn a_chase_won_with_balls_to_spare_counts_the_balls_actually_faced() {
        // Away chase 81 in 7.3 overs (45 balls) without being bowled out: 81 * 6 / 45 =
        // 10.8 per over, against 80 in 10 overs conceded: +2.8.
        let results = [played(
            0,
            1,
            Outcome::AwayWon,
            innings(80, 60, false),
            innings(81, 45, false),
        )];
        let table = table(2, &results, PointsRule::default());
        assert_eq!(table[0].entrant, 1);
        assert!(
            (table[0].net_run_rate - 2.8).abs() < 1e-9,
            "{}",
            table[0].net_run_rate
        );
        // Overs are balls / 6: 7.3 overs are 7.5, not 7.3.
        assert!((net_run_rate(81, 45, 0, 0) - 81.0 / 7.5).abs() < 1e-9);
    }

    #[test]
    fn points_results_and_no_results_fill_the_columns() {
        let results = [
            played(
                0,
                1,
                Outcome::HomeWon,
                innings(100, 60, false),
                innings(90, 60, false),
            ),
            played(
                1,
                2,
                Outcome::Tied,
                innings(70, 60, false),
                innings(70, 60, false),
            ),
            played(2, 0, Outcome::NoResult, None, None),
            played(3, 0, Outcome::Walkover { home_won: true }, None, None),
        ];
        let table = table(4, &results, PointsRule::default());
        let row = |e: usize| table.iter().find(|r| r.entrant == e).expect("a row").clone();
        let zero = row(0);
        assert_eq!(
            (
                zero.played,
                zero.won,
                zero.lost,
                zero.tied,
                zero.no_result,
                zero.points
            ),
            (3, 1, 1, 0, 1, 3)
        );
        let two = row(2);
        assert_eq!(
            (two.played, two.won, two.lost, two.tied, two.no_result, two.points),
            (2, 0, 0, 1, 1, 2)
        );
        // No result and walkovers add nothing to the rate.
        assert_eq!((zero.runs_for, zero.balls_faced), (100, 60));
        assert_eq!((two.runs_for, two.runs_against), (70, 70));
        assert_eq!(row(3).points, 2);
    }

    #[test]
    fn level_sides_are_split_by_wins_then_rate_then_head_to_head_then_entry() {
        // 0 and 1 both on 2 points with one win; 1 has the better rate.
        let results = [
            played(
                0,
                2,
                Outcome::HomeWon,
                innings(60, 60, false),
                innings(59, 60, false),
            ),
            played(
                1,
                3,
                Outcome::HomeWon,
                innings(120, 60, false),
                innings(40, 60, true),
            ),
        ];
        let t = table(4, &results, PointsRule::default());
        assert_eq!(t.iter().map(|r| r.entrant).collect::<Vec<_>>(), vec![1, 0, 2, 3]);

        // Identical records and rates: head to head decides (1 beat 0).
        let mirror = [
            played(
                0,
                2,
                Outcome::HomeWon,
                innings(60, 60, false),
                innings(50, 60, false),
            ),
            played(
                1,
                3,
                Outcome::HomeWon,
                innings(60, 60, false),
                innings(50, 60, false),
            ),
            played(
                2,
                1,
                Outcome::HomeWon,
                innings(60, 60, false),
                innings(50, 60, false),
            ),
            played(
                3,
                0,
                Outcome::HomeWon,
                innings(60, 60, false),
                innings(50, 60, false),
            ),
            played(
                1,
                0,
                Outcome::HomeWon,
                innings(55, 60, false),
                innings(55, 60, true),
            ),
            played(
                0,
                1,
                Outcome::HomeWon,
                innings(55, 60, false),
                innings(55, 60, true),
            ),
        ];
        // Both 0 and 1 won 2 of 4 with equal runs both ways: level on everything but the
        // entry order, as their head to head is one win each.
        let t = table(4, &mirror, PointsRule::default());
        let top: Vec<usize> = t.iter().map(|r| r.entrant).collect();
        let pos = |e: usize| top.iter().position(|x| *x == e).expect("ranked");
        assert!(pos(0) < pos(1), "entry order last: {top:?}");

        // Head to head between two level sides: 1 and 2 both win one and lose one with the
        // same runs both ways (rate 0), but 2 beat 1, so 2 ranks above 1 despite entry order.
        let h2h = [
            played(
                2,
                1,
                Outcome::HomeWon,
                innings(60, 60, false),
                innings(50, 60, false),
            ),
            played(
                1,
                3,
                Outcome::HomeWon,
                innings(60, 60, false),
                innings(50, 60, false),
            ),
            played(
                3,
                2,
                Outcome::HomeWon,
                innings(60, 60, false),
                innings(50, 60, false),
            ),
            played(
                3,
                0,
                Outcome::HomeWon,
                innings(60, 60, false),
                innings(50, 60, false),
            ),
        ];
        let t = table(4, &h2h, PointsRule::default());
        assert_eq!(t.iter().map(|r| r.entrant).collect::<Vec<_>>(), vec![3, 2, 1, 0]);
        assert_eq!((t[1].points, t[2].points), (2, 2));
        assert!((t[1].net_run_rate - t[2].net_run_rate).abs() < 1e-12);
    }
}
