//! The event log and lobby tables, on SQLite or PostgreSQL chosen at run time from
//! `DATABASE_URL`.
//!
//! Both backends run the same SQL text (`$1` placeholders work on both), written once and
//! compiled against both drivers by one mechanism (`backend.rs`: `with_pool!`,
//! `on_each_connection!` and the `Dialect` fragments); the migrations differ in their column
//! types (`migrations/sqlite`, `migrations/postgres`). Every query the server makes lives
//! under this module. The values the rows share with the wire and the log are
//! [`crate::record`]'s.
//!
//! `match_event` is append-only: [`Store::append`] writes a batch of entries (and, when the
//! batch ends the match, the result) in one transaction, so a command is never half-logged.

#[macro_use]
mod backend;
mod competitions;
mod ratings;
mod rows;
mod writes;

pub use competitions::{CompetitionRow, EntryRow, FixtureResult, FixtureRow, StandingsRow};
pub use rows::{MatchRow, SeatRow};

use crate::record::{EntryKind, Finish, LogEntry, MatchId, MatchStatus, NewEntry, PlayerId};
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};
use sqlx::types::Json;
use std::str::FromStr;
use std::time::Duration;
use writes::MatchWrites;

/// A database failure. The message never contains bound values (tokens are hashed first anyway).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("unsupported DATABASE_URL (use sqlite://... or postgres://...): {0}")]
    UnsupportedUrl(String),
    /// The database did not answer in time, or the connection to it failed or closed: the
    /// caller may try again later. A write that fails like this may still have committed.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("database error: {0}")]
    Database(sqlx::Error),
    #[error("migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    #[error("stored data is malformed: {0}")]
    Malformed(String),
    /// The writer's lease on the match has passed to another node (a higher epoch): nothing
    /// was written, and this node must stop running the match.
    #[error("the match is owned by another node now: {0}")]
    Fenced(String),
    #[error("{0}")]
    Unsupported(&'static str),
}

pub type StoreResult<T> = Result<T, StoreError>;

impl StoreError {
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Unavailable(_))
    }

    pub fn is_fenced(&self) -> bool {
        matches!(self, StoreError::Fenced(_))
    }
}

/// Sorts sqlx's errors at the boundary: a pool that timed out or closed, a broken connection
/// and a server shutting down or busy are outages (`Unavailable`); a stored value that does
/// not decode (say a status no [`MatchStatus`] variant spells) is `Malformed`, with sqlx's
/// message naming the column and the value; the rest are bugs or data.
impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        if is_outage(&error) {
            StoreError::Unavailable(error.to_string())
        } else if matches!(error, sqlx::Error::ColumnDecode { .. }) {
            StoreError::Malformed(error.to_string())
        } else {
            StoreError::Database(error)
        }
    }
}

fn is_outage(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::BeginFailed => true,
        sqlx::Error::Database(database) => {
            let code = database.code().unwrap_or_default();
            if database
                .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
                .is_some()
            {
                // 08: connection exception; 57P01-57P03: the server is shutting down or
                // starting; 53: out of resources (too many connections, disk full); 25006:
                // the server is read-only, as a standby is for a moment during a failover
                // (a pooled connection or a proxy can reach it before it is promoted, or
                // after it was demoted): nothing was written, and a retry goes to the primary.
                code.starts_with("08") || code.starts_with("57P") || code.starts_with("53") || code == "25006"
            } else {
                // SQLite's primary codes SQLITE_BUSY (5) and SQLITE_LOCKED (6), extended or not.
                code.parse::<i32>().is_ok_and(|code| matches!(code & 0xff, 5 | 6))
            }
        }
        _ => false,
    }
}

