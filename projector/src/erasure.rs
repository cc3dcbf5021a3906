//! Erasures of data subjects (docs/personal-data.md) in the read models that hold personal
//! values in the clear (`rm_declarations.data`, `rm_declaration_history.changes`).
//!
//! A `DataSubjectErased` event names the streams that held values of the subject; its key is
//! already destroyed when the event can be read (both commit together), so reading those
//! streams now gives `[erased]` where the subject's values were. Each projection writes what
//! it derives from the streams' personal values again from that read; nothing else of a row
//! changes. Re-applying the event writes the same values (idempotent), and a window gives the
//! same tables as its events one by one: the values come from the keys as they are now, as
//! the rest of the window's events were read.

use events::RecordedEvent;
use events::data_subject::{DataSubjectEvent, STREAM_TYPE};
use events::declaration::{DeclarationEvent, STREAM_TYPE as DECLARATION};
use events::store::FeedBatch;
use events::{DomainEvent, store::read_stream_on};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::ProjectionError;

/// The stream types a projection that applies erasures reads beside its own.
pub const STREAM_TYPES: [&str; 2] = [DECLARATION, STREAM_TYPE];

/// The streams named by the window's erasures, in order, each once.
pub(crate) fn erased_streams(window: &FeedBatch) -> Result<Vec<Uuid>, ProjectionError> {
    let mut out: Vec<Uuid> = Vec::new();
    for (index, event) in window.events.iter().enumerate() {
        if event.stream_type != STREAM_TYPE {
            continue;
        }
        let parsed = RecordedEvent {
            payload: window.decode(index)?,
            ..event.clone()
        };
        match DataSubjectEvent::from_recorded(&parsed)? {
            DataSubjectEvent::Erased(e) => {
                for id in e.streams {
                    if !out.contains(&id) {
                        out.push(id);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// A declaration's events as they read now (erased values as `[erased]`); empty for a
/// stream of another type.
pub(crate) async fn declaration_events(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Vec<(RecordedEvent, DeclarationEvent)>, ProjectionError> {
    let recorded = read_stream_on(conn, id).await?;
    let mut out = Vec::with_capacity(recorded.len());
    for event in recorded {
        if event.stream_type != DECLARATION {
            return Ok(Vec::new());
        }
        let decoded = DeclarationEvent::from_recorded(&event)?;
        out.push((event, decoded));
    }
    Ok(out)
}
