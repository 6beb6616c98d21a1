//! Claimed accounts (`player_login`) and the sessions every bearer token is (`player_session`).

use super::{Store, StoreError, StoreResult};
use crate::record::PlayerId;
use chrono::{DateTime, Utc};

/// A claimed player's login: what a password is checked against.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LoginRow {
    pub player_id: PlayerId,
    pub name: String,
    pub username: String,
    pub password_hash: String,
    /// Set while an operator bans the player: the password then opens nothing.
    pub banned_at: Option<DateTime<Utc>>,
}

/// The player a session opens, with when the session ends.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SessionRow {
    pub player_id: PlayerId,
    pub name: String,
    pub expires_at: Option<DateTime<Utc>>,
}

impl SessionRow {
    /// Whether the session still opens its player at `now` (a guest's never expires). The
    /// caller's clock decides, the same way on both backends.
    pub fn is_open_at(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_none_or(|expires_at| expires_at > now)
    }
}

/// A player's account as its owner sees it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AccountRow {
    pub player_id: PlayerId,
    pub name: String,
    pub username: Option<String>,
    pub claimed_at: Option<DateTime<Utc>>,
}

/// Why a claim was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum ClaimRefused {
    #[error("the player has claimed its account already")]
    AlreadyClaimed,
    #[error("the login name is taken")]
    UsernameTaken,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A new session; `expires_at` is `NULL` for a guest's first token, which lives while the
/// account is unclaimed.
pub(super) const SESSION_SQL: &str =
    "INSERT INTO player_session (token_hash, player_id, created_at, expires_at) VALUES ($1, $2, $3, $4)";

