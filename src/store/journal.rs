//! Group commit: one writer task turns the appends of many match actors into one transaction.
//!
//! A commit costs a disk flush (SQLite WAL sync, Postgres WAL fsync) whatever it holds, so one
//! transaction per command caps the whole server at roughly one flush per command. The
//! [`Journal`] queues each actor's append with a oneshot reply; its writer takes whatever is
//! queued (waiting up to [`GroupPolicy::window`] for more once it has one, at most
//! [`GroupPolicy::max_appends`]), writes every row in a few multi-row `INSERT`s inside a single
//! transaction, commits, and only then answers each actor. So an actor still acks only after
//! its rows are durable: the reply *is* the commit.
//!
//! If the shared transaction fails (one actor's seq was already taken, say), each append of
//! that group is retried alone with [`Store::append`], so one bad append fails only itself.
//!
//! Every group's transaction is bounded ([`DbSettings::transaction_timeout`]): when the
//! database is gone the writer answers its appends `Unavailable` instead of hanging, and does
//! not retry them one by one (each would wait out the same outage). Such an append is *in
//! doubt*: its COMMIT may have been sent and may have landed, so the actor reads the log back
//! before it writes again (see `matches/actor.rs`).
//!
//! On Postgres several groups commit at once ([`GroupPolicy::writers`]): a commit mostly waits
//! for its WAL flush, and the next group can be written meanwhile. Appends of one match never
//! overlap (its actor waits for each), so their order is kept. SQLite has one writer at a time
//! anyway, so it gets one. Postgres rows go in as one `INSERT .. SELECT FROM UNNEST(..)` of
//! five arrays per group: one statement to parse however many rows the group has.

use super::cluster::{Fence, check_fences};
use super::writes::MatchWrites;
use super::{DbSettings, Store, StoreError, StoreResult, within};
use crate::record::{EntryKind, Finish, MatchId, NewEntry};
use chrono::{DateTime, Utc};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// Rows per `INSERT` statement: 5 bound values each stays far below both databases' limits.
const ROWS_PER_STATEMENT: usize = 200;
/// Appends queued before actors wait (back-pressure instead of memory growth).
const QUEUE: usize = 16_384;

/// How long the writer waits to fill a group, how big a group may get, and how many groups
/// may be committing at once.
#[derive(Debug, Clone, Copy)]
pub struct GroupPolicy {
    pub window: Duration,
    pub max_appends: usize,
    pub writers: usize,
}

impl Default for GroupPolicy {
    /// 1 ms adds at most a millisecond to a lone command and lets a busy server put hundreds
    /// of commands behind one flush. `CREASE_GROUP_COMMIT=off` turns grouping off (one
    /// transaction per append, the old behaviour), which is how the two are compared.
    fn default() -> Self {
        let off = std::env::var("CREASE_GROUP_COMMIT").is_ok_and(|value| value == "off");
        GroupPolicy {
            window: if off {
                Duration::ZERO
            } else {
                Duration::from_millis(1)
            },
            max_appends: if off { 1 } else { 512 },
            writers: 1,
        }
    }
}

impl GroupPolicy {
    /// The default for a store: concurrent groups only where the database commits them
    /// concurrently.
    pub fn for_store(store: &Store) -> GroupPolicy {
        let default = GroupPolicy::default();
        match store {
            Store::Postgres(_) if default.max_appends > 1 => GroupPolicy {
                writers: 4,
                ..default
            },
            _ => default,
        }
    }
}

/// One actor's append, waiting for its group's commit.
struct Append {
    match_id: MatchId,
    entries: Vec<NewEntry>,
    finish: Option<Finish>,
    at: DateTime<Utc>,
    /// The writer's lease epoch in cluster mode (checked in the group's transaction).
    fence: Option<Fence>,
    done: oneshot::Sender<Result<(), Unwritten>>,
}

/// A failed append, with its entries handed back: the actor compares them with the log to
/// learn whether the write landed after all (a failure after COMMIT was sent).
#[derive(Debug)]
pub struct Unwritten {
    pub error: StoreError,
    pub entries: Vec<NewEntry>,
}

