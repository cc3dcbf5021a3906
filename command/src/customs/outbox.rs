//! The customs writer: a task of the server process that drains `customs_messages` (the
//! queue the projection `customs_outbox` fills when a declaration is declared, re-declared
//! or sent again) into the exchange folder's `outbox/`. Declaring never waits on the folder.
//!
//! **Claiming.** Due rows are picked with `FOR UPDATE SKIP LOCKED`, a batch at a time
//! ([`BATCH`]), in one statement that commits at once; each is claimed with a session
//! advisory lock held by the worker's connection (a killed worker releases it at once); the
//! claims are counted and the rows pushed back before anything is written, so a row that
//! keeps failing waits while the others go.
//!
//! **Once, under one name.** The CopNo is fixed by the event that asked for the message, so
//! the file name is known before anything is written. The bytes are made from the
//! declaration as it stood at that event, checked against the schema's rules, and stored in
//! the row (`writing`, committed: one statement for the batch) before the file is written;
//! each file is written under a temporary name (`.<CopNo>.xml.tmp`), flushed and renamed to
//! `<CopNo>.xml`, and the folder flushed once for the batch; then the sendings are recorded
//! on their declarations (`DeclarationCustomsMessageSent`: CopNo, file name, SHA-256) and
//! the rows marked `sent`, all in one transaction. A crash anywhere in between finds the row
//! `writing` with its bytes: the file already there with those bytes is recorded, not
//! written again; a file not there is written again under the same name with the same
//! bytes. Nothing is ever written under a second CopNo.
//!
//! **One row does not hold up its batch.** A row whose file cannot be written or whose
//! declaration cannot be read keeps the reason in `error` and waits its turn; the others are
//! written and recorded.
//!
//! **Refused.** A declaration that cannot make a valid message is not sent: the problems are
//! recorded on its stream (`DeclarationCustomsMessageRefused`) and shown with the message.
//!
//! **The folder away.** A folder missing or unwritable fails the attempt; the row waits
//! (0.5 s doubling, at most 30 s) and is written when the folder is back.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use api::Actor;
use events::DomainEvent;
use events::declaration::DeclarationEvent;
use events::declaration::customs::{
    CustomsMessageRefused, CustomsMessageSent, answered_cop_no, sp1_exception_id,
};
use futures::StreamExt as _;
use sha2::{Digest, Sha256};
use sqlx::{Connection, PgConnection};
use uuid::Uuid;

use super::{message, supplement};
use crate::aggregate::Aggregate;
use crate::clearance_exception::ExceptionState;
use crate::declaration::DeclarationCommand;
use crate::declaration::DeclarationState;
use crate::declaration::customs::CustomsCommand;
use crate::handler::{AfterAppend, Command, CommandError, Hooked, also_append, execute_then, load};
use crate::http::{CommandState, system_metadata};

/// How often an idle writer looks for work.
const IDLE: Duration = Duration::from_millis(200);
/// The longest wait between two attempts at one row.
const MAX_WAIT: Duration = Duration::from_secs(30);

/// The exchange folder (`CLEARWAY_CUSTOMS_DIR`) and its sub-folders.
#[derive(Debug, Clone)]
pub struct Folder {
    pub root: PathBuf,
}

impl Folder {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }
    pub fn outbox(&self) -> PathBuf {
        self.root.join("outbox")
    }
    pub fn inbox(&self) -> PathBuf {
        self.root.join("inbox")
    }
    pub fn done(&self) -> PathBuf {
        self.root.join("done")
    }
    pub fn failed(&self) -> PathBuf {
        self.root.join("failed")
    }
    /// Makes the four sub-folders where they are missing.
    pub fn ensure(&self) -> std::io::Result<()> {
        for dir in [self.outbox(), self.inbox(), self.done(), self.failed()] {
            std::fs::create_dir_all(dir)?;
        }
        Ok(())
    }
}

/// Starts the writer on the server's runtime.
pub fn spawn(state: CommandState, folder: Folder) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut warned = false;
        loop {
            match run_once(&state, &folder).await {
                Ok(true) => {
                    warned = false;
                    continue;
                }
                Ok(false) => tokio::time::sleep(IDLE).await,
                Err(e) => {
                    if !warned {
                        tracing::warn!(error = %e, "customs writer: will retry");
                        warned = true;
                    }
                    tokio::time::sleep(IDLE).await;
                }
            }
        }
    })
}

