//! The one command path: load the stream once (a creating command reads nothing), check its
//! type and who may see it, check `If-Match`, decide, append with the loaded version and,
//! when an `Idempotency-Key` is given, store its record in the same transaction. Every
//! command route goes through [`execute`]; a command that must write something besides its
//! events in that transaction (a credential, a username reservation) passes a hook to
//! [`execute_then`] instead of writing its own copy of this path.

use events::idempotency::{Begin, IdempotencyStore};
use events::{Appended, DomainEvent, EventStore, Metadata, NewEvent, RecordedEvent, StoreError};
use std::future::Future;
use std::pin::Pin;

use sqlx::PgConnection;
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
    /// The `Idempotency-Key` was used before for a different request.
    #[error("idempotency key reused")]
    KeyReused,
    #[error(transparent)]
    Store(StoreError),
    /// An idempotency record's answer could not be written or read back.
    #[error("stored answer: {0}")]
    Answer(#[from] serde_json::Error),
    /// Anything else that failed underneath (e.g. hashing a password).
    #[error("{0}")]
    Internal(String),
}

impl From<StoreError> for CommandError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict { .. } => Self::VersionConflict,
            other => Self::Store(other),
        }
    }
}

impl From<sqlx::Error> for CommandError {
    fn from(e: sqlx::Error) -> Self {
        Self::Store(StoreError::from(e))
    }
}

/// What a successful command answers: `{id, version, position}`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[schema(description = "What every command answers.")]
pub struct CommandAnswer {
    /// The aggregate (declaration) id.
    pub id: Uuid,
    /// The aggregate's version after the command: send it in `If-Match` next time.
    pub version: i64,
    /// Global position of the last event written: pass it as `minPosition` to a query to read your write.
    pub position: i64,
}

/// Folds recorded events into state. `None` when the stream belongs to another aggregate
/// type: its id names nothing of this type (and its payloads would not even decode).
fn fold<A: Aggregate>(recorded: &[RecordedEvent]) -> Result<Option<(A, i64)>, StoreError> {
    let mut state = A::default();
    let mut version = 0;
    for event in recorded {
        if event.stream_type != A::STREAM_TYPE {
            return Ok(None);
        }
        state.evolve(&A::Event::from_recorded(event)?);
        version = event.stream_version;
    }
    Ok(Some((state, version)))
}

/// The folded state of a stream and its version. A stream of another aggregate type reads
/// as no stream (default state, version 0), so callers answer "not found" as for an unknown
/// id and never try to decode another type's events.
pub async fn load<A: Aggregate>(
    store: &EventStore,
    stream_id: Uuid,
) -> Result<(A, i64), StoreError> {
    let recorded = store.read_stream(stream_id).await?;
    Ok(fold::<A>(&recorded)?.unwrap_or_default())
}

/// The `Idempotency-Key` of a request, with what makes a repeat the same request.
pub struct Idempotency<'a> {
    pub store: &'a IdempotencyStore,
    /// The command and the caller, e.g. `declarations.create:{user id}`.
    pub scope: String,
    pub key: String,
    /// A hash of the parsed body: the same key with another body is refused.
    pub request_hash: String,
}

/// One command on one stream: where it writes and what it checks before deciding.
pub struct Command<'a, A: Aggregate> {
    store: &'a EventStore,
    stream_id: Uuid,
    creating: bool,
    expected: Option<i64>,
    metadata: Metadata,
    visible: Option<&'a (dyn Fn(&A) -> bool + Sync)>,
    customer_of: Option<fn(&A) -> Option<Uuid>>,
    idempotency: Option<Idempotency<'a>>,
}

impl<'a, A: Aggregate> Command<'a, A> {
    /// A command on the existing stream `stream_id`.
    pub fn on(store: &'a EventStore, stream_id: Uuid, metadata: Metadata) -> Self {
        Self {
            store,
            stream_id,
            creating: false,
            expected: None,
            metadata,
            visible: None,
            customer_of: None,
            idempotency: None,
        }
    }

    /// A command that starts the new stream `stream_id`: nothing is read, the decision is
    /// made on the empty state and appended as version 1 (a taken id is a version conflict).
    pub fn create(store: &'a EventStore, stream_id: Uuid, metadata: Metadata) -> Self {
        Self {
            creating: true,
            ..Self::on(store, stream_id, metadata)
        }
    }

    /// The version the client saw (`If-Match`); `None` accepts any and retries a lost race.
    pub fn expect(mut self, expected: Option<i64>) -> Self {
        self.expected = expected;
        self
    }

