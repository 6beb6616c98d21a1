//! The cluster's tables (`migrations/*/0006_cluster.sql`): nodes and their heartbeats, and
//! the lease that makes one node the owner of each live match.
//!
//! Every time is the database's `now()`: the nodes' own clocks never decide who owns what.
//! Cluster mode needs PostgreSQL (row locks, `SKIP LOCKED`); on SQLite these calls fail with
//! [`StoreError::Unsupported`].

use super::{Store, StoreError, StoreResult};
use chrono::{DateTime, Utc};
use sqlx::PgPool;

/// The epoch of the lease a writer holds: its journal writes commit only while the lease
/// still has this epoch (see [`Store::append`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fence(pub i64);

/// A lease a node holds: the match and the epoch its writes must carry.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Lease {
    pub match_id: String,
    pub epoch: i64,
}

/// This process as the `cluster_node` table knows it.
#[derive(Clone, Debug)]
pub struct NodeRecord {
    pub node_id: String,
    pub name: String,
    pub advertise_url: Option<String>,
    pub started_at: DateTime<Utc>,
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
    /// The heartbeat is younger than the lease TTL.
    pub alive: bool,
    /// Live matches whose unexpired lease it holds.
    pub matches: i64,
}

impl Store {
    fn cluster_pool(&self) -> StoreResult<&PgPool> {
        match self {
            Store::Postgres(pool) => Ok(pool),
            Store::Sqlite(_) => Err(StoreError::Unsupported("cluster mode needs PostgreSQL")),
        }
    }

    /// Records this node's heartbeat (and whether it is draining).
    pub async fn heartbeat(&self, node: &NodeRecord, draining: bool) -> StoreResult<()> {
        const SQL: &str = "INSERT INTO cluster_node (node_id, name, advertise_url, started_at, heartbeat_at, draining) \
             VALUES ($1, $2, $3, $4, now(), $5) \
             ON CONFLICT (node_id) DO UPDATE SET heartbeat_at = now(), draining = EXCLUDED.draining";
        sqlx::query(SQL)
            .bind(&node.node_id)
            .bind(&node.name)
            .bind(&node.advertise_url)
            .bind(node.started_at)
            .bind(draining)
            .execute(self.cluster_pool()?)
            .await?;
        Ok(())
    }

    /// Removes a node that has stopped (its leases were released first).
    pub async fn forget_node(&self, node_id: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM cluster_node WHERE node_id = $1")
            .bind(node_id)
            .execute(self.cluster_pool()?)
            .await?;
        Ok(())
    }

    /// Extends every lease `node_id` still holds on a live match by `ttl_ms`, and returns
    /// them: a match this node runs that is missing here has been taken over.
    pub async fn renew_leases(&self, node_id: &str, ttl_ms: i64) -> StoreResult<Vec<Lease>> {
        const SQL: &str = "UPDATE match_lease l SET expires_at = now() + make_interval(secs => $2 / 1000.0) \
             FROM \"match\" m WHERE m.match_id = l.match_id AND m.status = 'live' AND l.node_id = $1 \
             RETURNING l.match_id, l.epoch";
        Ok(sqlx::query_as::<_, Lease>(SQL)
            .bind(node_id)
            .bind(ttl_ms)
            .fetch_all(self.cluster_pool()?)
            .await?)
    }

