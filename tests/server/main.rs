//! The server's tests, in one binary: the app over real sockets on SQLite and PostgreSQL,
//! the CLI, the stores, the kill drill and the cluster drills (child processes of their own).
//! Each file is a module here, so the crate is linked once for all of them.
//!
//! Tests that read or install process-wide state (the metrics recorder, the global tracing
//! subscriber, a panic hook) or bound a paused clock's leaps are not here: each has a binary
//! of its own (`Cargo.toml` says why).

#[path = "../common/mod.rs"]
mod common;
#[path = "../drills/mod.rs"]
mod drills;
mod games_common;
mod outage_support;

mod accounts;
mod adjourn;
mod admin;
mod backups;
mod bot_cli;
mod bot_levels;
mod champions;
mod cluster;
mod cluster_chaos;
mod cluster_faults;
mod competitions;
mod connections;
mod ctg;
mod deltas;
mod drill_kill;
mod fairness;
mod fourth_game;
mod learn;
mod load_cli;
mod lobby;
mod log_format;
mod matchmaking;
mod openapi;
mod outage;
mod profile;
mod protocol;
mod ratings;
mod readme_tour;
mod recovery;
mod rejections;
mod scorecard;
mod store_backends;
mod store_enums;
mod toy_match;
mod validation;
mod wicketz;
