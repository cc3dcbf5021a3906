//! Startup checks that the database keeps what it acknowledges.

use sqlx::PgPool;

use crate::StoreError;

/// What the server found; `synchronous_commit` is worth logging at startup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DurabilityReport {
    pub synchronous_commit: String,
}

impl DurabilityReport {
    /// False when a commit may be acknowledged before it reaches disk: a crash can then
    /// lose events whose commands were answered with success.
    pub fn commits_are_durable(&self) -> bool {
        self.synchronous_commit != "off"
    }
}

/// Refuses (an error) when the server runs with `fsync = off`, under which a crash can
/// corrupt the store; otherwise reports `synchronous_commit`.
pub async fn check_durability(pool: &PgPool) -> Result<DurabilityReport, StoreError> {
    let (fsync, synchronous_commit): (String, String) =
        sqlx::query_as("SELECT current_setting('fsync'), current_setting('synchronous_commit')")
            .fetch_one(pool)
            .await?;
    if fsync != "on" {
        return Err(StoreError::Database(sqlx::Error::Configuration(
            format!("PostgreSQL runs with fsync = {fsync}: refusing to store events").into(),
        )));
    }
    Ok(DurabilityReport { synchronous_commit })
}