    /// Only a state for which `visible` holds may be acted on; any other is "not found",
    /// before `If-Match` or the decision say anything about it.
    pub fn visible_if(mut self, visible: &'a (dyn Fn(&A) -> bool + Sync)) -> Self {
        self.visible = Some(visible);
        self
    }

    /// The events' `customer_id` metadata is taken from the loaded state.
    pub fn customer_of(mut self, customer_of: fn(&A) -> Option<Uuid>) -> Self {
        self.customer_of = Some(customer_of);
        self
    }

    /// Runs the command once per key: a repeat answers the stored answer.
    pub fn idempotent(mut self, idempotency: Option<Idempotency<'a>>) -> Self {
        self.idempotency = idempotency;
        self
    }
}

/// What [`AfterAppend::run`] answers: the position to report.
pub type Hooked<'c> = Pin<Box<dyn Future<Output = Result<i64, CommandError>> + Send + 'c>>;

/// Writes a command makes besides its events, in the same transaction (a credential, a
/// username reservation). A failure rolls the events back too.
pub trait AfterAppend: Sync {
    /// Runs after the append with what was appended; answers the position to report (the
    /// last it wrote, or `appended.position`).
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: Appended) -> Hooked<'c>;
}

/// [`execute_then`] without anything written besides the events.
pub async fn execute<A, D>(
    command: Command<'_, A>,
    decide: D,
) -> Result<CommandAnswer, CommandError>
where
    A: Aggregate,
    D: Fn(&A, i64) -> Result<Vec<A::Event>, DomainError>,
{
    execute_then(command, decide, None).await
}

/// Loads, checks, decides and appends; then `after` runs in the appending transaction.
/// Without an expected version a lost race is retried on the fresh state (the decision is
/// made again, so no rule is bypassed); with one, the caller gets the conflict.
pub async fn execute_then<A, D>(
    command: Command<'_, A>,
    decide: D,
    after: Option<&dyn AfterAppend>,
) -> Result<CommandAnswer, CommandError>
where
    A: Aggregate,
    D: Fn(&A, i64) -> Result<Vec<A::Event>, DomainError>,
{
    execute_answering(command, decide, after, |answer| answer).await
}

/// [`execute_then`] for a command whose answer says more than `{id, version, position}`
/// (e.g. the login created with a customer): `answer` builds it, and it is what an
/// `Idempotency-Key` stores and a repeat answers.
pub async fn execute_answering<A, D, R>(
    command: Command<'_, A>,
    decide: D,
    after: Option<&dyn AfterAppend>,
    answer: impl Fn(CommandAnswer) -> R,
) -> Result<R, CommandError>
where
    A: Aggregate,
    D: Fn(&A, i64) -> Result<Vec<A::Event>, DomainError>,
    R: serde::Serialize + serde::de::DeserializeOwned,
{
    let store = command.store;
    if let Some(idempotency) = &command.idempotency {
        let begun = idempotency
            .store
            .begin(
                &idempotency.scope,
                &idempotency.key,
                &idempotency.request_hash,
            )
            .await?;
        let mut guard = match begun {
            Begin::Replay(answer) => {
                return Ok(serde_json::from_value(answer)?);
            }
            Begin::Mismatch => return Err(CommandError::KeyReused),
            Begin::Fresh(guard) => guard,
        };
        // One connection for the whole command: the guard's (see `IdempotencyGuard`).
        let answer = answer(attempt(&command, &decide, Some(guard.conn()), after).await?);
        let stored = serde_json::to_value(&answer)?;
        guard.complete(&stored).await?;
        store.notify();
        return Ok(answer);
    }
    let mut attempts = 0;
    loop {
        attempts += 1;
        let result = if after.is_some() {
            let mut tx = store.pool().begin().await?;
            match attempt(&command, &decide, Some(&mut tx), after).await {
                Ok(answer) => {
                    tx.commit().await?;
                    store.notify();
                    Ok(answer)
                }
                Err(e) => Err(e),
            }
        } else {
            attempt(&command, &decide, None, None).await
        };
        match result {
            Err(CommandError::VersionConflict)
                if command.expected.is_none() && !command.creating && attempts < 5 =>
            {
                continue;
            }
            other => return other.map(answer),
        }
    }
}

