//! Password hashing (the command state's `hasher`, shared by the account routes and the
//! seeds): Argon2id (m = 19456 KiB, t = 2, p = 1) on the blocking pool, with a cap
//! on concurrent hashes so a login flood cannot exhaust memory or starve the server, and a
//! bounded wait for the anonymous sign-in ([`Hasher::try_verify`]): past it the caller is
//! told to come back (503) instead of queueing without end.

use argon2::password_hash::{PasswordHash, PasswordHasher as _, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::Semaphore;

/// How many sign-ins may wait for a hashing slot (beyond those hashing) by default.
pub const DEFAULT_QUEUE: usize = 32;

#[derive(Clone)]
pub struct Hasher {
    permits: Arc<Semaphore>,
    dummy: Arc<String>,
    /// Callers of [`Hasher::try_verify`] waiting for a permit now.
    waiting: Arc<AtomicUsize>,
    max_waiting: usize,
}

/// Every hashing slot is taken and the wait queue is full.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("password hashing is busy")]
pub struct Busy;

/// One place in the wait queue, given back however the wait ends (also when the request
/// is dropped).
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[derive(Debug, thiserror::Error)]
pub enum HashError {
    #[error("hashing failed: {0}")]
    Failed(String),
}

fn argon2() -> Result<Argon2<'static>, HashError> {
    let params = Params::new(19_456, 2, 1, None).map_err(|e| HashError::Failed(e.to_string()))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

fn hash_blocking(password: &str) -> Result<String, HashError> {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    argon2()?
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| HashError::Failed(e.to_string()))
}

fn verify_blocking(password: &str, hash: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    argon2().is_ok_and(|a| a.verify_password(password.as_bytes(), &parsed).is_ok())
}

impl Hasher {
    pub fn new(max_concurrent: usize) -> Result<Self, HashError> {
        Self::with_queue(max_concurrent, DEFAULT_QUEUE)
    }

    /// At most `max_concurrent` hashes at once and `max_waiting` sign-ins waiting for one.
    pub fn with_queue(max_concurrent: usize, max_waiting: usize) -> Result<Self, HashError> {
        Ok(Self {
            permits: Arc::new(Semaphore::new(max_concurrent.max(1))),
            dummy: Arc::new(hash_blocking("clearway-dummy-password-for-timing")?),
            waiting: Arc::new(AtomicUsize::new(0)),
            max_waiting,
        })
    }

    /// [`Hasher::verify`] for anonymous callers: `Busy` at once when every slot is taken
    /// and the wait queue is full.
    pub async fn try_verify(&self, password: String, hash: Option<String>) -> Result<bool, Busy> {
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                if self.waiting.fetch_add(1, Ordering::AcqRel) >= self.max_waiting {
                    self.waiting.fetch_sub(1, Ordering::AcqRel);
                    return Err(Busy);
                }
                let _place = Waiting(&self.waiting);
                self.permits
                    .clone()
                    .acquire_owned()
                    .await
                    .map_err(|_| Busy)?
            }
        };
        Ok(self.verify_with(permit, password, hash).await)
    }

    async fn verify_with(
        &self,
        _permit: tokio::sync::OwnedSemaphorePermit,
        password: String,
        hash: Option<String>,
    ) -> bool {
        let known = hash.is_some();
        let target = hash.unwrap_or_else(|| self.dummy.as_ref().clone());
        let ok = tokio::task::spawn_blocking(move || verify_blocking(&password, &target))
            .await
            .unwrap_or(false);
        ok && known
    }

    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|e| HashError::Failed(e.to_string()))?;
        tokio::task::spawn_blocking(move || hash_blocking(&password))
            .await
            .map_err(|e| HashError::Failed(e.to_string()))?
    }

    /// Verify against `hash`, or against a dummy hash when the account is unknown, so that
    /// unknown users and wrong passwords take the same time.
    pub async fn verify(&self, password: String, hash: Option<String>) -> bool {
        let Ok(permit) = self.permits.clone().acquire_owned().await else {
            return false;
        };
        self.verify_with(permit, password, hash).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_and_nothing_else() {
        let hasher = Hasher::new(2).expect("hasher");
        let hash = hasher.hash("Demopass2026".into()).await.expect("hash");
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(
            hasher
                .verify("Demopass2026".into(), Some(hash.clone()))
                .await
        );
        assert!(!hasher.verify("demopass2026".into(), Some(hash)).await);
        assert!(!hasher.verify("Demopass2026".into(), None).await);
    }

    #[tokio::test]
    async fn when_every_slot_is_taken_and_the_queue_is_full_a_sign_in_is_turned_away() {
        let hasher = Hasher::with_queue(1, 1).expect("hasher");
        let hash = Some(hasher.dummy.as_ref().clone());
        let (hashing, waiting, turned_away) = tokio::join!(
            hasher.try_verify("a".into(), hash.clone()),
            hasher.try_verify("b".into(), hash.clone()),
            hasher.try_verify("c".into(), hash.clone()),
        );
        assert_eq!(hashing, Ok(false));
        assert_eq!(waiting, Ok(false));
        assert_eq!(turned_away, Err(Busy));
        // The queue empties again: the next caller is served.
        assert_eq!(hasher.try_verify("d".into(), hash).await, Ok(false));
    }
}
