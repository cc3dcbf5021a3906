//! The customers' current states, kept in memory for the commands that check the customer
//! they act for (a new declaration is refused for a disabled or deleted customer). Without
//! it every create read the customer's stream: one more round trip and a fold per command,
//! the largest item after the append in the command path's profile (docs/benchmarks.md).
//!
//! **Staying exact.** An entry is dropped the moment its customer's stream changes:
//! - every process listens on `clearway_customer_changed`, which a trigger on `events`
//!   notifies (on commit) for each event appended to a `customer` stream, from any process
//!   (migration `20261128000600_customer_changed_notify.sql`);
//! - the commands of this process that change a customer also [`forget`](CustomerCache::forget)
//!   it before they answer, so the next request of the same caller never sees the old
//!   state, whatever the listener's delay;
//! - a state read from the stream is kept only if no change was announced while it was
//!   being read (a generation counter), so a read racing with a change is not cached;
//! - while the listener is not connected (starting, or reconnecting after a lost
//!   connection, when announcements may have been missed) nothing is served from memory and
//!   everything cached is dropped: every lookup reads the stream, as before.
//!
//! Another process's change reaches this one as fast as PostgreSQL delivers the
//! notification (well under a millisecond on one host); entries also expire after
//! [`TTL`] as a last resort.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use events::{EventStore, StoreError};
use sqlx::PgPool;
use sqlx::postgres::PgListener;
use uuid::Uuid;

use super::CustomerState;
use crate::handler::load;

/// The channel the `events_customer_changed` trigger notifies, with the stream id.
pub const CHANNEL: &str = "clearway_customer_changed";
/// How long an entry is trusted without any announcement.
pub const TTL: Duration = Duration::from_secs(60);
/// Entries kept at most; beyond it the cache starts again empty (customers are thousands).
const CAPACITY: usize = 100_000;

#[derive(Clone)]
pub struct CustomerCache {
    inner: Arc<Inner>,
}

struct Inner {
    pool: PgPool,
    entries: Mutex<HashMap<Uuid, (Instant, Arc<CustomerState>)>>,
    /// Bumped by every announcement and every reconnect.
    generation: AtomicU64,
    listening: AtomicBool,
    started: Once,
    /// Streams read so far (for tests and diagnosis).
    reads: AtomicU64,
}

impl CustomerCache {
    /// A cache over `pool`'s database; its listener starts on the first lookup (it needs a
    /// running Tokio runtime).
    pub fn new(pool: PgPool) -> Self {
        Self {
            inner: Arc::new(Inner {
                pool,
                entries: Mutex::new(HashMap::new()),
                generation: AtomicU64::new(0),
                listening: AtomicBool::new(false),
                started: Once::new(),
                reads: AtomicU64::new(0),
            }),
        }
    }

    /// The customer's current state: from memory when it is known to be current, else read
    /// from its stream.
    pub async fn get(
        &self,
        store: &EventStore,
        id: Uuid,
    ) -> Result<Arc<CustomerState>, StoreError> {
        self.start();
        let listening = self.inner.listening.load(Ordering::Acquire);
        if listening && let Some(state) = self.cached(id) {
            return Ok(state);
        }
        let generation = self.inner.generation.load(Ordering::Acquire);
        let (state, _) = load::<CustomerState>(store, id).await?;
        self.inner.reads.fetch_add(1, Ordering::Relaxed);
        let state = Arc::new(state);
        // Only a read that no announcement overtook may be kept, and only of a customer
        // that exists (an id nobody registered yet is not remembered as missing).
        if listening
            && state.exists()
            && self.inner.generation.load(Ordering::Acquire) == generation
        {
            let mut entries = self.lock();
            if entries.len() >= CAPACITY {
                entries.clear();
            }
            entries.insert(id, (Instant::now(), state.clone()));
        }
        Ok(state)
    }

    /// Whether announcements are being received (else every lookup reads the stream).
    pub fn is_listening(&self) -> bool {
        self.inner.listening.load(Ordering::Acquire)
    }

    /// How many times a customer's stream was read rather than served from memory.
    pub fn stream_reads(&self) -> u64 {
        self.inner.reads.load(Ordering::Relaxed)
    }

    /// Drops what is known of `id`: called by this process's commands that change a
    /// customer, before they answer.
    pub fn forget(&self, id: Uuid) {
        self.inner.generation.fetch_add(1, Ordering::AcqRel);
        self.lock().remove(&id);
    }

    fn cached(&self, id: Uuid) -> Option<Arc<CustomerState>> {
        let entries = self.lock();
        let (at, state) = entries.get(&id)?;
        (at.elapsed() < TTL).then(|| state.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, (Instant, Arc<CustomerState>)>> {
        // A panic while holding the lock leaves a map that is still valid.
        self.inner
            .entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn forget_all(&self) {
        self.inner.generation.fetch_add(1, Ordering::AcqRel);
        self.lock().clear();
    }

    fn start(&self) {
        self.inner.started.call_once(|| {
            let cache = self.clone();
            tokio::spawn(async move { cache.listen().await });
        });
    }

    /// Keeps one listener connection up for as long as the cache lives.
    async fn listen(self) {
        let weak = Arc::downgrade(&self.inner);
        drop(self);
        let mut backoff = Duration::from_millis(100);
        loop {
            let Some(inner) = weak.upgrade() else { return };
            let cache = CustomerCache { inner };
            let connected = async {
                let mut listener = PgListener::connect_with(&cache.inner.pool).await?;
                listener.listen(CHANNEL).await?;
                Ok::<_, sqlx::Error>(listener)
            }
            .await;
            let mut listener = match connected {
                Ok(listener) => listener,
                Err(e) => {
                    tracing::warn!(error = %e, retry_in = ?backoff,
                        "cannot listen for customer changes; customers are read per command meanwhile");
                    drop(cache);
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(10));
                    continue;
                }
            };
            backoff = Duration::from_millis(100);
            // Changes made before the listener was up went unannounced.
            cache.forget_all();
            cache.inner.listening.store(true, Ordering::Release);
            drop(cache);
            loop {
                // Wake now and then to notice that the cache itself is gone.
                let received =
                    tokio::time::timeout(Duration::from_secs(5), listener.try_recv()).await;
                let Some(inner) = weak.upgrade() else { return };
                let cache = CustomerCache { inner };
                match received {
                    Err(_elapsed) => continue,
                    Ok(Ok(Some(notification))) => match notification.payload().parse::<Uuid>() {
                        Ok(id) => cache.forget(id),
                        Err(_) => cache.forget_all(),
                    },
                    // A lost connection (`None`) or a failure: announcements may be lost
                    // until a new listener is up, so serve nothing from memory until then.
                    Ok(outcome) => {
                        if let Err(e) = outcome {
                            tracing::warn!(error = %e, "customer change listener failed; reconnecting");
                        }
                        cache.inner.listening.store(false, Ordering::Release);
                        cache.forget_all();
                        break;
                    }
                }
            }
        }
    }
}
