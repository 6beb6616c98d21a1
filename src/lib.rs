//! crease: an authoritative server for cricket board games.
//!
//! # A tour of the layout, floor by floor
//!
//! Imports run one way, from the top of this list down: a module names only the modules
//! below it (`tests/architecture.rs` fails on an arrow that runs back up or on any import
//! circle; docs/architecture.md draws the floors).
//!
//! * [`cli`]: the `crease` binary's subcommands (`serve`, `simulate`, `arena`, `solve`,
//!   `bot`, `load`, `health`, `verify`, `admin`), one file each.
//! * [`app`]: the assembled server ([`app::Application`]), which tests spawn on port 0;
//!   [`config`] assembles each module's own config struct into `crease serve`'s flags.
//! * [`http`]: the HTTP routers (players, accounts, matches, matchmaking, games, history,
//!   ratings, cluster, health, web, OpenAPI), the abuse limits, and [`error`]'s `ApiError`,
//!   the boundary's one error enum.
//! * [`gateway`]: one WebSocket session: auth already done, it decodes, rate-limits,
//!   forwards commands to the match and fans events out. [`listener`]: the accept loop:
//!   connection cap, request-head deadline, peer address.
//! * [`moderation`]: the admin actions (ban, unban, rename, end a match) over accounts,
//!   the lobby and the store, each recorded in the audit log; the admin tokens' check.
//! * [`competitions`]: leagues and knockouts; so far their pure decisions: fixtures (round
//!   robin, a knockout seeded by rating with byes) and the cricket table (net run rate).
//! * [`matchmaking`]: the [`Matchmaker`](crate::matchmaking::Matchmaker) holds the lobby
//!   and pairs tickets (the pairing itself is a pure plan).
//! * [`matches`](mod@crate::matches): the lobby (seating and starting matches, nothing
//!   else), [`Placement`](crate::matches::Placement) (where an actor runs: here, or leased to
//!   a cluster's node, with recovery, failover and drain), the
//!   [`SocketPlanner`](crate::matches::SocketPlanner) (what a socket opens onto), the match
//!   actors (`matches/actor/`: one per live match, the single writer of its log), and the
//!   type-erased [`GameRegistry`](crate::matches::GameRegistry) that makes the server generic
//!   over games.
//! * [`accounts`]: players, sessions (and the sockets they hold), passwords.
//! * [`cluster`]: many nodes on one PostgreSQL: NATS membership and the route to a match's
//!   owner (off unless `--nats-url`); it carries a match's requests without knowing what a
//!   match is.
//! * [`store`]: every SQL query: the log and lobby tables on SQLite or PostgreSQL
//!   (`migrations/`), each query written once for both drivers (`store/backend.rs`), and
//!   the leases that fence a cluster's writes. [`ratings`] decides what is rated.
//! * [`input`]: parsing at the edge: ids (into the record's types), player names, printable
//!   text, clock ranges and WebSocket frames, so nothing behind it sees a control character or
//!   a malformed id.
//! * [`protocol`]: every JSON message on the wire (HTTP bodies and WebSocket frames),
//!   versioned; `proto/` is generated from it. `protocol::request` is what can be asked of a
//!   match (one enum for the mailbox and the cluster's route); `protocol::delta` makes
//!   protocol 2's merge patches of views.
//! * [`fairness`]: seeds, tokens, and the replay that `verify` and recovery share.
//! * [`record`]: the ground floor the layers above share: match and ticket status, log entry
//!   kinds, log entries and their payloads, the id newtypes, a match's clocks; one spelling
//!   for JSON and SQL.
//! * [`rules`]: the games themselves, pure and deterministic. [`rules::Game`] is the one
//!   trait every game implements, [`rules::GameExtras`] what it offers around the rules
//!   (listing, rating pool, scorecard, simulation figures, browser module, operator and
//!   career views), so a game's folder holds all of it; [`rules::Dice`] is the seeded stream
//!   every roll comes from; [`rules::MatchCore`] runs a game without any I/O.
//! * [`telemetry`]: the Prometheus metrics behind `GET /metrics`; [`logging`]: where log
//!   lines go and the filter that keeps sealed values out of them.
//!
//! # How a command flows
//!
//! socket frame -> gateway reads it in one pass into a `ClientMessage` (token -> seat) ->
//! match handle: a `MatchRequest` in the actor's bounded mailbox (or over NATS to the node
//! that owns the match) -> match actor: `Game::decide` on a copy of the match through the
//! shared `rules::Emitter`, which folds each event into the copy once (`Game::apply`) as it is
//! emitted, and per-viewer `Game::redact` into serialised frames -> events appended to the
//! log (group commit) -> the copy is adopted as it is -> per-viewer broadcast of the frames
//! and the new view -> ack.
//! A refused command writes nothing and gets a typed error.

pub mod accounts;
pub mod app;
pub mod cli;
pub mod cluster;
pub mod competitions;
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
pub mod moderation;
pub mod protocol;
pub mod ratings;
pub mod record;
pub mod rules;
pub mod store;
pub mod telemetry;
