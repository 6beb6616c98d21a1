//! Server configuration from flags and the environment (clap), with defaults that need no
//! other service: SQLite in the working directory, loopback only.

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
            matchmaking: MatchmakingConfig::default(),
            abuse: crate::http::limits::AbuseConfig::default(),
            accounts: crate::accounts::AccountConfig::default(),
            connections: crate::listener::ConnectionConfig::default(),
            limits: crate::input::InputLimits::default(),
            db: crate::store::DbSettings::default(),
            cluster: crate::cluster::ClusterConfig::default(),
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

/// The two clocks of a match. Chosen per match at creation (defaulting to the server's), and
/// stored with the match so a restart keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    pub turn: Duration,
    pub disconnect_grace: Duration,
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

// Matchmaking's settings live here, not in `matchmaking`, so configuration depends on no
// server module (the matchmaker reads them; they do not read the matchmaker).
/// How far apart in rating a pairing may be, and how long a ticket waits before a bot.
#[derive(Debug, Clone, Copy, PartialEq, clap::Args)]
pub struct MatchmakingConfig {
    /// Rating difference a fresh ticket accepts.
    #[arg(
        long = "matchmaking-window",
        env = "CREASE_MATCHMAKING_WINDOW",
        default_value_t = 100.0
    )]
    pub base_window: f64,
    /// How much the acceptable difference grows per second of waiting.
    #[arg(
        long = "matchmaking-widen-per-sec",
        env = "CREASE_MATCHMAKING_WIDEN_PER_SEC",
        default_value_t = 10.0
    )]
    pub widen_per_sec: f64,
    /// The widest the window gets.
    #[arg(
        long = "matchmaking-max-window",
        env = "CREASE_MATCHMAKING_MAX_WINDOW",
        default_value_t = 800.0
    )]
    pub max_window: f64,
    /// Seconds a ticket that opted into `bot_fallback` waits before it gets a bot opponent.
    #[arg(
        long = "matchmaking-bot-after-secs",
        env = "CREASE_MATCHMAKING_BOT_AFTER_SECS",
        default_value_t = 60
    )]
    pub bot_after_secs: u64,
    /// Milliseconds between timed passes.
    #[arg(
        long = "matchmaking-tick-ms",
        env = "CREASE_MATCHMAKING_TICK_MS",
        default_value_t = 1000
    )]
    pub tick_ms: u64,
}

impl Default for MatchmakingConfig {
    fn default() -> Self {
        MatchmakingConfig {
            base_window: 100.0,
            widen_per_sec: 10.0,
            max_window: 800.0,
            bot_after_secs: 60,
            tick_ms: 1000,
        }
    }
}

impl MatchmakingConfig {
    /// The rating difference a ticket accepts after waiting `waited`.
    pub fn window(&self, waited: Duration) -> f64 {
        (self.base_window + self.widen_per_sec * waited.as_secs_f64()).min(self.max_window)
    }
}