/// A claimed row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Claimed {
    pub cop_no: String,
    pub declaration_id: Uuid,
    pub made_from_version: i64,
    pub kind: String,
    pub file_name: String,
    pub status: String,
    pub body: Option<Vec<u8>>,
    pub sha256: Option<String>,
    pub claims: i32,
    pub created_at: chrono::DateTime<chrono::Utc>,
}

/// Why one row could not be written (the row keeps it in `error`).
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("the exchange folder cannot be written: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0} already holds other bytes; not overwritten")]
    Clash(String),
    #[error(transparent)]
    Command(#[from] CommandError),
}

impl From<sqlx::Error> for WriteError {
    fn from(e: sqlx::Error) -> Self {
        Self::Command(CommandError::from(e))
    }
}

/// Rows one writer claims and works at once: their bytes fixed in one statement, their
/// files flushed one by one and `outbox/` once, their sendings recorded in one transaction.
pub const BATCH: i64 = 100;

/// Threads writing and flushing a batch's files.
const FILE_THREADS: usize = 8;

/// Declarations whose messages are made (stream read, built, checked) at once.
const MAKING: usize = 8;

/// Claims a batch of due rows and writes them; `false` when there was none. The rows that
/// could not be written keep the reason in `error` and wait their turn; the others are
/// written and recorded all the same, and the first reason is answered.
pub async fn run_once(state: &CommandState, folder: &Folder) -> Result<bool, WriteError> {
    let mut conn = state.pool.acquire().await?;
    let rows = claim_batch(&mut conn, BATCH).await?;
    if rows.is_empty() {
        return Ok(false);
    }
    let result = work_batch(state, folder, &rows).await;
    release(conn, &rows).await;
    result.map(|()| true)
}

fn wait(claims: i32) -> Duration {
    let factor = 2u32.saturating_pow(claims.clamp(1, 16) as u32 - 1);
    Duration::from_millis(500)
        .saturating_mul(factor)
        .min(MAX_WAIT)
}

/// Releases the session locks of a batch's rows (a connection that cannot is closed, which
/// releases them too).
async fn release(mut conn: sqlx::pool::PoolConnection<sqlx::Postgres>, rows: &[Claimed]) {
    let cops: Vec<&str> = rows.iter().map(|r| r.cop_no.as_str()).collect();
    let unlocked = sqlx::query(
        "SELECT pg_advisory_unlock(hashtextextended('customs-message:' || c, 0))
           FROM unnest($1::text[]) AS c",
    )
    .bind(&cops)
    .execute(&mut *conn)
    .await;
    if unlocked.is_err() {
        let _ = conn.detach().close().await;
    }
}

/// The first due row no other writer holds, locked for this connection's session, its
/// claim counted and its next attempt pushed back (committed before anything is written).
pub async fn claim(conn: &mut PgConnection) -> Result<Option<Claimed>, WriteError> {
    Ok(claim_batch(conn, 1).await?.pop())
}

