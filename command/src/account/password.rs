//! Password hashing: Argon2id (m = 19456 KiB, t = 2, p = 1) on the blocking pool, with a cap
//! on concurrent hashes so a login flood cannot exhaust memory or starve the server.

use argon2::password_hash::{PasswordHash, PasswordHasher as _, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::sync::Arc;
use tokio::sync::Semaphore;

#[derive(Clone)]
pub struct Hasher {
    permits: Arc<Semaphore>,
    dummy: Arc<String>,
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
        Ok(Self {
            permits: Arc::new(Semaphore::new(max_concurrent.max(1))),
            dummy: Arc::new(hash_blocking("clearway-dummy-password-for-timing")?),
        })
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
        let Ok(_permit) = self.permits.acquire().await else {
            return false;
        };
        let known = hash.is_some();
        let target = hash.unwrap_or_else(|| self.dummy.as_ref().clone());
        let ok = tokio::task::spawn_blocking(move || verify_blocking(&password, &target))
            .await
            .unwrap_or(false);
        ok && known
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
}