    /// Takes up to `limit` live matches nobody holds: expired or released leases (raising
    /// their epoch, which fences the old owner) and live matches with no lease at all (a
    /// database a single node ran before). Rows another node is claiming are skipped.
    pub async fn claim_orphans(&self, node_id: &str, ttl_ms: i64, limit: i64) -> StoreResult<Vec<Lease>> {
        const EXPIRED: &str = "UPDATE match_lease l \
             SET node_id = $1, epoch = l.epoch + 1, expires_at = now() + make_interval(secs => $2 / 1000.0) \
             WHERE l.match_id IN ( \
                 SELECT o.match_id FROM match_lease o JOIN \"match\" m ON m.match_id = o.match_id \
                  WHERE m.status = 'live' AND o.expires_at < now() \
                  ORDER BY o.expires_at LIMIT $3 FOR UPDATE OF o SKIP LOCKED) \
             RETURNING l.match_id, l.epoch";
        const UNLEASED: &str = "INSERT INTO match_lease (match_id, node_id, epoch, expires_at) \
             SELECT m.match_id, $1, 1, now() + make_interval(secs => $2 / 1000.0) FROM \"match\" m \
              WHERE m.status = 'live' \
                AND NOT EXISTS (SELECT 1 FROM match_lease l WHERE l.match_id = m.match_id) \
              ORDER BY m.started_at LIMIT $3 \
             ON CONFLICT (match_id) DO NOTHING RETURNING match_id, epoch";
        let pool = self.cluster_pool()?;
        let mut claimed = sqlx::query_as::<_, Lease>(EXPIRED)
            .bind(node_id)
            .bind(ttl_ms)
            .bind(limit)
            .fetch_all(pool)
            .await?;
        let room = limit - claimed.len() as i64;
        if room > 0 {
            claimed.extend(
                sqlx::query_as::<_, Lease>(UNLEASED)
                    .bind(node_id)
                    .bind(ttl_ms)
                    .bind(room)
                    .fetch_all(pool)
                    .await?,
            );
        }
        Ok(claimed)
    }

    /// How many live matches nobody holds a valid lease on (what survivors share out).
    pub async fn orphan_count(&self) -> StoreResult<i64> {
        const SQL: &str = "SELECT count(*) FROM \"match\" m LEFT JOIN match_lease l ON l.match_id = m.match_id \
             WHERE m.status = 'live' AND (l.match_id IS NULL OR l.expires_at < now())";
        Ok(sqlx::query_scalar::<_, i64>(SQL)
            .fetch_one(self.cluster_pool()?)
            .await?)
    }

    /// The first lease of a match that has just gone live, held by `node_id`; `None` if the
    /// match already has one (another node placed it first).
    pub async fn place_match(
        &self,
        match_id: &str,
        node_id: &str,
        ttl_ms: i64,
    ) -> StoreResult<Option<Lease>> {
        const SQL: &str = "INSERT INTO match_lease (match_id, node_id, epoch, expires_at) \
             VALUES ($1, $2, 1, now() + make_interval(secs => $3 / 1000.0)) \
             ON CONFLICT (match_id) DO NOTHING RETURNING match_id, epoch";
        Ok(sqlx::query_as::<_, Lease>(SQL)
            .bind(match_id)
            .bind(node_id)
            .bind(ttl_ms)
            .fetch_optional(self.cluster_pool()?)
            .await?)
    }

    /// Moves a lease from `from` (at `epoch`) to `to`, raising the epoch; `None` if it has
    /// changed hands since.
    pub async fn take_over(
        &self,
        lease: &Lease,
        from: &str,
        to: &str,
        ttl_ms: i64,
    ) -> StoreResult<Option<Lease>> {
        const SQL: &str = "UPDATE match_lease SET node_id = $3, epoch = epoch + 1, \
             expires_at = now() + make_interval(secs => $4 / 1000.0) \
             WHERE match_id = $1 AND epoch = $2 AND node_id = $5 RETURNING match_id, epoch";
        Ok(sqlx::query_as::<_, Lease>(SQL)
            .bind(&lease.match_id)
            .bind(lease.epoch)
            .bind(to)
            .bind(ttl_ms)
            .bind(from)
            .fetch_optional(self.cluster_pool()?)
            .await?)
    }

    /// The lease `node_id` holds on a match, if it holds one.
    pub async fn lease_held(&self, match_id: &str, node_id: &str) -> StoreResult<Option<Lease>> {
        const SQL: &str = "SELECT match_id, epoch FROM match_lease WHERE match_id = $1 AND node_id = $2";
        Ok(sqlx::query_as::<_, Lease>(SQL)
            .bind(match_id)
            .bind(node_id)
            .fetch_optional(self.cluster_pool()?)
            .await?)
    }

