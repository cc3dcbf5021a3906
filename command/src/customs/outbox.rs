//! The customs writer: a task of the server process that drains `customs_messages` (the
//! queue the projection `customs_outbox` fills when a declaration is declared, re-declared
//! or sent again) into the exchange folder's `outbox/`. Declaring never waits on the folder.
//!
//! **Claiming.** Due rows are picked with `FOR UPDATE SKIP LOCKED` in a short transaction
//! and one is claimed with a session advisory lock held by the worker's connection (a
//! killed worker releases it at once); the claim is counted and the row pushed back before
//! anything is written, so a row that keeps failing waits while the others go.
//!
//! **Once, under one name.** The CopNo is fixed by the event that asked for the message, so
//! the file name is known before anything is written. The bytes are made from the
//! declaration as it stood at that event, checked against the schema's rules, and stored in
//! the row (`writing`, committed) before the file is written; the file is written under a
//! temporary name (`.<CopNo>.xml.tmp`), flushed, renamed to `<CopNo>.xml` and the folder
//! flushed; then the sending is recorded on the declaration (`DeclarationCustomsMessageSent`:
//! CopNo, file name, SHA-256) and the row marked `sent` in the same transaction. A crash
//! anywhere in between finds the row `writing` with its bytes: the file already there with
//! those bytes is recorded, not written again; a file not there is written again under the
//! same name with the same bytes. Nothing is ever written under a second CopNo.
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
use sha2::{Digest, Sha256};
use sqlx::{Connection, PgConnection};
use uuid::Uuid;

use super::{message, supplement};
use crate::aggregate::Aggregate;
use crate::clearance_exception::ExceptionState;
use crate::declaration::DeclarationCommand;
use crate::declaration::DeclarationState;
use crate::declaration::customs::CustomsCommand;
use crate::handler::{AfterAppend, Command, CommandError, Hooked, execute_then, load};
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

/// Claims one due row and writes it; `false` when there was none.
pub async fn run_once(state: &CommandState, folder: &Folder) -> Result<bool, WriteError> {
    let mut conn = state.pool.acquire().await?;
    let Some(row) = claim(&mut conn).await? else {
        return Ok(false);
    };
    let result = work(state, folder, &row).await;
    if let Err(e) = &result {
        let _ = sqlx::query(
            "UPDATE customs_messages SET error = $2 WHERE cop_no = $1 AND status IN ('pending', 'writing')",
        )
        .bind(&row.cop_no)
        .bind(e.to_string())
        .execute(&state.pool)
        .await;
    }
    release(conn, &row.cop_no).await;
    result.map(|()| true)
}

fn wait(claims: i32) -> Duration {
    let factor = 2u32.saturating_pow(claims.clamp(1, 16) as u32 - 1);
    Duration::from_millis(500)
        .saturating_mul(factor)
        .min(MAX_WAIT)
}

fn lock_key(cop_no: &str) -> String {
    format!("customs-message:{cop_no}")
}

async fn release(mut conn: sqlx::pool::PoolConnection<sqlx::Postgres>, cop_no: &str) {
    let unlocked = sqlx::query("SELECT pg_advisory_unlock(hashtextextended($1, 0))")
        .bind(lock_key(cop_no))
        .execute(&mut *conn)
        .await;
    if unlocked.is_err() {
        let _ = conn.detach().close().await;
    }
}

/// The first due row no other writer holds, locked for this connection's session, its
/// claim counted and its next attempt pushed back (committed before anything is written).
pub async fn claim(conn: &mut PgConnection) -> Result<Option<Claimed>, WriteError> {
    let mut tx = conn.begin().await?;
    let candidates: Vec<String> = sqlx::query_scalar(
        "SELECT cop_no FROM customs_messages
          WHERE status IN ('pending', 'writing') AND next_attempt_at <= now()
          ORDER BY next_attempt_at, created_at LIMIT 20 FOR UPDATE SKIP LOCKED",
    )
    .fetch_all(&mut *tx)
    .await?;
    let mut claimed = None;
    for cop in candidates {
        let locked: bool =
            sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtextextended($1, 0))")
                .bind(lock_key(&cop))
                .fetch_one(&mut *tx)
                .await?;
        if locked {
            claimed = Some(cop);
            break;
        }
    }
    let Some(cop) = claimed else {
        tx.commit().await?;
        return Ok(None);
    };
    let mut row: Claimed = sqlx::query_as(
        "UPDATE customs_messages SET claims = claims + 1
          WHERE cop_no = $1
          RETURNING cop_no, declaration_id, made_from_version, kind, file_name, status, body,
                    sha256, claims",
    )
    .bind(&cop)
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE customs_messages SET next_attempt_at = now() + make_interval(secs => $2)
          WHERE cop_no = $1",
    )
    .bind(&cop)
    .bind(wait(row.claims).as_secs_f64())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    row.status = row.status.trim().to_string();
    Ok(Some(row))
}

