//! When each seat's current decision was asked, so that a command names the decision it
//! answers.
//!
//! A client sends with each command the last seq it had seen (`after`). A seat's decision is
//! *asked at* the last seq of the change that made the seat pending, or of the change its own
//! previous command made (which closed the previous decision, even if the seat is asked again
//! at once). A command whose `after` is lower than that was decided for an earlier decision:
//! late (held in a partition), replayed, or answered twice after an in-doubt answer. It is
//! refused, never applied to a decision the player has not seen.
//!
//! The actor keeps the figure as it adopts each change; a match rebuilt from its log
//! (recovery, a takeover) derives the same figure from the log, change by change.

use crate::fairness::{self, Mismatch, Replayed};
use crate::record::{CommandRecord, EntryKind, LogEntry};
use crate::rules::{Game, Seat, Seed};

/// Moves each seat's asked-at seq past a change that ended at `last_seq`: a seat asked now that
/// was not asked before, or that acted in this change and is asked again.
pub(super) fn asked_after_change(
    asked_at: &mut [i64],
    pending_before: &[Seat],
    pending_after: &[Seat],
    acted: Option<Seat>,
    last_seq: i64,
) {
    for seat in pending_after {
        let newly_asked = !pending_before.contains(seat) || acted == Some(*seat);
        if let Some(slot) = asked_at.get_mut(seat.index())
            && newly_asked
        {
            *slot = last_seq;
        }
    }
}

/// Replays `log` (as [`fairness::replay`] does) and derives each seat's asked-at seq from it,
/// change by change, exactly as the actor would have kept it live.
pub(super) fn replay<G: Game>(
    options: &G::Options,
    seed: &Seed,
    log: &[LogEntry],
    seats: usize,
) -> Result<(Replayed<G>, Vec<i64>), Mismatch> {
    // Where each change ends and which seat's command made it (the start has none).
    let mut ends = std::collections::HashMap::new();
    let mut acted = None;
    for (index, entry) in log.iter().enumerate() {
        if entry.kind == EntryKind::Command {
            acted = serde_json::from_value::<CommandRecord>(entry.payload.clone())
                .ok()
                .map(|record| record.seat);
        }
        let next_is_event = log
            .get(index + 1)
            .is_some_and(|next| next.kind == EntryKind::Event);
        if entry.kind == EntryKind::Event && !next_is_event {
            ends.insert(entry.seq, acted.take());
        }
    }
    let mut asked_at = vec![0; seats];
    let mut pending: Vec<Seat> = Vec::new();
    let replayed = fairness::replay::<G>(options, seed, log, |state, seq, _| {
        if let Some(acted) = ends.get(&seq) {
            let now = if G::outcome(state).is_some() {
                Vec::new()
            } else {
                G::pending(state)
            };
            asked_after_change(&mut asked_at, &pending, &now, *acted, seq);
            pending = now;
        }
    })?;
    Ok((replayed, asked_at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_asked_when_it_becomes_pending_or_acts_and_is_asked_again() {
        let (a, b) = (Seat(0), Seat(1));
        let mut asked = vec![0, 0];
        // Both asked at once (a sealed choice).
        asked_after_change(&mut asked, &[], &[a, b], None, 5);
        assert_eq!(asked, [5, 5]);
        // a answers; b is still asked the same decision.
        asked_after_change(&mut asked, &[a, b], &[b], Some(a), 7);
        assert_eq!(asked, [5, 5]);
        // b answers and is asked again at once (a roll after a roll): a new decision.
        asked_after_change(&mut asked, &[b], &[b], Some(b), 9);
        assert_eq!(asked, [5, 9]);
        // The other side's move asks a again.
        asked_after_change(&mut asked, &[b], &[a], Some(b), 12);
        assert_eq!(asked, [12, 9]);
    }
}
