//! The live loop of one projection: hold its advisory lock, catch up, wait for a wake-up.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use events::EventStore;
use sqlx::{Connection, PgConnection};
use tokio::sync::watch;

use super::batch::{Step, ensure_checkpoint, step};
use super::{RuntimeConfig, RuntimeError, finish, pause, rebuild, stop, stopped, stopping};
use crate::Projection;

/// A caught-up projection with events waiting behind an older transaction looks again
/// after this, doubling up to the poll interval.
const FIRST_RECHECK: Duration = Duration::from_millis(20);

#[derive(Clone)]
pub(crate) struct Shared {
    pub store: EventStore,
    pub config: RuntimeConfig,
    pub wake: watch::Receiver<u64>,
    pub listening: Arc<AtomicBool>,
}

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
    let mut checkpoint = ensure_checkpoint(&mut conn, name).await?;
    tracing::info!(
        projection = name,
        position = checkpoint.position,
        "projection running"
    );
    let mut wake = shared.wake.clone();
    let mut recheck = FIRST_RECHECK;
    let mut finish_checked = std::time::Instant::now();
    loop {
        wake.borrow_and_update();
        // A rebuild in another process that died before its finish leaves it due.
        if !projection.rebuild_finish().is_empty()
            && finish_checked.elapsed() >= finish::CHECK_EVERY
        {
            finish::complete(&mut conn, projection).await?;
            finish_checked = std::time::Instant::now();
        }
        loop {
            if stopping(shutdown) {
                let _ = conn.close().await;
                return Ok(End::Shutdown);
            }
            let limit = shared.config.batch_size;
            match step(&mut conn, &shared.store, projection, &mut checkpoint, limit).await? {
                Step::Applied(n) => {
                    *progressed = true;
                    recheck = FIRST_RECHECK;
                    tracing::debug!(
                        projection = name,
                        events = n,
                        position = checkpoint.position,
                        "batch applied"
                    );
                    // A short window reached the head: wait for the next wake-up (and let
                    // events gather) rather than read again at once for each new command.
                    if i64::try_from(n).unwrap_or(i64::MAX) < limit {
                        break;
                    }
                }
                Step::Moved => {}
                Step::CaughtUp => break,
            }
        }
        let delay = if shared
            .store
            .has_unsafe_after_in(&mut conn, checkpoint)
            .await?
        {
            let delay = recheck;
            recheck = (recheck * 2).min(shared.config.poll_interval);
            delay
        } else if shared.listening.load(Ordering::Relaxed) {
            shared.config.idle_interval
        } else {
            shared.config.poll_interval
        };
        let was_woken = tokio::select! {
            _ = stopped(shutdown) => false,
            _ = woken(&mut wake) => true,
            _ = tokio::time::sleep(delay) => false,
        };
        if was_woken && !shared.config.gather.is_zero() {
            tokio::select! {
                _ = stopped(shutdown) => {}
                _ = tokio::time::sleep(shared.config.gather) => {}
            }
        }
    }
}

/// Resolves on the next notification; never, once the listener task is gone (the timers
/// take over then).
async fn woken(wake: &mut watch::Receiver<u64>) {
    if wake.changed().await.is_err() {
        std::future::pending::<()>().await;
    }
}
