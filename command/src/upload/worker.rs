//! The upload worker: a task of the server process (never the request) that takes received
//! uploads one at a time, reads them and makes their declarations.
//!
//! **Claiming.** `upload_jobs` holds one row per upload until it is finished. A worker picks
//! due candidates (the customers in turn, so one customer's files never hold up another's)
//! and claims one with a session advisory lock on its own connection: the lock lives exactly
//! as long as the worker's connection, so a process killed with `kill -9` releases its claims
//! at once (the server closes the dead connection) and another worker (or the restarted
//! server) takes the upload up again. No transaction stays open while a file is processed
//! (an open one would hold back the event feed's safe horizon).
//!
//! **Poison files.** Each claim is counted before the file is touched ([`crate::jobs`]): an
//! upload claimed more than `CLEARWAY_JOB_MAX_ATTEMPTS` times without making progress (its
//! attempts failed, or ended the process) is finished as failed with a reason its uploader
//! reads, and the next job runs. Each claim also makes the job wait (doubling) before it is
//! due again, so a retried job never comes before another customer's new one.
//!
//! **Crash safety.** Each declaration's id is derived from the upload id and its first row
//! ([`events::upload::declaration_id`]). A batch's declarations are decided by the
//! declaration's own `decide` and appended together, with their tracking-number
//! reservations, in one transaction ([`handler::create_many`]): a batch is made whole or not
//! at all, and a second attempt finds the streams of the first and leaves them be, so no row
//! ever makes two declarations. The worker records its progress after each batch
//! (`UploadProgressed`, naming the groups it covers); a resumed upload starts after the last
//! recorded batch and counts a declaration it finds already made as made.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use api::{Actor, Role};
use chrono::Utc;
use events::declaration::{DeclarationData, TypeCode, UploadSource};
use events::upload::{Item, Progressed, Received, declaration_id};
use events::{EventStore, Metadata};
use sqlx::{Connection, PgConnection};
use uuid::Uuid;

use super::custom;
use super::library::Library;
use super::parse::{self, Group, Judge, Outcome};
use super::read::{FileError, Reading};
use super::{UploadCommand, UploadState};
use crate::aggregate::{Aggregate, Ctx};
use crate::customer_ref::CustomerState;
use crate::declaration::{CustomerRef, DeclarationCommand, DeclarationState};
use crate::handler::{
    self, Admitted, Command, CommandError, Created, Creation, Gate, execute, load, load_in,
};
use crate::http::CommandState;
use crate::jobs::Retry;
use crate::mapping_scheme::MappingSchemeState;
use crate::mapping_scheme::model::SchemeDefinition;

/// Declarations per recorded batch, made in one transaction.
pub const BATCH: usize = 200;
/// How often an idle worker looks for work.
const IDLE: Duration = Duration::from_millis(500);

/// Starts the worker on the server's runtime.
pub fn spawn(state: CommandState, retry: Retry) -> tokio::task::JoinHandle<()> {
    let retention = super::sweep::retention_from_env();
    tokio::spawn(async move {
        let mut swept: Option<std::time::Instant> = None;
        loop {
            if let Some(keep) = retention
                && swept.is_none_or(|t| t.elapsed() >= super::sweep::EVERY)
            {
                swept = Some(std::time::Instant::now());
                match super::sweep::sweep(&state.pool, keep).await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(files = n, "upload sweep: stored files deleted"),
                    Err(e) => tracing::warn!(error = %e, "upload sweep: will retry"),
                }
            }
            match run_once(&state, &retry).await {
                Ok(true) => continue,
                Ok(false) => tokio::time::sleep(IDLE).await,
                Err(e) => {
                    tracing::warn!(error = %e, "upload worker: will retry");
                    tokio::time::sleep(Duration::from_secs(2)).await;
                }
            }
        }
    })
}