/// One load-decide-append, on `conn` when given (the caller commits), else on the pool.
async fn attempt<A, D>(
    command: &Command<'_, A>,
    decide: &D,
    mut conn: Option<&mut PgConnection>,
    after: Option<&dyn AfterAppend>,
) -> Result<CommandAnswer, CommandError>
where
    A: Aggregate,
    D: Fn(&A, i64) -> Result<Vec<A::Event>, DomainError>,
{
    let store = command.store;
    let id = command.stream_id;
    let (recorded, (state, version)) = if command.creating {
        (Vec::new(), (A::default(), 0))
    } else {
        let recorded = match conn.as_deref_mut() {
            Some(c) => store.read_stream_in(c, id).await?,
            None => store.read_stream(id).await?,
        };
        let folded = fold::<A>(&recorded)?.ok_or(DomainError::NotFound)?;
        (recorded, folded)
    };
    if let Some(visible) = command.visible
        && !visible(&state)
    {
        return Err(DomainError::NotFound.into());
    }
    if let Some(expected) = command.expected
        && expected != version
        && !only_side_records_since::<A>(&recorded, expected)?
    {
        return Err(CommandError::VersionConflict);
    }
    let new: Vec<NewEvent> = decide(&state, version)?
        .iter()
        .map(|e| e.to_new_event())
        .collect();
    let mut metadata = command.metadata.clone();
    if let Some(customer_of) = command.customer_of
        && let Some(customer) = customer_of(&state)
    {
        metadata.customer_id = Some(customer);
    }
    let Some(conn) = conn else {
        let Appended { version, position } = store
            .append(A::STREAM_TYPE, id, version, &new, &metadata)
            .await?;
        return Ok(CommandAnswer {
            id,
            version,
            position,
        });
    };
    let appended = store
        .append_in(&mut *conn, A::STREAM_TYPE, id, version, &new, &metadata)
        .await?;
    let position = match after {
        Some(after) => after.run(&mut *conn, appended).await?,
        None => appended.position,
    };
    Ok(CommandAnswer {
        id,
        version: appended.version,
        position,
    })
}

