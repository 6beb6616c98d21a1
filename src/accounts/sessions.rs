//! The sessions that open sockets hold, so that ending a session ends its sockets.
//!
//! A bearer token is checked once, when its WebSocket opens; from then on the socket plays
//! for the token's player. So logging out, "log out everywhere" and expiry must reach the
//! sockets, or a stolen token's socket would keep playing after its owner ended it. Each
//! socket opened with a token holds a [`SessionWatch`] from this registry, which resolves
//! when the session ends:
//!
//! * at once, on this node, when a logout ends it here ([`OpenSessions::end_tokens`]);
//! * on every other node of a cluster, by an announcement over NATS that each node's
//!   [`listen`] loop applies;
//! * at its expiry, by a timer in the watch itself (and a claim that gives a guest token an
//!   expiry tells the watches);
//! * and in any case within `--session-recheck` by [`recheck`], which asks the database which
//!   watched sessions still exist: that covers a lost announcement (a partition from NATS) and
//!   a session deleted by an operator in SQL.
//!
//! The registry holds one entry per session with open sockets (not per socket), removed when
//! the last of its sockets closes. It is keyed by token hash alone: a logout learns the
//! hashes it deleted from the database (`RETURNING`), and a socket registers its hash before
//! it looks the session up, so a logout racing a socket's opening is never missed (either
//! the lookup fails, or the logout's delete, and so its notice, came after the watch).

use crate::cluster::Cluster;
use crate::store::{Store, StoreError};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// Where a watched session stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Open { expires_at: Option<DateTime<Utc>> },
    Ended,
}

struct Entry {
    state: watch::Sender<State>,
    sockets: usize,
}

/// Every session that has a socket open on this node, by token hash.
#[derive(Default)]
pub struct OpenSessions {
    by_token: Mutex<HashMap<String, Entry>>,
}

/// What a node tells the others when a session ends (NATS, JSON).
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Ended {
    token_hashes: Vec<String>,
}

/// The NATS topic the announcements use (under the cluster's own prefix).
pub const TOPIC: &str = "sessions-ended";

impl OpenSessions {
    /// Starts watching the session `token_hash` for one socket. Taken before the session is
    /// looked up, so a logout racing the lookup is not missed.
    pub fn watch(self: &Arc<Self>, token_hash: &str) -> SessionWatch {
        let mut by_token = self.lock();
        let entry = by_token.entry(token_hash.to_string()).or_insert_with(|| Entry {
            state: watch::channel(State::Open { expires_at: None }).0,
            sockets: 0,
        });
        entry.sockets += 1;
        SessionWatch {
            state: entry.state.subscribe(),
            registry: self.clone(),
            token_hash: token_hash.to_string(),
        }
    }

    /// Ends the sessions `token_hashes` for their sockets here. Returns how many sockets.
    pub fn end_tokens(&self, token_hashes: &[String]) -> usize {
        let by_token = self.lock();
        token_hashes
            .iter()
            .filter_map(|hash| by_token.get(hash))
            .map(|entry| {
                entry.state.send_replace(State::Ended);
                entry.sockets
            })
            .sum()
    }

    /// The sessions `token_hashes`, which had no expiry, now end at `expires_at` (a claim).
    pub fn expire_tokens(&self, token_hashes: &[String], expires_at: DateTime<Utc>) {
        let by_token = self.lock();
        for entry in token_hashes.iter().filter_map(|hash| by_token.get(hash)) {
            entry.state.send_if_modified(|state| match state {
                State::Open { expires_at: None } => {
                    *state = State::Open {
                        expires_at: Some(expires_at),
                    };
                    true
                }
                _ => false,
            });
        }
    }

    /// The token hashes being watched now.
    fn watched(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        // A panic while holding this lock leaves the map itself consistent: keep using it.
        self.by_token
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn release(&self, token_hash: &str) {
        let mut by_token = self.lock();
        if let Some(entry) = by_token.get_mut(token_hash) {
            entry.sockets = entry.sockets.saturating_sub(1);
            if entry.sockets == 0 {
                by_token.remove(token_hash);
            }
        }
    }
}

/// One socket's hold on its session: [`SessionWatch::ended`] resolves when the session ends.
pub struct SessionWatch {
    state: watch::Receiver<State>,
    registry: Arc<OpenSessions>,
    token_hash: String,
}

impl SessionWatch {
    /// The session was found valid until `expires_at` (`None`: no expiry).
    pub fn open_until(&self, expires_at: Option<DateTime<Utc>>) {
        let mut by_token = self.registry.lock();
        if let Some(entry) = by_token.get_mut(&self.token_hash) {
            entry.state.send_if_modified(|state| match state {
                State::Open { .. } => {
                    *state = State::Open { expires_at };
                    true
                }
                State::Ended => false,
            });
        }
    }

