//! Catching every projection up once (`clearway seed`, `clearway project --once`): the
//! recovery of a rebuild that died midway, then the batches up to the safe head.

use std::sync::Arc;

use events::EventStore;
use sqlx::PgPool;

use super::batch::{Commit, catch_up, ensure_checkpoint};
use super::{RuntimeError, rebuild};
use crate::Projection;

/// Brings every projection up to the current safe head once, on pooled connections, and
/// answers the number of events applied. Safe beside a live runtime (the checkpoint
/// compare keeps a batch from applying twice), though the two then compete for batches.
pub async fn run_once_until_caught_up(
    pool: &PgPool,
    projections: &[Arc<dyn Projection>],
) -> Result<u64, RuntimeError> {
    let store = EventStore::new(pool.clone());
    let mut conn = pool.acquire().await?;
    let mut applied = 0;
    for projection in projections {
        // What a rebuild that died midway left behind is put right first.
        rebuild::recover(&mut conn, projection.as_ref()).await?;
        let mut checkpoint = ensure_checkpoint(&mut conn, projection.as_ref()).await?;
        applied += catch_up(
            &mut conn,
            &store,
            projection.as_ref(),
            &mut checkpoint,
            1000,
            Commit::Durable,
        )
        .await?;
    }
    Ok(applied)
}
