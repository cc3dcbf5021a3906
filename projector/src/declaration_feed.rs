//! The declaration events of a window, decoded once: ahead of time by [`prepare`] (a
//! rebuild's read-ahead), or when the projection applies the window.

use events::declaration::{DeclarationEvent, STREAM_TYPE};
use events::store::FeedBatch;

use crate::ProjectionError;

/// The window's declaration events with their index in `FeedBatch::events`.
pub(crate) type Decoded = Vec<(usize, DeclarationEvent)>;

/// [`crate::Projection::prepare`] of the declaration projections. A payload that does not
/// decode leaves nothing prepared: applying the window decodes again and names it.
pub(crate) fn prepare(batch: &mut FeedBatch) {
    if let Ok(decoded) = decode(batch) {
        batch.prepared = Some(Box::new(decoded));
    }
}

/// The prepared events when [`prepare`] ran, else decoded now.
pub(crate) fn take_or_decode(batch: &mut FeedBatch) -> Result<Decoded, ProjectionError> {
    if let Some(prepared) = batch.prepared.take()
        && let Ok(decoded) = prepared.downcast::<Decoded>()
    {
        return Ok(*decoded);
    }
    decode(batch)
}

fn decode(batch: &FeedBatch) -> Result<Decoded, ProjectionError> {
    let mut decoded = Vec::with_capacity(batch.events.len());
    for (index, (event, payload)) in batch.events.iter().zip(&batch.payloads).enumerate() {
        if event.stream_type == STREAM_TYPE {
            decoded.push((index, DeclarationEvent::from_json(event, payload)?));
        }
    }
    Ok(decoded)
}