/// Claims one due upload and processes it (or, past its attempts, finishes it as failed);
/// `false` when there was none to take.
pub async fn run_once(state: &CommandState, retry: &Retry) -> Result<bool, CommandError> {
    let mut conn = state.pool.acquire().await?;
    let Some(job) = claim(&mut conn, state, retry).await? else {
        return Ok(false);
    };
    let id = job.id;
    let result = if retry.exhausted(job.attempts) {
        give_up(state, &job, retry).await
    } else {
        process(state, id).await
    };
    if let Err(e) = &result {
        // For the operators (the customer reads the upload's own failure reason).
        let said: String = e.to_string().chars().take(500).collect();
        if let Err(e) = sqlx::query("UPDATE upload_jobs SET last_error = $2 WHERE upload_id = $1")
            .bind(id)
            .bind(said)
            .execute(&state.pool)
            .await
        {
            tracing::warn!(error = %e, upload = %id, "upload worker: recording a failed attempt");
        }
    }
    release(conn, id).await;
    result.map(|()| true)
}

async fn release(mut conn: sqlx::pool::PoolConnection<sqlx::Postgres>, id: Uuid) {
    let unlocked = sqlx::query("SELECT pg_advisory_unlock(hashtextextended('upload:' || $1, 0))")
        .bind(id.to_string())
        .execute(&mut *conn)
        .await;
    if unlocked.is_err() {
        // A connection that may still hold the lock must not go back to the pool.
        let _ = conn.detach().close().await;
    }
}

/// Claims the first due unfinished upload no other worker holds: locked for this
/// connection's session (released by [`run_once`], or by the connection's end) and counted
/// ([`count_claim`]) before anything else is done with it.
pub async fn claim(
    conn: &mut PgConnection,
    state: &CommandState,
    retry: &Retry,
) -> Result<Option<Claimed>, CommandError> {
    let Some(id) = lock_candidate(conn).await? else {
        return Ok(None);
    };
    let counted = count_claim(state, id, retry).await;
    if !matches!(counted, Ok(Some(_))) {
        sqlx::query("SELECT pg_advisory_unlock(hashtextextended('upload:' || $1, 0))")
            .bind(id.to_string())
            .execute(&mut *conn)
            .await?;
    }
    Ok(counted?.map(|c| Claimed {
        id,
        attempts: c.0,
        last_error: c.1,
    }))
}

