//! The `DataSubject` aggregate (docs/personal-data.md): one stream per data subject (one
//! personal identifier, [`events::pii`]) holding its erasures. An erasure destroys the
//! subject's key in `pii_keys` in the transaction that appends `DataSubjectErased`, so the
//! event and the destruction commit together or not at all; the log's ciphertext then reads
//! as "erased" everywhere, and the read models update the rows of the streams the event names.

use events::data_subject::{DataSubjectEvent, Erased, stream_id};
use events::{Appended, EventStore, Metadata};
use serde::Serialize;
use sqlx::PgConnection;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};
use crate::handler::{AfterAppend, Command, CommandError, Hooked, execute_answering};

pub mod routes;
#[cfg(test)]
mod tests;

/// The longest reason kept with an erasure.
pub const REASON_MAX: usize = 500;

#[derive(Debug, Default, Clone)]
pub struct DataSubjectState {
    pub erasures: u32,
}

impl Aggregate for DataSubjectState {
    type Event = DataSubjectEvent;
    type Command = DataSubjectCommand;
    const STREAM_TYPE: &'static str = events::data_subject::STREAM_TYPE;

    fn evolve(&mut self, event: &DataSubjectEvent) {
        match event {
            DataSubjectEvent::Erased(_) => self.erasures += 1,
        }
    }

    fn decide(
        &self,
        cmd: DataSubjectCommand,
        _ctx: &Ctx,
    ) -> Result<Vec<DataSubjectEvent>, DomainError> {
        match cmd {
            DataSubjectCommand::Erase(erase) => erasure(&erase),
        }
    }
}

/// What the key table holds for the subject when the erasure is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// No value of the subject was ever stored.
    Nothing,
    /// A live key.
    Live,
    /// Its key is already destroyed (and no value was stored since).
    Erased,
}

/// What may be asked of the data-subject log.
#[derive(Debug, Clone)]
pub enum DataSubjectCommand {
    Erase(Erase),
}

/// Erase one subject.
#[derive(Debug, Clone)]
pub struct Erase {
    pub subject: String,
    pub reason: Option<String>,
    pub held: Held,
    pub streams: Vec<Uuid>,
}

/// - nothing stored for the subject: 404 (nothing to erase; the answer says no more);
/// - already erased: 409;
/// - a reason over [`REASON_MAX`] characters, or with a NUL character (which the log's JSON
///   cannot hold): 400 naming `reason`.
fn erasure(cmd: &Erase) -> Result<Vec<DataSubjectEvent>, DomainError> {
    if let Some(reason) = &cmd.reason
        && reason.chars().count() > REASON_MAX
    {
        return Err(DomainError::Validation(vec![Violation::new(
            "reason",
            "max_length",
            format!("原因最多 {REASON_MAX} 个字符"),
            format!("reason is at most {REASON_MAX} characters"),
        )]));
    }
    if cmd.reason.as_deref().is_some_and(|r| r.contains('\0')) {
        return Err(DomainError::Validation(vec![Violation::new(
            "reason",
            "no_nul",
            "原因不能包含 NUL 字符",
            "reason must not contain a NUL character",
        )]));
    }
    match cmd.held {
        Held::Nothing => Err(DomainError::NotFound),
        Held::Erased => Err(DomainError::Conflict(
            "this data subject is already erased".into(),
        )),
        Held::Live => Ok(vec![DataSubjectEvent::Erased(Erased {
            subject: cmd.subject.clone(),
            reason: cmd.reason.clone(),
            streams: cmd.streams.clone(),
        })]),
    }
}

/// What an erasure answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErasureAnswer {
    /// The subject's stream.
    pub id: Uuid,
    pub version: i64,
    /// The erasure event's position (`minPosition` for reads that must show it).
    pub position: i64,
    /// The subject id (`ds_` + 32 hex digits), never the identifier.
    #[schema(example = "ds_3f1c9a0b7d2e4c5f8a6b1d0e9c7f2a4b")]
    pub subject: String,
    /// How many streams (declarations) held values of the subject.
    pub streams: usize,
}

/// Destroys the key in the appending transaction; a key destroyed meanwhile by another
/// erasure fails the command (nothing appended). The documents keys of the clearance
/// exceptions among `streams`, and of those raised on a declaration among them, go with it:
/// their identity and passport scans are of the people those streams name.
struct DestroyKey<'a> {
    subject: &'a str,
    streams: &'a [Uuid],
}

impl AfterAppend for DestroyKey<'_> {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: Appended) -> Hooked<'c> {
        Box::pin(async move {
            if events::pii::destroy_key(&mut *tx, self.subject).await? {
                sqlx::query(
                    "UPDATE pii_keys SET key = NULL, erased_at = now()
                      WHERE key IS NOT NULL AND subject IN (
                            SELECT subject FROM clearance_document_blobs
                             WHERE subject IS NOT NULL
                               AND (exception_id = ANY($1) OR declaration_id = ANY($1)))",
                )
                .bind(self.streams)
                .execute(&mut *tx)
                .await?;
                Ok(appended.position)
            } else {
                Err(CommandError::Domain(DomainError::Conflict(
                    "this data subject is already erased".into(),
                )))
            }
        })
    }
}

/// Erases the subject named by `input` (an ID number, a phone number or a subject id): the
/// one path of the admin action and `clearway erase`.
pub async fn erase(
    store: &EventStore,
    metadata: Metadata,
    input: &str,
    reason: Option<&str>,
) -> Result<ErasureAnswer, CommandError> {
    let subject = events::pii::parse_subject(input).ok_or_else(|| {
        DomainError::Validation(vec![Violation::new(
            "subject",
            "required",
            "请填写身份证号、电话号码或数据主体编号",
            "subject must be an ID number, a phone number or a subject id",
        )])
    })?;
    let reason = reason
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string);
    let mut conn = store.pool().acquire().await?;
    let (held, streams) = match events::pii::subject_status(&mut conn, &subject).await? {
        None => (Held::Nothing, Vec::new()),
        Some((true, streams)) => (Held::Erased, streams),
        Some((false, streams)) => (Held::Live, streams),
    };
    drop(conn);
    let cmd = Erase {
        subject: subject.clone(),
        reason,
        held,
        streams,
    };
    let count = cmd.streams.len();
    let hook = DestroyKey {
        subject: &subject,
        streams: &cmd.streams,
    };
    execute_answering(
        Command::<DataSubjectState>::on(store, stream_id(&subject), metadata),
        |state, _| {
            let erase = DataSubjectCommand::Erase(cmd.clone());
            state.decide(erase, &Ctx::system(Default::default()))
        },
        Some(&hook),
        |answer| ErasureAnswer {
            id: answer.id,
            version: answer.version,
            position: answer.position,
            subject: subject.clone(),
            streams: count,
        },
    )
    .await
}
