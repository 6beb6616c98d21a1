//! crease: an authoritative server for cricket board games.
//!
//! # A tour of the layout
//!
//! * [`rules`]: the games themselves, pure and deterministic. [`rules::Game`] is the one
//!   trait every game implements, [`rules::GameExtras`] what it offers around the rules
//!   (listing, rating pool, scorecard, simulation figures, browser module, operator views),
//!   so a game's folder holds all of it; [`rules::Dice`] is the seeded stream every roll
//!   comes from; [`rules::MatchCore`] runs a game without any I/O.
//! * [`cli`]: the `crease` binary's subcommands (`serve`, `simulate`, `arena`, `bot`, `verify`), one
//!   file each; [`config`] holds the server's flags and environment variables.
//! * [`app`]: the assembled server ([`app::Application`]), which tests spawn on port 0.
//! * [`record`]: the ground floor the layers above share: match and ticket status, log entry
//!   kinds, log entries and their payloads, the id newtypes; one spelling for JSON and SQL.
//! * [`protocol`]: every JSON message on the wire (HTTP bodies and WebSocket frames),
//!   versioned; `proto/` is generated from it. `protocol::delta` makes protocol 2's merge
//!   patches of views.
//! * [`http`]: the HTTP routers (players, matches, matchmaking, history, health).
//! * [`listener`]: the accept loop: connection cap, request-head deadline, peer address.
//! * [`input`]: parsing at the edge: ids (into the record's types), player names, printable
//!   text, clock ranges and WebSocket frames, so nothing behind it sees a control character or
//!   a malformed id.
//! * [`gateway`]: one WebSocket session: auth already done, it decodes, rate-limits,
//!   forwards commands to the match and fans events out.
//! * [`matches`](mod@crate::matches): the match actors (one per live match, the single writer of its log), the
//!   type-erased [`GameRegistry`](crate::matches::GameRegistry) that makes the server generic over games, the
//!   lobby, where matches run ([`Placement`](crate::matches::Placement): here, or leased to a cluster's
//!   node, with recovery, failover and drain), and what a match socket opens onto.
//!   [`matchmaking`] holds the lobby and pairs tickets; [`accounts`] knows players and tokens.
//! * [`store`]: every SQL query: the log and lobby tables on SQLite or PostgreSQL
//!   (`migrations/`), each query written once for both drivers (`store/backend.rs`).
//!   [`ratings`] decides what is rated; its SQL is the store's too.
//! * [`cluster`]: many nodes on one PostgreSQL: NATS membership, routing of sockets to a
//!   match's owner, announcements (off unless `--nats-url`); the leases are the store's.
//! * [`fairness`]: seeds, tokens, and the replay that `verify` and recovery share.
//! * [`telemetry`]: the Prometheus metrics behind `GET /metrics`; [`logging`]: where log
//!   lines go and the filter that keeps sealed values out of them.
//!
//! # How a command flows
//!
//! socket frame -> gateway decodes and authenticates (token -> seat) -> match handle
//! (bounded channel) -> match actor: `Game::decide` on a copy of the match through the
//! shared `rules::Emitter`, which folds each event into the copy once (`Game::apply`) as it is
//! emitted, and per-viewer `Game::redact` into serialised frames -> events appended to the
//! log (group commit) -> the copy is adopted as it is -> per-viewer broadcast of the frames
//! and the new view -> ack.
//! A refused command writes nothing and gets a typed error.

pub mod accounts;
pub mod app;
pub mod cli;
pub mod cluster;
pub mod config;
pub mod error;
pub mod fairness;
pub mod gateway;
pub mod http;
pub mod input;
pub mod listener;
pub mod logging;
pub mod matches;
pub mod matchmaking;
pub mod protocol;
pub mod ratings;
pub mod record;
pub mod rules;
pub mod store;
pub mod telemetry;
