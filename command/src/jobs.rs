//! What the background workers (the upload worker, the notice outbox) share about retrying a
//! job: how many claims a job gets before it is finished as failed, and how long a claimed
//! job waits before it may be claimed again.
//!
//! A claim is counted when it is made, in a statement committed before the job is worked on:
//! a job that ends the process (an allocation failure, an abort) never reaches the code that
//! would count a failure, so counting there would let it be claimed first after every restart,
//! for ever. Counted at the claim, the job that took the process down N times is found at its
//! next claim with N claims and finished as failed without being worked on again.

use std::time::Duration;

/// The longest wait between two claims of one job.
const MAX_WAIT: Duration = Duration::from_secs(300);

/// Retry settings of the workers (`CLEARWAY_JOB_MAX_ATTEMPTS`).
#[derive(Debug, Clone, Copy)]
pub struct Retry {
    /// Claims a job gets (without progress, for an upload); the next claim finishes it as
    /// failed.
    pub max_attempts: i32,
    /// The wait before a job claimed once may be claimed again; doubled for each further
    /// claim, at most five minutes. Other due jobs are claimed first meanwhile.
    pub base: Duration,
}

impl Default for Retry {
    fn default() -> Self {
        Self {
            max_attempts: 3,
            base: Duration::from_secs(2),
        }
    }
}

impl Retry {
    /// The wait after claim `attempt` (1-based) before the job may be claimed again.
    pub fn wait(&self, attempt: i32) -> Duration {
        let factor = 2u32.saturating_pow(attempt.clamp(1, 20) as u32 - 1);
        self.base.saturating_mul(factor).min(MAX_WAIT)
    }

    /// `true` when a job claimed `attempts` times (this claim counted) is to be finished as
    /// failed instead of being worked on.
    pub fn exhausted(&self, attempts: i32) -> bool {
        attempts > self.max_attempts.max(1)
    }
}

/// The wait as a Postgres interval's milliseconds, for `now() + make_interval(...)`.
pub fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_up_to_five_minutes_and_the_claim_after_the_last_attempt_gives_up() {
        let r = Retry {
            max_attempts: 3,
            base: Duration::from_secs(2),
        };
        assert_eq!(r.wait(1), Duration::from_secs(2));
        assert_eq!(r.wait(3), Duration::from_secs(8));
        assert_eq!(r.wait(30), MAX_WAIT);
        assert!(!r.exhausted(3));
        assert!(r.exhausted(4));
    }
}
