//! The matchmaker's settings (`crease serve` flags and their environment variables).

use std::time::Duration;

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
