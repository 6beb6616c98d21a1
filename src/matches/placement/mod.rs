//! Where a match's actor runs, behind one trait the lobby calls: [`LocalPlacement`] spawns
//! every actor in this process; [`ClusterPlacement`] leases each match to one node of a
//! cluster, asks that node to start it, and keeps this node's share of the live matches
//! (heartbeat, failover claims, shedding lost leases, drain).
//!
//! Both run their actors through [`Actors`], the table of actors this process runs.

mod cluster;
mod local;

pub use cluster::ClusterPlacement;
pub use local::LocalPlacement;

use super::{ActorContext, GameRegistry, LiveMatches, LobbyError, MatchHandle};
use crate::record::LogEntry;
use crate::record::{Clocks, MatchId};
use crate::store::{Fence, Journal, MatchRow, Store};
use futures_util::future::BoxFuture;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinHandle;

/// Where live matches run. Boxed futures keep the trait object-safe, so the lobby holds
/// either placement without being generic over it.
pub trait Placement: Send + Sync {
    /// Runs a match the lobby has just marked live; returns once its start is durably logged
    /// (wherever it runs), so the caller may report it live.
    fn start<'a>(&'a self, match_id: &'a MatchId) -> BoxFuture<'a, Result<(), LobbyError>>;

    /// After a restart: resumes the live matches this process should run, from their logs.
    /// Returns how many it resumed.
    fn recover(&self) -> BoxFuture<'_, Result<usize, LobbyError>>;

    /// The handle of a live match: its actor here, or a route to the node that runs it.
    /// `None` if it runs nowhere this process can reach.
    fn handle_for(&self, row: &MatchRow) -> Option<MatchHandle>;

    /// Whether other processes seat players and run matches too: then this process's locks
    /// do not cover every join, and a live match may be briefly between nodes.
    fn spans_nodes(&self) -> bool;

    /// Hands this process's matches to others before the listener closes (a cluster's
    /// drain); a single node has nobody to hand them to and does nothing.
    fn drain(&self) -> BoxFuture<'_, ()>;

    /// Stops every actor here after the message it is handling, so no write is cut in half.
    fn shutdown(&self) -> BoxFuture<'_, ()>;
}

/// The actors this process runs: spawning one for a stored match, and stopping them all.
pub struct Actors {
    store: Store,
    /// The single writer every actor appends through (group commit).
    journal: Journal,
    games: Arc<GameRegistry>,
    live: Arc<LiveMatches>,
    joins: Mutex<Vec<JoinHandle<()>>>,
    /// How long an adjourned match may wait to resume (`--adjourn-limit-secs`).
    adjourn_limit: Duration,
}

impl Actors {
    pub fn new(store: Store, journal: Journal, games: Arc<GameRegistry>) -> Self {
        Actors {
            store,
            journal,
            games,
            live: Arc::new(LiveMatches::default()),
            joins: Mutex::new(Vec::new()),
            adjourn_limit: super::MatchesConfig::default().adjourn_limit(),
        }
    }

    /// Replaces the default limit on adjournments.
    pub fn with_adjourn_limit(mut self, limit: Duration) -> Self {
        self.adjourn_limit = limit;
        self
    }

    /// The running actors by match id.
    pub fn live(&self) -> &Arc<LiveMatches> {
        &self.live
    }

    async fn match_row(&self, match_id: &MatchId) -> Result<MatchRow, LobbyError> {
        self.store
            .get_match(match_id)
            .await?
            .ok_or(LobbyError::MatchNotFound)
    }

    /// Spawns the actor of `row`, rebuilt from `log` (empty for a match that has not
    /// started), its writes fenced by `fence` in a cluster.
    async fn spawn(
        &self,
        row: &MatchRow,
        log: Vec<LogEntry>,
        fence: Option<Fence>,
    ) -> Result<MatchHandle, LobbyError> {
        let game = self.games.require(&row.game)?;
        let seats = self.store.seats(&row.match_id).await?;
        let context = ActorContext {
            store: self.store.clone(),
            journal: self.journal.clone(),
            live: self.live.clone(),
            match_id: row.match_id.clone(),
            clocks: Clocks {
                turn: Duration::from_millis(row.turn_clock_ms.max(1) as u64),
                disconnect_grace: Duration::from_millis(row.disconnect_grace_ms.max(0) as u64),
            },
            seats,
            seed_commitment: row.seed_commitment.clone(),
            seed_hex: row.seed.clone(),
            fence,
            adjourn_limit: self.adjourn_limit,
        };
        let (handle, join) = game.spawn(context, &row.options.0, log)?;
        self.live.insert(row.match_id.clone(), handle.clone());
        let mut joins = self.lock_joins();
        // Finished matches' tasks are dropped here, so the list tracks live actors only and
        // does not grow with every match the server has ever run.
        joins.retain(|join| !join.is_finished());
        joins.push(join);
        Ok(handle)
    }

    async fn shutdown(&self) {
        for handle in self.live.drain() {
            handle.shutdown().await;
        }
        let joins: Vec<_> = self.lock_joins().drain(..).collect();
        for join in joins {
            let _ = join.await;
        }
    }

    fn lock_joins(&self) -> std::sync::MutexGuard<'_, Vec<JoinHandle<()>>> {
        self.joins.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