/// A connection pool to one of the two supported databases.
#[derive(Clone, Debug)]
pub enum Store {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

mod accounts;
mod history;
mod moderation;
mod quotas;
mod tickets;

pub use accounts::{AccountRow, ClaimRefused, LoginRow, SessionRow};
pub use history::{CareerRow, LeaderboardRow, MatchRatingRow, PlayerMatchRow, PlayerRow};
pub use moderation::{AuditRow, ModeratedRow, NameRefused, NewAudit, name_key};
pub use tickets::{PairedMatch, TicketRow, WaitingTicket};

mod cluster;
pub use cluster::{Fence, Lease, NodeRecord, NodeStatus};

mod journal;
use journal::CheckFences;
pub use journal::{GroupPolicy, Journal, Receipt, Unwritten};

mod settings;
pub use settings::{DbSettings, within};

const MATCH_COLUMNS: &str = "match_id, game, options, status, seat_count, turn_clock_ms, disconnect_grace_ms, \
     seed_commitment, seed, created_at, started_at, finished_at, result, adjourned_at, resume_at";

/// A match row with its adjournment, if it stands adjourned (the `match_adjourned` view).
const MATCH_FROM: &str = "\"match\" LEFT JOIN match_adjourned USING (match_id)";

/// Every PostgreSQL connection's options: `url`, and the server ends a session that sits in
/// an open transaction past the transaction bound.
/// The file a `sqlite:` URL names (`None` for PostgreSQL and for in-memory databases): read
/// tools check it exists before connecting, since connecting creates it.
pub fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    if !url.starts_with("sqlite:") {
        return None;
    }
    let options = SqliteConnectOptions::from_str(url).ok()?;
    let path = options.get_filename();
    (path != std::path::Path::new(":memory:") && !path.as_os_str().is_empty()).then(|| path.to_path_buf())
}

/// `url` with any password replaced, for messages.
pub fn redacted_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_string(),
    }
}

fn pg_options(url: &str, settings: &DbSettings) -> StoreResult<sqlx::postgres::PgConnectOptions> {
    let idle = settings.transaction_timeout().as_millis().max(1).to_string();
    Ok(sqlx::postgres::PgConnectOptions::from_str(url)?
        .options([("idle_in_transaction_session_timeout", idle.as_str())]))
}

impl Store {
    /// Connects with the default [`DbSettings`] and runs the migrations.
    pub async fn connect(url: &str) -> StoreResult<Store> {
        Store::connect_with(url, &DbSettings::default()).await
    }

