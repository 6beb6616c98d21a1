//! How long the server waits for its database, and how it retries: the settings that turn a
//! database outage into fast, typed `unavailable` answers instead of 30 s hangs.

use std::time::Duration;
use tokio::time::Instant;

/// Runs `future` until `deadline`; `None` if it had not finished by then.
///
/// Every command's write is bounded, so this is on the hot path: it uses tokio's timer wheel,
/// which costs a worker nothing but a slot. (A helper-thread timer such as `futures-timer`
/// woke that thread for every command and cost a sixth of the max-pace throughput.) Tests
/// that pause tokio's clock therefore give the database generous bounds
/// (`tests/common::for_paused_clock`): a paused clock leaps ahead while SQLite works.
pub async fn within<T>(deadline: Instant, future: impl Future<Output = T>) -> Option<T> {
    tokio::time::timeout_at(deadline, future).await.ok()
}

/// Database time bounds of `crease serve` (each flag also reads the environment variable
/// named beside it). `docs/operators.md` ("Database outages") lists them with their defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct DbSettings {
    /// Milliseconds a request or a command waits for the database (a pooled connection, then
    /// its write's commit) before it is answered `unavailable`.
    #[arg(long, env = "CREASE_DB_TIMEOUT_MS", default_value_t = 3_000)]
    pub db_timeout_ms: u64,

    /// Milliseconds one group-commit transaction of the journal may take before the writer
    /// gives up on it (its appends fail as `unavailable`; the actors reconcile later).
    #[arg(long, env = "CREASE_DB_TRANSACTION_TIMEOUT_MS", default_value_t = 5_000)]
    pub db_transaction_timeout_ms: u64,

    /// Milliseconds `/readyz` waits for the database's answer to a ping before saying 503.
    #[arg(long, env = "CREASE_READYZ_TIMEOUT_MS", default_value_t = 500)]
    pub readyz_timeout_ms: u64,

    /// First delay (milliseconds) before a turn clock's default move, a bot move or a forfeit
    /// that could not be written is tried again; it doubles up to `--db-retry-max-ms`.
    #[arg(long, env = "CREASE_DB_RETRY_INITIAL_MS", default_value_t = 200)]
    pub db_retry_initial_ms: u64,

    /// Longest delay (milliseconds) between two tries of a server-made move during an outage.
    #[arg(long, env = "CREASE_DB_RETRY_MAX_MS", default_value_t = 5_000)]
    pub db_retry_max_ms: u64,
}

impl Default for DbSettings {
    fn default() -> Self {
        DbSettings {
            db_timeout_ms: 3_000,
            db_transaction_timeout_ms: 5_000,
            readyz_timeout_ms: 500,
            db_retry_initial_ms: 200,
            db_retry_max_ms: 5_000,
        }
    }
}

impl DbSettings {
    pub fn db_timeout(&self) -> Duration {
        Duration::from_millis(self.db_timeout_ms.max(1))
    }

    pub fn transaction_timeout(&self) -> Duration {
        Duration::from_millis(self.db_transaction_timeout_ms.max(1))
    }

    pub fn readyz_timeout(&self) -> Duration {
        Duration::from_millis(self.readyz_timeout_ms.max(1))
    }

    /// The delay before retry number `attempt` (0-based): doubling, capped.
    pub fn retry_delay(&self, attempt: u32) -> Duration {
        let initial = self.db_retry_initial_ms.max(1);
        let max = self.db_retry_max_ms.max(initial);
        let delay = initial.saturating_mul(1u64 << attempt.min(20));
        Duration::from_millis(delay.min(max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn within_passes_what_finishes_in_time_and_cuts_off_the_rest() {
        let started = Instant::now();
        let slow = tokio::task::spawn_blocking(|| std::thread::sleep(Duration::from_millis(50)));
        let done = within(started + Duration::from_secs(5), slow).await;
        assert!(done.is_some(), "a 50 ms job fits in a 5 s bound");
        let never = within(
            Instant::now() + Duration::from_millis(30),
            std::future::pending::<()>(),
        )
        .await;
        assert!(never.is_none());
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn retry_delay_doubles_and_is_capped() {
        let settings = DbSettings::default();
        assert_eq!(settings.retry_delay(0), Duration::from_millis(200));
        assert_eq!(settings.retry_delay(1), Duration::from_millis(400));
        assert_eq!(settings.retry_delay(5), Duration::from_millis(5_000));
        assert_eq!(settings.retry_delay(u32::MAX), Duration::from_millis(5_000));
    }
}
