//! One node: every match runs here.

use super::{Actors, Placement};
use crate::matches::{LobbyError, MatchHandle};
use crate::record::{MatchId, MatchStatus};
use crate::rules::Viewer;
use crate::store::MatchRow;
use futures_util::future::BoxFuture;
use std::sync::Arc;

pub struct LocalPlacement {
    actors: Arc<Actors>,
}

impl LocalPlacement {
    pub fn new(actors: Arc<Actors>) -> Self {
        LocalPlacement { actors }
    }

    async fn start_here(&self, match_id: &MatchId) -> Result<(), LobbyError> {
        let row = self.actors.match_row(match_id).await?;
        let handle = self.actors.spawn(&row, Vec::new(), None).await?;
        // The actor logs the start before it reads its mailbox, so this answer means the
        // match is durably started when the caller hears it is live.
        handle.log(Viewer::Spectator).await;
        Ok(())
    }

    /// Restarts every live match from its log. A log that does not replay is reported and
    /// left alone rather than resumed wrongly.
    async fn resume_all(&self) -> Result<usize, LobbyError> {
        let store = &self.actors.store;
        let mut resumed = 0;
        for row in store.matches_with_status(MatchStatus::Live, i64::MAX).await? {
            let log = store.log(&row.match_id).await?;
            match self.actors.spawn(&row, log, None).await {
                Ok(_) => resumed += 1,
                Err(error) => tracing::error!(match_id = %row.match_id, %error, "could not resume match"),
            }
        }
        Ok(resumed)
    }
}

impl Placement for LocalPlacement {
    fn start<'a>(&'a self, match_id: &'a MatchId) -> BoxFuture<'a, Result<(), LobbyError>> {
        Box::pin(self.start_here(match_id))
    }

    fn recover(&self) -> BoxFuture<'_, Result<usize, LobbyError>> {
        Box::pin(self.resume_all())
    }

    fn handle_for(&self, row: &MatchRow) -> Option<MatchHandle> {
        self.actors.live.get(&row.match_id)
    }

    fn spans_nodes(&self) -> bool {
        false
    }

    fn drain(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }

    fn shutdown(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.actors.shutdown())
    }
}