    /// Connects and runs the migrations. A SQLite file is created if missing. Acquiring a
    /// pooled connection waits at most `settings.db_timeout()` (sqlx's default is 30 s) and,
    /// on SQLite, a write waits for another writer's lock at most
    /// `settings.transaction_timeout()` (it was 10 s), so no request hangs on a database
    /// that is gone or locked.
    pub async fn connect_with(url: &str, settings: &DbSettings) -> StoreResult<Store> {
        let store = if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                // A write waits for another writer's lock as long as a transaction may take.
                .busy_timeout(settings.transaction_timeout())
                .foreign_keys(true);
            // A local file needs no liveness pings or connection recycling; leaving them out
            // also keeps acquiring a connection free of timers and round trips.
            let pool = SqlitePoolOptions::new()
                .max_connections(4)
                .acquire_timeout(settings.db_timeout())
                .test_before_acquire(false)
                .idle_timeout(None)
                .max_lifetime(None);
            Store::Sqlite(pool.connect_with(options).await?)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            // A session that sits in an open transaction past the transaction bound is ended
            // by the server: a process frozen mid-commit (SIGSTOP, a VM pause) must not hold
            // its row locks, and so a match's lease, for ever.
            let options = pg_options(url, settings)?;
            let pool = PgPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(settings.db_timeout());
            Store::Postgres(pool.connect_with(options).await?)
        } else {
            let scheme = url.split(':').next().unwrap_or_default().to_string();
            return Err(StoreError::UnsupportedUrl(scheme));
        };
        store.migrate().await?;
        Ok(store)
    }

    /// A second, small PostgreSQL pool on the same database for a cluster node's membership
    /// (heartbeats, lease reads, claims): they must never queue behind the journal's writes
    /// for a pooled connection, or a slow database would cost the node its leases. No
    /// migrations (the main pool ran them) and no ping before each use (a round trip that a
    /// slow link makes expensive: a dead connection fails its query and is replaced).
    pub async fn connect_membership(url: &str, settings: &DbSettings) -> StoreResult<Store> {
        if !(url.starts_with("postgres:") || url.starts_with("postgresql:")) {
            return Err(StoreError::Unsupported("cluster mode needs PostgreSQL"));
        }
        let options = pg_options(url, settings)?;
        let pool = PgPoolOptions::new()
            .max_connections(2)
            .min_connections(1)
            .test_before_acquire(false)
            .acquire_timeout(settings.db_timeout());
        Ok(Store::Postgres(pool.connect_with(options).await?))
    }

    async fn migrate(&self) -> StoreResult<()> {
        // A twin: the same tables in each backend's native column types (`TIMESTAMPTZ` and
        // `JSONB` on PostgreSQL, `TEXT` on SQLite) and JSON functions in the operator views,
        // so each has its own migrations.
        match self {
            Store::Sqlite(pool) => sqlx::migrate!("./migrations/sqlite").run(pool).await?,
            Store::Postgres(pool) => sqlx::migrate!("./migrations/postgres").run(pool).await?,
        }
        Ok(())
    }

    /// Creates the games' own operator views (`GameExtras::OPERATOR_VIEWS`) after the
    /// migrations. Each statement is idempotent, so this runs at every start; a game's views
    /// change with the game, not with a migration every other game shares.
    pub async fn install_operator_views(
        &self,
        views: impl IntoIterator<Item = crate::rules::OperatorViews>,
    ) -> StoreResult<()> {
        for views in views {
            match self {
                Store::Sqlite(pool) => {
                    for statement in views.sqlite {
                        sqlx::raw_sql(*statement).execute(pool).await?;
                    }
                }
                Store::Postgres(pool) => {
                    for statement in views.postgres {
                        sqlx::raw_sql(*statement).execute(pool).await?;
                    }
                }
            }
        }
        Ok(())
    }

    pub fn backend(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }

    /// Waits for in-flight queries and closes every connection (graceful shutdown).
    pub async fn close(&self) {
        with_pool!(self, pool => pool.close().await)
    }

    /// True when the database answers within `limit`; `/readyz` uses it.
    pub async fn ping(&self, limit: Duration) -> bool {
        let ping = async { with_pool!(self, pool => sqlx::query("SELECT 1").execute(pool).await.is_ok()) };
        settings::within(tokio::time::Instant::now() + limit, ping)
            .await
            .unwrap_or(false)
    }

    /// Copies a SQLite database, while the server runs, into the new file `out`: SQLite's
    /// `VACUUM INTO` reads one consistent snapshot (a read transaction: writers go on, in WAL
    /// mode, and nothing half-written is copied) and writes a compact database that opens
    /// like any other. PostgreSQL has its own tools (`pg_dump`, `pg_basebackup` with WAL
    /// archiving; docs/operators.md).
    pub async fn backup_to(&self, out: &std::path::Path) -> StoreResult<()> {
        let Store::Sqlite(pool) = self else {
            return Err(StoreError::Unsupported(
                "crease backup copies a SQLite database; back PostgreSQL up with pg_dump or pg_basebackup",
            ));
        };
        let out = out
            .to_str()
            .ok_or(StoreError::Unsupported("the backup's path is not valid UTF-8"))?;
        sqlx::query("VACUUM INTO ?").bind(out).execute(pool).await?;
        Ok(())
    }

    /// Runs operator SQL as-is (the tests use it to tamper with a log on purpose).
    pub async fn execute_unchecked(&self, sql: &str) -> StoreResult<u64> {
        let sql = sqlx::AssertSqlSafe(sql.to_string());
        Ok(with_pool!(self, pool => sqlx::raw_sql(sql).execute(pool).await?.rows_affected()))
    }

    /// Creates a guest player and its first session (the token it was given, which never
    /// expires while the account is unclaimed) in one transaction, unless another player
    /// holds the display name (case-insensitively: [`name_key`]).
    pub async fn insert_player(
        &self,
        player_id: &PlayerId,
        name: &str,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), NameRefused> {
        const PLAYER_SQL: &str = "INSERT INTO player (player_id, name, name_key, token_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5)";
        let key = name_key(name);
        with_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(StoreError::from)?;
            let inserted = sqlx::query(PLAYER_SQL)
                .bind(player_id).bind(name).bind(&key).bind(token_hash).bind(now)
                .execute(&mut *tx).await;
            match inserted {
                Ok(_) => {}
                // The id is a fresh UUID and the token hash a fresh 256-bit token's: the
                // unique key a new player breaks is its name's.
                Err(sqlx::Error::Database(error)) if error.is_unique_violation() => {
                    return Err(NameRefused::Taken);
                }
                Err(error) => return Err(StoreError::from(error).into()),
            }
            sqlx::query(accounts::SESSION_SQL)
                .bind(token_hash).bind(player_id).bind(now).bind(None::<DateTime<Utc>>)
                .execute(&mut *tx).await.map_err(StoreError::from)?;
            tx.commit().await.map_err(StoreError::from)?;
        });
        Ok(())
    }

    /// Creates a match and its first seats in one transaction.
    pub async fn insert_match(&self, row: &MatchRow, seats: &[SeatRow]) -> StoreResult<()> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            (*tx).insert_match_rows(row, seats).await?;
            tx.commit().await?;
        });
        Ok(())
    }

    pub async fn insert_seat(&self, seat: &SeatRow) -> StoreResult<()> {
        with_pool!(self, pool => sqlx::query(writes::SEAT_SQL)
            .bind(&seat.match_id).bind(seat.seat).bind(&seat.player_id).bind(seat.bot).bind(&seat.bot_level)
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    pub async fn delete_seat(&self, match_id: &MatchId, seat: i32) -> StoreResult<()> {
        const SQL: &str = "DELETE FROM match_seat WHERE match_id = $1 AND seat = $2";
        with_pool!(self, pool => sqlx::query(SQL).bind(match_id).bind(seat).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Moves a match to `live` (stamping `started_at`) or `cancelled`.
    pub async fn set_status(
        &self,
        match_id: &MatchId,
        status: MatchStatus,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        const LIVE: &str = "UPDATE \"match\" SET status = $2, started_at = $3 WHERE match_id = $1";
        const OTHER: &str = "UPDATE \"match\" SET status = $2, finished_at = $3 WHERE match_id = $1";
        let sql = if status == MatchStatus::Live { LIVE } else { OTHER };
        with_pool!(self, pool => sqlx::query(sql).bind(match_id).bind(status).bind(now)
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    pub async fn get_match(&self, match_id: &MatchId) -> StoreResult<Option<MatchRow>> {
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT {MATCH_COLUMNS} FROM {MATCH_FROM} WHERE match_id = $1"
        ));
        Ok(
            with_pool!(self, pool => sqlx::query_as::<_, MatchRow>(sql).bind(match_id)
            .fetch_optional(pool).await)?,
        )
    }

    /// Matches with the given status, oldest first (lobby listing and recovery).
    pub async fn matches_with_status(&self, status: MatchStatus, limit: i64) -> StoreResult<Vec<MatchRow>> {
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT {MATCH_COLUMNS} FROM {MATCH_FROM} WHERE status = $1 ORDER BY created_at, match_id LIMIT $2"
        ));
        Ok(
            with_pool!(self, pool => sqlx::query_as::<_, MatchRow>(sql).bind(status).bind(limit)
            .fetch_all(pool).await)?,
        )
    }

    pub async fn seats(&self, match_id: &MatchId) -> StoreResult<Vec<SeatRow>> {
        const SQL: &str = "SELECT match_id, seat, player_id, bot, bot_level FROM match_seat WHERE match_id = $1 ORDER BY seat";
        Ok(
            with_pool!(self, pool => sqlx::query_as::<_, SeatRow>(SQL).bind(match_id)
            .fetch_all(pool).await)?,
        )
    }

    /// Seats with their players' names, for match listings.
    pub async fn seats_with_names(
        &self,
        match_id: &MatchId,
    ) -> StoreResult<Vec<(i32, Option<String>, Option<String>, bool)>> {
        const SQL: &str = "SELECT s.seat, s.player_id, p.name, s.bot FROM match_seat s \
             LEFT JOIN player p ON p.player_id = s.player_id WHERE s.match_id = $1 ORDER BY s.seat";
        Ok(
            with_pool!(self, pool => sqlx::query_as::<_, (i32, Option<String>, Option<String>, bool)>(SQL)
            .bind(match_id).fetch_all(pool).await)?,
        )
    }

    /// Appends log entries in one transaction and, if `result` is given, finishes the match in
    /// the same transaction. Fails (writing nothing) if any seq is already taken, which is what
    /// keeps a second writer from forking a log, or if `fence` is given and the match's lease
    /// has moved past it ([`StoreError::Fenced`]), which keeps an old owner from writing.
    pub async fn append(
        &self,
        match_id: &MatchId,
        entries: &[NewEntry],
        finish: Option<&Finish>,
        now: DateTime<Utc>,
        fence: Option<Fence>,
    ) -> StoreResult<()> {
        const EVENT_SQL: &str =
            "INSERT INTO match_event (match_id, seq, at, kind, payload) VALUES ($1, $2, $3, $4, $5)";
        let fences: Vec<(&MatchId, Fence)> = fence.map(|fence| (match_id, fence)).into_iter().collect();
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            tx.check_fences(&fences).await?;
            for entry in entries {
                sqlx::query(EVENT_SQL)
                    .bind(match_id).bind(entry.seq).bind(now).bind(entry.kind)
                    .bind(Json(&entry.payload))
                    .execute(&mut *tx).await?;
            }
            if let Some(finish) = finish {
                (*tx).finish_match(match_id, finish, now).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// The whole log of a match in seq order.
    pub async fn log(&self, match_id: &MatchId) -> StoreResult<Vec<LogEntry>> {
        const SQL: &str = "SELECT seq, at, kind, payload FROM match_event WHERE match_id = $1 ORDER BY seq";
        let rows = with_pool!(self, pool => sqlx::query_as::<_, (i64, DateTime<Utc>, EntryKind, Json<Value>)>(SQL)
            .bind(match_id).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(log_entry).collect())
    }

    /// A match's adjournment entries in seq order (public to anyone who may watch it, and
    /// read through their own index, not the whole log).
    pub async fn adjournment_log(&self, match_id: &MatchId) -> StoreResult<Vec<LogEntry>> {
        const SQL: &str = "SELECT seq, at, kind, payload FROM match_event \
             WHERE match_id = $1 AND kind = 'adjournment' ORDER BY seq";
        let rows = with_pool!(self, pool => sqlx::query_as::<_, (i64, DateTime<Utc>, EntryKind, Json<Value>)>(SQL)
            .bind(match_id).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(log_entry).collect())
    }

    /// The entries of a match's log after seq `after`: how an actor whose write failed
    /// learns whether that write landed after all.
    pub async fn log_after(&self, match_id: &MatchId, after: i64) -> StoreResult<Vec<LogEntry>> {
        const SQL: &str =
            "SELECT seq, at, kind, payload FROM match_event WHERE match_id = $1 AND seq > $2 ORDER BY seq";
        let rows = with_pool!(self, pool => sqlx::query_as::<_, (i64, DateTime<Utc>, EntryKind, Json<Value>)>(SQL)
            .bind(match_id).bind(after).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(log_entry).collect())
    }
}

fn log_entry((seq, at, kind, Json(payload)): (i64, DateTime<Utc>, EntryKind, Json<Value>)) -> LogEntry {
    LogEntry {
        seq,
        at,
        kind,
        payload,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Connection;

    #[test]
    fn pool_and_connection_failures_are_outages_the_rest_is_not() {
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        for outage in [
            sqlx::Error::PoolTimedOut,
            sqlx::Error::PoolClosed,
            sqlx::Error::Io(refused),
        ] {
            assert!(StoreError::from(outage).is_unavailable());
        }
        assert!(!StoreError::from(sqlx::Error::RowNotFound).is_unavailable());
    }

    /// SQLite's "database is locked" (SQLITE_BUSY) is an outage; a taken seq is not.
    #[tokio::test]
    async fn a_busy_sqlite_database_is_unavailable_and_a_duplicate_is_not() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("busy.db").display());
        let _store = Store::connect(&url).await.expect("connect");
        let options = SqliteConnectOptions::from_str(&url)
            .expect("url")
            .busy_timeout(Duration::ZERO);
        let mut holder = sqlx::SqliteConnection::connect_with(&options)
            .await
            .expect("connect");
        let mut other = sqlx::SqliteConnection::connect_with(&options)
            .await
            .expect("connect");
        sqlx::raw_sql("BEGIN EXCLUSIVE")
            .execute(&mut holder)
            .await
            .expect("lock");
        let busy = sqlx::raw_sql("BEGIN EXCLUSIVE")
            .execute(&mut other)
            .await
            .expect_err("locked");
        assert!(StoreError::from(busy).is_unavailable());
        sqlx::raw_sql("COMMIT")
            .execute(&mut holder)
            .await
            .expect("unlock");
        let sql = "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1)";
        sqlx::raw_sql(sql).execute(&mut other).await.expect("insert");
        let duplicate = sqlx::raw_sql("INSERT INTO t VALUES (1)")
            .execute(&mut other)
            .await
            .expect_err("taken");
        assert!(!StoreError::from(duplicate).is_unavailable());
    }

    /// A write on a read-only PostgreSQL (a standby during a failover) is an outage, not a
    /// bug: the client hears `unavailable` and tries again. Needs TEST_DATABASE_URL.
    #[tokio::test]
    async fn a_write_on_a_read_only_postgres_is_unavailable() {
        let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
            eprintln!("skipped: TEST_DATABASE_URL is not set");
            return;
        };
        let mut connection = sqlx::PgConnection::connect(&url).await.expect("connect");
        sqlx::raw_sql("SET default_transaction_read_only = on")
            .execute(&mut connection)
            .await
            .expect("read-only");
        let refused = sqlx::raw_sql("CREATE TABLE read_only_probe (id INT)")
            .execute(&mut connection)
            .await
            .expect_err("a read-only session writes nothing");
        assert!(StoreError::from(refused).is_unavailable());
        let missing = sqlx::raw_sql("SELECT * FROM no_such_table_here")
            .execute(&mut connection)
            .await
            .expect_err("no such table");
        assert!(!StoreError::from(missing).is_unavailable());
    }
}
