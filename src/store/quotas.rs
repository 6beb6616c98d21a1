//! What a player holds open: for the abuse limits in `http::limits`, and for a ban.

use super::{Store, StoreResult};
use crate::record::{MatchId, PlayerId};

impl Store {
    /// Matches `player_id` holds a seat in that are not over (open or live), plus its
    /// matchmaking tickets still waiting: each one will become a match.
    pub async fn unfinished_commitments(&self, player_id: &PlayerId) -> StoreResult<i64> {
        const SQL: &str = "SELECT \
             (SELECT count(*) FROM match_seat s JOIN \"match\" m ON m.match_id = s.match_id \
               WHERE s.player_id = $1 AND m.status IN ('open', 'live')) \
           + (SELECT count(*) FROM matchmaking_ticket WHERE player_id = $1 AND status = 'waiting')";
        Ok(with_pool!(self, pool => sqlx::query_scalar::<_, i64>(SQL)
            .bind(player_id).fetch_one(pool).await)?)
    }

    /// The matches `player_id` holds a seat in that are not over (open or live), oldest first.
    pub async fn unfinished_matches_of(&self, player_id: &PlayerId) -> StoreResult<Vec<MatchId>> {
        const SQL: &str = "SELECT m.match_id FROM match_seat s JOIN \"match\" m ON m.match_id = s.match_id \
             WHERE s.player_id = $1 AND m.status IN ('open', 'live') ORDER BY m.created_at, m.match_id";
        Ok(with_pool!(self, pool => sqlx::query_scalar::<_, MatchId>(SQL)
            .bind(player_id).fetch_all(pool).await)?)
    }
}
