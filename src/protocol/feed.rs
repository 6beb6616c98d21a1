//! What a viewer's sockets receive from a match actor, already serialised: the same types
//! whether the actor runs on this node or (in a cluster) on another.

use super::{Frame, Snapshot};
use std::sync::Arc;
use tokio::sync::broadcast;

/// What one viewer receives after one accepted command (or the start, a timeout, a bot move):
/// its events, its new view and, at the end, the result, already serialised by the actor, so
/// the sockets never call into the game and never serialise again.
#[derive(Debug, Default, PartialEq)]
pub struct ViewerBatch {
    pub frames: Vec<Frame>,
    /// The seq of the last log entry before this batch's: what a socket must already hold
    /// for this batch to follow on. A relay that has less lost a batch on the way (a NATS
    /// link that dropped, say) and must have its sockets resume instead of skipping events.
    pub after: i64,
    /// The seq of the last log entry once this batch is applied.
    pub last_seq: i64,
    /// The last batch from this actor: the match goes on elsewhere (another node took it
    /// over, or this one is draining). Sockets close with 1001 so clients resume.
    pub moved: bool,
}

impl ViewerBatch {
    /// The marker an actor that stops running a live match sends its viewers.
    pub fn moved(last_seq: i64) -> ViewerBatch {
        ViewerBatch {
            frames: Vec::new(),
            after: last_seq,
            last_seq,
            moved: true,
        }
    }
}

/// A connection's start: a snapshot, the event frames after `resume_from` it missed, and its
/// viewer's live feed from exactly that point on (taken inside the actor, so nothing falls
/// in between).
pub struct Subscription {
    pub snapshot: Snapshot,
    pub backlog: Vec<Frame>,
    pub feed: broadcast::Receiver<Arc<ViewerBatch>>,
}
