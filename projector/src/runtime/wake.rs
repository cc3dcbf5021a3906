//! Turns `NOTIFY clearway_events` into wake-ups for the projection loops.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio::sync::watch;

use super::{RuntimeConfig, pause, stopped};

/// The channel the `events` insert trigger notifies.
pub const CHANNEL: &str = "clearway_events";

/// Keeps one listener connection up; `listening` tells the loops whether they can rely on
/// it or must poll.
pub(crate) async fn listen(
    pool: PgPool,
    wake: watch::Sender<u64>,
    listening: Arc<AtomicBool>,
    config: RuntimeConfig,
    mut shutdown: watch::Receiver<bool>,
) {
    let bump = || wake.send_modify(|n| *n = n.wrapping_add(1));
    let mut backoff = config.min_backoff;
    loop {
        let connect = async {
            let mut listener = PgListener::connect_with(&pool).await?;
            listener.listen(CHANNEL).await?;
            Ok::<_, sqlx::Error>(listener)
        };
        let connected = tokio::select! {
            _ = stopped(&mut shutdown) => return,
            connected = connect => connected,
        };
        let mut listener = match connected {
            Ok(listener) => listener,
            Err(e) => {
                listening.store(false, Ordering::Relaxed);
                tracing::warn!(error = %e, retry_in = ?backoff,
                    "cannot listen for events; projections poll meanwhile");
                if !pause(&mut shutdown, backoff).await {
                    return;
                }
                backoff = (backoff * 2).min(config.max_backoff);
                continue;
            }
        };
        listening.store(true, Ordering::Relaxed);
        backoff = config.min_backoff;
        // Anything committed while we were not listening went unannounced.
        bump();
        loop {
            let received = tokio::select! {
                _ = stopped(&mut shutdown) => return,
                received = listener.try_recv() => received,
            };
            match received {
                Ok(Some(_)) => bump(),
                // The connection dropped; the next call reconnects. Notifications in
                // between are lost, so wake everyone to look.
                Ok(None) => {
                    tracing::warn!("event listener lost its connection; reconnecting");
                    bump();
                }
                Err(e) => {
                    listening.store(false, Ordering::Relaxed);
                    tracing::warn!(error = %e, "event listener failed; projections poll meanwhile");
                    bump();
                    break;
                }
            }
        }
    }
}
