//! The running actors by match id.

use super::MatchHandle;
use crate::record::MatchId;
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Default)]
pub struct LiveMatches {
    handles: Mutex<HashMap<MatchId, MatchHandle>>,
    /// Fired whenever an actor starts here: sockets opened before their match started wait
    /// on it rather than poll (in a cluster the start may happen on another node, so they
    /// also poll, slowly).
    started: tokio::sync::Notify,
}

impl LiveMatches {
    pub fn get(&self, match_id: &MatchId) -> Option<MatchHandle> {
        self.lock().get(match_id).cloned()
    }

    pub fn insert(&self, match_id: MatchId, handle: MatchHandle) {
        self.lock().insert(match_id, handle);
        self.started.notify_waiters();
    }

    /// Resolves at the next [`LiveMatches::insert`] after this call (enable it before checking
    /// whether the match is live, so a start in between is not missed).
    pub fn started(&self) -> tokio::sync::futures::Notified<'_> {
        self.started.notified()
    }

    /// Called by an actor when its match ends.
    pub fn remove(&self, match_id: &MatchId) {
        self.lock().remove(match_id);
    }

    /// Removes the entry only if its actor has closed its mailbox: a match this node lost may
    /// have been claimed back and started anew under the same id by then.
    pub(crate) fn remove_closed(&self, match_id: &MatchId) {
        let mut handles = self.lock();
        if handles.get(match_id).is_some_and(MatchHandle::is_closed) {
            handles.remove(match_id);
        }
    }

    /// Every running match and its handle (the cluster's lease check walks them).
    pub fn entries(&self) -> Vec<(MatchId, MatchHandle)> {
        self.lock()
            .iter()
            .map(|(match_id, handle)| (match_id.clone(), handle.clone()))
            .collect()
    }

    /// Empties the table, handing back every handle (graceful shutdown).
    pub fn drain(&self) -> Vec<MatchHandle> {
        self.lock().drain().map(|(_, handle)| handle).collect()
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<MatchId, MatchHandle>> {
        // A panic while holding this lock cannot leave the map half-updated, so keep going.
        self.handles
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