/// At most `limit` due rows no other writer holds, oldest due first, in one statement: the
/// candidates picked with `FOR UPDATE SKIP LOCKED`, each taken with a session advisory lock
/// held by this connection (a killed writer releases it at once), its claim counted and its
/// next attempt pushed back (0.5 s doubling per claim, at most 30 s), committed before
/// anything is written.
pub async fn claim_batch(conn: &mut PgConnection, limit: i64) -> Result<Vec<Claimed>, WriteError> {
    let mut rows: Vec<Claimed> = sqlx::query_as(
        "WITH due AS MATERIALIZED (
             SELECT cop_no, next_attempt_at, created_at FROM customs_messages
              WHERE status IN ('pending', 'writing') AND next_attempt_at <= now()
              ORDER BY next_attempt_at, created_at LIMIT $1 + 20 FOR UPDATE SKIP LOCKED
         ), mine AS MATERIALIZED (
             SELECT cop_no FROM due
              WHERE pg_try_advisory_lock(hashtextextended('customs-message:' || cop_no, 0))
              LIMIT $1
         )
         UPDATE customs_messages m SET claims = m.claims + 1,
                next_attempt_at = now() + make_interval(secs =>
                    least($2::float8 * power(2, least(greatest(m.claims + 1, 1), 16) - 1), $3::float8))
           FROM mine WHERE m.cop_no = mine.cop_no
         RETURNING m.cop_no, m.declaration_id, m.made_from_version, m.kind, m.file_name,
                   m.status, m.body, m.sha256, m.claims, m.created_at",
    )
    .bind(limit)
    .bind(wait(1).as_secs_f64())
    .bind(MAX_WAIT.as_secs_f64())
    .fetch_all(&mut *conn)
    .await?;
    rows.sort_by(|a, b| (a.created_at, &a.cop_no).cmp(&(b.created_at, &b.cop_no)));
    for row in &mut rows {
        row.status = row.status.trim().to_string();
    }
    Ok(rows)
}

/// The declaration as it stood at `version` and as it stands now.
struct States {
    then: DeclarationState,
    now: DeclarationState,
    /// The stream's version now.
    version: i64,
    /// The event at `version`.
    at: Option<DeclarationEvent>,
}

/// The declaration as it stood at `version`, as it stands now, and the event at `version`.
async fn states(state: &CommandState, id: Uuid, version: i64) -> Result<States, CommandError> {
    let recorded = state.store.read_stream(id).await?;
    let mut then = DeclarationState::default();
    let mut now = DeclarationState::default();
    let mut at = None;
    let current = recorded.last().map(|r| r.stream_version).unwrap_or(0);
    for r in &recorded {
        let e = DeclarationEvent::from_recorded(r)?;
        if r.stream_version <= version {
            then.evolve(&e);
        }
        now.evolve(&e);
        if r.stream_version == version {
            at = Some(e);
        }
    }
    Ok(States {
        then,
        now,
        version: current,
        at,
    })
}

/// The bytes of a supplement: the documents of the exception an `Sp1` opened, resolved by
/// the event the row was made from.
async fn supplement_xml(
    state: &CommandState,
    row: &Claimed,
    then: &DeclarationState,
    at: Option<&DeclarationEvent>,
) -> Result<Result<String, Vec<String>>, WriteError> {
    let cop = answered_cop_no(&row.cop_no);
    let Some(DeclarationEvent::ExceptionResolved(resolved)) = at else {
        return Ok(Err(vec![format!(
            "version {} of the declaration is not a clearance exception's review completed",
            row.made_from_version
        )]));
    };
    let Some(sp1) = then
        .customs
        .receipts
        .values()
        .find(|r| r.channel == "Sp1" && sp1_exception_id(r) == resolved.exception_id)
    else {
        return Ok(Err(vec![format!(
            "the clearance exception {} was not opened by an Sp1",
            resolved.exception_id
        )]));
    };
    let (exception, _) = load::<ExceptionState>(&state.store, resolved.exception_id)
        .await
        .map_err(CommandError::from)?;
    let docs: Vec<supplement::Doc> = exception
        .documents
        .iter()
        .map(|d| supplement::Doc {
            // The slot the file was sent for, when it is one customs asked for; else judged
            // from its name.
            kind: d
                .requested
                .clone()
                .filter(|r| sp1.docs.contains(r))
                .unwrap_or_else(|| supplement::kind_of(&d.file_name, &sp1.docs)),
            file_name: d.file_name.clone(),
            sha256: d.sha256.clone(),
        })
        .collect();
    Ok(supplement::build(cop, then.data.entry_id.as_deref(), &docs).map(|m| m.xml))
}

/// A row ready to be written: its bytes fixed in the ledger, and the declaration as the
/// writer read it when it made them (`None` for bytes fixed by an earlier attempt).
struct Ready<'r> {
    row: &'r Claimed,
    bytes: Vec<u8>,
    sha: String,
    read: Option<(DeclarationState, i64)>,
}

/// A message made and checked, not yet fixed in the ledger.
pub struct Made {
    pub bytes: Vec<u8>,
    pub sha: String,
    now: DeclarationState,
    version: i64,
}

