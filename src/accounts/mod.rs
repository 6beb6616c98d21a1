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
//! parameters) on a small pool of threads of their own with a bounded queue
//! ([`passwords`]), since one hash takes tens of milliseconds of CPU and 19 MiB.

pub mod passwords;
pub mod sessions;

use crate::cluster::Cluster;
use crate::fairness;
use crate::input::{Password, PlayerName, Username};
use crate::protocol::{Account, SessionCreated};
use crate::record::PlayerId;
use crate::store::{AccountRow, ClaimRefused, NameRefused, SessionRow, Store, StoreError, name_key};
use chrono::{DateTime, Utc};
use passwords::{PasswordError, PasswordPool};
use sessions::{OpenSessions, SessionWatch};
use std::sync::Arc;
use std::time::Duration;

/// `crease serve` settings for accounts and sessions.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct AccountConfig {
    /// How long a session of a claimed account lasts from when it was issued (a login, or
    /// the claim for the guest token): then the player logs in again.
    #[arg(long, env = "CREASE_SESSION_TTL", default_value = "30days", value_parser = session_ttl)]
    pub session_ttl: Duration,

    /// Password hashes (logins, claims) that may run at once, each on a thread of its own
    /// with 19 MiB of memory; unset, one per CPU core.
    #[arg(long, env = "CREASE_PASSWORD_HASH_THREADS",
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub password_hash_threads: Option<u16>,

    /// Logins and claims that may wait for a hashing thread; past that, 503 `overloaded`.
    #[arg(long, env = "CREASE_PASSWORD_HASH_QUEUE", default_value_t = 32,
          value_parser = clap::value_parser!(u16).range(0..=10_000))]
    pub password_hash_queue: u16,

    /// How often each node asks the database which sessions of its open sockets still
    /// exist, and closes the sockets of those that do not: the backstop for a logout
    /// announcement lost between nodes, and for sessions deleted in SQL.
    #[arg(long, env = "CREASE_SESSION_RECHECK", default_value = "10s", value_parser = recheck_interval)]
    pub session_recheck: Duration,
}

impl Default for AccountConfig {
    fn default() -> Self {
        AccountConfig {
            session_ttl: Duration::from_secs(30 * 24 * 60 * 60),
            password_hash_threads: None,
            password_hash_queue: 32,
            session_recheck: Duration::from_secs(10),
        }
    }
}

