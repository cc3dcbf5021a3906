//! The shared holder of the reference snapshot: readers take the current `Arc` (cheap, never
//! blocked by a reload for longer than a pointer swap); a reload builds a new snapshot
//! outside the lock and swaps it in.

use std::sync::{Arc, Mutex, RwLock};

use events::reference::TABLES;
use events::{EventStore, StoreError};

use super::data::ReferenceData;

#[derive(Debug, Clone, Default)]
pub struct ReferenceCache {
    current: Arc<RwLock<Arc<ReferenceData>>>,
    /// Each reference stream's version when [`ReferenceCache::refresh`] last read them
    /// (empty: never, so the first refresh reads).
    read_at: Arc<Mutex<Vec<i64>>>,
}

impl ReferenceCache {
    pub fn new(data: ReferenceData) -> Self {
        Self {
            current: Arc::new(RwLock::new(Arc::new(data))),
            read_at: Arc::default(),
        }
    }

    /// Loads the snapshot from the store.
    pub async fn load(store: &EventStore) -> Result<Self, StoreError> {
        Ok(Self::new(ReferenceData::load(store).await?))
    }

    /// The snapshot in use now. Hold it for the whole of one command, so one decision sees
    /// one consistent set of tables.
    pub fn current(&self) -> Arc<ReferenceData> {
        // A poisoned lock only means a writer panicked between lock and swap; the Arc inside
        // is still a complete snapshot, so keep serving it.
        let guard = self.current.read().unwrap_or_else(|e| e.into_inner());
        Arc::clone(&guard)
    }

    /// Re-reads the reference streams only when one of them has grown since the snapshot in
    /// use was read (each stream's version, one indexed lookup per table): the tariff alone
    /// is an event of about 10 MB, too much to read and parse again every half minute for
    /// nothing. Answers whether it reloaded.
    pub async fn refresh(&self, store: &EventStore) -> Result<bool, StoreError> {
        let mut versions = Vec::with_capacity(TABLES.len());
        for table in TABLES {
            versions.push(
                store
                    .stream_version(events::reference::stream_id(table))
                    .await?,
            );
        }
        if *self.read_at.lock().unwrap_or_else(|e| e.into_inner()) == versions {
            return Ok(false);
        }
        // Read after the versions were taken: a version landing in between is read now or
        // at the next refresh, never missed.
        self.reload(store).await?;
        *self.read_at.lock().unwrap_or_else(|e| e.into_inner()) = versions;
        Ok(true)
    }

    /// Re-reads every reference stream and swaps the new snapshot in.
    pub async fn reload(&self, store: &EventStore) -> Result<Arc<ReferenceData>, StoreError> {
        let data = Arc::new(ReferenceData::load(store).await?);
        self.replace_arc(Arc::clone(&data));
        Ok(data)
    }

    pub fn replace(&self, data: ReferenceData) {
        self.replace_arc(Arc::new(data));
    }

    fn replace_arc(&self, data: Arc<ReferenceData>) {
        let mut guard = self.current.write().unwrap_or_else(|e| e.into_inner());
        *guard = data;
    }
}
