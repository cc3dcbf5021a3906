//! Read-your-writes for readers of projections: has a projection applied every event up to
//! a position? (The query side keeps its own copy in `query/src/wait.rs`: it may not
//! depend on this crate.)

use std::time::Duration;

use super::EventStore;
use crate::StoreError;

impl EventStore {
    /// The global position of the last event written (0 for an empty log).
    pub async fn head_position(&self) -> Result<i64, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT COALESCE(max(global_position), 0) FROM events")
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// Waits (at most `timeout`) until every projection in `names` has passed
    /// `min_position`, and answers whether they all did.
    ///
    /// Checkpoints order by (transaction, position), so "passed" cannot mean a checkpoint
    /// position >= `min_position`. It means: no committed event at a position <=
    /// `min_position` is still unapplied by the projection. Every event of a command
    /// answered with that position is committed, so once passed, the projection reflects
    /// the command. A name without a checkpoint (never ran) has not passed anything. Only
    /// events of the projection's stream types count (`stream_types`, recorded by the
    /// runtime; NULL: all): its checkpoint moves past other streams' events lazily.
    pub async fn wait_for_projections(
        &self,
        names: &[&str],
        min_position: i64,
        timeout: Duration,
    ) -> Result<bool, StoreError> {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut pause = Duration::from_millis(5);
        loop {
            let behind: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM unnest($1::text[]) AS wanted(name)
                 WHERE NOT EXISTS (
                     SELECT 1 FROM projection_checkpoints c
                     WHERE c.name = wanted.name AND NOT EXISTS (
                         SELECT 1 FROM events e
                         WHERE (e.tx_id, e.global_position) > (c.tx_id, c.position)
                           AND e.global_position <= $2
                           AND (c.stream_types IS NULL
                                OR e.stream_type = ANY (c.stream_types))))",
            )
            .bind(names)
            .bind(min_position)
            .fetch_one(&self.pool)
            .await?;
            if behind == 0 {
                return Ok(true);
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Ok(false);
            }
            tokio::time::sleep(pause.min(deadline - now)).await;
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
}