/// The first due unfinished upload no other worker holds, locked for this connection's
/// session. The customers take turns: each customer's oldest unfinished job comes before any
/// customer's second (a job waiting for its retry keeps its customer's turn), so one
/// customer's many or retried files never hold up another's; a claimed job is not due again
/// until its wait ([`Retry::wait`]) is over.
async fn lock_candidate(conn: &mut PgConnection) -> Result<Option<Uuid>, CommandError> {
    let candidates: Vec<Uuid> = sqlx::query_scalar(
        "SELECT upload_id FROM (
             SELECT upload_id, received_at, attempts, next_attempt_at,
                    row_number() OVER (PARTITION BY coalesce(customer_id, upload_id)
                                       ORDER BY received_at) AS turn
               FROM upload_jobs WHERE finished_at IS NULL
         ) j
         WHERE next_attempt_at <= now()
         ORDER BY turn, attempts, received_at LIMIT 20",
    )
    .fetch_all(&mut *conn)
    .await?;
    for id in candidates {
        let locked: bool =
            sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtextextended('upload:' || $1, 0))")
                .bind(id.to_string())
                .fetch_one(&mut *conn)
                .await?;
        if locked {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

/// A claimed job, counted.
#[derive(Debug)]
pub struct Claimed {
    pub id: Uuid,
    /// Claims since the upload last made progress, this one included.
    pub attempts: i32,
    /// What the last failed attempt said; `None` when no attempt ended with a word (the
    /// process stopped while working on it).
    pub last_error: Option<String>,
}

/// Counts the claim (committed before the upload is touched): a claim after the upload made
/// progress (its recorded batches cover more groups than at the last claim) starts the count
/// again, so an upload interrupted while it advances is resumed as often as it advances.
/// `None`: finished meanwhile.
async fn count_claim(
    state: &CommandState,
    id: Uuid,
    retry: &Retry,
) -> Result<Option<(i32, Option<String>)>, CommandError> {
    let through = load::<UploadState>(&state.store, id)
        .await
        .ok()
        .map(|(u, _)| i32::try_from(u.through).unwrap_or(i32::MAX));
    let attempts: Option<i32> =
        sqlx::query_scalar("SELECT attempts FROM upload_jobs WHERE upload_id = $1")
            .bind(id)
            .fetch_optional(&state.pool)
            .await?;
    let wait = retry.wait(attempts.unwrap_or(0) + 1);
    let counted = sqlx::query_as(
        "UPDATE upload_jobs
            SET attempts = CASE WHEN progress = coalesce($2, progress) THEN attempts + 1 ELSE 1 END,
                last_error = CASE WHEN progress = coalesce($2, progress) THEN last_error END,
                progress = coalesce($2, progress),
                next_attempt_at = now() + make_interval(secs => $3)
          WHERE upload_id = $1 AND finished_at IS NULL
          RETURNING attempts, last_error",
    )
    .bind(id)
    .bind(through)
    .bind(wait.as_secs_f64())
    .fetch_optional(&state.pool)
    .await?;
    Ok(counted)
}

/// Finishes an upload claimed once more than it may be as failed, with the reason the
/// uploader reads on the upload's record, and the job with it: the next job runs.
async fn give_up(state: &CommandState, job: &Claimed, retry: &Retry) -> Result<(), CommandError> {
    let id = job.id;
    let n = retry.max_attempts.max(1);
    tracing::error!(
        upload = %id,
        attempts = n,
        last_error = job.last_error.as_deref().unwrap_or("none: the process stopped while working on it"),
        "upload worker: an upload failed every attempt and is finished as failed"
    );
    let (upload, _) = load::<UploadState>(&state.store, id).await?;
    if let Some(received) = upload.received.clone()
        && !upload.finished()
    {
        let (zh, en) = if job.last_error.is_some() {
            ("处理时出错", "an error occurred while processing it")
        } else {
            ("读取时处理中断", "processing stopped while reading it")
        };
        let cmd = UploadCommand::Fail {
            reason: format!("文件处理了 {n} 次均未成功（{zh}），已停止处理；请检查文件后重新上传"),
            reason_en: format!(
                "the file could not be processed in {n} attempts ({en}) and was given up; \
                 check the file and upload it again"
            ),
        };
        upload_command(state, id, &received, cmd).await?;
    }
    finish_job(&state.pool, id).await
}

async fn finish_job(pool: &sqlx::PgPool, id: Uuid) -> Result<(), CommandError> {
    sqlx::query("UPDATE upload_jobs SET finished_at = now() WHERE upload_id = $1")
        .bind(id)
        .execute(pool)
        .await?;
    Ok(())
}

/// The metadata of what the worker does for the upload's uploader.
fn meta(r: &Received) -> Metadata {
    Metadata {
        actor_id: Some(r.uploader_id),
        actor_role: Some(r.uploader_role.clone()),
        actor_name: Some(r.uploader_name.clone()),
        customer_id: Some(r.customer_id),
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        request_id: None,
        command_id: Uuid::now_v7(),
    }
}

fn uploader(r: &Received) -> Actor {
    let role = Role::parse(&r.uploader_role).unwrap_or(Role::Customer);
    Actor {
        id: r.uploader_id,
        username: r.uploader_name.clone(),
        display_name: r.uploader_name.clone(),
        role,
        customer_id: (role == Role::Customer).then_some(r.customer_id),
        session_id: Uuid::nil(),
    }
}

async fn upload_command(
    state: &CommandState,
    id: Uuid,
    r: &Received,
    cmd: UploadCommand,
) -> Result<(), CommandError> {
    let mut m = meta(r);
    m.causation_id = Some(id);
    let ctx = state.system_ctx();
    execute(Command::<UploadState>::on(&state.store, id, m), |s, _| {
        s.decide(cmd.clone(), &ctx)
    })
    .await?;
    Ok(())
}

/// Reads one upload and makes its declarations, from where its recorded batches end.
pub async fn process(state: &CommandState, id: Uuid) -> Result<(), CommandError> {
    let store = &state.store;
    let (upload, _) = load::<UploadState>(store, id).await?;
    let Some(received) = upload.received.clone() else {
        return finish_job(&state.pool, id).await;
    };
    if upload.finished() {
        return finish_job(&state.pool, id).await;
    }
    let fail = |zh: String, en: String| UploadCommand::Fail {
        reason: zh,
        reason_en: en,
    };
    let (customer, _) = load::<CustomerState>(store, received.customer_id).await?;
    if !customer.active() {
        let cmd = fail(
            "该客户已停用或已删除，不能新建申报".into(),
            "the customer is disabled or deleted and takes no new declarations".into(),
        );
        upload_command(state, id, &received, cmd).await?;
        return finish_job(&state.pool, id).await;
    }
    let bytes = stored_file(&state.pool, &received.sha256).await?;
    let Some(bytes) = bytes else {
        let cmd = fail(
            "找不到上传的文件".into(),
            "the uploaded file is missing".into(),
        );
        upload_command(state, id, &received, cmd).await?;
        return finish_job(&state.pool, id).await;
    };
    let ty: TypeCode = received
        .declaration_type
        .parse()
        .map_err(|_| CommandError::Internal("upload with an unknown declaration type".into()))?;
    let reference = state.reference.current();
    let is_row_data = received.is_row_data;
    let library = Library::load(&state.pool, received.customer_id).await?;
    let schemes = if received.is_fixed {
        Vec::new()
    } else {
        match schemes_for(state, &received, ty).await? {
            Ok(list) => list,
            Err(e) => {
                upload_command(state, id, &received, fail(e.zh, e.en)).await?;
                return finish_job(&state.pool, id).await;
            }
        }
    };
    let is_fixed = received.is_fixed;
    let named = received.mapping_scheme_id.is_some();
    // The file is read on a blocking thread and its groups come over a bounded channel as
    // each is complete, so memory stays flat in the row count (see `parse::Grouper`).
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Read>(BATCH * 2);
    let reader = {
        let reference = Arc::clone(&reference);
        // The file is parsed in a child process of the document reader (crate::sandbox).
        let sandbox = state.documents.clone();
        tokio::task::spawn_blocking(move || {
            let cx = Judge {
                ty,
                reference: &reference,
                now: Utc::now(),
                library: &library,
                reading: Reading::Sandboxed {
                    sandbox: &sandbox,
                    timeout: sandbox.limits().upload_timeout,
                },
            };
            let stopped = || FileError::new("已停止", "stopped");
            let total_tx = tx.clone();
            let mut on_total = move |total: u32| {
                total_tx
                    .blocking_send(Read::Total(total))
                    .map_err(|_| stopped())
            };
            let mut sink = |g: Group| tx.blocking_send(Read::Group(g)).map_err(|_| stopped());
            if is_fixed {
                return if is_row_data {
                    parse::table_streamed(&bytes, &cx, &mut on_total, &mut sink)
                } else {
                    let p = parse::draft(&bytes, &cx)?;
                    on_total(p.total)?;
                    p.groups.into_iter().try_for_each(&mut sink)
                };
            }
            let chosen = if named {
                Some(0)
            } else {
                custom::choose(&bytes, &schemes, cx.reading)?
            };
            let def = chosen
                .and_then(|i| schemes.get(i))
                .ok_or_else(custom::no_scheme)?;
            custom::read_streamed(&bytes, def, is_row_data, &cx, &mut on_total, &mut sink)
        })
    };
    let customer = CustomerRef {
        customer_id: received.customer_id,
        username: customer.username.clone(),
        company_name: Some(customer.profile.company_name.clone()),
    };
    let actor = uploader(&received);
    // Groups the recorded batches cover already (an interrupted upload resumes after them).
    let mut skip = upload.through as usize;
    let mut at = skip;
    let mut chunk: Vec<Group> = Vec::with_capacity(BATCH);
    let mut started = false;
    loop {
        match rx.recv().await {
            Some(Read::Total(total)) => {
                upload_command(state, id, &received, UploadCommand::Start { total }).await?;
                started = true;
            }
            Some(Read::Group(_)) if skip > 0 => skip -= 1,
            Some(Read::Group(g)) => {
                chunk.push(g);
                if chunk.len() < BATCH {
                    continue;
                }
                let through = (at + chunk.len()) as u32;
                let progress =
                    batch(state, id, &received, &customer, &actor, ty, &chunk, through).await?;
                upload_command(state, id, &received, UploadCommand::Progress(progress)).await?;
                at += chunk.len();
                chunk.clear();
            }
            None => {
                if !chunk.is_empty() {
                    let through = (at + chunk.len()) as u32;
                    let progress =
                        batch(state, id, &received, &customer, &actor, ty, &chunk, through).await?;
                    upload_command(state, id, &received, UploadCommand::Progress(progress)).await?;
                }
                break;
            }
        }
    }
    let outcome = reader
        .await
        .map_err(|e| CommandError::Internal(e.to_string()))?;
    if let Err(e) = outcome {
        upload_command(state, id, &received, fail(e.zh, e.en)).await?;
        return finish_job(&state.pool, id).await;
    }
    if !started {
        return Err(CommandError::Internal(
            "the upload's reader ended without a total".into(),
        ));
    }
    upload_command(state, id, &received, UploadCommand::Complete).await?;
    finish_job(&state.pool, id).await
}

/// The stored file, read in slices ([`super::routes::BLOB_SLICE`]) into one buffer of its
/// size: one copy of the file in memory, and the connection's buffers never grow to it.
/// `None` when it is missing (or was swept meanwhile).
async fn stored_file(pool: &sqlx::PgPool, sha256: &str) -> Result<Option<Vec<u8>>, CommandError> {
    let mut conn = pool.acquire().await?;
    let size: Option<i32> =
        sqlx::query_scalar("SELECT length(content) FROM upload_blobs WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(size) = size.map(|n| n.max(0) as usize) else {
        return Ok(None);
    };
    let mut bytes = Vec::with_capacity(size);
    while bytes.len() < size {
        let slice: Option<Vec<u8>> = sqlx::query_scalar(
            "SELECT substring(content FROM $2 FOR $3) FROM upload_blobs WHERE sha256 = $1",
        )
        .bind(sha256)
        .bind(bytes.len() as i32 + 1)
        .bind(super::routes::BLOB_SLICE as i32)
        .fetch_optional(&mut *conn)
        .await?;
        match slice {
            Some(s) if !s.is_empty() => bytes.extend_from_slice(&s),
            _ => return Ok(None),
        }
    }
    conn.shrink_buffers();
    Ok(Some(bytes))
}

/// What the reading thread hands over: the row count (after the first pass), then the
/// groups, each as soon as it is complete.
enum Read {
    Total(u32),
    Group(Group),
}

/// The mapping schemes a custom upload may be read with: the one it names (still live and
/// the customer's), or else the customer's saved schemes for its declaration type (or for
/// any type), the most recently changed first. `Err` inside: the file is to be refused.
async fn schemes_for(
    state: &CommandState,
    received: &Received,
    ty: TypeCode,
) -> Result<Result<Vec<SchemeDefinition>, FileError>, CommandError> {
    if let Some(scheme_id) = received.mapping_scheme_id {
        let (scheme, _) = load::<MappingSchemeState>(&state.store, scheme_id).await?;
        if !scheme.live() || scheme.customer_id != received.customer_id {
            return Ok(Err(FileError::new(
                "上传所选的映射方案不存在或已删除",
                "the mapping scheme named by the upload does not exist or was deleted",
            )));
        }
        return Ok(Ok(vec![scheme.definition]));
    }
    let rows: Vec<serde_json::Value> = sqlx::query_scalar(
        "SELECT definition FROM rm_mapping_schemes
          WHERE customer_id = $1 AND NOT deleted
            AND (declaration_type IS NULL OR declaration_type = '' OR declaration_type = $2)
          ORDER BY update_time DESC, scheme_id",
    )
    .bind(received.customer_id)
    .bind(ty.as_str())
    .fetch_all(&state.pool)
    .await?;
    let schemes: Vec<SchemeDefinition> = rows
        .into_iter()
        .filter_map(|d| serde_json::from_value(d).ok())
        .collect();
    if schemes.is_empty() {
        return Ok(Err(custom::no_scheme()));
    }
    Ok(Ok(schemes))
}

fn item(
    received: &Received,
    group: &Group,
    row: u32,
    desc: (String, String),
    repeat: bool,
) -> Item {
    let draft = !received.is_row_data;
    Item {
        row,
        tracking_number: (!group.tracking_number.is_empty()).then(|| group.tracking_number.clone()),
        file_name: draft.then(|| received.file_origin_name.clone()),
        desc: desc.0,
        desc_en: desc.1,
        is_repeat: repeat,
        note: false,
    }
}

/// A row's problems, with what the product library filled on it said first.
fn with_fills(group: &Group, row: u32, desc: (String, String)) -> (String, String) {
    let mut zh: Vec<String> = Vec::new();
    let mut en: Vec<String> = Vec::new();
    for f in group.filled.iter().filter(|f| f.row == row) {
        let (z, e) = f.describe();
        zh.push(z);
        en.push(e);
    }
    if !desc.0.is_empty() {
        zh.push(desc.0);
        en.push(desc.1);
    }
    (zh.join("；"), en.join("; "))
}

/// The notes of a group made into a declaration: one item per row whose HS code was filled.
fn fill_notes(received: &Received, group: &Group, items: &mut Vec<Item>) {
    let mut rows: Vec<u32> = group.filled.iter().map(|f| f.row).collect();
    rows.dedup();
    for row in rows {
        let desc = with_fills(group, row, (String::new(), String::new()));
        let mut it = item(received, group, row, desc, false);
        it.note = true;
        items.push(it);
    }
}

/// The tracking numbers among `groups` that another declaration of the customer (not
/// deleted, not made by this upload's own rows) carries already.
async fn repeats(
    pool: &sqlx::PgPool,
    upload_id: Uuid,
    customer_id: Uuid,
    groups: &[Group],
) -> Result<HashSet<String>, CommandError> {
    let numbers: Vec<String> = groups
        .iter()
        .filter(|g| !g.tracking_number.is_empty())
        .map(|g| g.tracking_number.clone())
        .collect();
    let own: Vec<Uuid> = groups
        .iter()
        .map(|g| declaration_id(upload_id, g.first_row()))
        .collect();
    let found: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT tracking_number FROM rm_declarations
         WHERE customer_id = $1 AND tracking_number = ANY($2) AND status <> 5
           AND NOT (id = ANY($3))",
    )
    .bind(customer_id)
    .bind(&numbers)
    .bind(&own)
    .fetch_all(pool)
    .await?;
    Ok(found.into_iter().collect())
}

