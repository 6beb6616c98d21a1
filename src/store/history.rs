//! Read side of ratings and match history: leaderboards, profiles, a player's matches.

use super::{Store, StoreResult};
use crate::record::PlayerId;
use crate::rules::{CareerFigure, CareerView};
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LeaderboardRow {
    pub player_id: String,
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    pub matches: i64,
    pub wins: i64,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PlayerRow {
    pub player_id: String,
    pub name: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MatchRatingRow {
    pub game: String,
    pub format: String,
    pub rating: f64,
    pub deviation: f64,
    pub matches: i64,
    pub wins: i64,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PlayerMatchRow {
    pub match_id: String,
    pub game: String,
    pub status: crate::record::MatchStatus,
    pub seat: i32,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub result: Option<Json<Value>>,
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
    pub adjourned_at: Option<DateTime<Utc>>,
}

impl Store {
    /// One page of a rating pool, best first (ties broken by player id so pages are stable).
    pub async fn leaderboard(
        &self,
        game: &str,
        format: &str,
        limit: i64,
        offset: i64,
    ) -> StoreResult<Vec<LeaderboardRow>> {
        const SQL: &str = "SELECT r.player_id, p.name, r.rating, r.deviation, r.matches, r.wins \
             FROM rating r JOIN player p ON p.player_id = r.player_id \
             WHERE r.game = $1 AND r.format = $2 ORDER BY r.rating DESC, r.player_id LIMIT $3 OFFSET $4";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, LeaderboardRow>(SQL)
            .bind(game).bind(format).bind(limit).bind(offset).fetch_all(pool).await)?)
    }

    pub async fn player(&self, player_id: &PlayerId) -> StoreResult<Option<PlayerRow>> {
        const SQL: &str = "SELECT player_id, name, created_at FROM player WHERE player_id = $1";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, PlayerRow>(SQL)
            .bind(player_id).fetch_optional(pool).await)?)
    }

    pub async fn ratings_of(&self, player_id: &PlayerId) -> StoreResult<Vec<MatchRatingRow>> {
        const SQL: &str = "SELECT game, format, rating, deviation, matches, wins FROM rating \
             WHERE player_id = $1 ORDER BY game, format";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, MatchRatingRow>(SQL)
            .bind(player_id).fetch_all(pool).await)?)
    }

    /// A player's matches, newest first, with the rating change of rated ones.
    pub async fn matches_of(
        &self,
        player_id: &PlayerId,
        limit: i64,
        offset: i64,
    ) -> StoreResult<Vec<PlayerMatchRow>> {
        const SQL: &str = "SELECT m.match_id, m.game, m.status, s.seat, m.created_at, m.finished_at, m.result, \
             mr.rating_before, mr.rating_after, a.adjourned_at \
             FROM match_seat s JOIN \"match\" m ON m.match_id = s.match_id \
             LEFT JOIN match_rating mr ON mr.match_id = s.match_id AND mr.seat = s.seat \
             LEFT JOIN match_adjourned a ON a.match_id = s.match_id \
             WHERE s.player_id = $1 ORDER BY m.created_at DESC, m.match_id DESC LIMIT $2 OFFSET $3";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, PlayerMatchRow>(SQL)
            .bind(player_id).bind(limit).bind(offset).fetch_all(pool).await)?)
    }
}

/// A player's career figures in one game, read from the game's career view
/// ([`GameExtras::CAREER`](crate::rules::GameExtras::CAREER)), so the profile and an
/// operator's SQL always agree. Casts pin the column types, which the views leave to each
/// backend (PostgreSQL's `round` gives `numeric`, SQLite's `sum` may give a float); a figure
/// the game's view lacks reads as `NULL`.
#[derive(Clone, Debug, Default, sqlx::FromRow)]
pub struct CareerRow {
    pub matches: i64,
    pub runs: i64,
    pub wickets: i64,
    pub balls_faced: Option<i64>,
    pub fours: Option<i64>,
    pub sixes: Option<i64>,
    pub dismissals: Option<i64>,
    pub runs_conceded: Option<i64>,
    pub balls_bowled: Option<i64>,
    pub strike_rate: Option<f64>,
    pub economy: Option<f64>,
    pub wins: Option<i64>,
    pub points: Option<i64>,
    pub average_points: Option<f64>,
}