/// Works a claimed batch: the bytes of the rows that have none made, checked and fixed (one
/// statement, committed before any file is written); every file written under a temporary
/// name, flushed and renamed; `outbox/` flushed once; the sendings recorded in one
/// transaction. A row that fails (its declaration unreadable, its file refused) keeps the
/// reason and does not hold up the others.
async fn work_batch(
    state: &CommandState,
    folder: &Folder,
    rows: &[Claimed],
) -> Result<(), WriteError> {
    let mut failed: Vec<(&Claimed, WriteError)> = Vec::new();
    let mut ready: Vec<Ready> = Vec::new();
    let mut to_fix: Vec<(&Claimed, Made)> = Vec::new();
    let to_make: Vec<&Claimed> = rows
        .iter()
        .filter(|row| match (&row.body, &row.sha256) {
            (Some(body), Some(sha)) => {
                ready.push(Ready {
                    row,
                    bytes: body.clone(),
                    sha: sha.clone(),
                    read: None,
                });
                false
            }
            _ => true,
        })
        .collect();
    // Up to MAKING at a time, answers in order.
    let mut queue = to_make.into_iter();
    let mut making = futures::stream::FuturesOrdered::new();
    loop {
        while making.len() < MAKING {
            let Some(row) = queue.next() else { break };
            making.push_back(async move { (row, make(state, row).await) });
        }
        let Some((row, result)) = making.next().await else {
            break;
        };
        match result {
            Ok(Some(m)) => to_fix.push((row, m)),
            Ok(None) => {}
            Err(e) => failed.push((row, e)),
        }
    }
    ready.extend(fix_all(state, to_fix).await?);

    // The files, off the runtime's threads.
    let dir = folder.outbox();
    let jobs: Vec<(String, Vec<u8>, String)> = ready
        .iter()
        .map(|r| (r.row.file_name.clone(), r.bytes.clone(), r.sha.clone()))
        .collect();
    let outcomes = tokio::task::spawn_blocking(move || write_files(&dir, &jobs))
        .await
        .map_err(|e| CommandError::Internal(format!("the customs writer's file task: {e}")))?;
    let mut written = Vec::new();
    for (r, outcome) in ready.into_iter().zip(outcomes) {
        match outcome {
            Ok(()) => written.push(r),
            Err(e) => failed.push((r.row, e)),
        }
    }
    failed.extend(record_sent_all(state, &written).await);
    if failed.is_empty() {
        return Ok(());
    }
    let (cops, reasons): (Vec<&str>, Vec<String>) = failed
        .iter()
        .map(|(row, e)| (row.cop_no.as_str(), e.to_string()))
        .unzip();
    let _ = sqlx::query(
        "UPDATE customs_messages m SET error = u.error
           FROM unnest($1::text[], $2::text[]) AS u(cop_no, error)
          WHERE m.cop_no = u.cop_no AND m.status IN ('pending', 'writing')",
    )
    .bind(&cops)
    .bind(&reasons)
    .execute(&state.pool)
    .await;
    Err(failed.swap_remove(0).1)
}

/// Makes and fixes the bytes of a pending row: `None` when the row is finished without a
/// file (refused, already recorded, or the declaration moved on before it could be sent).
pub async fn prepare(
    state: &CommandState,
    row: &Claimed,
) -> Result<Option<(Vec<u8>, String)>, WriteError> {
    let Some(made) = make(state, row).await? else {
        return Ok(None);
    };
    Ok(fix_all(state, vec![(row, made)])
        .await?
        .pop()
        .map(|r| (r.bytes, r.sha)))
}

