//! Accounts: a guest claims its player with a login name and a password, then logs in on
//! any device and gets a new bearer token there.
//!
//! Every bearer token is a session (`player_session`, only its sha256 stored). The API stays
//! token-based, so bots and scripts work as before: a guest's token from `POST /v1/players`
//! never expires while the account is unclaimed (it is the only key to it; expiring it would
//! delete the account in effect). Once claimed, every session expires `--session-ttl` after
//! it was issued, the guest token included, because the password can always mint a new one.
//!
//! Passwords are hashed with argon2id (RustCrypto's `argon2`, OWASP's recommended default
//! parameters) on the blocking pool, since one hash takes tens of milliseconds of CPU.

use crate::fairness;
use crate::input::{Password, Username};
use crate::matches::Player;
use crate::protocol::{Account, SessionCreated};
use crate::store::{AccountRow, ClaimRefused, Store, StoreError};
use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use chrono::{DateTime, Utc};
use std::sync::LazyLock;
use std::time::Duration;

/// `crease serve` settings for accounts and sessions.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct AccountConfig {
    /// How long a session of a claimed account lasts from when it was issued (a login, or
    /// the claim for the guest token): then the player logs in again.
    #[arg(long, env = "CREASE_SESSION_TTL", default_value = "30days", value_parser = session_ttl)]
    pub session_ttl: Duration,
}

impl Default for AccountConfig {
    fn default() -> Self {
        AccountConfig {
            session_ttl: Duration::from_secs(30 * 24 * 60 * 60),
        }
    }
}

/// A session lifetime with a unit (`90s`, `12h`, `30days`), from one second to a year: longer
/// is a typo, and would keep a stolen token useful for longer than anyone means.
fn session_ttl(text: &str) -> Result<Duration, String> {
    let ttl = humantime::parse_duration(text).map_err(|error| error.to_string())?;
    if ttl < Duration::from_secs(1) || ttl > Duration::from_secs(366 * 24 * 60 * 60) {
        return Err("must be between 1s and 366days".into());
    }
    Ok(ttl)
}

/// Why an account request was refused or failed: the accounts' own words, which the HTTP
/// layer (and only it) turns into status codes.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The token's player has no account row (it was deleted under a live session).
    #[error("the player has no account")]
    NoAccount,
    /// One refusal for an unknown login name and a wrong password, so that a caller cannot
    /// learn which names exist.
    #[error("unknown login name or wrong password")]
    InvalidCredentials,
    #[error("this account is claimed already")]
    AlreadyClaimed,
    #[error("the login name {0:?} is taken")]
    UsernameTaken(String),
    /// A guest's token is the only key to its account, so it cannot log out.
    #[error("a guest cannot log out before claiming its account")]
    NotClaimed,
    /// Hashing or verifying a password failed (a malformed stored hash, a lost task).
    #[error("{0}")]
    Password(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Claims, logins and logouts, over the store.
pub struct Accounts {
    store: Store,
    session_ttl: chrono::TimeDelta,
}

impl Accounts {
    pub fn new(store: Store, config: &AccountConfig) -> Self {
        Accounts {
            store,
            session_ttl: chrono::TimeDelta::from_std(config.session_ttl).unwrap_or(chrono::TimeDelta::MAX),
        }
    }

    fn expiry_from(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        now.checked_add_signed(self.session_ttl)
            .unwrap_or(DateTime::<Utc>::MAX_UTC)
    }

    /// The account of `player`, with when the session `token` ends.
    pub async fn account(&self, player: &Player, token: &str) -> Result<Account, AccountError> {
        let row = self
            .store
            .account(&player.player_id)
            .await?
            .ok_or(AccountError::NoAccount)?;
        let session = self.store.session(&fairness::token_hash(token)).await?;
        Ok(account_body(row, session.and_then(|session| session.expires_at)))
    }

    /// Gives `player` a login name and password. Its guest token keeps working, now with the
    /// expiry of any session.
    pub async fn claim(
        &self,
        player: &Player,
        token: &str,
        username: Username,
        password: Password,
    ) -> Result<Account, AccountError> {
        let password_hash = hash_password(password).await?;
        let now = Utc::now();
        self.store
            .claim(
                &player.player_id,
                username.as_str(),
                &password_hash,
                now,
                self.expiry_from(now),
            )
            .await
            .map_err(|refused| match refused {
                ClaimRefused::AlreadyClaimed => AccountError::AlreadyClaimed,
                ClaimRefused::UsernameTaken => AccountError::UsernameTaken(username.as_str().to_string()),
                ClaimRefused::Store(error) => AccountError::Store(error),
            })?;
        tracing::info!(player_id = %player.player_id, "account claimed");
        self.account(player, token).await
    }

    /// A new session for whoever knows the account's password. An unknown login name and a
    /// wrong password are the same refusal and take the same time (a password is verified
    /// against a stand-in hash), so a caller cannot tell which names exist.
    pub async fn login(
        &self,
        username: Username,
        password: Password,
    ) -> Result<SessionCreated, AccountError> {
        let login = self.store.login_by_username(username.as_str()).await?;
        let stored = login.as_ref().map(|login| login.password_hash.clone());
        let matches = verify_password(password, stored).await?;
        let Some(login) = login.filter(|_| matches) else {
            return Err(AccountError::InvalidCredentials);
        };
        let now = Utc::now();
        self.store.purge_expired_sessions(&login.player_id, now).await?;
        let token = fairness::new_token();
        let expires_at = self.expiry_from(now);
        self.store
            .insert_session(
                &fairness::token_hash(&token),
                &login.player_id,
                now,
                Some(expires_at),
            )
            .await?;
        tracing::info!(player_id = %login.player_id, "logged in");
        Ok(SessionCreated {
            player_id: login.player_id,
            name: login.name,
            username: login.username,
            token,
            expires_at,
        })
    }

    /// Ends the session `token`, or (`everywhere`) every session of `player`. Refused for a
    /// guest: its token is the only key to the account, and logging out would lose it.
    pub async fn log_out(&self, player: &Player, token: &str, everywhere: bool) -> Result<u64, AccountError> {
        let account = self
            .store
            .account(&player.player_id)
            .await?
            .ok_or(AccountError::NoAccount)?;
        if account.username.is_none() {
            return Err(AccountError::NotClaimed);
        }
        let ended = if everywhere {
            self.store.delete_sessions_of(&player.player_id).await?
        } else {
            u64::from(self.store.delete_session(&fairness::token_hash(token)).await?)
        };
        tracing::info!(player_id = %player.player_id, ended, everywhere, "logged out");
        Ok(ended)
    }
}

fn account_body(row: AccountRow, session_expires_at: Option<DateTime<Utc>>) -> Account {
    Account {
        player_id: row.player_id,
        name: row.name,
        username: row.username,
        claimed_at: row.claimed_at,
        session_expires_at,
    }
}

/// The argon2id PHC string of a password, with a fresh random salt.
async fn hash_password(password: Password) -> Result<String, AccountError> {
    tokio::task::spawn_blocking(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|hash| hash.to_string())
            .map_err(|error| AccountError::Password(format!("hashing a password: {error}")))
    })
    .await
    .map_err(|error| AccountError::Password(format!("the password hashing task failed: {error}")))?
}

