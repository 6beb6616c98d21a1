//! The largest request body, and the ranges a match's clocks may be asked for in, as
//! `crease serve` settings.

use std::time::Duration;

/// Largest request body the API reads: the HTTP layer enforces it, and the error that
/// refuses a larger body names it.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Longest any clock may be set to, server setting included: a year. Far below the point
/// where seconds as milliseconds would overflow the stored `i64`.
pub const CLOCK_CEILING_SECS: u64 = 365 * 24 * 60 * 60;

/// Upper bounds on the clocks a client may ask for when it creates a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct InputLimits {
    /// Longest turn clock (seconds per decision) a new match may ask for; the shortest is 1.
    #[arg(
        long = "max-turn-clock-secs",
        env = "CREASE_MAX_TURN_CLOCK_SECS",
        default_value_t = 86_400,
        value_parser = clap::value_parser!(u64).range(1..=CLOCK_CEILING_SECS)
    )]
    pub max_turn_clock_secs: u64,

    /// Longest disconnect grace (seconds) a new match may ask for; the shortest is 0.
    #[arg(
        long = "max-disconnect-grace-secs",
        env = "CREASE_MAX_DISCONNECT_GRACE_SECS",
        default_value_t = 86_400,
        value_parser = clap::value_parser!(u64).range(0..=CLOCK_CEILING_SECS)
    )]
    pub max_disconnect_grace_secs: u64,
}

impl Default for InputLimits {
    fn default() -> Self {
        InputLimits {
            max_turn_clock_secs: 86_400,
            max_disconnect_grace_secs: 86_400,
        }
    }
}

impl InputLimits {
    /// A requested turn clock, or why it is refused (the message names the field and range).
    pub fn turn_clock(&self, secs: u64) -> Result<Duration, String> {
        in_range("turn_clock_secs", secs, 1, self.max_turn_clock_secs)
    }

    /// A requested disconnect grace, or why it is refused.
    pub fn disconnect_grace(&self, secs: u64) -> Result<Duration, String> {
        in_range("disconnect_grace_secs", secs, 0, self.max_disconnect_grace_secs)
    }
}

fn in_range(field: &str, secs: u64, min: u64, max: u64) -> Result<Duration, String> {
    if (min..=max).contains(&secs) {
        Ok(Duration::from_secs(secs))
    } else {
        Err(format!("`{field}` must be {min} to {max} seconds, not {secs}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_outside_their_ranges_are_refused_with_field_and_range() {
        let limits = InputLimits::default();
        assert_eq!(limits.turn_clock(1), Ok(Duration::from_secs(1)));
        assert_eq!(limits.turn_clock(86_400), Ok(Duration::from_secs(86_400)));
        assert_eq!(
            limits.turn_clock(0),
            Err("`turn_clock_secs` must be 1 to 86400 seconds, not 0".into())
        );
        assert!(limits.turn_clock(u64::MAX).is_err());
        assert_eq!(limits.disconnect_grace(0), Ok(Duration::ZERO));
        assert_eq!(
            limits.disconnect_grace(u64::MAX),
            Err(format!(
                "`disconnect_grace_secs` must be 0 to 86400 seconds, not {}",
                u64::MAX
            ))
        );
    }
}
