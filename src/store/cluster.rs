//! The cluster's tables (`migrations/*/0006_cluster.sql`): nodes and their heartbeats (a
//! node's heartbeat is its lease on all its matches), and each live match's owner and epoch.
//!
//! Every time is the database's `now()`: the nodes' own clocks never decide who owns what.
//! Cluster mode needs PostgreSQL (row locks, `SKIP LOCKED`); on SQLite these calls fail with
//! [`StoreError::Unsupported`].

use super::{Store, StoreError, StoreResult};
use crate::record::MatchId;
use chrono::{DateTime, Utc};
use sqlx::PgPool;

/// The epoch of the lease a writer holds: its journal writes commit only while the lease
/// still has this epoch (see [`Store::append`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fence(pub i64);

/// A lease a node holds: the match and the epoch its writes must carry.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Lease {
    pub match_id: MatchId,
    pub epoch: i64,
}

/// This process as the `cluster_node` table knows it.
#[derive(Clone, Debug)]
pub struct NodeRecord {
    pub node_id: String,
    pub name: String,
    pub advertise_url: Option<String>,
    pub started_at: DateTime<Utc>,
    /// How long the node's heartbeat holds its leases.
    pub lease_ttl_ms: i64,
    /// False for a gateway node: it serves sockets and the lobby but runs no match.
    pub runs_matches: bool,
}

/// One node as operators see it (`GET /v1/cluster`).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct NodeStatus {
    pub node_id: String,
    pub name: String,
    pub advertise_url: Option<String>,
    pub started_at: DateTime<Utc>,
    pub heartbeat_at: DateTime<Utc>,
    pub draining: bool,
    pub runs_matches: bool,
    /// The heartbeat is younger than the node's lease TTL.
    pub alive: bool,
    /// Live matches it owns.
    pub matches: i64,
}

/// A node whose heartbeat is younger than its own lease TTL (`n` is `cluster_node`).
const FRESH: &str = "n.heartbeat_at > now() - n.lease_ttl_ms * interval '1 millisecond'";

impl Store {
    fn cluster_pool(&self) -> StoreResult<&PgPool> {
        match self {
            Store::Postgres(pool) => Ok(pool),
            Store::Sqlite(_) => Err(StoreError::Unsupported("cluster mode needs PostgreSQL")),
        }
    }

    /// Records this node's heartbeat, which renews its lease on every match it owns, and
    /// whether it is draining.
    pub async fn heartbeat(&self, node: &NodeRecord, draining: bool) -> StoreResult<()> {
        const SQL: &str = "INSERT INTO cluster_node \
             (node_id, name, advertise_url, started_at, heartbeat_at, lease_ttl_ms, draining, runs_matches) \
             VALUES ($1, $2, $3, $4, now(), $5, $6, $7) \
             ON CONFLICT (node_id) DO UPDATE SET heartbeat_at = now(), draining = EXCLUDED.draining";
        sqlx::query(SQL)
            .bind(&node.node_id)
            .bind(&node.name)
            .bind(&node.advertise_url)
            .bind(node.started_at)
            .bind(node.lease_ttl_ms)
            .bind(draining)
            .bind(node.runs_matches)
            .execute(self.cluster_pool()?)
            .await?;
        Ok(())
    }

    /// Leaves the cluster: the node's row goes, and with it its lease on every match it
    /// owned, so other nodes claim them at once (a draining node calls this once its actors
    /// have stopped writing).
    pub async fn leave_cluster(&self, node_id: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM cluster_node WHERE node_id = $1")
            .bind(node_id)
            .execute(self.cluster_pool()?)
            .await?;
        Ok(())
    }

    /// The live matches `node_id` owns: a match the node runs that is missing here has been
    /// taken over. A plain read: it takes no lock a journal write could wait on.
    pub async fn held_leases(&self, node_id: &str) -> StoreResult<Vec<Lease>> {
        const SQL: &str = "SELECT l.match_id, l.epoch FROM match_lease l \
             JOIN \"match\" m ON m.match_id = l.match_id \
             WHERE l.node_id = $1 AND m.status = 'live'";
        Ok(sqlx::query_as::<_, Lease>(SQL)
            .bind(node_id)
            .fetch_all(self.cluster_pool()?)
            .await?)
    }

