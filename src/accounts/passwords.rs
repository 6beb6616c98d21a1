//! Password hashing on a small, fixed pool of threads with a bounded queue.
//!
//! One argon2id hash with OWASP's parameters (`m = 19 MiB`, `t = 2`, `p = 1`) takes tens of
//! milliseconds of CPU and 19 MiB of memory. Run on tokio's blocking pool (up to 512
//! threads), a burst of logins with random names from many addresses, which no per-name or
//! per-address bucket sees, hashed them all at once: 100 such logins took the process from
//! 61 MB to 1.93 GB. Here at most `threads` hashes run at any moment, so hashing holds at
//! most `threads × 19 MiB`; at most `queue` more wait their turn, and any beyond that is
//! refused at once as [`PasswordError::Busy`] (the HTTP layer answers 503 `overloaded`),
//! costing nothing.
//!
//! The threads are long-lived and named, so each reuses its own allocator arena: memory
//! freed by one hash is what the next hash on that thread takes.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, LazyLock, Mutex};
use tokio::sync::oneshot;

/// Memory one argon2id hash takes with the parameters used here, in KiB (argon2's default,
/// OWASP's first recommendation): what the docs' RSS bound is made of.
pub const HASH_MEMORY_KIB: u32 = argon2::Params::DEFAULT_M_COST;

/// Why a password could not be hashed or checked.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// Every hashing thread is busy and the queue is full: try again in a moment.
    #[error("too many password checks at once")]
    Busy,
    /// Hashing failed, a stored hash is malformed, or the pool is gone.
    #[error("{0}")]
    Failed(String),
}

type Job = Box<dyn FnOnce() + Send>;

/// The pool: a bounded queue in front of `threads` workers. Cloning shares it.
#[derive(Clone)]
pub struct PasswordPool {
    jobs: SyncSender<Job>,
    threads: usize,
}

impl PasswordPool {
    /// Starts `threads` workers (at least one) behind a queue of `queue` jobs. The workers
    /// end when the last handle is dropped.
    pub fn new(threads: usize, queue: usize) -> PasswordPool {
        let threads = threads.max(1);
        let (jobs, inbox) = sync_channel::<Job>(queue);
        let inbox = Arc::new(Mutex::new(inbox));
        for index in 0..threads {
            let inbox = inbox.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("password-{index}"))
                .spawn(move || work(&inbox));
            if let Err(error) = spawned {
                tracing::error!(%error, "could not start a password hashing thread");
            }
        }
        PasswordPool { jobs, threads }
    }

    /// The number of hashes that may run at once.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `job` on a worker and waits for its answer without blocking the runtime;
    /// refused at once when the queue is full.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> Result<T, PasswordError> + Send + 'static,
    ) -> Result<T, PasswordError> {
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = answer.send(job());
        });
        match self.jobs.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                crate::telemetry::record_refusal("password_busy");
                return Err(PasswordError::Busy);
            }
            Err(TrySendError::Disconnected(_)) => {
                return Err(PasswordError::Failed("the password threads are gone".into()));
            }
        }
        answered
            .await
            .map_err(|_| PasswordError::Failed("a password hashing job was lost".into()))?
    }

    /// The argon2id PHC string of a password, with a fresh random salt.
    pub async fn hash(&self, password: crate::input::Password) -> Result<String, PasswordError> {
        self.run(move || {
            Argon2::default()
                .hash_password(password.as_bytes())
                .map(|hash| hash.to_string())
                .map_err(|error| PasswordError::Failed(format!("hashing a password: {error}")))
        })
        .await
    }

    /// Whether `password` is the one `stored` was made from; with no `stored` hash, a
    /// stand-in is checked so that the answer (always no) takes as long.
    pub async fn verify(
        &self,
        password: crate::input::Password,
        stored: Option<String>,
    ) -> Result<bool, PasswordError> {
        self.run(move || {
            let known = stored.is_some();
            let Some(phc) = stored.or_else(|| STAND_IN_HASH.clone()) else {
                return Err(PasswordError::Failed("no stand-in password hash".into()));
            };
            let parsed = PasswordHash::new(&phc).map_err(|error| {
                PasswordError::Failed(format!("a stored password hash is malformed: {error}"))
            })?;
            let verified = Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok();
            Ok(known && verified)
        })
        .await
    }
}

/// One worker: takes the next job until every sender is gone. The lock is held only while
/// waiting for a job, never while running one.
fn work(inbox: &Mutex<Receiver<Job>>) {
    loop {
        let job = match inbox.lock() {
            Ok(inbox) => inbox.recv(),
            Err(_) => return,
        };
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// A hash no password matches in practice (its password is random and thrown away): what an
/// unknown login name is verified against, so that it costs what a known one does.
static STAND_IN_HASH: LazyLock<Option<String>> = LazyLock::new(|| {
    Argon2::default()
        .hash_password(crate::fairness::new_token().as_bytes())
        .map(|hash| hash.to_string())
        .ok()
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Password;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test]
    async fn a_password_verifies_against_its_own_hash_only() {
        let pool = PasswordPool::new(1, 4);
        let hash = pool
            .hash(Password::parse("correct horse").expect("password"))
            .await
            .expect("hash");
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(hash.contains(&format!("m={HASH_MEMORY_KIB}")), "{hash}");
        let right = Password::parse("correct horse").expect("password");
        let wrong = Password::parse("correct horsf").expect("password");
        assert!(
            pool.verify(right.clone(), Some(hash.clone()))
                .await
                .expect("verify")
        );
        assert!(!pool.verify(wrong, Some(hash)).await.expect("verify"));
        assert!(
            !pool.verify(right, None).await.expect("stand-in"),
            "no account, no match"
        );
    }

    /// The bound the RSS figure in docs/operators.md rests on: never more jobs running than
    /// threads, never more waiting than the queue, and the rest refused without running.
    #[tokio::test]
    async fn no_more_than_threads_run_at_once_and_past_the_queue_a_job_is_refused() {
        let (threads, queue) = (2, 3);
        let pool = PasswordPool::new(threads, queue);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let ran = Arc::new(AtomicUsize::new(0));
        let jobs = (0..20).map(|_| {
            let (pool, running, most, ran) = (pool.clone(), running.clone(), most.clone(), ran.clone());
            async move {
                pool.run(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(200));
                    running.fetch_sub(1, Ordering::SeqCst);
                    ran.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                })
                .await
            }
        });
        let answers = futures_util::future::join_all(jobs).await;
        let refused = answers
            .iter()
            .filter(|answer| matches!(answer, Err(PasswordError::Busy)))
            .count();
        let served = answers.iter().filter(|answer| answer.is_ok()).count();
        assert_eq!(refused + served, 20, "{answers:?}");
        assert!(
            most.load(Ordering::SeqCst) <= threads,
            "{} ran at once",
            most.load(Ordering::SeqCst)
        );
        // All 20 were offered at once: the queue held `queue`, the threads took up to
        // `threads` more while they were being offered; the rest were refused and never ran.
        assert!(served <= threads + queue, "{served} served");
        assert!(refused >= 20 - threads - queue, "{refused} refused");
        assert_eq!(ran.load(Ordering::SeqCst), served);
        // Once the queue drains, the pool takes work again.
        assert!(pool.run(|| Ok(7)).await.is_ok_and(|seven| seven == 7));
    }
}