impl Append {
    /// An append and the receipt its commit (or failure) will be reported on.
    fn new(
        match_id: &MatchId,
        entries: Vec<NewEntry>,
        finish: Option<Finish>,
        at: DateTime<Utc>,
        fence: Option<Fence>,
    ) -> (Append, Receipt) {
        let (done, committed) = oneshot::channel();
        let append = Append {
            match_id: match_id.clone(),
            entries,
            finish,
            at,
            fence,
            done,
        };
        (append, committed)
    }
}

/// The cloneable front of the writer task. The task ends when the last clone is dropped.
#[derive(Clone, Debug)]
pub struct Journal {
    sender: mpsc::Sender<Append>,
    settings: DbSettings,
}

/// The answer to one queued append: resolves once its group committed or failed. An actor
/// that stopped waiting keeps it, to learn later how the write ended.
pub type Receipt = oneshot::Receiver<Result<(), Unwritten>>;

impl Journal {
    /// Starts the writer task on the current tokio runtime, with the default [`DbSettings`].
    pub fn spawn(store: Store, policy: GroupPolicy) -> Journal {
        Journal::spawn_with(store, policy, DbSettings::default())
    }

    /// Starts the writer task; each group's transaction is bounded by `settings`.
    pub fn spawn_with(store: Store, policy: GroupPolicy, settings: DbSettings) -> Journal {
        let (sender, receiver) = mpsc::channel(QUEUE);
        tokio::spawn(write_groups(
            store,
            policy,
            settings.transaction_timeout(),
            receiver,
        ));
        Journal { sender, settings }
    }

    /// The time bounds the server was started with (the actors read theirs here).
    pub fn settings(&self) -> &DbSettings {
        &self.settings
    }

    /// Queues an append and returns its [`Receipt`] without waiting for the commit; waits for
    /// room in the queue only until `deadline` (then `Unavailable`: nothing was queued). Room
    /// is the common case and costs no timer. With a `fence`, the append commits only while
    /// the match's lease still has that epoch.
    pub async fn enqueue_by(
        &self,
        deadline: tokio::time::Instant,
        match_id: &MatchId,
        entries: Vec<NewEntry>,
        finish: Option<Finish>,
        at: DateTime<Utc>,
        fence: Option<Fence>,
    ) -> StoreResult<Receipt> {
        let (append, committed) = Append::new(match_id, entries, finish, at, fence);
        let append = match self.sender.try_send(append) {
            Ok(()) => return Ok(committed),
            Err(mpsc::error::TrySendError::Closed(_)) => return Err(writer_stopped()),
            Err(mpsc::error::TrySendError::Full(append)) => append,
        };
        match within(deadline, self.sender.send(append)).await {
            Some(Ok(())) => Ok(committed),
            Some(Err(_)) => Err(writer_stopped()),
            None => Err(StoreError::Unavailable("the journal queue stayed full".into())),
        }
    }

    /// Queues an append and returns its [`Receipt`] without waiting for the commit.
    pub async fn enqueue(
        &self,
        match_id: &MatchId,
        entries: Vec<NewEntry>,
        finish: Option<Finish>,
        at: DateTime<Utc>,
    ) -> StoreResult<Receipt> {
        let (append, committed) = Append::new(match_id, entries, finish, at, None);
        self.sender.send(append).await.map_err(|_| writer_stopped())?;
        Ok(committed)
    }

    /// Appends `entries` (and finishes the match with `result`) and resolves once the
    /// transaction holding them has committed, exactly like [`Store::append`].
    pub async fn append(
        &self,
        match_id: &MatchId,
        entries: Vec<NewEntry>,
        finish: Option<Finish>,
        at: DateTime<Utc>,
    ) -> StoreResult<()> {
        let committed = self.enqueue(match_id, entries, finish, at).await?;
        let committed = committed.await.map_err(|_| writer_stopped())?;
        committed.map_err(|unwritten| unwritten.error)
    }
}

fn writer_stopped() -> StoreError {
    StoreError::Malformed("the journal writer has stopped".into())
}