    /// Takes up to `limit` live matches nobody holds: their owner's heartbeat is older than
    /// its TTL or the owner left (raising each epoch, which fences the old owner), or they
    /// have no lease at all (a database a single node ran before). Rows another node is
    /// claiming, or a write of the old owner still holds, are skipped until the next round.
    pub async fn claim_orphans(&self, node_id: &str, limit: i64) -> StoreResult<Vec<Lease>> {
        let orphaned = format!(
            "UPDATE match_lease l SET node_id = $1, epoch = l.epoch + 1, taken_at = now() \
             WHERE l.match_id IN ( \
                 SELECT o.match_id FROM match_lease o \
                 JOIN \"match\" m ON m.match_id = o.match_id \
                 LEFT JOIN cluster_node n ON n.node_id = o.node_id \
                 WHERE m.status = 'live' AND (n.node_id IS NULL OR NOT ({FRESH})) \
                 ORDER BY o.taken_at LIMIT $2 FOR UPDATE OF o SKIP LOCKED) \
             RETURNING l.match_id, l.epoch"
        );
        const UNLEASED: &str = "INSERT INTO match_lease (match_id, node_id, epoch, taken_at) \
             SELECT m.match_id, $1, 1, now() FROM \"match\" m \
              WHERE m.status = 'live' \
                AND NOT EXISTS (SELECT 1 FROM match_lease l WHERE l.match_id = m.match_id) \
              ORDER BY m.started_at LIMIT $2 \
             ON CONFLICT (match_id) DO NOTHING RETURNING match_id, epoch";
        let pool = self.cluster_pool()?;
        let mut claimed = sqlx::query_as::<_, Lease>(sqlx::AssertSqlSafe(orphaned))
            .bind(node_id)
            .bind(limit)
            .fetch_all(pool)
            .await?;
        let room = limit - claimed.len() as i64;
        if room > 0 {
            claimed.extend(
                sqlx::query_as::<_, Lease>(UNLEASED)
                    .bind(node_id)
                    .bind(room)
                    .fetch_all(pool)
                    .await?,
            );
        }
        Ok(claimed)
    }

