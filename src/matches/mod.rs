//! Live matches: one actor per match, the single writer of its log.
//!
//! * [`actor`]: the generic `MatchActor<G>`: command -> `MatchCore` -> events committed ->
//!   ack + per-viewer broadcast; turn clocks, disconnect grace, server-side bots.
//! * [`handle`]: the cloneable, game-independent [`MatchHandle`] (a bounded mpsc sender);
//!   commands, views and events cross it as JSON, which is what lets one registry hold
//!   matches of every game.
//! * [`games`]: [`GameRegistry`], the type-erased table of games: registering one more
//!   `Game` type is all a new game needs.
//! * [`live`]: the table of running actors, filled at start (recovery) and when a lobby
//!   match fills.
//! * [`recent`]: an actor's bounded recent past, which resumes read instead of the log.
//! * [`lobby`]: seating players and starting a match when its seats are full.
//! * [`placement`]: where a started match's actor runs (here, or on a cluster's node),
//!   recovery after a restart, failover and drain.
//! * [`sockets`]: what a match socket opens onto (live, before the start, finished).

pub mod actor;
pub mod config;
pub mod games;
pub mod handle;
pub mod live;
pub mod lobby;
pub mod placement;
pub mod recent;
pub mod sockets;

pub use config::MatchesConfig;
pub use games::{GameError, GameKind, GameRegistry, Simulated};
pub use handle::{CommandError, MatchHandle, Subscription, ViewerBatch};
pub use live::LiveMatches;
pub use lobby::{Lobby, LobbyError, Sitter, new_match_row, options_object, seat_row};
pub use placement::{Actors, ClusterPlacement, LocalPlacement, Placement};
pub use sockets::{SocketPlan, SocketPlanner};

use crate::record::{Clocks, MatchId};
use crate::store::{Fence, Journal, SeatRow, Store};
use std::sync::Arc;

/// What an actor needs from the server around it.
#[derive(Clone)]
pub struct ActorContext {
    pub store: Store,
    /// Where the actor appends its log: group-committed with other matches' appends.
    pub journal: Journal,
    pub live: Arc<LiveMatches>,
    pub match_id: MatchId,
    pub clocks: Clocks,
    pub seats: Vec<SeatRow>,
    pub seed_commitment: String,
    pub seed_hex: String,
    /// In a cluster, the epoch of this node's lease on the match: every write carries it,
    /// and the database refuses it once another node has taken the match over.
    pub fence: Option<Fence>,
    /// How long an adjourned match may wait to resume before it ends as abandoned.
    pub adjourn_limit: std::time::Duration,
}
