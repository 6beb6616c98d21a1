//! A match's clocks: part of its record, written in its row (`turn_clock_ms`,
//! `disconnect_grace_ms`) so a restart keeps them.

use std::time::Duration;

/// The two clocks of a match. Chosen per match at creation (defaulting to the server's), and
/// stored with the match so a restart keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    pub turn: Duration,
    pub disconnect_grace: Duration,
}