/// The description of a repeated row.
fn exists(group: &Group) -> (String, String) {
    (
        format!("运单号 {} 已存在", group.tracking_number),
        format!(
            "the tracking number {} exists already",
            group.tracking_number
        ),
    )
}

/// One batch: repeats and abnormal rows recorded, the valid groups made into declarations.
#[allow(clippy::too_many_arguments)]
async fn batch(
    state: &CommandState,
    upload_id: Uuid,
    received: &Received,
    customer: &CustomerRef,
    actor: &Actor,
    ty: TypeCode,
    groups: &[Group],
    through: u32,
) -> Result<Progressed, CommandError> {
    let repeated = repeats(&state.pool, upload_id, received.customer_id, groups).await?;
    let mut p = Progressed {
        through,
        done: 0,
        success: 0,
        ticket_success: 0,
        repeat: 0,
        abnormal: 0,
        items: Vec::new(),
    };
    let mut to_make = Vec::new();
    for group in groups {
        let n = group.rows.len() as u32;
        p.done += n;
        if repeated.contains(&group.tracking_number) {
            p.repeat += n;
            for row in &group.rows {
                p.items
                    .push(item(received, group, *row, exists(group), true));
            }
            continue;
        }
        match &group.outcome {
            Outcome::Invalid(rows) => {
                p.abnormal += n;
                for (row, violations) in rows {
                    let desc = if violations.is_empty() {
                        (
                            format!("同一运单号 {} 的其他行有错误", group.tracking_number),
                            format!(
                                "another row of the tracking number {} has problems",
                                group.tracking_number
                            ),
                        )
                    } else {
                        parse::describe(violations)
                    };
                    let desc = with_fills(group, *row, desc);
                    p.items.push(item(received, group, *row, desc, false));
                }
            }
            Outcome::Valid(data) => to_make.push((group, data.as_ref())),
        }
    }
    let made = make(state, upload_id, received, customer, actor, ty, &to_make).await?;
    for ((group, _), result) in to_make.iter().zip(made) {
        let n = group.rows.len() as u32;
        match result {
            Created::Made(_) | Created::Existed => {
                p.success += n;
                p.ticket_success += 1;
                fill_notes(received, group, &mut p.items);
            }
            Created::HeldBack => {
                p.repeat += n;
                for row in &group.rows {
                    p.items
                        .push(item(received, group, *row, exists(group), true));
                }
            }
            Created::Refused(refused) => {
                p.abnormal += n;
                let desc = match refused {
                    crate::aggregate::DomainError::Validation(violations) => {
                        parse::describe(&violations)
                    }
                    other => (
                        format!("不能新建申报：{other}"),
                        format!("cannot be created: {other}"),
                    ),
                };
                for row in &group.rows {
                    let desc = with_fills(group, *row, desc.clone());
                    p.items.push(item(received, group, *row, desc, false));
                }
            }
        }
    }
    p.items.sort_by_key(|i| i.row);
    Ok(p)
}

