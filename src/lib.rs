//! crease: an authoritative server for cricket board games.
//!
//! # A tour of the layout
//!
//! * [`rules`]: the games themselves, pure and deterministic. [`rules::Game`] is the one
//!   trait every game implements; [`rules::Dice`] is the seeded stream every roll comes from;
//!   [`rules::MatchCore`] runs a game without any I/O.
//! * [`cli`]: the `crease` binary's subcommands (`serve`, `simulate`, `bot`, `load`, `verify`),
//!   one file each.
//!
//! # How a command flows
//!
//! socket frame -> gateway decodes and authenticates (token -> seat) -> match handle
//! (bounded channel) -> match actor: `Game::decide` -> events appended to the log in one
//! transaction -> `Game::apply` -> ack to the sender -> per-seat `Game::redact` + broadcast.
//! A refused command writes nothing and gets a typed error.

pub mod cli;
pub mod rules;
