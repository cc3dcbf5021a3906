//! `rebuild all`: every projection reset as [`super::rebuild`] resets one, then the feed
//! read once, window by window, and each window's events handed to every projection (its
//! stream types' events; each applies and commits its part with its checkpoint on its own
//! connection, all at once, while the next window is read). Then each ends like a single
//! rebuild ([`super::rebuild::conclude`]). A projection whose checkpoint another writer
//! moves meanwhile (a live runtime joining the replay) leaves the shared replay and catches
//! up on its own.

use std::sync::Arc;

use events::store::FeedBatch;
use events::{Checkpoint, EventStore};
use sqlx::{Connection, PgConnection, PgPool};

use super::RuntimeError;
use super::batch::{Commit, Step, catch_up, commit, ensure_checkpoint};
use super::rebuild::{BATCH, conclude, reset};
use crate::Projection;

struct Member {
    projection: Arc<dyn Projection>,
    /// Its rebuild session (holding its rebuild lock).
    conn: PgConnection,
    checkpoint: Checkpoint,
    /// Its windows are marked `rebuilding` (it has finish statements).
    deferred: bool,
    applied: u64,
    /// Still fed by the shared replay.
    following: bool,
}

/// Rebuilds every projection of `projections` from the first event, reading the feed once
/// for all of them; answers the events applied per projection.
pub async fn rebuild_all(
    pool: &PgPool,
    projections: &[Arc<dyn Projection>],
) -> Result<Vec<(&'static str, u64)>, RuntimeError> {
    let store = EventStore::new(pool.clone());
    let mut members = Vec::with_capacity(projections.len());
    for projection in projections {
        let mut conn = PgConnection::connect_with(&pool.connect_options()).await?;
        let deferred = reset(&mut conn, projection.as_ref()).await?;
        let checkpoint = ensure_checkpoint(&mut conn, projection.as_ref()).await?;
        members.push(Member {
            projection: projection.clone(),
            conn,
            checkpoint,
            deferred,
            applied: 0,
            following: true,
        });
    }
    let mut failure = fan_out(pool, &store, &mut members).await.err();
    let mut out = Vec::with_capacity(members.len());
    for member in &mut members {
        let name = member.projection.name();
        let replayed = match &failure {
            Some(_) => Err(RuntimeError::Aborted(name)),
            None if member.following => Ok(member.applied),
            None => catch_up(
                &mut member.conn,
                &store,
                member.projection.as_ref(),
                &mut member.checkpoint,
                BATCH,
                Commit::Relaxed,
            )
            .await
            .map(|n| member.applied + n),
        };
        // Every member ends (its indexes come back) even when the replay failed.
        match conclude(
            &mut member.conn,
            &store,
            member.projection.as_ref(),
            replayed,
        )
        .await
        {
            Ok(applied) => out.push((name, applied)),
            Err(e) => {
                failure.get_or_insert(e);
            }
        }
    }
    for member in members {
        let _ = member.conn.close().await;
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Reads the feed from the start on a connection of its own and applies each window to
/// every member still following, all at once, while the next window is read; stops after
/// the first window that is not full (the rest is caught up one by one at the end).
async fn fan_out(
    pool: &PgPool,
    store: &EventStore,
    members: &mut [Member],
) -> Result<(), RuntimeError> {
    let mut reader = PgConnection::connect_with(&pool.connect_options()).await?;
    let types = union(members);
    let types = types.as_deref();
    let Some(from) = members.iter().map(|m| m.checkpoint).min() else {
        return Ok(());
    };
    let mut next = Some(store.read_feed_in(&mut reader, from, BATCH, types).await?);
    while let Some(window) = next.take() {
        let Some(end) = window.end else {
            break;
        };
        let full = i64::try_from(window.window).unwrap_or(i64::MAX) >= BATCH;
        let read_next = async {
            if full {
                store
                    .read_feed_in(&mut reader, end, BATCH, types)
                    .await
                    .map(Some)
            } else {
                Ok(None)
            }
        };
        let applies = members
            .iter_mut()
            .filter(|m| m.following)
            .map(|member| apply(member, &window));
        let (read, applied) = tokio::join!(read_next, futures::future::join_all(applies));
        for result in applied {
            result?;
        }
        next = read?;
    }
    let _ = reader.close().await;
    Ok(())
}

/// Applies `member`'s part of `window` and commits it with its checkpoint.
async fn apply(member: &mut Member, window: &FeedBatch) -> Result<(), RuntimeError> {
    let types = member.projection.stream_types();
    let mut part = window.select(window.window, |event| {
        types.is_none_or(|t| t.contains(&event.stream_type.as_str()))
    });
    part.rebuilding = member.deferred;
    if let Some(prepare) = member.projection.prepare()
        && !part.events.is_empty()
    {
        part = tokio::task::spawn_blocking(move || {
            prepare(&mut part);
            part
        })
        .await
        .map_err(|_| RuntimeError::Aborted(member.projection.name()))?;
    }
    let step = commit(
        &mut member.conn,
        member.projection.as_ref(),
        &mut member.checkpoint,
        part,
        Commit::Relaxed,
    )
    .await?;
    match step {
        Step::Applied(n) => member.applied += n as u64,
        Step::Moved | Step::CaughtUp => member.following = false,
    }
    Ok(())
}

/// The stream types any member reads; `None` when one reads every type.
fn union(members: &[Member]) -> Option<Vec<&'static str>> {
    let mut all = Vec::new();
    for member in members {
        for t in member.projection.stream_types()? {
            if !all.contains(t) {
                all.push(*t);
            }
        }
    }
    Some(all)
}
