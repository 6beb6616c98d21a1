//! Moderation: bans (`player.banned_at`), renames under the case-insensitive name key
//! (`player.name_key`), the player search, and the audit log of every admin action
//! (`admin_audit`), each action's row written in the same transaction as its change.

use super::{Store, StoreError, StoreResult};
use crate::record::{AuditAction, PlayerId};
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;

/// An admin action on its way into the audit log.
#[derive(Clone, Debug)]
pub struct NewAudit {
    /// The admin token's label.
    pub actor: String,
    pub action: AuditAction,
    /// The player or match acted on.
    pub target: String,
    /// What else the action said (a reason, the old and new name), as a JSON object.
    pub details: Value,
}

/// One row of the audit log.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AuditRow {
    pub audit_id: i64,
    pub at: DateTime<Utc>,
    pub actor: String,
    pub action: AuditAction,
    pub target: String,
    pub details: Json<Value>,
}

/// A player as an operator sees it: its login name if claimed, and its ban.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ModeratedRow {
    pub player_id: PlayerId,
    pub name: String,
    pub username: Option<String>,
    pub created_at: DateTime<Utc>,
    pub banned_at: Option<DateTime<Utc>>,
    pub ban_reason: Option<String>,
}

/// Why a display name was not written.
#[derive(Debug, thiserror::Error)]
pub enum NameRefused {
    /// Another player holds the name, compared case-insensitively.
    #[error("the display name is taken")]
    Taken,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The key two names collide on: the name lowercased by Unicode's rules. Computed here, in
/// Rust, for every write (SQLite's `lower()` folds ASCII only), so both backends agree.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// `text` with `LIKE`'s wildcards escaped (escape character `\`), to match literally.
fn literal(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// `text` as a `LIKE` pattern that matches it literally anywhere.
fn contains_pattern(text: &str) -> String {
    format!("%{}%", literal(text))
}

/// Characters of a long name's key that its suffixed forms keep whatever their number: a
/// 40-character name loses up to 7 (` #12345`) to make room for the suffix.
const SUFFIX_STEM: usize = 33;

const AUDIT_SQL: &str =
    "INSERT INTO admin_audit (at, actor, action, target, details) VALUES ($1, $2, $3, $4, $5)";
const PLAYER_COLUMNS: &str = "p.player_id, p.name, l.username, p.created_at, p.banned_at, p.ban_reason FROM player p \
     LEFT JOIN player_login l ON l.player_id = p.player_id";

impl Store {
    /// Records an admin action whose change happened elsewhere (a match's actor ended it).
    pub async fn record_audit(&self, audit: &NewAudit, at: DateTime<Utc>) -> StoreResult<()> {
        with_pool!(self, pool => sqlx::query(AUDIT_SQL)
            .bind(at).bind(&audit.actor).bind(audit.action).bind(&audit.target).bind(Json(&audit.details))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Bans a player (again: a new reason replaces the old) and cancels its waiting
    /// matchmaking tickets, with the audit row, in one transaction. `false`: no such player.
    pub async fn ban_player(
        &self,
        player_id: &PlayerId,
        reason: &str,
        audit: &NewAudit,
        at: DateTime<Utc>,
    ) -> StoreResult<bool> {
        const BAN_SQL: &str = "UPDATE player SET banned_at = $2, ban_reason = $3 WHERE player_id = $1";
        const TICKETS_SQL: &str =
            "UPDATE matchmaking_ticket SET status = 'cancelled' WHERE player_id = $1 AND status = 'waiting'";
        Ok(with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let found = sqlx::query(BAN_SQL).bind(player_id).bind(at).bind(reason)
                .execute(&mut *tx).await?.rows_affected() > 0;
            if found {
                sqlx::query(TICKETS_SQL).bind(player_id).execute(&mut *tx).await?;
                sqlx::query(AUDIT_SQL)
                    .bind(at).bind(&audit.actor).bind(audit.action).bind(&audit.target).bind(Json(&audit.details))
                    .execute(&mut *tx).await?;
            }
            tx.commit().await?;
            found
        }))
    }

    /// Lifts a player's ban, with the audit row. `false`: no such player.
    pub async fn unban_player(
        &self,
        player_id: &PlayerId,
        audit: &NewAudit,
        at: DateTime<Utc>,
    ) -> StoreResult<bool> {
        const SQL: &str = "UPDATE player SET banned_at = NULL, ban_reason = NULL WHERE player_id = $1";
        Ok(with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let found = sqlx::query(SQL).bind(player_id).execute(&mut *tx).await?.rows_affected() > 0;
            if found {
                sqlx::query(AUDIT_SQL)
                    .bind(at).bind(&audit.actor).bind(audit.action).bind(&audit.target).bind(Json(&audit.details))
                    .execute(&mut *tx).await?;
            }
            tx.commit().await?;
            found
        }))
    }

