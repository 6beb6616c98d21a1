//! A token bucket per socket: bursts are fine, floods are refused.

use tokio::time::Instant;

pub struct TokenBucket {
    capacity: f64,
    per_second: f64,
    tokens: f64,
    refilled_at: Instant,
}

impl TokenBucket {
    /// 30 messages at once, 10 a second after that: far above any human's play.
    pub fn per_socket() -> Self {
        Self::new(30.0, 10.0)
    }

    pub fn new(capacity: f64, per_second: f64) -> Self {
        TokenBucket {
            capacity,
            per_second,
            tokens: capacity,
            refilled_at: Instant::now(),
        }
    }

    /// Returns a token: an accepted command costs nothing, so a client that plays as fast
    /// as the server acks (a bot) is never limited, while junk, refusals and pings are.
    pub fn refund(&mut self) {
        self.tokens = (self.tokens + 1.0).min(self.capacity);
    }

    /// Takes one token if there is one.
    pub fn take(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.refilled_at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.capacity);
        self.refilled_at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_burst_drains_the_bucket_and_time_refills_it() {
        let mut bucket = TokenBucket::new(3.0, 1.0);
        assert!((0..3).all(|_| bucket.take()));
        assert!(!bucket.take());
        tokio::time::advance(std::time::Duration::from_secs(1)).await;
        assert!(bucket.take());
        assert!(!bucket.take());
    }
}