/// Makes and checks the bytes of a pending row from the declaration as it stood at the
/// event that asked for it: `None` when the row is finished without a file (refused, already
/// recorded, or the declaration moved on before it could be sent).
pub async fn make(state: &CommandState, row: &Claimed) -> Result<Option<Made>, WriteError> {
    let States {
        then,
        now,
        version,
        at,
    } = states(state, row.declaration_id, row.made_from_version).await?;
    if let Some(done) = now.customs.messages.get(&row.cop_no) {
        sqlx::query("UPDATE customs_messages SET status = $2 WHERE cop_no = $1")
            .bind(&row.cop_no)
            .bind(done)
            .execute(&state.pool)
            .await?;
        return Ok(None);
    }
    let status = now.status.map(|s| s.code()).unwrap_or(-1);
    if status != 2 {
        sqlx::query(
            "UPDATE customs_messages SET status = 'skipped', error = $2
              WHERE cop_no = $1 AND status = 'pending'",
        )
        .bind(&row.cop_no)
        .bind(format!(
            "the declaration left status 2 (it is {status}) before its message was written"
        ))
        .execute(&state.pool)
        .await?;
        return Ok(None);
    }
    let built = if row.kind == "supplement" {
        supplement_xml(state, row, &then, at.as_ref()).await?
    } else {
        let Some(ty) = then.declaration_type else {
            return Ok(None);
        };
        message::build(&row.cop_no, ty, &then.data).map(|m| m.xml)
    };
    match built {
        Ok(xml) => {
            let bytes = xml.into_bytes();
            let sha = hex::encode(Sha256::digest(&bytes));
            Ok(Some(Made {
                bytes,
                sha,
                now,
                version,
            }))
        }
        Err(problems) => {
            record_refused(state, row, problems).await?;
            Ok(None)
        }
    }
}

/// Fixes the bytes of made rows in the ledger (`writing`), in one statement that commits
/// before any of their files is written. A row another writer fixed meanwhile (the claim's
/// lock makes this unlikely) keeps that writer's bytes.
async fn fix_all<'r>(
    state: &CommandState,
    made: Vec<(&'r Claimed, Made)>,
) -> Result<Vec<Ready<'r>>, WriteError> {
    if made.is_empty() {
        return Ok(Vec::new());
    }
    let cops: Vec<&str> = made.iter().map(|(r, _)| r.cop_no.as_str()).collect();
    let bodies: Vec<&[u8]> = made.iter().map(|(_, m)| m.bytes.as_slice()).collect();
    let shas: Vec<&str> = made.iter().map(|(_, m)| m.sha.as_str()).collect();
    let fixed: std::collections::HashSet<String> = sqlx::query_scalar(
        "UPDATE customs_messages m SET status = 'writing', body = u.body, sha256 = u.sha256
           FROM unnest($1::text[], $2::bytea[], $3::text[]) AS u(cop_no, body, sha256)
          WHERE m.cop_no = u.cop_no AND m.status = 'pending'
         RETURNING m.cop_no",
    )
    .bind(&cops)
    .bind(&bodies)
    .bind(&shas)
    .fetch_all(&state.pool)
    .await?
    .into_iter()
    .collect();
    let mut ready = Vec::with_capacity(made.len());
    for (row, m) in made {
        if fixed.contains(&row.cop_no) {
            ready.push(Ready {
                row,
                bytes: m.bytes,
                sha: m.sha,
                read: Some((m.now, m.version)),
            });
            continue;
        }
        let (body, sha): (Option<Vec<u8>>, Option<String>) =
            sqlx::query_as("SELECT body, sha256 FROM customs_messages WHERE cop_no = $1")
                .bind(&row.cop_no)
                .fetch_one(&state.pool)
                .await?;
        if let (Some(bytes), Some(sha)) = (body, sha) {
            ready.push(Ready {
                row,
                bytes,
                sha,
                read: None,
            });
        }
    }
    Ok(ready)
}

/// Writes `bytes` as `outbox/<name>`: a temporary name, flushed, renamed, the folder
/// flushed. A file already there with the same bytes is left as it is (a crash came between
/// writing and recording); one with other bytes is never overwritten.
pub fn write_file(folder: &Folder, name: &str, bytes: &[u8], sha: &str) -> Result<(), WriteError> {
    let dir = folder.outbox();
    std::fs::create_dir_all(&dir)?;
    put_file(&dir, name, bytes, sha)?;
    sync_dir(&dir);
    Ok(())
}