/// The declaration as it stood at `version`, as it stands now, and the event at `version`.
async fn states(
    state: &CommandState,
    id: Uuid,
    version: i64,
) -> Result<(DeclarationState, DeclarationState, Option<DeclarationEvent>), CommandError> {
    let recorded = state.store.read_stream(id).await?;
    let mut then = DeclarationState::default();
    let mut now = DeclarationState::default();
    let mut at = None;
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
    Ok((then, now, at))
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

/// Works one claimed row: make the bytes (first time), write the file, record the sending.
pub async fn work(state: &CommandState, folder: &Folder, row: &Claimed) -> Result<(), WriteError> {
    let (bytes, sha) = match (&row.body, &row.sha256) {
        (Some(body), Some(sha)) => (body.clone(), sha.clone()),
        _ => match prepare(state, row).await? {
            Some(fixed) => fixed,
            None => return Ok(()),
        },
    };
    write_file(folder, &row.file_name, &bytes, &sha)?;
    record_sent(state, row, &sha).await
}

/// Makes and fixes the bytes of a pending row: `None` when the row is finished without a
/// file (refused, already recorded, or the declaration moved on before it could be sent).
pub async fn prepare(
    state: &CommandState,
    row: &Claimed,
) -> Result<Option<(Vec<u8>, String)>, WriteError> {
    let (then, now, at) = states(state, row.declaration_id, row.made_from_version).await?;
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
            let fixed = sqlx::query(
                "UPDATE customs_messages SET status = 'writing', body = $2, sha256 = $3
                  WHERE cop_no = $1 AND status = 'pending'",
            )
            .bind(&row.cop_no)
            .bind(&bytes)
            .bind(&sha)
            .execute(&state.pool)
            .await?;
            if fixed.rows_affected() == 0 {
                // Another writer fixed it meanwhile (the claim's lock makes this unlikely):
                // take its bytes.
                let (body, sha): (Option<Vec<u8>>, Option<String>) =
                    sqlx::query_as("SELECT body, sha256 FROM customs_messages WHERE cop_no = $1")
                        .bind(&row.cop_no)
                        .fetch_one(&state.pool)
                        .await?;
                return Ok(body.zip(sha));
            }
            Ok(Some((bytes, sha)))
        }
        Err(problems) => {
            record_refused(state, row, problems).await?;
            Ok(None)
        }
    }
}

/// Writes `bytes` as `outbox/<name>`: a temporary name, flushed, renamed, the folder
/// flushed. A file already there with the same bytes is left as it is (a crash came between
/// writing and recording); one with other bytes is never overwritten.
pub fn write_file(folder: &Folder, name: &str, bytes: &[u8], sha: &str) -> Result<(), WriteError> {
    let dir = folder.outbox();
    std::fs::create_dir_all(&dir)?;
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
    sync_dir(&dir);
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

async fn record_sent(state: &CommandState, row: &Claimed, sha: &str) -> Result<(), WriteError> {
    let sent = CustomsMessageSent {
        cop_no: answered_cop_no(&row.cop_no).to_string(),
        kind: row.kind.clone(),
        file_name: row.file_name.clone(),
        sha256: sha.to_string(),
        made_from_version: row.made_from_version,
    };
    let mark = MarkRow {
        cop_no: row.cop_no.clone(),
        status: "sent",
        error: None,
    };
    record(state, row, CustomsCommand::RecordSent(sent), mark).await
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
