//! Events of the `DataSubject` aggregate (docs/personal-data.md): one stream per data
//! subject ([`crate::pii`]), holding its erasures. The event names the subject id, never the
//! identifier; who erased is the event's metadata, when is its `recorded_at`.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "data_subject";

const NAMESPACE: Uuid = Uuid::from_u128(0x5e1f_0c3a_2b7d_4e99_8a61_d0c4_33e2_9b15);

/// The stream of a subject id (`ds_...`).
pub fn stream_id(subject: &str) -> Uuid {
    Uuid::new_v5(&NAMESPACE, subject.as_bytes())
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erased {
    /// The subject id (`ds_` + 32 hex digits).
    pub subject: String,
    /// Why (free text, e.g. the request's reference); never the identifier itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The streams that held values of the subject when its key was destroyed: the read
    /// models update their rows of these.
    pub streams: Vec<Uuid>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum DataSubjectEvent {
    #[serde(rename = "DataSubjectErased")]
    Erased(Erased),
}

impl DomainEvent for DataSubjectEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Erased(_) => "DataSubjectErased",
        }
    }

    fn schema_version(&self) -> i32 {
        1
    }

    fn to_new_event(&self) -> NewEvent {
        split_tagged(self, 1)
    }

    fn from_recorded(event: &RecordedEvent) -> Result<Self, StoreError> {
        join_tagged(event, event.payload.clone())
    }
}
