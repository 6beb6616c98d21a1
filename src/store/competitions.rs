//! Competitions' tables (`migrations/*/0011_competitions.sql`): a competition, its entries,
//! its fixtures and their results. The decisions (fixtures, seeding, the table) are
//! [`crate::competitions`]'; this is their SQL. Every state change that two requests (or two
//! nodes) could race on is one conditional `UPDATE`, so exactly one of them wins.

use super::{Store, StoreResult};
use crate::record::{MatchId, PlayerId};
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct CompetitionRow {
    pub competition_id: String,
    pub name: String,
    pub game: String,
    pub options: Json<Value>,
    /// `league` or `knockout`.
    pub format: String,
    pub double_round: bool,
    /// Each round's deadline after it opens, in hours; `None`: no clock.
    pub round_hours: Option<i32>,
    /// `open`, `running` or `finished`.
    pub status: String,
    pub created_by: PlayerId,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// One entry, with its player's display name.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct EntryRow {
    pub entry: i32,
    pub player_id: Option<PlayerId>,
    pub name: Option<String>,
    /// A bot entry's level (`easy`, `normal`, `hard`); `None` for a player.
    pub bot_level: Option<String>,
    pub seed: Option<i32>,
    pub rating: Option<f64>,
}

#[derive(Clone, Debug, Default, sqlx::FromRow)]
pub struct FixtureRow {
    pub fixture: i32,
    pub round: i32,
    pub slot: i32,
    pub home_entry: Option<i32>,
    pub away_entry: Option<i32>,
    pub home_ready: bool,
    pub away_ready: bool,
    pub match_id: Option<MatchId>,
    /// `waiting`, `starting` (its match is being made), `live`, `finished` or `bye`.
    pub status: String,
    /// `home`, `away`, `tie` or `no_result`, once finished.
    pub outcome: Option<String>,
    pub winner_entry: Option<i32>,
    pub home_runs: Option<i32>,
    pub home_balls: Option<i32>,
    pub away_runs: Option<i32>,
    pub away_balls: Option<i32>,
    pub summary: Option<String>,
}

/// What a finished fixture records.
#[derive(Clone, Debug, Default)]
pub struct FixtureResult {
    pub outcome: String,
    pub winner_entry: Option<i32>,
    pub home_runs: Option<i32>,
    pub home_balls: Option<i32>,
    pub away_runs: Option<i32>,
    pub away_balls: Option<i32>,
    pub summary: Option<String>,
}

/// A league's row as the `competition_standings` view computes it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct StandingsRow {
    pub entry: i32,
    pub played: i64,
    pub won: i64,
    pub lost: i64,
    pub tied: i64,
    pub no_result: i64,
    pub points: i64,
    pub runs_for: i64,
    pub balls_faced: i64,
    pub runs_against: i64,
    pub balls_bowled: i64,
}

const COMPETITION_COLUMNS: &str = "competition_id, name, game, options, format, double_round, round_hours, status, \
     created_by, created_at, started_at, finished_at";
const FIXTURE_COLUMNS: &str = "fixture, round, slot, home_entry, away_entry, home_ready, away_ready, match_id, \
     status, outcome, winner_entry, home_runs, home_balls, away_runs, away_balls, summary";