/// Makes the declarations of a batch's valid groups in one transaction, through the
/// declaration's own decision ([`handler::create_many`]): each with the id derived from
/// (upload, first row) and `upload: {uploadId, row}` on its `DeclarationDrafted`, so one
/// made by an earlier attempt (before a crash) is found as its stream (`Existed`) and never
/// made twice. Their tracking numbers are reserved in the same transaction
/// ([`Reservations`]); a number another live declaration holds is held back (a repeat).
#[allow(clippy::too_many_arguments)]
async fn make(
    state: &CommandState,
    upload_id: Uuid,
    received: &Received,
    customer: &CustomerRef,
    actor: &Actor,
    ty: TypeCode,
    groups: &[(&Group, &DeclarationData)],
) -> Result<Vec<Created>, CommandError> {
    if groups.is_empty() {
        return Ok(Vec::new());
    }
    let creations: Vec<Creation> = groups
        .iter()
        .map(|(g, _)| {
            let mut metadata = meta(received);
            metadata.causation_id = Some(upload_id);
            Creation {
                stream_id: declaration_id(upload_id, g.first_row()),
                metadata,
            }
        })
        .collect();
    let reservations = Reservations {
        store: &state.store,
        customer_id: received.customer_id,
        numbers: groups
            .iter()
            .map(|(_, d)| {
                d.tracking_number
                    .as_deref()
                    .map(str::trim)
                    .unwrap_or_default()
            })
            .collect(),
        ids: creations.iter().map(|c| c.stream_id).collect(),
    };
    let reference = state.reference.current();
    let now = Utc::now();
    handler::create_many::<DeclarationState, _>(
        &state.store,
        &creations,
        |i, s| {
            let (group, data) = groups[i];
            let ctx = Ctx {
                actor,
                now,
                reference: reference.clone(),
            };
            let command = DeclarationCommand::Create {
                id: creations[i].stream_id,
                declaration_type: ty,
                customer: customer.clone(),
                data: data.clone(),
            };
            let mut events = s.decide(command, &ctx)?;
            for e in &mut events {
                if let events::declaration::DeclarationEvent::Drafted(d) = e {
                    d.upload = Some(UploadSource {
                        upload_id,
                        row: group.first_row(),
                    });
                }
            }
            Ok(events)
        },
        Some(&reservations),
    )
    .await
}

