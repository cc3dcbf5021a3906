//! A small in-memory token bucket per key (a client IP, by default), for the login endpoint
//! (and the other unauthenticated account endpoints) and the recipient link's routes (per
//! client IP and per link): `burst` requests at once, refilled at `per_minute`. Over it the
//! caller gets HTTP 429, code 207 and `Retry-After`.
//!
//! In memory and per instance: several instances each allow the rate (the account lock
//! is the shared protection). The map is pruned of full buckets when it grows large.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

const PRUNE_ABOVE: usize = 10_000;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

#[derive(Clone)]
pub struct RateLimiter<K = IpAddr> {
    buckets: Arc<Mutex<HashMap<K, Bucket>>>,
    burst: f64,
    per_second: f64,
}

impl<K: Hash + Eq> RateLimiter<K> {
    pub fn new(burst: u32, per_minute: u32) -> Self {
        Self {
            buckets: Arc::new(Mutex::new(HashMap::new())),
            burst: f64::from(burst.max(1)),
            per_second: f64::from(per_minute.max(1)) / 60.0,
        }
    }

    /// Take one token for `key`; `Err(seconds)` to wait when there is none.
    pub fn check(&self, key: K) -> Result<(), u64> {
        self.check_at(key, Instant::now())
    }

    fn check_at(&self, key: K, now: Instant) -> Result<(), u64> {
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        if buckets.len() > PRUNE_ABOVE {
            let (burst, rate) = (self.burst, self.per_second);
            buckets.retain(|_, b| {
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * rate < burst
            });
        }
        let bucket = buckets.entry(key).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.per_second).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - bucket.tokens) / self.per_second;
            Err(wait.ceil().max(1.0) as u64)
        }
    }
}

impl Default for RateLimiter<IpAddr> {
    fn default() -> Self {
        Self::new(30, 30)
    }
}

impl<K> std::fmt::Debug for RateLimiter<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RateLimiter")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[test]
    fn a_burst_is_allowed_then_the_caller_is_told_how_long_to_wait() {
        let limiter = RateLimiter::new(3, 6);
        let now = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check_at(ip(1), now).is_ok());
        }
        assert_eq!(limiter.check_at(ip(1), now), Err(10));
    }

    #[test]
    fn tokens_come_back_with_time() {
        let limiter = RateLimiter::new(1, 60);
        let now = Instant::now();
        assert!(limiter.check_at(ip(1), now).is_ok());
        assert!(limiter.check_at(ip(1), now).is_err());
        assert!(
            limiter
                .check_at(ip(1), now + Duration::from_millis(1100))
                .is_ok()
        );
    }

    #[test]
    fn each_address_has_its_own_bucket() {
        let limiter = RateLimiter::new(1, 1);
        let now = Instant::now();
        assert!(limiter.check_at(ip(1), now).is_ok());
        assert!(limiter.check_at(ip(2), now).is_ok());
        assert!(limiter.check_at(ip(1), now).is_err());
    }
}
