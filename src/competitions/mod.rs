//! Competitions among friends: leagues and knockouts (issue 29).
//!
//! This floor starts with the decisions a competition makes that need nothing but numbers,
//! so they are pure and tested on their own, as `ratings` is:
//!
//! * [`fixtures`]: who plays whom. A league is a round robin (the circle method, single or
//!   double, a bye each round when the count is odd); a knockout is a bracket seeded by
//!   rating, the next power of two in size, with byes to the highest seeds.
//! * [`standings`]: the table the cricket way: played, won, lost, tied, no result, points
//!   and net run rate, with a side bowled out counted as having faced its full quota, and
//!   the tie-breaks in a documented order.
//!
//! * [`service`]: a competition's life over the lobby and the store: entries, the start
//!   (seeding and every fixture), each fixture's match once both sides are ready, results
//!   into the table and a knockout's winners into their next ties, the end.
//!
//! It sits above `matches` in the floors: creating each fixture as a match goes through the
//! lobby, as matchmaking does.

pub mod fixtures;
pub mod service;
pub mod standings;

pub use service::{CompetitionError, Competitions};
