//! Server configuration from flags and the environment (clap), with defaults that need no
//! other service: SQLite in the working directory, loopback only.
//!
//! The top of the configuration: every module owns the settings it reads (`matchmaking`'s,
//! `accounts`', `listener`'s, `input`'s, `store`'s, `cluster`'s, `moderation`'s, the HTTP
//! abuse limits) and
//! this file assembles them into `crease serve`'s flags. It may name any module's config;
//! no module below names this one, so a module's settings change with the module.

use crate::matchmaking::MatchmakingConfig;
use crate::record::Clocks;
use std::net::SocketAddr;
use std::time::Duration;

/// `crease serve` settings. Every flag can also come from the environment variable named
/// beside it, which is how containers configure the server.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeConfig {
    /// Address and port to listen on.
    #[arg(long, env = "CREASE_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// `sqlite://path` (created on first run) or `postgres://user@host/db`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://crease.db")]
    pub database_url: String,

    /// Log one JSON object per line instead of human-readable text.
    #[arg(long, env = "CREASE_LOG_JSON")]
    pub log_json: bool,

    /// Default seconds a seat has for each decision before the server plays its default move.
    #[arg(long, env = "CREASE_TURN_CLOCK_SECS", default_value_t = 60)]
    pub turn_clock_secs: u64,

    /// Default seconds a seated player may stay disconnected from a live match before forfeiting.
    #[arg(long, env = "CREASE_DISCONNECT_GRACE_SECS", default_value_t = 300)]
    pub disconnect_grace_secs: u64,

    #[command(flatten)]
    pub matches: crate::matches::MatchesConfig,

    #[command(flatten)]
    pub matchmaking: MatchmakingConfig,

    #[command(flatten)]
    pub abuse: crate::http::limits::AbuseConfig,

    #[command(flatten)]
    pub accounts: crate::accounts::AccountConfig,

    #[command(flatten)]
    pub connections: crate::listener::ConnectionConfig,

    #[command(flatten)]
    pub limits: crate::input::InputLimits,

    #[command(flatten)]
    pub db: crate::store::DbSettings,

    #[command(flatten)]
    pub cluster: crate::cluster::ClusterConfig,

    #[command(flatten)]
    pub admin: crate::moderation::AdminConfig,
}

impl ServeConfig {
    /// The configuration tests and embedders start from: an ephemeral port and the given database.
    pub fn for_database(database_url: impl Into<String>) -> Self {
        ServeConfig {
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            database_url: database_url.into(),
            log_json: false,
            turn_clock_secs: 60,
            disconnect_grace_secs: 300,
            matches: crate::matches::MatchesConfig::default(),
            matchmaking: MatchmakingConfig::default(),
            abuse: crate::http::limits::AbuseConfig::default(),
            accounts: crate::accounts::AccountConfig::default(),
            connections: crate::listener::ConnectionConfig::default(),
            limits: crate::input::InputLimits::default(),
            db: crate::store::DbSettings::default(),
            cluster: crate::cluster::ClusterConfig::default(),
            admin: crate::moderation::AdminConfig::default(),
        }
    }

    /// Settings that are each well-formed but unusable, refused before the server starts: the
    /// server's default clocks must lie in the ranges a match may ask for (a `u64::MAX`
    /// second clock would otherwise saturate into a match that never times out).
    pub fn validate(&self) -> Result<(), String> {
        self.connections.validate()?;
        self.cluster.validate()?;
        if self.cluster.enabled()
            && !(self.database_url.starts_with("postgres:") || self.database_url.starts_with("postgresql:"))
        {
            return Err(
                "--nats-url (cluster mode) needs a postgres:// DATABASE_URL shared by every node".into(),
            );
        }
        self.limits
            .turn_clock(self.turn_clock_secs)
            .map_err(|error| format!("--turn-clock-secs: {error}"))?;
        self.limits
            .disconnect_grace(self.disconnect_grace_secs)
            .map_err(|error| format!("--disconnect-grace-secs: {error}"))?;
        Ok(())
    }

    pub fn clocks(&self) -> Clocks {
        Clocks {
            turn: Duration::from_secs(self.turn_clock_secs),
            disconnect_grace: Duration::from_secs(self.disconnect_grace_secs),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_clocks_outside_the_match_ranges_refuse_to_start() {
        let mut config = ServeConfig::for_database("sqlite::memory:");
        assert_eq!(config.validate(), Ok(()));
        config.turn_clock_secs = u64::MAX;
        let error = config.validate().expect_err("a u64::MAX turn clock");
        assert!(error.starts_with("--turn-clock-secs"), "{error}");
        config.turn_clock_secs = 0;
        assert!(config.validate().is_err(), "a zero turn clock");
        config.turn_clock_secs = 60;
        config.disconnect_grace_secs = config.limits.max_disconnect_grace_secs + 1;
        let error = config.validate().expect_err("a grace past its maximum");
        assert!(error.starts_with("--disconnect-grace-secs"), "{error}");
    }
}
