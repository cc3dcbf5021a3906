//! Verification: recompute the chain from the events and compare it with the stored chain
//! rows and the signed seals; report the first break.
//!
//! The events (`ORDER BY tx_id, global_position`, the table's columns, not their text) and the
//! chain rows (`ORDER BY seq`, the same order) are read as two streams on two connections and
//! merged by their feed key `(tx_id, global_position)`:
//! - same key: the recomputed digest and hash must equal the row's (else **changed**) and, where a seal
//!   sits, the seal's hash (else **changed**, somewhere since the previous seal: the chain
//!   rows were rewritten along with the event);
//! - an event before the next chain row: **inserted** (or **changed** if its position is
//!   chained elsewhere, i.e. its transaction id was edited);
//! - a chain row before the next event, or after the last: **missing** (or **changed**);
//! - events after the last chain row are not chained yet (the projection's lag), counted.
//!
//! Every seal's signature is checked against the trusted public key first.

use std::cmp::Ordering;

use ed25519_dalek::VerifyingKey;
use futures::TryStreamExt;
use sqlx::PgPool;

use super::canonical::{CANONICAL_SELECT, Hash, ZERO_HASH, canonical_row, link};

/// How often (in events) `verify` reports its progress.
pub const PROGRESS_EVERY: u64 = 10_000;
use super::seal::{Seal, all_seals, seal_signature_ok};
use crate::ProjectionError;

/// The kind of a break in the chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BreakKind {
    /// The event at the position differs from what was chained.
    Changed,
    /// A chained event is gone.
    Missing,
    /// An event that was never chained sits inside the chain.
    Inserted,
    /// A seal's signature does not verify with the trusted key.
    Signature,
}

impl std::fmt::Display for BreakKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Changed => "changed",
            Self::Missing => "missing",
            Self::Inserted => "inserted",
            Self::Signature => "bad seal signature",
        })
    }
}

/// The first break found.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Break {
    pub position: i64,
    pub kind: BreakKind,
    pub detail: String,
}

/// What a verification found.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Events recomputed and found equal to the chain.
    pub events: u64,
    /// The last position whose recomputed hash matched the chain (feed order).
    pub verified_to: Option<i64>,
    /// The last position covered by a seal whose signature and hash matched.
    pub sealed_to: Option<i64>,
    pub seals_checked: u64,
    /// Events after the chain's head (not chained yet).
    pub unchained: u64,
    pub first_break: Option<Break>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.first_break.is_none()
    }
}

/// Where to start: the first event, or the seal before a position.
struct Start {
    seq: i64,
    key: (u64, i64),
    hash: Hash,
}