impl Store {
    /// Creates a competition with its creator as the first entry, in one transaction.
    pub async fn insert_competition(&self, row: &CompetitionRow) -> StoreResult<()> {
        const SQL: &str = "INSERT INTO competition (competition_id, name, game, options, format, double_round, \
             round_hours, status, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
        const ENTRY_SQL: &str =
            "INSERT INTO competition_entry (competition_id, entry, player_id) VALUES ($1, 0, $2)";
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(SQL)
                .bind(&row.competition_id).bind(&row.name).bind(&row.game).bind(&row.options)
                .bind(&row.format).bind(row.double_round).bind(row.round_hours).bind(&row.status).bind(&row.created_by)
                .bind(row.created_at)
                .execute(&mut *tx).await?;
            sqlx::query(ENTRY_SQL).bind(&row.competition_id).bind(&row.created_by)
                .execute(&mut *tx).await?;
            tx.commit().await?;
        });
        Ok(())
    }

    pub async fn competition(&self, competition_id: &str) -> StoreResult<Option<CompetitionRow>> {
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT {COMPETITION_COLUMNS} FROM competition WHERE competition_id = $1"
        ));
        Ok(with_pool!(self, pool => sqlx::query_as::<_, CompetitionRow>(sql)
            .bind(competition_id).fetch_optional(pool).await)?)
    }

    /// Competitions newest first, of one status or all.
    pub async fn competitions(&self, status: Option<&str>, limit: i64) -> StoreResult<Vec<CompetitionRow>> {
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT {COMPETITION_COLUMNS} FROM competition WHERE ($1 IS NULL OR status = $1) \
             ORDER BY created_at DESC, competition_id LIMIT $2"
        ));
        Ok(with_pool!(self, pool => sqlx::query_as::<_, CompetitionRow>(sql)
            .bind(status).bind(limit).fetch_all(pool).await)?)
    }

    pub async fn competition_entries(&self, competition_id: &str) -> StoreResult<Vec<EntryRow>> {
        const SQL: &str = "SELECT e.entry, e.player_id, p.name, e.bot_level, e.seed, e.rating \
             FROM competition_entry e LEFT JOIN player p ON p.player_id = e.player_id \
             WHERE e.competition_id = $1 ORDER BY e.entry";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, EntryRow>(SQL)
            .bind(competition_id).fetch_all(pool).await)?)
    }

    /// Adds an entry after the last, while the competition is open. `Ok(false)`: it is not
    /// open. A player already entered breaks the unique key (the caller's `already_entered`).
    pub async fn add_competition_entry(
        &self,
        competition_id: &str,
        player_id: Option<&PlayerId>,
        bot_level: Option<&str>,
    ) -> StoreResult<bool> {
        const SQL: &str = "INSERT INTO competition_entry (competition_id, entry, player_id, bot_level) \
             SELECT $1, COALESCE((SELECT max(entry) + 1 FROM competition_entry WHERE competition_id = $1), 0), $2, $3 \
             WHERE EXISTS (SELECT 1 FROM competition WHERE competition_id = $1 AND status = 'open')";
        let inserted = with_pool!(self, pool => sqlx::query(SQL)
            .bind(competition_id).bind(player_id).bind(bot_level).execute(pool).await.map(|done| done.rows_affected()))?;
        Ok(inserted == 1)
    }

    /// Takes a player's entry out while the competition is open; `Ok(false)` if nothing was.
    pub async fn remove_competition_entry(
        &self,
        competition_id: &str,
        player_id: &PlayerId,
    ) -> StoreResult<bool> {
        const SQL: &str = "DELETE FROM competition_entry WHERE competition_id = $1 AND player_id = $2 \
             AND EXISTS (SELECT 1 FROM competition WHERE competition_id = $1 AND status = 'open')";
        let deleted = with_pool!(self, pool => sqlx::query(SQL)
            .bind(competition_id).bind(player_id).execute(pool).await.map(|done| done.rows_affected()))?;
        Ok(deleted == 1)
    }

    /// Starts an open competition: seeds its entries and writes its fixtures, in one
    /// transaction. `Ok(false)` if it was no longer open (another start won).
    pub async fn start_competition(
        &self,
        competition_id: &str,
        seeds: &[(i32, i32, f64)],
        fixtures: &[FixtureRow],
        now: DateTime<Utc>,
    ) -> StoreResult<bool> {
        const START_SQL: &str = "UPDATE competition SET status = 'running', started_at = $2 \
             WHERE competition_id = $1 AND status = 'open'";
        const SEED_SQL: &str =
            "UPDATE competition_entry SET seed = $3, rating = $4 WHERE competition_id = $1 AND entry = $2";
        const FIXTURE_SQL: &str = "INSERT INTO competition_fixture (competition_id, fixture, round, slot, home_entry, \
             away_entry, status, outcome, winner_entry, summary) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let started = sqlx::query(START_SQL).bind(competition_id).bind(now).execute(&mut *tx).await?;
            if started.rows_affected() != 1 {
                return Ok(false);
            }
            for (entry, seed, rating) in seeds {
                sqlx::query(SEED_SQL).bind(competition_id).bind(entry).bind(seed).bind(rating)
                    .execute(&mut *tx).await?;
            }
            for fixture in fixtures {
                sqlx::query(FIXTURE_SQL)
                    .bind(competition_id).bind(fixture.fixture).bind(fixture.round).bind(fixture.slot)
                    .bind(fixture.home_entry).bind(fixture.away_entry).bind(&fixture.status)
                    .bind(&fixture.outcome).bind(fixture.winner_entry).bind(&fixture.summary)
                    .execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(true)
    }

    pub async fn competition_fixtures(&self, competition_id: &str) -> StoreResult<Vec<FixtureRow>> {
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT {FIXTURE_COLUMNS} FROM competition_fixture WHERE competition_id = $1 ORDER BY round, slot"
        ));
        Ok(with_pool!(self, pool => sqlx::query_as::<_, FixtureRow>(sql)
            .bind(competition_id).fetch_all(pool).await)?)
    }

    /// Marks one side of a waiting fixture ready (`home`: which side).
    pub async fn set_fixture_ready(&self, competition_id: &str, fixture: i32, home: bool) -> StoreResult<()> {
        const HOME: &str = "UPDATE competition_fixture SET home_ready = true \
             WHERE competition_id = $1 AND fixture = $2 AND status = 'waiting'";
        const AWAY: &str = "UPDATE competition_fixture SET away_ready = true \
             WHERE competition_id = $1 AND fixture = $2 AND status = 'waiting'";
        let sql = if home { HOME } else { AWAY };
        with_pool!(self, pool => sqlx::query(sql).bind(competition_id).bind(fixture).execute(pool).await.map(|done| done.rows_affected()))?;
        Ok(())
    }

    /// Claims a waiting fixture whose two sides are known, to make its match: `Ok(true)` for
    /// exactly one caller.
    pub async fn claim_fixture(&self, competition_id: &str, fixture: i32) -> StoreResult<bool> {
        const SQL: &str = "UPDATE competition_fixture SET status = 'starting' \
             WHERE competition_id = $1 AND fixture = $2 AND status = 'waiting' \
               AND home_entry IS NOT NULL AND away_entry IS NOT NULL";
        let claimed = with_pool!(self, pool => sqlx::query(SQL).bind(competition_id).bind(fixture).execute(pool).await.map(|done| done.rows_affected()))?;
        Ok(claimed == 1)
    }

    /// The claimed fixture's match is made (`Some`): it is live. `None`: making it failed,
    /// the fixture waits again.
    pub async fn fixture_started(
        &self,
        competition_id: &str,
        fixture: i32,
        match_id: Option<&MatchId>,
    ) -> StoreResult<()> {
        const LIVE: &str = "UPDATE competition_fixture SET status = 'live', match_id = $3 \
             WHERE competition_id = $1 AND fixture = $2 AND status = 'starting'";
        const BACK: &str = "UPDATE competition_fixture SET status = 'waiting' \
             WHERE competition_id = $1 AND fixture = $2 AND status = 'starting'";
        match match_id {
            Some(match_id) => with_pool!(self, pool => sqlx::query(LIVE)
                .bind(competition_id).bind(fixture).bind(match_id).execute(pool).await.map(|done| done.rows_affected()))?,
            None => with_pool!(self, pool => sqlx::query(BACK)
                .bind(competition_id).bind(fixture).execute(pool).await.map(|done| done.rows_affected()))?,
        };
        Ok(())
    }

    /// Records a live fixture's result; `Ok(false)` if another caller already had.
    pub async fn finish_fixture(
        &self,
        competition_id: &str,
        fixture: i32,
        result: &FixtureResult,
    ) -> StoreResult<bool> {
        const SQL: &str = "UPDATE competition_fixture SET status = 'finished', outcome = $3, winner_entry = $4, \
             home_runs = $5, home_balls = $6, away_runs = $7, away_balls = $8, summary = $9 \
             WHERE competition_id = $1 AND fixture = $2 AND status = 'live'";
        let done = with_pool!(self, pool => sqlx::query(SQL)
            .bind(competition_id).bind(fixture).bind(&result.outcome).bind(result.winner_entry)
            .bind(result.home_runs).bind(result.home_balls).bind(result.away_runs).bind(result.away_balls)
            .bind(&result.summary)
            .execute(pool).await.map(|done| done.rows_affected()))?;
        Ok(done == 1)
    }

    /// Decides a fixture nobody played by its round's deadline (a walkover, or no result);
    /// `Ok(false)` if it was no longer waiting (its match was being made, or it was decided).
    pub async fn walk_over(
        &self,
        competition_id: &str,
        fixture: i32,
        result: &FixtureResult,
    ) -> StoreResult<bool> {
        const SQL: &str = "UPDATE competition_fixture SET status = 'finished', outcome = $3, winner_entry = $4, \
             summary = $5 WHERE competition_id = $1 AND fixture = $2 AND status = 'waiting'";
        let done = with_pool!(self, pool => sqlx::query(SQL)
            .bind(competition_id).bind(fixture).bind(&result.outcome).bind(result.winner_entry).bind(&result.summary)
            .execute(pool).await.map(|done| done.rows_affected()))?;
        Ok(done == 1)
    }

    /// Puts a knockout winner into its next fixture (`home`: which side), once.
    pub async fn set_fixture_side(
        &self,
        competition_id: &str,
        fixture: i32,
        home: bool,
        entry: i32,
    ) -> StoreResult<()> {
        const HOME: &str = "UPDATE competition_fixture SET home_entry = $3 \
             WHERE competition_id = $1 AND fixture = $2 AND home_entry IS NULL";
        const AWAY: &str = "UPDATE competition_fixture SET away_entry = $3 \
             WHERE competition_id = $1 AND fixture = $2 AND away_entry IS NULL";
        let sql = if home { HOME } else { AWAY };
        with_pool!(self, pool => sqlx::query(sql).bind(competition_id).bind(fixture).bind(entry).execute(pool).await.map(|done| done.rows_affected()))?;
        Ok(())
    }

    /// Ends a running competition; `Ok(false)` if it was not running.
    pub async fn finish_competition(&self, competition_id: &str, now: DateTime<Utc>) -> StoreResult<bool> {
        const SQL: &str = "UPDATE competition SET status = 'finished', finished_at = $2 \
             WHERE competition_id = $1 AND status = 'running'";
        let done = with_pool!(self, pool => sqlx::query(SQL).bind(competition_id).bind(now).execute(pool).await.map(|done| done.rows_affected()))?;
        Ok(done == 1)
    }

    /// The competition a match was played for, if any.
    pub async fn competition_of_match(&self, match_id: &MatchId) -> StoreResult<Option<String>> {
        const SQL: &str = "SELECT competition_id FROM competition_fixture WHERE match_id = $1";
        Ok(with_pool!(self, pool => sqlx::query_scalar::<_, String>(SQL)
            .bind(match_id).fetch_optional(pool).await)?)
    }

    /// The `competition_standings` view's rows of one competition, by entry.
    pub async fn competition_standings(&self, competition_id: &str) -> StoreResult<Vec<StandingsRow>> {
        const SQL: &str = "SELECT entry, CAST(played AS BIGINT) AS played, CAST(won AS BIGINT) AS won, \
             CAST(lost AS BIGINT) AS lost, CAST(tied AS BIGINT) AS tied, CAST(no_result AS BIGINT) AS no_result, \
             CAST(points AS BIGINT) AS points, CAST(runs_for AS BIGINT) AS runs_for, \
             CAST(balls_faced AS BIGINT) AS balls_faced, CAST(runs_against AS BIGINT) AS runs_against, \
             CAST(balls_bowled AS BIGINT) AS balls_bowled \
             FROM competition_standings WHERE competition_id = $1 ORDER BY entry";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, StandingsRow>(SQL)
            .bind(competition_id).fetch_all(pool).await)?)
    }

    /// How many competitions there are of each status (for `/metrics`).
    pub async fn competition_counts(&self) -> StoreResult<Vec<(String, i64)>> {
        const SQL: &str = "SELECT status, count(*) FROM competition GROUP BY status";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, (String, i64)>(SQL).fetch_all(pool).await)?)
    }
}