impl Store {
    /// The player a token's hash opens, whatever the session's expiry (the caller compares
    /// it with its own clock, the same way on both backends). A banned player's sessions
    /// open nothing.
    pub async fn session(&self, token_hash: &str) -> StoreResult<Option<SessionRow>> {
        const SQL: &str = "SELECT p.player_id, p.name, s.expires_at FROM player_session s \
             JOIN player p ON p.player_id = s.player_id WHERE s.token_hash = $1 AND p.banned_at IS NULL";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, SessionRow>(SQL)
            .bind(token_hash).fetch_optional(pool).await)?)
    }

    pub async fn insert_session(
        &self,
        token_hash: &str,
        player_id: &PlayerId,
        now: DateTime<Utc>,
        expires_at: Option<DateTime<Utc>>,
    ) -> StoreResult<()> {
        with_pool!(self, pool => sqlx::query(SESSION_SQL)
            .bind(token_hash).bind(player_id).bind(now).bind(expires_at)
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Deletes the player's sessions that ended before `now`, so the table does not grow
    /// with every login of a long-lived account. Returns how many went.
    pub async fn purge_expired_sessions(&self, player_id: &PlayerId, now: DateTime<Utc>) -> StoreResult<u64> {
        // Compared in SQL: PostgreSQL orders timestamps natively, and SQLite holds sqlx's
        // RFC 3339 text in UTC, which sorts as time does. Letting a token in never rests on
        // that: [`Store::session`] leaves the expiry check to the caller's clock.
        const SQL: &str = "DELETE FROM player_session WHERE player_id = $1 AND expires_at < $2";
        Ok(with_pool!(self, pool => sqlx::query(SQL)
            .bind(player_id).bind(now).execute(pool).await.map(|done| done.rows_affected()))?)
    }

    /// Ends one session. Returns whether it existed.
    pub async fn delete_session(&self, token_hash: &str) -> StoreResult<bool> {
        const SQL: &str = "DELETE FROM player_session WHERE token_hash = $1";
        Ok(with_pool!(self, pool => sqlx::query(SQL)
            .bind(token_hash).execute(pool).await.map(|done| done.rows_affected() > 0))?)
    }

    /// Ends every session of a player. Returns their token hashes (their sockets close).
    pub async fn delete_sessions_of(&self, player_id: &PlayerId) -> StoreResult<Vec<String>> {
        const SQL: &str = "DELETE FROM player_session WHERE player_id = $1 RETURNING token_hash";
        Ok(with_pool!(self, pool => sqlx::query_scalar(SQL)
            .bind(player_id).fetch_all(pool).await)?)
    }

    /// The token hashes of a player's sessions that have no expiry (a guest's token), which a
    /// claim is about to give one.
    pub async fn open_ended_sessions_of(&self, player_id: &PlayerId) -> StoreResult<Vec<String>> {
        const SQL: &str = "SELECT token_hash FROM player_session WHERE player_id = $1 AND expires_at IS NULL";
        Ok(with_pool!(self, pool => sqlx::query_scalar(SQL)
            .bind(player_id).fetch_all(pool).await)?)
    }

    /// Which of `token_hashes` are still sessions (none deleted by a logout or by hand, none
    /// of a banned player). Expiry is not compared here: the socket holding a session times
    /// its own expiry.
    pub async fn existing_sessions(
        &self,
        token_hashes: &[String],
    ) -> StoreResult<std::collections::HashSet<String>> {
        // SQLite binds at most 32,766 parameters per statement: well under, in chunks.
        const CHUNK: usize = 500;
        let mut existing = std::collections::HashSet::new();
        for chunk in token_hashes.chunks(CHUNK) {
            let placeholders: Vec<String> = (1..=chunk.len()).map(|index| format!("${index}")).collect();
            let sql = format!(
                "SELECT s.token_hash FROM player_session s JOIN player p ON p.player_id = s.player_id \
                 WHERE p.banned_at IS NULL AND s.token_hash IN ({})",
                placeholders.join(", ")
            );
            // Only `$n` placeholders are formatted in; every hash is bound.
            let found: Vec<String> = with_pool!(self, pool => {
                let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.clone()));
                for hash in chunk {
                    query = query.bind(hash);
                }
                query.fetch_all(pool).await
            })?;
            existing.extend(found);
        }
        Ok(existing)
    }

    pub async fn account(&self, player_id: &PlayerId) -> StoreResult<Option<AccountRow>> {
        const SQL: &str = "SELECT p.player_id, p.name, l.username, l.claimed_at FROM player p \
             LEFT JOIN player_login l ON l.player_id = p.player_id WHERE p.player_id = $1";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, AccountRow>(SQL)
            .bind(player_id).fetch_optional(pool).await)?)
    }

    pub async fn login_by_username(&self, username: &str) -> StoreResult<Option<LoginRow>> {
        const SQL: &str = "SELECT l.player_id, p.name, l.username, l.password_hash, p.banned_at FROM player_login l \
             JOIN player p ON p.player_id = l.player_id WHERE l.username = $1";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, LoginRow>(SQL)
            .bind(username).fetch_optional(pool).await)?)
    }

    /// Records a claim and, in the same transaction, gives the player's open-ended sessions
    /// (its guest token) the expiry of a login session: once a password can let the player
    /// back in, no token needs to live for ever.
    pub async fn claim(
        &self,
        player_id: &PlayerId,
        username: &str,
        password_hash: &str,
        now: DateTime<Utc>,
        sessions_expire_at: DateTime<Utc>,
    ) -> Result<(), ClaimRefused> {
        const CLAIMED_SQL: &str = "SELECT count(*) FROM player_login WHERE player_id = $1";
        const INSERT_SQL: &str = "INSERT INTO player_login (player_id, username, password_hash, claimed_at) \
             VALUES ($1, $2, $3, $4)";
        const EXPIRE_SQL: &str =
            "UPDATE player_session SET expires_at = $2 WHERE player_id = $1 AND expires_at IS NULL";
        with_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(StoreError::from)?;
            let claimed: i64 = sqlx::query_scalar(CLAIMED_SQL).bind(player_id)
                .fetch_one(&mut *tx).await.map_err(StoreError::from)?;
            if claimed > 0 {
                return Err(ClaimRefused::AlreadyClaimed);
            }
            let inserted = sqlx::query(INSERT_SQL)
                .bind(player_id).bind(username).bind(password_hash).bind(now)
                .execute(&mut *tx).await;
            match inserted {
                Ok(_) => {}
                // The player was checked above, in this transaction: the unique key that
                // refused the row is the login name's (or a racing claim of the same
                // player, which an honest client never sends).
                Err(sqlx::Error::Database(error)) if error.is_unique_violation() => {
                    return Err(ClaimRefused::UsernameTaken);
                }
                Err(error) => return Err(StoreError::from(error).into()),
            }
            sqlx::query(EXPIRE_SQL).bind(player_id).bind(sessions_expire_at)
                .execute(&mut *tx).await.map_err(StoreError::from)?;
            tx.commit().await.map_err(StoreError::from)?;
        });
        Ok(())
    }
}