/// A hash no password matches in practice (its password is random and thrown away): what an
/// unknown login name is verified against, so that it costs what a known one does.
static STAND_IN_HASH: LazyLock<Option<String>> = LazyLock::new(|| {
    Argon2::default()
        .hash_password(fairness::new_token().as_bytes())
        .map(|hash| hash.to_string())
        .ok()
});

/// Whether `password` is the one `stored` was made from; with no `stored` hash, a stand-in
/// is checked so the answer (always no) takes as long.
async fn verify_password(password: Password, stored: Option<String>) -> Result<bool, AccountError> {
    tokio::task::spawn_blocking(move || {
        let known = stored.is_some();
        let Some(phc) = stored.or_else(|| STAND_IN_HASH.clone()) else {
            return Err(AccountError::Password("no stand-in password hash".into()));
        };
        let parsed = PasswordHash::new(&phc).map_err(|error| {
            AccountError::Password(format!("a stored password hash is malformed: {error}"))
        })?;
        let verified = Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        Ok(known && verified)
    })
    .await
    .map_err(|error| AccountError::Password(format!("the password check task failed: {error}")))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_password_verifies_against_its_own_hash_only() {
        let hash = hash_password(Password::parse("correct horse").expect("password"))
            .await
            .expect("hash");
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        let right = Password::parse("correct horse").expect("password");
        let wrong = Password::parse("correct horsf").expect("password");
        assert!(
            verify_password(right.clone(), Some(hash.clone()))
                .await
                .expect("verify")
        );
        assert!(!verify_password(wrong, Some(hash)).await.expect("verify"));
        assert!(
            !verify_password(right, None).await.expect("stand-in"),
            "no account, no match"
        );
    }

    #[test]
    fn a_session_ttl_needs_a_unit_and_a_sane_length() {
        assert_eq!(session_ttl("30days"), Ok(Duration::from_secs(30 * 24 * 3600)));
        assert_eq!(session_ttl("90s"), Ok(Duration::from_secs(90)));
        assert!(session_ttl("0s").is_err());
        assert!(session_ttl("2years").is_err());
        assert!(session_ttl("30").is_err(), "no unit");
    }
}