/// Recomputes the chain (from the start, or from the last seal before the chained position
/// `from`), checking it against the chain rows and the seals signed by `key`. `progress` is
/// called with the number of events verified every [`PROGRESS_EVERY`] events.
pub async fn verify(
    pool: &PgPool,
    key: &VerifyingKey,
    from: Option<i64>,
    progress: &mut (dyn FnMut(u64) + Send),
) -> Result<Report, ProjectionError> {
    let mut report = Report::default();
    let seals = all_seals(pool).await?;
    for seal in &seals {
        if seal.public_key != key.to_bytes() || !seal_signature_ok(key, seal) {
            report.first_break = Some(Break {
                position: seal.position,
                kind: BreakKind::Signature,
                detail: format!(
                    "the seal of chain row {} does not verify with public key {}",
                    seal.seq,
                    hex::encode(key.to_bytes())
                ),
            });
            return Ok(report);
        }
    }
    let start = match from {
        None => Start {
            seq: 0,
            key: (0, 0),
            hash: ZERO_HASH,
        },
        Some(p) => {
            let seq: Option<i64> =
                sqlx::query_scalar("SELECT seq FROM audit_chain WHERE global_position = $1")
                    .bind(p)
                    .fetch_optional(pool)
                    .await?;
            let Some(seq) = seq else {
                return Err(ProjectionError::Invalid(format!(
                    "position {p} is not in the audit chain"
                )));
            };
            match seals.iter().rev().find(|s| s.seq < seq) {
                Some(s) => Start {
                    seq: s.seq,
                    key: (s.tx_id, s.position),
                    hash: s.hash,
                },
                None => Start {
                    seq: 0,
                    key: (0, 0),
                    hash: ZERO_HASH,
                },
            }
        }
    };
    let mut seals = seals.into_iter().filter(|s| s.seq > start.seq).peekable();

    let mut events_conn = pool.acquire().await?;
    let mut chain_conn = pool.acquire().await?;
    let events_sql = format!(
        "SELECT {CANONICAL_SELECT} FROM events \
         WHERE (tx_id, global_position) > ($1::text::xid8, $2) \
         ORDER BY events.tx_id, events.global_position"
    );
    let mut events = sqlx::query(&events_sql)
        .bind(start.key.0.to_string())
        .bind(start.key.1)
        .fetch(&mut *events_conn);
    let mut chain = sqlx::query_as::<_, (i64, i64, String, Vec<u8>, Vec<u8>)>(
        "SELECT seq, global_position, tx_id::text, hash, digest FROM audit_chain WHERE seq > $1
         ORDER BY seq",
    )
    .bind(start.seq)
    .fetch(&mut *chain_conn);

    let mut prev = start.hash;
    let mut expected_seq = start.seq;
    let mut event = events.try_next().await?;
    let mut row = chain.try_next().await?;
    loop {
        let e = match &event {
            Some(r) => Some(canonical_row(r)?),
            None => None,
        };
        match (e, &row) {
            (None, None) => break,
            (Some(_), None) => {
                report.unchained += 1;
                event = events.try_next().await?;
                continue;
            }
            (None, Some((_, position, _, _, _))) => {
                report.first_break = Some(brk(
                    *position,
                    BreakKind::Missing,
                    "a chained event is no longer in the log",
                ));
                break;
            }
            (Some(e), Some((seq, position, tx_id, hash, stored_digest))) => {
                let row_key = (tx_id.parse::<u64>().unwrap_or(0), *position);
                match e.key().cmp(&row_key) {
                    Ordering::Less => {
                        report.first_break = Some(brk(
                            e.position,
                            BreakKind::Inserted,
                            "an event that was never chained sits inside the chain",
                        ));
                        break;
                    }
                    Ordering::Greater => {
                        report.first_break = Some(brk(
                            *position,
                            BreakKind::Missing,
                            "a chained event is no longer in the log",
                        ));
                        break;
                    }
                    Ordering::Equal => {}
                }
                expected_seq += 1;
                if *seq != expected_seq {
                    report.first_break = Some(brk(
                        *position,
                        BreakKind::Missing,
                        "the chain rows skip a place",
                    ));
                    break;
                }
                let d = e.digest();
                let h = link(&prev, &d);
                if h.as_slice() != hash.as_slice() || d.as_slice() != stored_digest.as_slice() {
                    report.first_break = Some(brk(
                        e.position,
                        BreakKind::Changed,
                        "the event's canonical bytes differ from what was chained",
                    ));
                    break;
                }
                if let Some(seal) = seals.next_if(|s| s.seq == *seq) {
                    if let Some(b) = check_seal(&seal, e.position, &h, report.sealed_to) {
                        report.first_break = Some(b);
                        break;
                    }
                    report.seals_checked += 1;
                    report.sealed_to = Some(e.position);
                }
                prev = h;
                report.events += 1;
                report.verified_to = Some(e.position);
                if report.events % PROGRESS_EVERY == 0 {
                    progress(report.events);
                }
                event = events.try_next().await?;
                row = chain.try_next().await?;
            }
        }
    }
    drop(events);
    drop(chain);
    if let Some(b) = &mut report.first_break {
        classify(pool, b).await?;
    } else if let Some(seal) = seals.next() {
        // A seal beyond the chain's end: chained events (and their rows) are gone.
        report.first_break = Some(brk(
            seal.position,
            BreakKind::Missing,
            "a signed seal covers events that are no longer chained",
        ));
    }
    Ok(report)
}

fn brk(position: i64, kind: BreakKind, detail: &str) -> Break {
    Break {
        position,
        kind,
        detail: detail.to_string(),
    }
}

fn check_seal(seal: &Seal, position: i64, hash: &Hash, since: Option<i64>) -> Option<Break> {
    if seal.position == position && &seal.hash == hash {
        return None;
    }
    let since = since.map_or("the first event".to_string(), |p| format!("position {p}"));
    Some(brk(
        seal.position,
        BreakKind::Changed,
        &format!(
            "the chain differs from its signed seal: an event after {since} and up to \
             position {} was changed and the chain rows rewritten to match",
            seal.position
        ),
    ))
}

/// An "inserted" or "missing" whose position is both in the log and in the chain is an event
/// whose transaction id (its place in the feed) was edited: changed.
async fn classify(pool: &PgPool, b: &mut Break) -> Result<(), sqlx::Error> {
    if !matches!(b.kind, BreakKind::Inserted | BreakKind::Missing) {
        return Ok(());
    }
    let in_log: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM events WHERE global_position = $1)")
            .bind(b.position)
            .fetch_one(pool)
            .await?;
    let in_chain: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM audit_chain WHERE global_position = $1)")
            .bind(b.position)
            .fetch_one(pool)
            .await?;
    if in_log && in_chain {
        b.kind = BreakKind::Changed;
        b.detail = "the event's place in the feed (its transaction id) was changed".into();
    }
    Ok(())
}