    /// Resolves once the session has ended (logged out, ended everywhere, deleted, expired).
    /// Cancel-safe: it keeps no state of its own between polls.
    pub async fn ended(&mut self) {
        loop {
            let state = *self.state.borrow_and_update();
            let expiry = match state {
                State::Ended => return,
                State::Open { expires_at } => expires_at,
            };
            let until_expiry = async {
                match expiry {
                    Some(at) => tokio::time::sleep((at - Utc::now()).to_std().unwrap_or_default()).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                changed = self.state.changed() => {
                    if changed.is_err() {
                        // The registry entry is gone (cannot happen while we hold it): never end.
                        std::future::pending::<()>().await;
                    }
                }
                _ = until_expiry => return,
            }
        }
    }
}

impl Drop for SessionWatch {
    fn drop(&mut self) {
        self.registry.release(&self.token_hash);
    }
}

/// Tells the other nodes of the cluster that the sessions `token_hashes` ended.
pub(super) async fn announce(cluster: Option<&Cluster>, token_hashes: &[String]) {
    let ended = Ended {
        token_hashes: token_hashes.to_vec(),
    };
    if let (Some(cluster), Ok(payload)) = (cluster, serde_json::to_vec(&ended)) {
        cluster.announce(TOPIC, payload).await;
    }
}

/// Applies other nodes' announcements to this node's sockets until `messages` ends.
pub async fn listen(
    sessions: Arc<OpenSessions>,
    mut messages: impl futures_util::Stream<Item = Vec<u8>> + Unpin,
) {
    use futures_util::StreamExt;
    while let Some(payload) = messages.next().await {
        match serde_json::from_slice::<Ended>(&payload) {
            Ok(ended) => {
                sessions.end_tokens(&ended.token_hashes);
            }
            Err(error) => tracing::warn!(%error, "an unreadable session announcement"),
        }
    }
}

/// Every `interval`, ends the watched sessions the database no longer has: the backstop for
/// a lost announcement and for sessions deleted in SQL. Stops when `stop` turns true.
pub async fn recheck(
    sessions: Arc<OpenSessions>,
    store: Store,
    interval: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut ticks = tokio::time::interval(interval);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = stop.wait_for(|stop| *stop) => return,
        }
        if let Err(error) = recheck_once(&sessions, &store).await {
            // The database is away: the next tick tries again.
            tracing::debug!(%error, "could not recheck the sessions of open sockets");
        }
    }
}

/// One recheck: returns how many sessions it ended.
pub async fn recheck_once(sessions: &OpenSessions, store: &Store) -> Result<usize, StoreError> {
    let watched = sessions.watched();
    if watched.is_empty() {
        return Ok(0);
    }
    let existing = store.existing_sessions(&watched).await?;
    let gone: Vec<String> = watched
        .into_iter()
        .filter(|hash| !existing.contains(hash))
        .collect();
    sessions.end_tokens(&gone);
    Ok(gone.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn ends_within(watch: &mut SessionWatch, limit: Duration) -> bool {
        tokio::time::timeout(limit, watch.ended()).await.is_ok()
    }

    fn hashes(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| name.to_string()).collect()
    }

    #[tokio::test]
    async fn a_watch_ends_with_its_own_session_only() {
        let sessions = Arc::new(OpenSessions::default());
        let mut mine = sessions.watch("hash-a");
        let mut also_mine = sessions.watch("hash-a");
        let mut other_device = sessions.watch("hash-b");
        let mut bobs = sessions.watch("hash-c");
        assert!(!ends_within(&mut mine, Duration::from_millis(20)).await);
        assert_eq!(sessions.end_tokens(&hashes(&["hash-a", "hash-unknown"])), 2);
        assert!(ends_within(&mut mine, Duration::from_millis(100)).await);
        assert!(ends_within(&mut also_mine, Duration::from_millis(100)).await);
        assert!(!ends_within(&mut other_device, Duration::from_millis(20)).await);
        assert_eq!(sessions.end_tokens(&hashes(&["hash-b"])), 1);
        assert!(ends_within(&mut other_device, Duration::from_millis(100)).await);
        assert!(!ends_within(&mut bobs, Duration::from_millis(20)).await);
    }

    #[tokio::test]
    async fn a_watch_ends_at_its_expiry_and_a_claim_gives_a_guest_token_one() {
        let sessions = Arc::new(OpenSessions::default());
        let mut soon = sessions.watch("hash-a");
        soon.open_until(Some(Utc::now() + chrono::TimeDelta::milliseconds(150)));
        assert!(!ends_within(&mut soon, Duration::from_millis(50)).await);
        assert!(ends_within(&mut soon, Duration::from_millis(500)).await);
        let mut guest = sessions.watch("hash-g");
        guest.open_until(None);
        assert!(!ends_within(&mut guest, Duration::from_millis(50)).await);
        sessions.expire_tokens(
            &hashes(&["hash-g"]),
            Utc::now() + chrono::TimeDelta::milliseconds(100),
        );
        assert!(ends_within(&mut guest, Duration::from_millis(500)).await);
    }

    #[tokio::test]
    async fn the_last_socket_of_a_session_removes_its_entry_and_announcements_apply() {
        let sessions = Arc::new(OpenSessions::default());
        let first = sessions.watch("hash-a");
        let mut second = sessions.watch("hash-a");
        drop(first);
        assert_eq!(sessions.watched(), hashes(&["hash-a"]));
        let payload = serde_json::to_vec(&Ended {
            token_hashes: hashes(&["hash-a"]),
        })
        .expect("json");
        let stream = futures_util::stream::iter(vec![b"not json".to_vec(), payload]);
        listen(sessions.clone(), stream).await;
        assert!(ends_within(&mut second, Duration::from_millis(100)).await);
        drop(second);
        assert!(sessions.watched().is_empty());
    }
}
