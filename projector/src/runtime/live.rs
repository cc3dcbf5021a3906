//! The live loop of one projection: hold its advisory lock, catch up, wait for a wake-up.

use std::sync::Arc;

use sqlx::{Connection, PgConnection};
use tokio::sync::watch;

use super::batch::{Commit, Step, commit, ensure_checkpoint, load_checkpoint, move_checkpoint};
use super::reader::{Message, Shared};
use super::{RuntimeError, finish, pause, rebuild, stop, stopped, stopping};
use crate::Projection;

enum End {
    Shutdown,
    /// Another instance holds the projection.
    Busy,
    Failed {
        error: RuntimeError,
        progressed: bool,
    },
}

pub(crate) async fn run_projection(
    projection: Arc<dyn Projection>,
    shared: Shared,
    mut shutdown: watch::Receiver<bool>,
) {
    let name = projection.name();
    let config = shared.config.clone();
    let pool = shared.store.pool().clone();
    let mut backoff = config.min_backoff;
    // The event that failed last (position) and how often in a row.
    let mut failing: Option<(i64, u32)> = None;
    let mut stopped_logged = false;
    loop {
        // A stopped projection waits for `resume`, whichever instance stopped it.
        match stop::is_stopped(&pool, name).await {
            Ok(true) => {
                if !stopped_logged {
                    tracing::warn!(projection = name, "projection stopped; waiting for resume");
                    stopped_logged = true;
                }
                if !pause(&mut shutdown, config.lock_retry_interval).await {
                    return;
                }
                continue;
            }
            Ok(false) => stopped_logged = false,
            Err(error) => {
                tracing::error!(projection = name, error = %error, retry_in = ?backoff,
                    "cannot read whether the projection is stopped; retrying");
                if !pause(&mut shutdown, backoff).await {
                    return;
                }
                backoff = (backoff * 2).min(config.max_backoff);
                continue;
            }
        }
        // A session runs in its own task so that even a panicking projection only costs a
        // retry, not the projection's whole loop.
        let session = tokio::spawn(session(
            projection.clone(),
            shared.clone(),
            shutdown.clone(),
        ));
        let end = match session.await {
            Ok(end) => end,
            Err(e) => {
                tracing::error!(projection = name, error = %e, "projection session panicked");
                End::Failed {
                    error: RuntimeError::Aborted(name),
                    progressed: false,
                }
            }
        };
        let wait = match end {
            End::Shutdown => return,
            End::Busy => {
                tracing::debug!(projection = name, "held by another instance; waiting");
                config.lock_retry_interval
            }
            End::Failed { error, progressed } => {
                if progressed {
                    backoff = config.min_backoff;
                }
                let attempts = match (stop::repeating(&error), failing) {
                    (Some(position), Some((last, n))) if last == position => n + 1,
                    (Some(_), _) => 1,
                    (None, _) => 0,
                };
                failing = stop::repeating(&error).map(|position| (position, attempts));
                if attempts >= config.stop_after.max(1) {
                    match stop::record(&pool, &error, attempts).await {
                        Ok(()) => {
                            tracing::error!(projection = name, error = %error, attempts,
                                "projection stopped on an event it cannot apply; \
                                 remove the cause, then resume it");
                            failing = None;
                            backoff = config.min_backoff;
                            continue;
                        }
                        Err(e) => tracing::error!(projection = name, error = %e,
                            "cannot record the projection's stop"),
                    }
                }
                tracing::error!(projection = name, error = %error, retry_in = ?backoff,
                    "projection failed; retrying");
                let wait = backoff;
                backoff = (backoff * 2).min(config.max_backoff);
                wait
            }
        };
        if !pause(&mut shutdown, wait).await {
            return;
        }
    }
}

async fn session(
    projection: Arc<dyn Projection>,
    shared: Shared,
    mut shutdown: watch::Receiver<bool>,
) -> End {
    let mut progressed = false;
    let result = hold_and_follow(&*projection, &shared, &mut shutdown, &mut progressed).await;
    match result {
        Ok(end) => end,
        Err(error) => End::Failed { error, progressed },
    }
}

async fn hold_and_follow(
    projection: &dyn Projection,
    shared: &Shared,
    shutdown: &mut watch::Receiver<bool>,
    progressed: &mut bool,
) -> Result<End, RuntimeError> {
    let name = projection.name();
    // Its own connection, not a pooled one: the session lock must end with this session,
    // not linger on a connection returned to the pool.
    let options = shared.store.pool().connect_options();
    let mut conn = PgConnection::connect_with(&options).await?;
    let locked: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtextextended($1, 0))")
        .bind(format!("clearway.projection.{name}"))
        .fetch_one(&mut conn)
        .await?;
    if !locked {
        let _ = conn.close().await;
        return Ok(End::Busy);
    }
    // What a rebuild that died midway left behind is put right before anything else.
    rebuild::recover(&mut conn, projection).await?;
    let mut checkpoint = ensure_checkpoint(&mut conn, projection).await?;
    tracing::info!(
        projection = name,
        position = checkpoint.position,
        "projection running"
    );
    // From here the process's feed reader hands the projection its events.
    let mut membership = shared
        .feed
        .join(name, projection.stream_types(), checkpoint);
    let mut finish_checked = std::time::Instant::now();
    loop {
        // A rebuild in another process that died before its finish leaves it due.
        if !projection.rebuild_finish().is_empty()
            && finish_checked.elapsed() >= finish::CHECK_EVERY
        {
            finish::complete(&mut conn, projection).await?;
            finish_checked = std::time::Instant::now();
        }
        let message = tokio::select! {
            _ = stopped(shutdown) => None,
            message = membership.messages.recv() => message,
            _ = tokio::time::sleep(finish::CHECK_EVERY) => continue,
        };
        if stopping(shutdown) {
            let _ = conn.close().await;
            return Ok(End::Shutdown);
        }
        membership.taken();
        let step = match message {
            None => return Err(RuntimeError::Aborted(name)),
            Some(Message::Window { epoch, batch }) if epoch == membership.epoch => {
                let events = batch.events.len();
                let step = commit(
                    &mut conn,
                    projection,
                    &mut checkpoint,
                    batch,
                    Commit::Relaxed,
                )
                .await?;
                if let Step::Applied(_) = step {
                    *progressed = true;
                    tracing::debug!(
                        projection = name,
                        events,
                        position = checkpoint.position,
                        "batch applied"
                    );
                }
                step
            }
            Some(Message::Advance { epoch, to, passed }) if epoch == membership.epoch => {
                if move_checkpoint(&mut conn, name, checkpoint, to, passed, Commit::Relaxed).await?
                {
                    checkpoint = to;
                    Step::Applied(passed)
                } else {
                    checkpoint = load_checkpoint(&mut conn, name).await?;
                    Step::Moved
                }
            }
            // Handed before a rewind: the reader reads it again from the new position.
            Some(_) => continue,
        };
        if let Step::Moved = step {
            tracing::info!(
                projection = name,
                position = checkpoint.position,
                "checkpoint moved by another writer; reading again from it"
            );
            membership.rewind(checkpoint);
        }
    }
}