    /// Gives a player a new display name, with the audit row, unless another player holds
    /// it (case-insensitively). `false`: no such player.
    pub async fn rename_player(
        &self,
        player_id: &PlayerId,
        name: &str,
        audit: &NewAudit,
        at: DateTime<Utc>,
    ) -> Result<bool, NameRefused> {
        const SQL: &str = "UPDATE player SET name = $2, name_key = $3 WHERE player_id = $1";
        let key = name_key(name);
        with_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(StoreError::from)?;
            let renamed = sqlx::query(SQL).bind(player_id).bind(name).bind(&key).execute(&mut *tx).await;
            let found = match renamed {
                Ok(done) => done.rows_affected() > 0,
                // The only unique key an update of these columns can break is the name's.
                Err(sqlx::Error::Database(error)) if error.is_unique_violation() => {
                    return Err(NameRefused::Taken);
                }
                Err(error) => return Err(StoreError::from(error).into()),
            };
            if found {
                sqlx::query(AUDIT_SQL)
                    .bind(at).bind(&audit.actor).bind(audit.action).bind(&audit.target).bind(Json(&audit.details))
                    .execute(&mut *tx).await.map_err(StoreError::from)?;
            }
            tx.commit().await.map_err(StoreError::from)?;
            Ok(found)
        })
    }

    /// The name keys a new guest's suffix is chosen against: `key` itself and its suffixed
    /// forms (`key #n`; for a long name, every key that starts as its suffixed forms do,
    /// since they are shortened). A short name never reads the names it merely starts.
    pub async fn names_taken_like(&self, key: &str) -> StoreResult<Vec<String>> {
        const SQL: &str = "SELECT name_key FROM player WHERE name_key = $1 OR name_key LIKE $2 ESCAPE '\\'";
        let stem: String = key.chars().take(SUFFIX_STEM).collect();
        let pattern = match stem.len() < key.len() {
            true => format!("{}%", literal(&stem)),
            false => format!("{} #%", literal(key)),
        };
        Ok(with_pool!(self, pool => sqlx::query_scalar(SQL)
            .bind(key).bind(&pattern).fetch_all(pool).await)?)
    }

    pub async fn moderated_player(&self, player_id: &PlayerId) -> StoreResult<Option<ModeratedRow>> {
        let sql = format!("SELECT {PLAYER_COLUMNS} WHERE p.player_id = $1");
        // Only a constant is formatted in.
        Ok(
            with_pool!(self, pool => sqlx::query_as::<_, ModeratedRow>(sqlx::AssertSqlSafe(sql.clone()))
            .bind(player_id).fetch_optional(pool).await)?,
        )
    }

    /// Players whose display name contains `text` (case-insensitively), by name, `limit`
    /// of them after the first `offset`.
    pub async fn search_players(
        &self,
        text: &str,
        limit: i64,
        offset: i64,
    ) -> StoreResult<Vec<ModeratedRow>> {
        // A name from before the name key (NULL key) is compared by the database's lower().
        let sql = format!(
            "SELECT {PLAYER_COLUMNS} WHERE COALESCE(p.name_key, lower(p.name)) LIKE $1 ESCAPE '\\' \
             ORDER BY COALESCE(p.name_key, lower(p.name)), p.player_id LIMIT $2 OFFSET $3"
        );
        let pattern = contains_pattern(&name_key(text));
        // Only a constant is formatted in; the pattern is bound.
        Ok(
            with_pool!(self, pool => sqlx::query_as::<_, ModeratedRow>(sqlx::AssertSqlSafe(sql.clone()))
            .bind(&pattern).bind(limit).bind(offset).fetch_all(pool).await)?,
        )
    }

    /// The audit log, newest first: `limit` rows older than `before` (an `audit_id`).
    pub async fn audit_log(&self, limit: i64, before: Option<i64>) -> StoreResult<Vec<AuditRow>> {
        const SQL: &str = "SELECT audit_id, at, actor, action, target, details FROM admin_audit \
             WHERE ($2 IS NULL OR audit_id < $2) ORDER BY audit_id DESC LIMIT $1";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, AuditRow>(SQL)
            .bind(limit).bind(before).fetch_all(pool).await)?)
    }

    /// The token hashes of every session of a player (to close their sockets).
    pub async fn sessions_of(&self, player_id: &PlayerId) -> StoreResult<Vec<String>> {
        const SQL: &str = "SELECT token_hash FROM player_session WHERE player_id = $1";
        Ok(with_pool!(self, pool => sqlx::query_scalar(SQL)
            .bind(player_id).fetch_all(pool).await)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_text_literally_and_keys_fold_case() {
        assert_eq!(contains_pattern("a%b_c\\"), "%a\\%b\\_c\\\\%");
        assert_eq!(name_key("ÉLAN Ana"), "élan ana");
    }
}
