//! Running a command: load the stream, fold it, check the expected version, decide, append.

use events::{Appended, DomainEvent, EventStore, Metadata, StoreError};
use uuid::Uuid;

use crate::aggregate::{Aggregate, DomainError};

/// Why a command did not produce its events.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error(transparent)]
    Domain(#[from] DomainError),
    /// The `If-Match` version is not the stream's version, or a concurrent writer won.
    #[error("version conflict")]
    VersionConflict,
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for CommandError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict { .. } => Self::VersionConflict,
            other => Self::Store(other),
        }
    }
}

/// The folded state of a stream and its version.
pub async fn load<A: Aggregate>(
    store: &EventStore,
    stream_id: Uuid,
) -> Result<(A, i64), StoreError> {
    let recorded = store.read_stream(stream_id).await?;
    let mut state = A::default();
    let mut version = 0;
    for event in &recorded {
        state.evolve(&A::Event::from_recorded(event)?);
        version = event.stream_version;
    }
    Ok((state, version))
}

/// What a successful command answers: `{id, version, position}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CommandAnswer {
    pub id: Uuid,
    pub version: i64,
    pub position: i64,
}

/// Load, check `expected` (the client's `If-Match`), decide and append. Without an expected
/// version a lost race is retried on the fresh state (the decision is made again, so no rule
/// is bypassed); with one, the caller gets the conflict.
pub async fn execute<A, F>(
    store: &EventStore,
    stream_id: Uuid,
    expected: Option<i64>,
    metadata: &Metadata,
    decide: F,
) -> Result<CommandAnswer, CommandError>
where
    A: Aggregate,
    F: Fn(&A, i64) -> Result<Vec<A::Event>, DomainError>,
{
    let mut attempts = 0;
    loop {
        attempts += 1;
        let (state, version) = load::<A>(store, stream_id).await?;
        if let Some(expected) = expected
            && expected != version
        {
            return Err(CommandError::VersionConflict);
        }
        let new_events: Vec<_> = decide(&state, version)?
            .iter()
            .map(|e| e.to_new_event())
            .collect();
        match store
            .append(A::STREAM_TYPE, stream_id, version, &new_events, metadata)
            .await
        {
            Ok(Appended { version, position }) => {
                return Ok(CommandAnswer {
                    id: stream_id,
                    version,
                    position,
                });
            }
            Err(StoreError::Conflict { .. }) if expected.is_none() && attempts < 5 => continue,
            Err(e) => return Err(e.into()),
        }
    }
}