async fn write_groups(
    store: Store,
    policy: GroupPolicy,
    bound: Duration,
    mut receiver: mpsc::Receiver<Append>,
) {
    let mut group = Vec::with_capacity(policy.max_appends);
    let mut committing = tokio::task::JoinSet::new();
    while let Some(first) = receiver.recv().await {
        group.push(first);
        let deadline = tokio::time::Instant::now() + policy.window;
        while group.len() < policy.max_appends {
            match receiver.try_recv() {
                Ok(append) => group.push(append),
                Err(_) if policy.window.is_zero() => break,
                Err(_) => match tokio::time::timeout_at(deadline, receiver.recv()).await {
                    Ok(Some(append)) => group.push(append),
                    _ => break,
                },
            }
        }
        metrics::gauge!(crate::telemetry::JOURNAL_QUEUE).set(receiver.len() as f64);
        while committing.len() >= policy.writers.max(1) {
            committing.join_next().await;
        }
        let (store, group) = (store.clone(), std::mem::take(&mut group));
        committing.spawn(async move { commit_group(&store, group, bound).await });
    }
    while committing.join_next().await.is_some() {}
}

/// `future` as a store call that gives up after `bound` (dropping it rolls back whatever
/// had not been committed yet).
async fn bounded<T>(bound: Duration, future: impl Future<Output = StoreResult<T>>) -> StoreResult<T> {
    within(tokio::time::Instant::now() + bound, future)
        .await
        .unwrap_or_else(|| {
            Err(StoreError::Unavailable(format!(
                "no commit within {} ms",
                bound.as_millis()
            )))
        })
}

async fn commit_group(store: &Store, group: Vec<Append>, bound: Duration) {
    let started = Instant::now();
    let rows: usize = group.iter().map(|append| append.entries.len()).sum();
    match bounded(bound, store.append_group(&group)).await {
        Ok(()) => {
            crate::telemetry::record_db_write(started.elapsed(), group.len(), rows);
            for append in group {
                let _ = append.done.send(Ok(()));
            }
        }
        Err(error) if error.is_unavailable() => {
            // Retrying each append alone would only wait out the same outage again.
            tracing::warn!(%error, appends = group.len(), "group commit failed: database unavailable");
            for append in group {
                let error = StoreError::Unavailable(error.to_string());
                let entries = append.entries;
                let _ = append.done.send(Err(Unwritten { error, entries }));
            }
        }
        Err(error) => {
            tracing::warn!(%error, appends = group.len(), "group commit failed; retrying one by one");
            for append in group {
                let started = Instant::now();
                let write = store.append(
                    &append.match_id,
                    &append.entries,
                    append.finish.as_ref(),
                    append.at,
                    append.fence,
                );
                let result = bounded(bound, write).await;
                crate::telemetry::record_db_write(started.elapsed(), 1, append.entries.len());
                let entries = append.entries;
                let _ = append
                    .done
                    .send(result.map_err(|error| Unwritten { error, entries }));
            }
        }
    }
}

impl Store {
    /// Writes every append of a group in one transaction: the events as multi-row inserts,
    /// then one `UPDATE` per match the group finishes.
    async fn append_group(&self, group: &[Append]) -> StoreResult<()> {
        let rows: Vec<Row<'_>> = group
            .iter()
            .flat_map(|append| {
                append
                    .entries
                    .iter()
                    .map(move |entry| (&append.match_id, entry, append.at))
            })
            .collect();
        let fences: Vec<(&MatchId, Fence)> = group
            .iter()
            .filter_map(|append| Some((&append.match_id, append.fence?)))
            .collect();
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            tx.check_fences(&fences).await?;
            tx.insert_rows(&rows).await?;
            for append in group {
                if let Some(finish) = &append.finish {
                    (*tx).finish_match(&append.match_id, finish, append.at).await?;
                }
            }
            tx.commit().await?;
        });
        Ok(())
    }
}

type Row<'a> = (&'a MatchId, &'a NewEntry, DateTime<Utc>);

/// Checks the writers' lease epochs inside a journal transaction (cluster mode, PostgreSQL).
/// A twin: the leases live in PostgreSQL only, so SQLite has nothing to check and refuses a
/// fenced append outright.
pub(super) trait CheckFences {
    async fn check_fences(&mut self, fences: &[(&MatchId, Fence)]) -> StoreResult<()>;
}

