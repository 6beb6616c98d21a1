//! The matches' own settings, flattened into `crease serve`'s flags.

use std::time::Duration;

/// Two weeks: long enough for friends to find another evening, short enough that a match
/// nobody will finish does not hold its players' slots for ever.
pub const DEFAULT_ADJOURN_LIMIT_SECS: u64 = 14 * 24 * 3600;

#[derive(Debug, Clone, clap::Args)]
pub struct MatchesConfig {
    /// Seconds a match adjourned by agreement may wait to resume before it ends as
    /// abandoned (no result, no rating change).
    #[arg(long, env = "CREASE_ADJOURN_LIMIT_SECS", default_value_t = DEFAULT_ADJOURN_LIMIT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    pub adjourn_limit_secs: u64,
}

impl Default for MatchesConfig {
    fn default() -> Self {
        MatchesConfig {
            adjourn_limit_secs: DEFAULT_ADJOURN_LIMIT_SECS,
        }
    }
}

impl MatchesConfig {
    pub fn adjourn_limit(&self) -> Duration {
        Duration::from_secs(self.adjourn_limit_secs)
    }
}