/// [`write_file`] for a batch of `(name, bytes, sha256)`: each file written and flushed, the
/// folder flushed once after the last rename (before any of them is recorded). One answer
/// per file, in order.
pub fn write_files(dir: &Path, jobs: &[(String, Vec<u8>, String)]) -> Vec<Result<(), WriteError>> {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return jobs
            .iter()
            .map(|_| Err(std::io::Error::new(e.kind(), e.to_string()).into()))
            .collect();
    }
    // A few files flushed at a time: the file system's journal commits concurrent flushes
    // together (one at a time costs about a millisecond each on the benchmark's disk).
    let per = jobs.len().div_ceil(FILE_THREADS).max(1);
    let out: Vec<Result<(), WriteError>> = std::thread::scope(|scope| {
        let running: Vec<_> = jobs
            .chunks(per)
            .map(|chunk| {
                let handle = scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|(name, bytes, sha)| put_file(dir, name, bytes, sha))
                        .collect::<Vec<_>>()
                });
                (chunk.len(), handle)
            })
            .collect();
        running
            .into_iter()
            .flat_map(|(len, handle)| {
                handle.join().unwrap_or_else(|_| {
                    (0..len)
                        .map(|_| Err(std::io::Error::other("the file writer panicked").into()))
                        .collect()
                })
            })
            .collect()
    });
    if out.iter().any(Result::is_ok) {
        sync_dir(dir);
    }
    out
}

/// One file under a temporary name (`.<name>.tmp`), flushed and renamed; the folder is the
/// caller's to flush.
fn put_file(dir: &Path, name: &str, bytes: &[u8], sha: &str) -> Result<(), WriteError> {
    let target = dir.join(name);
    match std::fs::read(&target) {
        Ok(existing) => {
            if hex::encode(Sha256::digest(&existing)) == sha {
                return Ok(());
            }
            return Err(WriteError::Clash(name.to_string()));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e.into()),
    }
    let tmp = dir.join(format!(".{name}.tmp"));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, &target)?;
    Ok(())
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// The row's status set in the recording transaction.
struct MarkRow {
    cop_no: String,
    status: &'static str,
    error: Option<String>,
}

impl AfterAppend for MarkRow {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            sqlx::query(
                "UPDATE customs_messages SET status = $2, error = $3,
                     written_at = CASE WHEN $2 = 'sent' THEN coalesce(written_at, now()) ELSE written_at END
                  WHERE cop_no = $1",
            )
            .bind(&self.cop_no)
            .bind(self.status)
            .bind(&self.error)
            .execute(&mut *tx)
            .await?;
            Ok(appended.position)
        })
    }
}

async fn record(
    state: &CommandState,
    row: &Claimed,
    cmd: CustomsCommand,
    mark: MarkRow,
) -> Result<(), WriteError> {
    let actor = Actor::system();
    let ctx = state.system_ctx();
    let command = Command::<DeclarationState>::on(
        &state.store,
        row.declaration_id,
        system_metadata(&actor, None),
    );
    execute_then(
        command,
        |s, _| s.decide(DeclarationCommand::Customs(cmd.clone()), &ctx),
        Some(&mark),
    )
    .await?;
    // Already recorded before (nothing appended, the hook did not run): the row follows.
    sqlx::query(
        "UPDATE customs_messages SET status = $2, error = $3 WHERE cop_no = $1
            AND status IN ('pending', 'writing')",
    )
    .bind(&mark.cop_no)
    .bind(mark.status)
    .bind(&mark.error)
    .execute(&state.pool)
    .await?;
    Ok(())
}

fn sent_of(row: &Claimed, sha: &str) -> CustomsMessageSent {
    CustomsMessageSent {
        cop_no: answered_cop_no(&row.cop_no).to_string(),
        kind: row.kind.clone(),
        file_name: row.file_name.clone(),
        sha256: sha.to_string(),
        made_from_version: row.made_from_version,
    }
}

async fn record_sent(state: &CommandState, row: &Claimed, sha: &str) -> Result<(), WriteError> {
    let mark = MarkRow {
        cop_no: row.cop_no.clone(),
        status: "sent",
        error: None,
    };
    record(
        state,
        row,
        CustomsCommand::RecordSent(sent_of(row, sha)),
        mark,
    )
    .await
}