impl CheckFences for sqlx::Transaction<'_, sqlx::Postgres> {
    async fn check_fences(&mut self, fences: &[(&MatchId, Fence)]) -> StoreResult<()> {
        check_fences(self, fences).await
    }
}

impl CheckFences for sqlx::Transaction<'_, sqlx::Sqlite> {
    async fn check_fences(&mut self, fences: &[(&MatchId, Fence)]) -> StoreResult<()> {
        if fences.is_empty() {
            Ok(())
        } else {
            Err(StoreError::Unsupported("cluster mode needs PostgreSQL"))
        }
    }
}

/// Writes the rows of a group, in the fewest statements each backend allows. A twin, one
/// body per backend, because the dialects differ by more than a fragment: PostgreSQL binds
/// five arrays to one `UNNEST` (one statement to parse whatever the group's size); SQLite
/// has no array type, so it gets multi-row `VALUES` lists of at most [`ROWS_PER_STATEMENT`].
trait InsertRows {
    async fn insert_rows(&mut self, rows: &[Row<'_>]) -> Result<(), sqlx::Error>;
}

impl InsertRows for sqlx::Transaction<'_, sqlx::Postgres> {
    async fn insert_rows(&mut self, rows: &[Row<'_>]) -> Result<(), sqlx::Error> {
        const SQL: &str = "INSERT INTO match_event (match_id, seq, at, kind, payload) \
             SELECT * FROM UNNEST($1::text[], $2::int8[], $3::timestamptz[], $4::text[], $5::text[]::jsonb[])";
        let match_ids: Vec<&str> = rows.iter().map(|(match_id, _, _)| match_id.as_str()).collect();
        let seqs: Vec<i64> = rows.iter().map(|(_, entry, _)| entry.seq).collect();
        let ats: Vec<DateTime<Utc>> = rows.iter().map(|(_, _, at)| *at).collect();
        let kinds: Vec<EntryKind> = rows.iter().map(|(_, entry, _)| entry.kind).collect();
        let payloads: Vec<&str> = rows.iter().map(|(_, entry, _)| entry.payload.get()).collect();
        sqlx::query(SQL)
            .bind(match_ids)
            .bind(seqs)
            .bind(ats)
            .bind(kinds)
            .bind(payloads)
            .execute(&mut **self)
            .await?;
        Ok(())
    }
}

impl InsertRows for sqlx::Transaction<'_, sqlx::Sqlite> {
    async fn insert_rows(&mut self, rows: &[Row<'_>]) -> Result<(), sqlx::Error> {
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let sql = sqlx::AssertSqlSafe(insert_sql(chunk.len()));
            let mut query = sqlx::query(sql);
            for (match_id, entry, at) in chunk {
                query = query
                    .bind(*match_id)
                    .bind(entry.seq)
                    .bind(*at)
                    .bind(entry.kind)
                    .bind(entry.payload.get());
            }
            query.execute(&mut **self).await?;
        }
        Ok(())
    }
}

/// `INSERT ... VALUES ($1, .., $5), ($6, .., $10), ...` for `rows` rows.
fn insert_sql(rows: usize) -> String {
    let mut sql = String::from("INSERT INTO match_event (match_id, seq, at, kind, payload) VALUES ");
    for row in 0..rows {
        let base = row * 5;
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!(
            "(${}, ${}, ${}, ${}, ${})",
            base + 1,
            base + 2,
            base + 3,
            base + 4,
            base + 5
        ));
    }
    sql
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_sql_numbers_every_placeholder_once() {
        let sql = insert_sql(3);
        assert!(sql.ends_with("($1, $2, $3, $4, $5), ($6, $7, $8, $9, $10), ($11, $12, $13, $14, $15)"));
    }

