//! The running actors by match id.

use super::MatchHandle;
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Default)]
pub struct LiveMatches {
    handles: Mutex<HashMap<String, MatchHandle>>,
}

impl LiveMatches {
    pub fn get(&self, match_id: &str) -> Option<MatchHandle> {
        self.lock().get(match_id).cloned()
    }

    pub fn insert(&self, match_id: String, handle: MatchHandle) {
        self.lock().insert(match_id, handle);
    }

    /// Called by an actor when its match ends.
    pub fn remove(&self, match_id: &str) {
        self.lock().remove(match_id);
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

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, MatchHandle>> {
        // A panic while holding this lock cannot leave the map half-updated, so keep going.
        self.handles
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