/// Reserves the tracking numbers of a batch's declarations in the transaction of their
/// append (`upload_tracking_reservations`): the write side's own uniqueness, so that two
/// uploads of one number at once make one draft. The second insert of a number waits for
/// the first's commit and then finds it held; a number held by a declaration deleted since
/// is taken over; a retry of the same row (after a crash) holds its own reservation. Numbers
/// are inserted in sorted order, so two batches sharing numbers never wait on each other in
/// a circle.
struct Reservations<'a> {
    store: &'a EventStore,
    customer_id: Uuid,
    /// Per creation: its tracking number (trimmed; empty: none to reserve).
    numbers: Vec<&'a str>,
    /// Per creation: its declaration id.
    ids: Vec<Uuid>,
}

impl Gate for Reservations<'_> {
    fn admit<'c>(&'c self, tx: &'c mut PgConnection, candidates: &'c [usize]) -> Admitted<'c> {
        Box::pin(async move {
            let mut admitted = vec![true; candidates.len()];
            // The first of a number in the batch asks for it; a later one with the same
            // number is held by that first (made now, or itself held back): a repeat.
            let mut asked: HashMap<&str, Uuid> = HashMap::new();
            for (k, i) in candidates.iter().enumerate() {
                let number = self.numbers[*i];
                if number.is_empty() {
                    continue;
                }
                if asked.contains_key(number) {
                    admitted[k] = false;
                } else {
                    asked.insert(number, self.ids[*i]);
                }
            }
            let (numbers, ids): (Vec<&str>, Vec<Uuid>) =
                asked.iter().map(|(n, d)| (*n, *d)).unzip();
            let held: Vec<(String, Uuid)> = sqlx::query_as(
                "INSERT INTO upload_tracking_reservations AS r (customer_id, tracking_number, declaration_id)
                 SELECT $1, t.n, t.d FROM UNNEST($2::text[], $3::uuid[]) AS t(n, d) ORDER BY t.n
                 ON CONFLICT (customer_id, tracking_number) DO UPDATE
                    SET reserved_at = CASE WHEN r.declaration_id = EXCLUDED.declaration_id
                                           THEN now() ELSE r.reserved_at END
                 RETURNING tracking_number, declaration_id",
            )
            .bind(self.customer_id)
            .bind(&numbers)
            .bind(&ids)
            .fetch_all(&mut *tx)
            .await?;
            let mut refused: HashSet<String> = HashSet::new();
            let mut taken_over: Vec<(String, Uuid)> = Vec::new();
            for (number, holder) in held {
                let Some(own) = asked.get(number.as_str()).copied() else {
                    continue;
                };
                if holder == own {
                    continue;
                }
                let (state, _) = load_in::<DeclarationState>(self.store, &mut *tx, holder).await?;
                let deleted = state.status.is_none()
                    || state.status == Some(events::declaration::DeclarationStatus::Deleted);
                if deleted {
                    taken_over.push((number, own));
                } else {
                    refused.insert(number);
                }
            }
            if !taken_over.is_empty() {
                let (numbers, ids): (Vec<String>, Vec<Uuid>) = taken_over.into_iter().unzip();
                sqlx::query(
                    "UPDATE upload_tracking_reservations r
                        SET declaration_id = t.d, reserved_at = now()
                       FROM UNNEST($2::text[], $3::uuid[]) AS t(n, d)
                      WHERE r.customer_id = $1 AND r.tracking_number = t.n",
                )
                .bind(self.customer_id)
                .bind(&numbers)
                .bind(&ids)
                .execute(&mut *tx)
                .await?;
            }
            for (k, i) in candidates.iter().enumerate() {
                let number = self.numbers[*i];
                if refused.contains(number) {
                    admitted[k] = false;
                }
            }
            Ok(admitted)
        })
    }
}
