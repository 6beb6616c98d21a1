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
    pub matchmaking: crate::matchmaking::MatchmakingConfig,

    #[command(flatten)]
    pub abuse: crate::http::limits::AbuseConfig,

    #[command(flatten)]
    pub connections: crate::listener::ConnectionConfig,

    #[command(flatten)]
    pub limits: crate::input::InputLimits,

    #[command(flatten)]
    pub db: crate::store::DbSettings,
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
            matchmaking: crate::matchmaking::MatchmakingConfig::default(),
            abuse: crate::http::limits::AbuseConfig::default(),
            connections: crate::listener::ConnectionConfig::default(),
            limits: crate::input::InputLimits::default(),
            db: crate::store::DbSettings::default(),
        }
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