/// Records the sendings of written files: all in one transaction (each declaration's
/// sendings decided in order on its state, one append per declaration, the declarations in
/// id order, the rows marked `sent` in one statement). A declaration read when its message
/// was made is decided on that state and appended at that version; one read before (its
/// bytes fixed by an earlier attempt) or with more than one row in the batch is read again
/// in the transaction; a stream that moved on meanwhile fails the transaction, and it is
/// tried again with every stream read in it. Any other failure (the database away)
/// records them again one by one, which is idempotent. Answers the rows
/// that could not be recorded.
async fn record_sent_all<'r>(
    state: &CommandState,
    written: &[Ready<'r>],
) -> Vec<(&'r Claimed, WriteError)> {
    if written.is_empty() {
        return Vec::new();
    }
    let mut result = record_batch(state, written, false).await;
    if let Err(WriteError::Command(CommandError::VersionConflict)) = result {
        // A stream moved on since its message was made: all read again in the transaction.
        result = record_batch(state, written, true).await;
    }
    match result {
        Ok(()) => Vec::new(),
        Err(e) => {
            tracing::debug!(error = %e, "customs writer: the batch is recorded one by one");
            let mut failed = Vec::new();
            for r in written {
                if let Err(e) = record_sent(state, r.row, &r.sha).await {
                    failed.push((r.row, e));
                }
            }
            failed
        }
    }
}

/// One transaction for the batch's sendings; `fresh`: every stream read in it.
async fn record_batch(
    state: &CommandState,
    written: &[Ready<'_>],
    fresh: bool,
) -> Result<(), WriteError> {
    let mut by_declaration: std::collections::BTreeMap<Uuid, Vec<&Ready>> = Default::default();
    for r in written {
        by_declaration
            .entry(r.row.declaration_id)
            .or_default()
            .push(r);
    }
    let actor = Actor::system();
    let ctx = state.system_ctx();
    let decide = |s: &DeclarationState, list: &[&Ready]| {
        let mut s = s.clone();
        let mut out = Vec::new();
        for r in list {
            let cmd =
                DeclarationCommand::Customs(CustomsCommand::RecordSent(sent_of(r.row, &r.sha)));
            for e in s.decide(cmd, &ctx)? {
                s.evolve(&e);
                out.push(e);
            }
        }
        Ok::<_, crate::aggregate::DomainError>(out)
    };
    let mut tx = state.pool.begin().await?;
    for (id, list) in &by_declaration {
        let meta = system_metadata(&actor, None);
        match (list.as_slice(), list.first().and_then(|r| r.read.as_ref())) {
            ([_], Some((read, version))) if !fresh => {
                let new: Vec<events::NewEvent> = decide(read, list)
                    .map_err(CommandError::from)?
                    .iter()
                    .map(DomainEvent::to_new_event)
                    .collect();
                if !new.is_empty() {
                    state
                        .store
                        .append_in(
                            &mut tx,
                            DeclarationState::STREAM_TYPE,
                            *id,
                            *version,
                            &new,
                            &meta,
                        )
                        .await
                        .map_err(CommandError::from)?;
                }
            }
            _ => {
                also_append::<DeclarationState, _>(&state.store, &mut tx, *id, &meta, |s, _| {
                    decide(s, list)
                })
                .await?;
            }
        }
    }
    let cops: Vec<&str> = written.iter().map(|r| r.row.cop_no.as_str()).collect();
    sqlx::query(
        "UPDATE customs_messages SET status = 'sent', error = NULL,
             written_at = coalesce(written_at, now())
          WHERE cop_no = ANY($1)",
    )
    .bind(&cops)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    state.store.notify();
    Ok(())
}

async fn record_refused(
    state: &CommandState,
    row: &Claimed,
    problems: Vec<String>,
) -> Result<(), WriteError> {
    let mark = MarkRow {
        cop_no: row.cop_no.clone(),
        status: "refused",
        error: Some(problems.join("; ")),
    };
    let refused = CustomsMessageRefused {
        cop_no: answered_cop_no(&row.cop_no).to_string(),
        kind: row.kind.clone(),
        file_name: Some(row.file_name.clone()),
        problems,
        made_from_version: row.made_from_version,
    };
    record(state, row, CustomsCommand::RecordRefused(refused), mark).await
}