    /// Ends every lease `node_id` holds now, so other nodes claim them without waiting for
    /// the TTL (a draining node calls this once its actors have stopped writing).
    pub async fn release_leases(&self, node_id: &str) -> StoreResult<u64> {
        const SQL: &str =
            "UPDATE match_lease SET expires_at = now() - interval '1 second' WHERE node_id = $1";
        Ok(sqlx::query(SQL)
            .bind(node_id)
            .execute(self.cluster_pool()?)
            .await?
            .rows_affected())
    }

    /// The live node (fresh heartbeat, not draining) with the fewest live matches.
    pub async fn least_loaded_node(&self, ttl_ms: i64) -> StoreResult<Option<String>> {
        const SQL: &str = "SELECT n.node_id FROM cluster_node n \
             LEFT JOIN match_lease l ON l.node_id = n.node_id AND l.expires_at > now() \
             LEFT JOIN \"match\" m ON m.match_id = l.match_id AND m.status = 'live' \
             WHERE n.heartbeat_at > now() - make_interval(secs => $1 / 1000.0) AND NOT n.draining \
             GROUP BY n.node_id ORDER BY count(m.match_id), random() LIMIT 1";
        Ok(sqlx::query_scalar::<_, String>(SQL)
            .bind(ttl_ms)
            .fetch_optional(self.cluster_pool()?)
            .await?)
    }

    /// Every node with a heartbeat in the last hour, newest first, with its live matches.
    pub async fn cluster_nodes(&self, ttl_ms: i64) -> StoreResult<Vec<NodeStatus>> {
        const SQL: &str = "SELECT n.node_id, n.name, n.advertise_url, n.started_at, n.heartbeat_at, n.draining, \
             n.heartbeat_at > now() - make_interval(secs => $1 / 1000.0) AS alive, \
             count(m.match_id) AS matches \
             FROM cluster_node n \
             LEFT JOIN match_lease l ON l.node_id = n.node_id AND l.expires_at > now() \
             LEFT JOIN \"match\" m ON m.match_id = l.match_id AND m.status = 'live' \
             WHERE n.heartbeat_at > now() - interval '1 hour' \
             GROUP BY n.node_id ORDER BY n.started_at DESC, n.node_id";
        Ok(sqlx::query_as::<_, NodeStatus>(SQL)
            .bind(ttl_ms)
            .fetch_all(self.cluster_pool()?)
            .await?)
    }

    /// Nodes with a fresh heartbeat that are not draining.
    pub async fn serving_nodes(&self, ttl_ms: i64) -> StoreResult<i64> {
        const SQL: &str = "SELECT count(*) FROM cluster_node \
             WHERE heartbeat_at > now() - make_interval(secs => $1 / 1000.0) AND NOT draining";
        Ok(sqlx::query_scalar::<_, i64>(SQL)
            .bind(ttl_ms)
            .fetch_one(self.cluster_pool()?)
            .await?)
    }
}

/// Checks, inside a journal transaction, that every fenced match still has the epoch its
/// writer holds. The lease rows are locked `FOR SHARE` until the commit, so a takeover (an
/// `UPDATE` of the row) waits for this transaction, and one that came first is seen here.
pub(super) async fn check_fences(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    fences: &[(&str, Fence)],
) -> StoreResult<()> {
    if fences.is_empty() {
        return Ok(());
    }
    const SQL: &str = "SELECT l.match_id FROM match_lease l \
         JOIN UNNEST($1::text[], $2::int8[]) AS f(match_id, epoch) \
           ON l.match_id = f.match_id AND l.epoch = f.epoch \
         FOR SHARE OF l";
    let match_ids: Vec<&str> = fences.iter().map(|(match_id, _)| *match_id).collect();
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
