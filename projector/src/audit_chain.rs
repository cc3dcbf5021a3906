//! `audit_chain`: the tamper-evident hash chain over the whole event log (docs/compliance.md).
//!
//! Every event, in feed order (`tx_id`, `global_position`), gets one row of `audit_chain`:
//! its place `seq` (1-based), its position and transaction, its `digest = SHA-256(canonical
//! bytes of the event)` and `hash = SHA-256(previous hash || digest)` (the first event's
//! previous hash is 32 zero bytes). The canonical bytes are the event's columns as PostgreSQL renders
//! them when read back ([`canonical`]), never the application's serialisation, so anyone with
//! SQL access can recompute the chain.
//!
//! It is a projection like the others: it runs on the shared feed reader (appends are never
//! serialised behind it), its rows commit with its checkpoint, and a rebuild recomputes the
//! same rows (the feed order is fixed once read). The signed seals over the chain
//! ([`seal`]) are not part of it: a rebuild leaves them, and the recomputed chain must match
//! them. [`verify`] recomputes the chain from the events and checks it against the rows and
//! the seals; [`export`] is the file format of a filtered export and its offline check.

pub mod canonical;
pub mod export;
pub mod seal;
pub mod verify;

use std::sync::Arc;

use events::store::FeedBatch;
use futures::future::BoxFuture;
use sqlx::{PgConnection, Row};

use crate::{Projection, ProjectionError};
use canonical::{CANONICAL_SELECT, Hash, ZERO_HASH, canonical_row, link};

pub const NAME: &str = "audit_chain";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(AuditChain)
}

pub struct AuditChain;

impl Projection for AuditChain {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["audit_chain"]
    }

    /// Every event of every stream type (`stream_types` is left at `None`: all).
    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(apply(tx, window))
    }
}

/// The chain's last row: `(seq, hash)`, or `(0, zeros)` when empty.
pub async fn head(conn: &mut PgConnection) -> Result<(i64, Hash), sqlx::Error> {
    let row: Option<(i64, Vec<u8>)> =
        sqlx::query_as("SELECT seq, hash FROM audit_chain ORDER BY seq DESC LIMIT 1")
            .fetch_optional(&mut *conn)
            .await?;
    Ok(match row {
        Some((seq, hash)) => (seq, to_hash(&hash)),
        None => (0, ZERO_HASH),
    })
}

pub fn to_hash(bytes: &[u8]) -> Hash {
    let mut out = ZERO_HASH;
    if bytes.len() == out.len() {
        out.copy_from_slice(bytes);
    }
    out
}

async fn apply(tx: &mut PgConnection, window: &mut FeedBatch) -> Result<(), ProjectionError> {
    let positions: Vec<i64> = window.events.iter().map(|e| e.global_position).collect();
    if positions.is_empty() {
        return Ok(());
    }
    // Applying an event twice (a window retried after its parts were tried) adds nothing.
    let done: Vec<i64> = sqlx::query_scalar(
        "SELECT global_position FROM audit_chain WHERE global_position = ANY($1)",
    )
    .bind(&positions)
    .fetch_all(&mut *tx)
    .await?;
    let wanted: Vec<i64> = positions
        .into_iter()
        .filter(|p| !done.contains(p))
        .collect();
    if wanted.is_empty() {
        return Ok(());
    }
    // The events read back as the database renders them, in feed order.
    let rows = sqlx::query(&format!(
        "SELECT {CANONICAL_SELECT} FROM events WHERE global_position = ANY($1) \
         ORDER BY events.tx_id, events.global_position"
    ))
    .bind(&wanted)
    .fetch_all(&mut *tx)
    .await?;
    let (mut seq, mut prev) = head(&mut *tx).await?;
    let mut seqs = Vec::with_capacity(rows.len());
    let mut chained = Vec::with_capacity(rows.len());
    let mut tx_ids = Vec::with_capacity(rows.len());
    let mut digests = Vec::with_capacity(rows.len());
    let mut hashes = Vec::with_capacity(rows.len());
    for row in &rows {
        let event = canonical_row(row)?;
        let digest = event.digest();
        prev = link(&prev, &digest);
        seq += 1;
        seqs.push(seq);
        chained.push(event.position);
        tx_ids.push(row.try_get::<String, _>(1)?);
        digests.push(digest.to_vec());
        hashes.push(prev.to_vec());
    }
    sqlx::query(
        "INSERT INTO audit_chain (seq, global_position, tx_id, digest, hash)
         SELECT s, p, t::xid8, d, h
         FROM UNNEST($1::bigint[], $2::bigint[], $3::text[], $4::bytea[], $5::bytea[])
             AS u(s, p, t, d, h)",
    )
    .bind(&seqs)
    .bind(&chained)
    .bind(&tx_ids)
    .bind(&digests)
    .bind(&hashes)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
