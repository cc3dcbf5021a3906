//! The shared holder of the reference snapshot: readers take the current `Arc` (cheap, never
//! blocked by a reload for longer than a pointer swap); a reload builds a new snapshot
//! outside the lock and swaps it in.

use std::sync::{Arc, RwLock};

use events::{EventStore, StoreError};

use super::data::ReferenceData;

#[derive(Debug, Clone, Default)]
pub struct ReferenceCache {
    current: Arc<RwLock<Arc<ReferenceData>>>,
}

impl ReferenceCache {
    pub fn new(data: ReferenceData) -> Self {
        Self {
            current: Arc::new(RwLock::new(Arc::new(data))),
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