/// One player's row of a career view, every [`CareerRow`] column cast to its type. The
/// same text runs on both backends: the views have the same names and columns on each.
fn career_sql(career: &CareerView) -> String {
    let mut columns = ["matches", "runs", "wickets"]
        .map(|column| format!("CAST({column} AS BIGINT) AS {column}"))
        .to_vec();
    for figure in CareerFigure::ALL {
        let column = figure.column();
        let source = if career.figures.contains(&figure) {
            column
        } else {
            "NULL"
        };
        let kind = if figure.is_ratio() {
            "DOUBLE PRECISION"
        } else {
            "BIGINT"
        };
        columns.push(format!("CAST({source} AS {kind}) AS {column}"));
    }
    format!(
        "SELECT {} FROM {} WHERE player_id = $1",
        columns.join(", "),
        career.view
    )
}

impl Store {
    /// A player's career in each of `careers` (a game's id and its career view) it has
    /// finished a match of, as `(game, figures)` in the order given.
    pub async fn careers_of(
        &self,
        player_id: &PlayerId,
        careers: impl IntoIterator<Item = (&'static str, CareerView)>,
    ) -> StoreResult<Vec<(&'static str, CareerRow)>> {
        let mut found = Vec::new();
        for (game, career) in careers {
            // The view's name is the game's own constant, never a client's text.
            let sql = sqlx::AssertSqlSafe(career_sql(&career));
            let row = with_pool!(self, pool => sqlx::query_as::<_, CareerRow>(sql)
                .bind(player_id).fetch_optional(pool).await)?;
            found.extend(row.filter(|row| row.matches > 0).map(|row| (game, row)));
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The three built-in games' career queries, as they were written by hand before each
    /// game named its own view: the generated text is the same query.
    #[test]
    fn career_sql_reads_every_column_the_view_has_and_null_for_the_rest() {
        let cricket = career_sql(&CareerView {
            view: "ctg_player_career",
            figures: CareerFigure::CRICKET,
        });
        assert_eq!(
            cricket,
            "SELECT CAST(matches AS BIGINT) AS matches, CAST(runs AS BIGINT) AS runs, \
             CAST(wickets AS BIGINT) AS wickets, CAST(balls_faced AS BIGINT) AS balls_faced, \
             CAST(fours AS BIGINT) AS fours, CAST(sixes AS BIGINT) AS sixes, \
             CAST(dismissals AS BIGINT) AS dismissals, CAST(runs_conceded AS BIGINT) AS runs_conceded, \
             CAST(balls_bowled AS BIGINT) AS balls_bowled, \
             CAST(strike_rate AS DOUBLE PRECISION) AS strike_rate, CAST(economy AS DOUBLE PRECISION) AS economy, \
             CAST(NULL AS BIGINT) AS wins, CAST(NULL AS BIGINT) AS points, \
             CAST(NULL AS DOUBLE PRECISION) AS average_points \
             FROM ctg_player_career WHERE player_id = $1"
        );
        let champions = career_sql(&CareerView {
            view: "champions_player_career",
            figures: &[
                CareerFigure::Wins,
                CareerFigure::Points,
                CareerFigure::AveragePoints,
            ],
        });
        assert_eq!(
            champions,
            "SELECT CAST(matches AS BIGINT) AS matches, CAST(runs AS BIGINT) AS runs, \
             CAST(wickets AS BIGINT) AS wickets, CAST(NULL AS BIGINT) AS balls_faced, CAST(NULL AS BIGINT) AS fours, \
             CAST(NULL AS BIGINT) AS sixes, CAST(NULL AS BIGINT) AS dismissals, CAST(NULL AS BIGINT) AS runs_conceded, \
             CAST(NULL AS BIGINT) AS balls_bowled, CAST(NULL AS DOUBLE PRECISION) AS strike_rate, \
             CAST(NULL AS DOUBLE PRECISION) AS economy, CAST(wins AS BIGINT) AS wins, CAST(points AS BIGINT) AS points, \
             CAST(average_points AS DOUBLE PRECISION) AS average_points \
             FROM champions_player_career WHERE player_id = $1"
        );
    }
}