    async fn sqlite_store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("journal.db").display());
        let store = Store::connect(&url).await.expect("connect");
        store
            .execute_unchecked(
                "INSERT INTO \"match\" (match_id, game, options, status, seat_count, turn_clock_ms, \
                 disconnect_grace_ms, seed_commitment, seed, created_at) \
                 VALUES ('00000000-0000-0000-0000-000000000001', 'ctg', '{}', 'live', 2, 1000, 1000, 'c', 's', '2026-01-01T00:00:00Z'), \
                        ('00000000-0000-0000-0000-000000000002', 'ctg', '{}', 'live', 2, 1000, 1000, 'c', 's', '2026-01-01T00:00:00Z')",
            )
            .await
            .expect("matches");
        (dir, store)
    }

    fn entry(seq: i64) -> NewEntry {
        NewEntry {
            seq,
            kind: EntryKind::Event,
            payload: serde_json::value::to_raw_value(&serde_json::json!({ "n": seq })).expect("json"),
        }
    }

    /// Many concurrent appends share commits, every one is on disk when its reply comes,
    /// and a duplicate seq fails only the append that carried it.
    #[tokio::test]
    async fn concurrent_appends_are_durable_when_answered_and_fail_alone() {
        let (_dir, store) = sqlite_store().await;
        let journal = Journal::spawn(
            store.clone(),
            GroupPolicy {
                window: Duration::from_millis(20),
                max_appends: 512,
                writers: 2,
            },
        );
        let mut tasks = Vec::new();
        let (a, b) = (
            MatchId::from_uuid(uuid::Uuid::from_u128(1)),
            MatchId::from_uuid(uuid::Uuid::from_u128(2)),
        );
        for (match_id, seq) in (1..=40)
            .map(|seq| (a.clone(), seq))
            .chain((1..=40).map(|seq| (b.clone(), seq)))
        {
            let journal = journal.clone();
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                journal
                    .append(&match_id, vec![entry(seq)], None, Utc::now())
                    .await
                    .expect("append");
                // The reply means committed: a separate read must already see the row.
                let log = store.log(&match_id).await.expect("log");
                assert!(
                    log.iter().any(|row| row.seq == seq),
                    "{match_id}/{seq} not durable at ack"
                );
            }));
        }
        for task in tasks {
            task.await.expect("task");
        }
        let duplicate = journal.append(&a, vec![entry(7)], None, Utc::now());
        let fresh = journal.append(&b, vec![entry(41)], None, Utc::now());
        let (duplicate, fresh) = tokio::join!(duplicate, fresh);
        assert!(duplicate.is_err(), "a taken seq must be refused");
        fresh.expect("the other append of the same group still commits");
        assert_eq!(store.log(&a).await.expect("log").len(), 40);
        assert_eq!(store.log(&b).await.expect("log").len(), 41);
    }

    /// A group whose transaction cannot get the write lock (another connection holds it, and
    /// SQLite's busy wait, the default transaction bound, is longer than this journal's) fails `Unavailable` at the transaction bound instead of
    /// hanging, writes nothing, and the journal commits again once the lock is gone.
    #[tokio::test]
    async fn a_group_that_cannot_commit_fails_unavailable_at_the_bound() {
        use sqlx::Connection;
        let (dir, store) = sqlite_store().await;
        let settings = DbSettings {
            db_transaction_timeout_ms: 300,
            ..DbSettings::default()
        };
        let journal = Journal::spawn_with(store.clone(), GroupPolicy::default(), settings);
        let url = format!("sqlite://{}", dir.path().join("journal.db").display());
        let mut holder = sqlx::SqliteConnection::connect(&url).await.expect("connect");
        sqlx::raw_sql("BEGIN EXCLUSIVE")
            .execute(&mut holder)
            .await
            .expect("lock");
        let a = MatchId::from_uuid(uuid::Uuid::from_u128(1));
        let started = Instant::now();
        let failed = journal.append(&a, vec![entry(1)], None, Utc::now()).await;
        let waited = started.elapsed();
        assert!(matches!(failed, Err(StoreError::Unavailable(_))), "{failed:?}");
        assert!(
            waited >= Duration::from_millis(300) && waited < Duration::from_secs(2),
            "failed after {waited:?}"
        );
        sqlx::raw_sql("COMMIT")
            .execute(&mut holder)
            .await
            .expect("unlock");
        journal
            .append(&a, vec![entry(1)], None, Utc::now())
            .await
            .expect("the same seq commits once the lock is gone: the first write left nothing");
        assert_eq!(store.log(&a).await.expect("log").len(), 1);
    }
}