impl AccountConfig {
    /// The hashing threads: as configured, else one per core.
    pub fn hash_threads(&self) -> usize {
        self.password_hash_threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            usize::from,
        )
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

/// A recheck interval with a unit, from 100 ms to an hour.
fn recheck_interval(text: &str) -> Result<Duration, String> {
    let interval = humantime::parse_duration(text).map_err(|error| error.to_string())?;
    if interval < Duration::from_millis(100) || interval > Duration::from_secs(3600) {
        return Err("must be between 100ms and 1h".into());
    }
    Ok(interval)
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
    /// Every password thread is busy and its queue is full.
    #[error("too many logins at once; retry shortly")]
    Busy,
    /// An operator banned the player: the right password opens nothing.
    #[error("this account is banned")]
    Banned,
    /// Another player holds the display name (compared case-insensitively).
    #[error("the display name {0:?} is taken")]
    NameTaken(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<PasswordError> for AccountError {
    fn from(error: PasswordError) -> Self {
        match error {
            PasswordError::Busy => AccountError::Busy,
            PasswordError::Failed(message) => AccountError::Password(message),
        }
    }
}

/// A player known by a valid token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub player_id: PlayerId,
    pub name: String,
}

impl From<SessionRow> for Player {
    fn from(session: SessionRow) -> Self {
        Player {
            player_id: session.player_id,
            name: session.name,
        }
    }
}

/// Guests, claims, logins and logouts, over the store; and the sessions that open sockets hold.
pub struct Accounts {
    store: Store,
    session_ttl: chrono::TimeDelta,
    passwords: PasswordPool,
    sessions: Arc<OpenSessions>,
    /// Where logouts are announced to the other nodes (cluster mode).
    cluster: Option<Arc<Cluster>>,
}

impl Accounts {
    pub fn new(store: Store, config: &AccountConfig) -> Self {
        Accounts {
            store,
            session_ttl: chrono::TimeDelta::from_std(config.session_ttl).unwrap_or(chrono::TimeDelta::MAX),
            passwords: PasswordPool::new(config.hash_threads(), usize::from(config.password_hash_queue)),
            sessions: Arc::new(OpenSessions::default()),
            cluster: None,
        }
    }

    /// Announces logouts to the cluster's other nodes, and applies theirs here.
    pub fn with_cluster(mut self, cluster: Option<Arc<Cluster>>) -> Self {
        self.cluster = cluster;
        self
    }

    /// Starts this node's session upkeep: applying other nodes' logout announcements (in a
    /// cluster) and the periodic recheck against the database. Both stop with `stop`.
    pub async fn spawn_upkeep(
        &self,
        recheck_every: Duration,
        stop: tokio::sync::watch::Receiver<bool>,
    ) -> Vec<tokio::task::JoinHandle<()>> {
        let mut tasks = Vec::new();
        if let Some(cluster) = &self.cluster {
            match cluster.listen(sessions::TOPIC).await {
                Ok(messages) => {
                    let mut stopped = stop.clone();
                    let sessions = self.sessions.clone();
                    tasks.push(tokio::spawn(async move {
                        tokio::select! {
                            _ = sessions::listen(sessions, messages) => {}
                            _ = stopped.wait_for(|stop| *stop) => {}
                        }
                    }));
                }
                // The recheck still closes those sockets, only later.
                Err(error) => tracing::error!(%error, "cannot listen for other nodes' logouts"),
            }
        }
        tasks.push(tokio::spawn(sessions::recheck(
            self.sessions.clone(),
            self.store.clone(),
            recheck_every,
            stop,
        )));
        tasks
    }

    /// A new guest player and its token (the only key to the account until it is claimed).
    /// Display names are unique case-insensitively: a name another player holds gets the
    /// lowest free suffix (`Ana`, then `Ana #2`, `Ana #3`, ...).
    pub async fn create_player(&self, name: PlayerName) -> Result<(Player, String), AccountError> {
        /// Inserts refused by a name that was free when read (another request took it in
        /// between) before giving up with `name_taken`.
        const RACES: usize = 8;
        let token = fairness::new_token();
        let player_id = PlayerId::from_uuid(uuid::Uuid::new_v4());
        let hash = fairness::token_hash(&token);
        let mut n = 1;
        for _ in 0..RACES {
            let taken: std::collections::HashSet<String> = self
                .store
                .names_taken_like(&name_key(name.as_str()))
                .await?
                .into_iter()
                .collect();
            let candidate = loop {
                let candidate = if n == 1 { name.clone() } else { name.with_suffix(n) };
                if !taken.contains(&name_key(candidate.as_str())) {
                    break candidate;
                }
                n += 1;
            };
            match self
                .store
                .insert_player(&player_id, candidate.as_str(), &hash, Utc::now())
                .await
            {
                Ok(()) => {
                    let player = Player {
                        player_id,
                        name: candidate.into_string(),
                    };
                    return Ok((player, token));
                }
                Err(NameRefused::Taken) => n += 1,
                Err(NameRefused::Store(error)) => return Err(error.into()),
            }
        }
        Err(AccountError::NameTaken(name.into_string()))
    }

    /// Closes every open socket of `player_id`'s sessions, here and on every other node
    /// (a ban: the sessions stay, but open nothing while it lasts). Returns how many
    /// sessions it ended.
    pub async fn close_sockets_of(&self, player_id: &PlayerId) -> Result<usize, StoreError> {
        let sessions = self.store.sessions_of(player_id).await?;
        self.end_sockets(&sessions).await;
        Ok(sessions.len())
    }

    /// The player a bearer token opens: a session that exists and has not expired. Expiry is
    /// compared here, on this clock, so both backends agree.
    pub async fn authenticate(&self, token: &str) -> Result<Option<Player>, StoreError> {
        let found = self.store.session(&fairness::token_hash(token)).await?;
        let now = Utc::now();
        Ok(found.filter(|session| session.is_open_at(now)).map(Player::from))
    }

    /// The player a socket's token opens, with a watch that resolves when that session ends
    /// (logout, logout everywhere, expiry, deletion). `None` for a token that opens nothing.
    pub async fn socket_session(&self, token: &str) -> Result<Option<(Player, SessionWatch)>, StoreError> {
        let token_hash = fairness::token_hash(token);
        // Watched before the lookup: a logout that deletes the session after the lookup
        // notifies this watch (see `sessions`).
        let watch = self.sessions.watch(&token_hash);
        let now = Utc::now();
        let Some(session) = self
            .store
            .session(&token_hash)
            .await?
            .filter(|session| session.is_open_at(now))
        else {
            return Ok(None);
        };
        watch.open_until(session.expires_at);
        Ok(Some((Player::from(session), watch)))
    }

    /// Closes the sockets of the sessions `token_hashes`, here and on every other node.
    async fn end_sockets(&self, token_hashes: &[String]) {
        let sockets = self.sessions.end_tokens(token_hashes);
        if sockets > 0 {
            tracing::info!(sockets, "closing the sockets of ended sessions");
        }
        sessions::announce(self.cluster.as_deref(), token_hashes).await;
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
        let password_hash = self.passwords.hash(password).await?;
        let now = Utc::now();
        let expires_at = self.expiry_from(now);
        let guest_tokens = self.store.open_ended_sessions_of(&player.player_id).await?;
        self.store
            .claim(
                &player.player_id,
                username.as_str(),
                &password_hash,
                now,
                expires_at,
            )
            .await
            .map_err(|refused| match refused {
                ClaimRefused::AlreadyClaimed => AccountError::AlreadyClaimed,
                ClaimRefused::UsernameTaken => AccountError::UsernameTaken(username.as_str().to_string()),
                ClaimRefused::Store(error) => AccountError::Store(error),
            })?;
        // The guest token's open sockets now end with the session's new expiry.
        self.sessions.expire_tokens(&guest_tokens, expires_at);
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
        let matches = self.passwords.verify(password, stored).await?;
        let Some(login) = login.filter(|_| matches) else {
            return Err(AccountError::InvalidCredentials);
        };
        // Said only to whoever knows the password: the name's existence stays hidden.
        if login.banned_at.is_some() {
            return Err(AccountError::Banned);
        }
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
            player_id: login.player_id.into_string(),
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
            let token_hash = fairness::token_hash(token);
            match self.store.delete_session(&token_hash).await? {
                true => vec![token_hash],
                false => Vec::new(),
            }
        };
        self.end_sockets(&ended).await;
        tracing::info!(player_id = %player.player_id, ended = ended.len(), everywhere, "logged out");
        Ok(ended.len() as u64)
    }
}

fn account_body(row: AccountRow, session_expires_at: Option<DateTime<Utc>>) -> Account {
    Account {
        player_id: row.player_id.into_string(),
        name: row.name,
        username: row.username,
        claimed_at: row.claimed_at,
        session_expires_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_ttl_needs_a_unit_and_a_sane_length() {
        assert_eq!(session_ttl("30days"), Ok(Duration::from_secs(30 * 24 * 3600)));
        assert_eq!(session_ttl("90s"), Ok(Duration::from_secs(90)));
        assert!(session_ttl("0s").is_err());
        assert!(session_ttl("2years").is_err());
        assert!(session_ttl("30").is_err(), "no unit");
    }
}
