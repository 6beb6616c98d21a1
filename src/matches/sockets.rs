//! What a match socket opens onto, decided in one place: the live match (its handle and a
//! subscription), a seated player's wait before the start, or a finished match's final
//! snapshot. Every snapshot a socket gets outside a live actor is built here; a live
//! actor builds its own.

use super::{Lobby, LobbyError, MatchHandle, Subscription};
use crate::protocol::{Protocol, Snapshot};
use crate::record::{MatchId, MatchStatus};
use crate::rules::{Outcome, Seat, Viewer};
use crate::store::{MatchRow, Store};
use std::sync::Arc;

/// What a socket to a match is to run.
pub enum SocketPlan {
    /// The match is live: follow its actor.
    Live {
        handle: MatchHandle,
        subscription: Subscription,
    },
    /// The match is still open and the viewer holds a seat in it: show the empty table and
    /// wait for the start.
    BeforeStart {
        snapshot: Snapshot,
        seat: Seat,
        max_command_bytes: usize,
    },
    /// The match is over: its final snapshot, and the seed that is now revealed.
    Finished { snapshot: Snapshot, seed: String },
}

/// Plans match sockets, keeping finished matches' final snapshots.
pub struct SocketPlanner {
    lobby: Arc<Lobby>,
    store: Store,
    finished: FinishedSnapshots,
}

impl SocketPlanner {
    pub fn new(lobby: Arc<Lobby>, store: Store) -> Self {
        SocketPlanner {
            lobby,
            store,
            finished: FinishedSnapshots::default(),
        }
    }

    /// What a socket of `viewer` to the match `row` (as the caller just read it, for its 404),
    /// resuming after event `resume_from`, opens onto. [`LobbyError::Moving`] when, in a cluster, no node runs the live match this
    /// moment; [`LobbyError::NotLive`] for a match nobody may watch now (open, to anyone
    /// unseated; cancelled).
    pub async fn plan(
        &self,
        row: &MatchRow,
        viewer: Viewer,
        resume_from: Option<i64>,
        protocol: Protocol,
    ) -> Result<SocketPlan, LobbyError> {
        if let Some(handle) = self.lobby.handle_for(row) {
            // `None` means the match ended between the lookup and now (serve it as finished)
            // or, in a cluster, that no node runs it this moment (it is moving).
            if let Some(subscription) = handle.subscribe(viewer, resume_from, protocol).await {
                return Ok(SocketPlan::Live { handle, subscription });
            }
        }
        // Read again: the match may have ended (or moved) since the caller's read.
        let row = self.lobby.match_row(&row.match_id).await?;
        let game = self.lobby.games().require(&row.game)?;
        match (row.status(), viewer) {
            (MatchStatus::Finished, _) => {}
            (MatchStatus::Live, _) if self.lobby.spans_nodes() => return Err(LobbyError::Moving),
            // A seated player may connect before the last seat is taken: it waits for the start.
            (MatchStatus::Open, Viewer::Seat(seat)) => {
                let view = game.replayed_view(&row, &[], viewer)?;
                return Ok(SocketPlan::BeforeStart {
                    snapshot: snapshot(&row, protocol, viewer, view, 0),
                    seat,
                    max_command_bytes: game.max_command_bytes(),
                });
            }
            _ => return Err(LobbyError::NotLive),
        }
        let key = (row.match_id.clone(), viewer, protocol.number());
        let snapshot = match self.finished.get(&key) {
            Some(snapshot) => snapshot,
            None => {
                let log = self.store.log(&row.match_id).await?;
                let view = game.replayed_view(&row, &log, viewer)?;
                let last_seq = log.last().map_or(0, |entry| entry.seq);
                let snapshot = snapshot(&row, protocol, viewer, view, last_seq);
                self.finished.put(key, snapshot.clone());
                snapshot
            }
        };
        Ok(SocketPlan::Finished {
            snapshot,
            seed: row.seed,
        })
    }
}

/// The snapshot of a match no actor runs (open or finished), as of `last_seq`.
fn snapshot(
    row: &MatchRow,
    protocol: Protocol,
    viewer: Viewer,
    view: serde_json::Value,
    last_seq: i64,
) -> Snapshot {
    let status = row.status();
    let result = row
        .result
        .as_ref()
        .filter(|_| status == MatchStatus::Finished)
        .and_then(|json| serde_json::from_value::<Outcome>(json.0.clone()).ok());
    Snapshot {
        protocol: protocol.number(),
        match_id: row.match_id.to_string(),
        game: row.game.clone(),
        status,
        seat: match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        },
        view: protocol.view(view),
        pending: Vec::new(),
        last_seq,
        deadline_ms: None,
        seed_commitment: row.seed_commitment.clone(),
        result,
        // No actor runs the match: it is not live, so nothing about adjourning stands.
        adjournment: None,
    }
}

/// Finished matches' final snapshots by match, viewer and protocol, the most recently used
/// kept. A finished match never changes, and its view is rebuilt by replaying its whole log
/// through the engine: tens of milliseconds for a long match, too dear to spend on every
/// socket anyone opens to it (spectators need no account).
struct FinishedSnapshots {
    cache: std::sync::Mutex<hashlink::LruCache<(MatchId, Viewer, u32), Snapshot>>,
}

/// Snapshots kept: a few KiB each (a CTG view is about 8 KiB), a few MiB in all.
const FINISHED_SNAPSHOTS: usize = 512;

impl Default for FinishedSnapshots {
    fn default() -> Self {
        FinishedSnapshots {
            cache: std::sync::Mutex::new(hashlink::LruCache::new(FINISHED_SNAPSHOTS)),
        }
    }
}

impl FinishedSnapshots {
    fn get(&self, key: &(MatchId, Viewer, u32)) -> Option<Snapshot> {
        let mut cache = self.cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        cache.get(key).cloned()
    }

    fn put(&self, key: (MatchId, Viewer, u32), snapshot: Snapshot) {
        let mut cache = self.cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        cache.insert(key, snapshot);
    }
}