/// Whether every event after version `expected` is one the client need not have seen
/// ([`Aggregate::is_side_record`]). An expected version ahead of the stream, or at 0 for an
/// existing stream, is never waived.
fn only_side_records_since<A: Aggregate>(
    recorded: &[RecordedEvent],
    expected: i64,
) -> Result<bool, StoreError> {
    if expected < 1 || expected as usize >= recorded.len() {
        return Ok(false);
    }
    for event in &recorded[expected as usize..] {
        if !A::is_side_record(&A::Event::from_recorded(event)?) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The folded state of `stream_id` read on `conn` (inside a transaction: it sees what that
/// transaction appended). A stream of another type reads as none, as in [`load`].
pub async fn load_in<A: Aggregate>(
    store: &EventStore,
    conn: &mut PgConnection,
    stream_id: Uuid,
) -> Result<(A, i64), StoreError> {
    let recorded = store.read_stream_in(conn, stream_id).await?;
    Ok(fold::<A>(&recorded)?.unwrap_or_default())
}

/// The second stream of a command that must never change one stream without the other
/// (a clearance exception and its declaration): called from the first command's
/// [`AfterAppend`] hook, it loads `stream_id` on the appending transaction, decides, and
/// appends there with the loaded version. Any failure (a refusal, a lost race, a failed
/// write) fails the hook, and the whole transaction, the first stream's events included, is
/// rolled back; a lost race is then decided again by [`execute_then`] on fresh state.
pub async fn also_append<B, D>(
    store: &EventStore,
    conn: &mut PgConnection,
    stream_id: Uuid,
    metadata: &Metadata,
    decide: D,
) -> Result<Appended, CommandError>
where
    B: Aggregate,
    D: FnOnce(&B, i64) -> Result<Vec<B::Event>, DomainError>,
{
    let recorded = store.read_stream_in(&mut *conn, stream_id).await?;
    let (state, version) = fold::<B>(&recorded)?.ok_or(DomainError::NotFound)?;
    let new: Vec<NewEvent> = decide(&state, version)?
        .iter()
        .map(|e| e.to_new_event())
        .collect();
    if new.is_empty() {
        return Ok(Appended {
            version,
            position: 0,
        });
    }
    Ok(store
        .append_in(conn, B::STREAM_TYPE, stream_id, version, &new, metadata)
        .await?)
}

/// One new stream of [`create_many`]: its id and the metadata of its events.
#[derive(Debug, Clone)]
pub struct Creation {
    pub stream_id: Uuid,
    pub metadata: Metadata,
}

/// What became of one creation of [`create_many`].
#[derive(Debug, Clone, PartialEq)]
pub enum Created {
    /// Appended by this call (version 0, position 0: the decision had no event to append).
    Made(Appended),
    /// The stream existed already (an earlier attempt made it): nothing appended.
    Existed,
    /// The decision refused it: nothing appended.
    Refused(DomainError),
    /// The [`Gate`] held it back: nothing appended.
    HeldBack,
}

/// What [`Gate::admit`] answers: for each candidate, in order, whether it may be appended.
pub type Admitted<'c> = Pin<Box<dyn Future<Output = Result<Vec<bool>, CommandError>> + Send + 'c>>;

/// Writes a batch of creations makes besides its events (a reservation), in the appending
/// transaction and before the append, which may hold some of them back. A failure rolls
/// the whole batch back.
pub trait Gate: Sync {
    /// `candidates`: the indexes (into the creations) of those decided, with events, and
    /// not made before.
    fn admit<'c>(&'c self, tx: &'c mut PgConnection, candidates: &'c [usize]) -> Admitted<'c>;
}

/// Many creating commands of one aggregate type in one transaction: the batch form of
/// [`execute_then`] with [`Command::create`], for a bulk creation (an upload's declarations).
///
/// Each creation is decided on the empty state by `decide(index, state)` (the aggregate's own
/// decision, as on the one-stream path); the streams that exist already are left out (a
/// retry after a crash finds what the first attempt made: [`Created::Existed`]); `gate`, if
/// any, runs on the transaction and may hold some back; the rest are appended in one
/// statement ([`EventStore::append_new_streams_in`]) and committed together, then the
/// projectors are notified once. A stream made meanwhile by another writer makes the
/// statement fail; the batch is rolled back and tried again (at most five times, then
/// [`CommandError::VersionConflict`]). Answers one [`Created`] per creation, in order.
pub async fn create_many<A, D>(
    store: &EventStore,
    creations: &[Creation],
    decide: D,
    gate: Option<&dyn Gate>,
) -> Result<Vec<Created>, CommandError>
where
    A: Aggregate,
    D: Fn(usize, &A) -> Result<Vec<A::Event>, DomainError>,
{
    let empty = A::default();
    let decided: Vec<Result<Vec<NewEvent>, DomainError>> = (0..creations.len())
        .map(|i| decide(i, &empty).map(|events| events.iter().map(|e| e.to_new_event()).collect()))
        .collect();
    let ids: Vec<Uuid> = creations.iter().map(|c| c.stream_id).collect();
    let mut attempts = 0;
    loop {
        attempts += 1;
        let mut tx = store.pool().begin().await?;
        let existing: std::collections::HashSet<Uuid> = store
            .existing_streams_in(&mut tx, &ids)
            .await?
            .into_iter()
            .collect();
        let mut out: Vec<Created> = Vec::with_capacity(creations.len());
        let mut candidates: Vec<usize> = Vec::new();
        for (i, (c, d)) in creations.iter().zip(&decided).enumerate() {
            out.push(match d {
                _ if existing.contains(&c.stream_id) => Created::Existed,
                Err(refused) => Created::Refused(refused.clone()),
                Ok(events) if events.is_empty() => Created::Made(Appended {
                    version: 0,
                    position: 0,
                }),
                Ok(_) => {
                    candidates.push(i);
                    Created::HeldBack
                }
            });
        }
        let admitted = match gate {
            Some(gate) if !candidates.is_empty() => {
                let flags = gate.admit(&mut tx, &candidates).await?;
                if flags.len() != candidates.len() {
                    return Err(CommandError::Internal(
                        "the gate did not answer for every candidate".into(),
                    ));
                }
                candidates
                    .iter()
                    .zip(flags)
                    .filter_map(|(i, ok)| ok.then_some(*i))
                    .collect()
            }
            _ => candidates,
        };
        let streams: Vec<events::store::NewStream<'_>> = admitted
            .iter()
            .filter_map(|i| {
                let events = decided[*i].as_ref().ok()?;
                Some(events::store::NewStream {
                    stream_id: creations[*i].stream_id,
                    events,
                    metadata: &creations[*i].metadata,
                })
            })
            .collect();
        match store
            .append_new_streams_in(&mut tx, A::STREAM_TYPE, &streams)
            .await
        {
            Ok(appended) => {
                // The batch's statement grew the connection's buffers to its size; sqlx
                // would keep them for the connection's life.
                sqlx::Connection::shrink_buffers(&mut *tx);
                tx.commit().await?;
                if !appended.is_empty() {
                    store.notify();
                }
                for (i, a) in admitted.iter().zip(appended) {
                    out[*i] = Created::Made(a);
                }
                return Ok(out);
            }
            Err(StoreError::Conflict { .. }) if attempts < 5 => {
                tx.rollback().await?;
            }
            Err(e) => return Err(e.into()),
        }
    }
}