    /// How many live matches nobody holds (what the serving nodes share out).
    pub async fn orphan_count(&self) -> StoreResult<i64> {
        let sql = format!(
            "SELECT count(*) FROM \"match\" m \
             LEFT JOIN match_lease l ON l.match_id = m.match_id \
             LEFT JOIN cluster_node n ON n.node_id = l.node_id \
             WHERE m.status = 'live' AND (l.match_id IS NULL OR n.node_id IS NULL OR NOT ({FRESH}))"
        );
        Ok(sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql))
            .fetch_one(self.cluster_pool()?)
            .await?)
    }

    /// The first lease of a match that has just gone live, held by `node_id`; `None` if the
    /// match already has one (another node placed it first).
    pub async fn place_match(&self, match_id: &MatchId, node_id: &str) -> StoreResult<Option<Lease>> {
        const SQL: &str = "INSERT INTO match_lease (match_id, node_id, epoch, taken_at) \
             VALUES ($1, $2, 1, now()) ON CONFLICT (match_id) DO NOTHING RETURNING match_id, epoch";
        Ok(sqlx::query_as::<_, Lease>(SQL)
            .bind(match_id)
            .bind(node_id)
            .fetch_optional(self.cluster_pool()?)
            .await?)
    }

    /// Moves a lease from `from` (at its epoch) to `to`, raising the epoch; `None` if it has
    /// changed hands since.
    pub async fn take_over(&self, lease: &Lease, from: &str, to: &str) -> StoreResult<Option<Lease>> {
        const SQL: &str = "UPDATE match_lease SET node_id = $3, epoch = epoch + 1, taken_at = now() \
             WHERE match_id = $1 AND epoch = $2 AND node_id = $4 RETURNING match_id, epoch";
        Ok(sqlx::query_as::<_, Lease>(SQL)
            .bind(&lease.match_id)
            .bind(lease.epoch)
            .bind(to)
            .bind(from)
            .fetch_optional(self.cluster_pool()?)
            .await?)
    }

    /// The lease `node_id` holds on a match, if it holds one.
    pub async fn lease_held(&self, match_id: &MatchId, node_id: &str) -> StoreResult<Option<Lease>> {
        const SQL: &str = "SELECT match_id, epoch FROM match_lease WHERE match_id = $1 AND node_id = $2";
        Ok(sqlx::query_as::<_, Lease>(SQL)
            .bind(match_id)
            .bind(node_id)
            .fetch_optional(self.cluster_pool()?)
            .await?)
    }

    /// The epoch of a match's lease, whoever holds it; `None` if it has none. A routed socket
    /// talks to the owner of this epoch only.
    pub async fn lease_epoch(&self, match_id: &MatchId) -> StoreResult<Option<i64>> {
        const SQL: &str = "SELECT epoch FROM match_lease WHERE match_id = $1";
        Ok(sqlx::query_scalar::<_, i64>(SQL)
            .bind(match_id)
            .fetch_optional(self.cluster_pool()?)
            .await?)
    }

    /// The live node (fresh heartbeat, not draining, running matches) with the fewest live
    /// matches.
    pub async fn least_loaded_node(&self) -> StoreResult<Option<String>> {
        let sql = format!(
            "SELECT n.node_id FROM cluster_node n \
             LEFT JOIN match_lease l ON l.node_id = n.node_id \
             LEFT JOIN \"match\" m ON m.match_id = l.match_id AND m.status = 'live' \
             WHERE {FRESH} AND NOT n.draining AND n.runs_matches \
             GROUP BY n.node_id ORDER BY count(m.match_id), random() LIMIT 1"
        );
        Ok(sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql))
            .fetch_optional(self.cluster_pool()?)
            .await?)
    }

    /// Every node with a heartbeat in the last hour, newest first, with its live matches.
    pub async fn cluster_nodes(&self) -> StoreResult<Vec<NodeStatus>> {
        let sql = format!(
            "SELECT n.node_id, n.name, n.advertise_url, n.started_at, n.heartbeat_at, n.draining, \
             n.runs_matches, {FRESH} AS alive, count(m.match_id) AS matches \
             FROM cluster_node n \
             LEFT JOIN match_lease l ON l.node_id = n.node_id \
             LEFT JOIN \"match\" m ON m.match_id = l.match_id AND m.status = 'live' \
             WHERE n.heartbeat_at > now() - interval '1 hour' \
             GROUP BY n.node_id ORDER BY n.started_at DESC, n.node_id"
        );
        Ok(sqlx::query_as::<_, NodeStatus>(sqlx::AssertSqlSafe(sql))
            .fetch_all(self.cluster_pool()?)
            .await?)
    }

    /// Nodes with a fresh heartbeat that run matches and are not draining.
    pub async fn serving_nodes(&self) -> StoreResult<i64> {
        let sql = format!(
            "SELECT count(*) FROM cluster_node n WHERE {FRESH} AND NOT n.draining AND n.runs_matches"
        );
        Ok(sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql))
            .fetch_one(self.cluster_pool()?)
            .await?)
    }
}

/// Checks, inside a journal transaction, that every fenced match still has the epoch its
/// writer holds. The lease rows are locked `FOR SHARE` until the commit, so a takeover (an
/// `UPDATE` of the row) waits for this transaction, and one that came first is seen here.
pub(super) async fn check_fences(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    fences: &[(&MatchId, Fence)],
) -> StoreResult<()> {
    if fences.is_empty() {
        return Ok(());
    }
    const SQL: &str = "SELECT l.match_id FROM match_lease l \
         JOIN UNNEST($1::text[], $2::int8[]) AS f(match_id, epoch) \
           ON l.match_id = f.match_id AND l.epoch = f.epoch \
         FOR SHARE OF l";
    let match_ids: Vec<&str> = fences.iter().map(|(match_id, _)| match_id.as_str()).collect();
    let epochs: Vec<i64> = fences.iter().map(|(_, Fence(epoch))| *epoch).collect();
    let held: Vec<String> = sqlx::query_scalar(SQL)
        .bind(&match_ids)
        .bind(&epochs)
        .fetch_all(&mut **tx)
        .await?;
    if held.len() == fences.len() {
        return Ok(());
    }
    let lost: Vec<&str> = match_ids
        .into_iter()
        .filter(|match_id| !held.iter().any(|held| held == match_id))
        .collect();
    Err(StoreError::Fenced(lost.join(", ")))
}
