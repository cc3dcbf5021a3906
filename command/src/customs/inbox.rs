//! The receipt reader: a task of the server process that reads the exchange folder's
//! `inbox/` (docs/customs.md). The environment has no file-system notification crate, so
//! the folder is scanned every 100 ms (a scan lists the folder; a file is read once).
//!
//! **Complete files only.** A file is read once it has not changed for
//! [`Inbox::settle`] (500 ms); one that still ends inside an element is left for the writer
//! to finish, and moved to `failed/` only after [`Inbox::incomplete_after`] (30 s).
//! Names starting with `.` and names not ending `.xml` are a writer's temporary files.
//!
//! **Nothing lost.** Each receipt is recorded on its declaration's stream through the one
//! command path by the actor "customs" (idempotent by COP_NO, CHANNEL, NOTICE_DATE), or kept
//! as an anomaly; only once every receipt of the file is in the store does the file move
//! to `done/`. A failure to record (the database away) leaves the file where it is, and the
//! next scan reads it again: what was recorded is recorded once.
//!
//! **Hostile files** (a DTD, an entity, too big, too deep, not UTF-8, not XML) are moved to
//! `failed/` beside `<name>.why.txt` as soon as they are complete (the size is judged from
//! the folder entry, before a byte is read).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use events::declaration::customs::CustomsReceipt;
use uuid::Uuid;

use super::Folder;
pub use super::outcome::{Outcome, customs_actor, settle_outcome};
use super::outcome::{anomaly, outcome};
use super::receipt::{self, Limits, Unread};
use crate::aggregate::{Aggregate, DomainError};
use crate::declaration::customs::CustomsCommand;
use crate::declaration::{DeclarationCommand, DeclarationState};
use crate::handler::{Command, CommandError, execute_then};
use crate::http::{CommandState, system_metadata};
use crate::tax::allowance::{AllowanceHook, also_append_counted};

/// The reader's settings.
#[derive(Debug, Clone)]
pub struct Inbox {
    pub folder: Folder,
    pub limits: Limits,
    /// A file unchanged this long is complete.
    pub settle: Duration,
    /// A file that still ends inside an element this long after it was first seen is failed.
    pub incomplete_after: Duration,
    /// Between two scans.
    pub every: Duration,
}

impl Inbox {
    pub fn new(folder: Folder) -> Self {
        Self {
            folder,
            limits: Limits::default(),
            settle: Duration::from_millis(500),
            incomplete_after: Duration::from_secs(30),
            every: Duration::from_millis(100),
        }
    }
}

/// The reader's memory between scans: when each incomplete file was first seen.
#[derive(Default)]
pub struct Seen {
    first: HashMap<PathBuf, Instant>,
}

/// Starts the reader on the server's runtime.
pub fn spawn(state: CommandState, inbox: Inbox) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut seen = Seen::default();
        let mut warned = false;
        loop {
            match scan_once(&state, &inbox, &mut seen).await {
                Ok(_) => warned = false,
                Err(e) => {
                    if !warned {
                        tracing::warn!(error = %e, "customs reader: will retry");
                        warned = true;
                    }
                }
            }
            tokio::time::sleep(inbox.every).await;
        }
    })
}

/// Why a scan stopped.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error("the inbox cannot be read: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Command(#[from] CommandError),
}

/// The files waiting in `inbox/` (receipt names only), oldest first.
pub fn waiting(folder: &Folder) -> std::io::Result<Vec<(PathBuf, std::fs::Metadata)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(folder.inbox())? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !name.to_ascii_lowercase().ends_with(".xml") {
            continue;
        }
        let meta = entry.metadata()?;
        if meta.is_file() {
            out.push((entry.path(), meta));
        }
    }
    out.sort_by(|a, b| (a.1.modified().ok(), &a.0).cmp(&(b.1.modified().ok(), &b.0)));
    Ok(out)
}

/// One pass over `inbox/`: answers how many files left it.
pub async fn scan_once(
    state: &CommandState,
    inbox: &Inbox,
    seen: &mut Seen,
) -> Result<usize, ScanError> {
    let files = waiting(&inbox.folder)?;
    let now = SystemTime::now();
    let mut moved = 0;
    let mut batch: Vec<(CustomsReceipt, String)> = Vec::new();
    let mut read: Vec<PathBuf> = Vec::new();
    seen.first.retain(|p, _| files.iter().any(|(f, _)| f == p));
    for (path, meta) in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if meta.len() > inbox.limits.max_bytes {
            fail(
                &inbox.folder,
                &path,
                &format!(
                    "the file is {} bytes; a receipt file holds at most {}",
                    meta.len(),
                    inbox.limits.max_bytes
                ),
            )?;
            moved += 1;
            continue;
        }
        let age = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .unwrap_or_default();
        if age < inbox.settle {
            continue;
        }
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e.into()),
        };
        match receipt::parse(&bytes, &inbox.limits) {
            Err(Unread::Incomplete(why)) => {
                let first = *seen.first.entry(path.clone()).or_insert_with(Instant::now);
                if first.elapsed() >= inbox.incomplete_after {
                    fail(&inbox.folder, &path, &format!("incomplete: {why}"))?;
                    moved += 1;
                }
            }
            Err(Unread::Refused(why)) => {
                fail(&inbox.folder, &path, &why)?;
                moved += 1;
            }
            Ok(receipts) => {
                // A copy of a receipt already in this file is the same receipt: recorded once
                // (the store would append nothing for it anyway).
                let mut seen_here = std::collections::HashSet::new();
                for r in receipts {
                    if seen_here.insert(serde_json::to_string(&r).unwrap_or_default()) {
                        batch.push((r, name.clone()));
                    }
                }
                read.push(path);
                if batch.len() >= BATCH {
                    moved += settle_batch(state, inbox, &mut batch, &mut read).await?;
                }
            }
        }
    }
    moved += settle_batch(state, inbox, &mut batch, &mut read).await?;
    Ok(moved)
}

/// Receipts recorded in one transaction at most (then the files they came from move).
const BATCH: usize = 1000;

/// Records the receipts read so far, then moves their files to `done/`.
async fn settle_batch(
    state: &CommandState,
    inbox: &Inbox,
    batch: &mut Vec<(CustomsReceipt, String)>,
    read: &mut Vec<PathBuf>,
) -> Result<usize, ScanError> {
    record_all(state, std::mem::take(batch)).await?;
    let n = read.len();
    for path in read.drain(..) {
        match done(&inbox.folder, &path) {
            Ok(()) => {}
            // Moved by another reader meanwhile.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(n)
}

/// Records many receipts (each with its source), in their order per declaration. The
/// receipts of declarations the message ledger knows, none of them an `Sp1`, are recorded
/// in one transaction: each declaration's stream read once, its receipts decided in order on
/// the state they make, its events appended once, the declarations in a fixed order. Any
/// failure of that transaction (a race with another writer, the database away) records
/// them again one by one, which is idempotent; the rest (an unknown CopNo, an `Sp1`, the
/// receipts a declaration refuses) take the one-by-one path, which keeps them as anomalies.
pub async fn record_all(
    state: &CommandState,
    receipts: Vec<(CustomsReceipt, String)>,
) -> Result<Vec<Outcome>, CommandError> {
    if receipts.is_empty() {
        return Ok(Vec::new());
    }
    let cops: Vec<String> = receipts.iter().map(|(r, _)| r.cop_no.clone()).collect();
    let known: HashMap<String, Uuid> = sqlx::query_as::<_, (String, Uuid)>(
        "SELECT cop_no, declaration_id FROM customs_messages WHERE cop_no = ANY($1)",
    )
    .bind(&cops)
    .fetch_all(&state.pool)
    .await?
    .into_iter()
    .collect();
    let mut by_declaration: std::collections::BTreeMap<Uuid, Vec<usize>> = Default::default();
    let mut alone = Vec::new();
    for (i, (r, _)) in receipts.iter().enumerate() {
        match known.get(&r.cop_no) {
            Some(id) => by_declaration.entry(*id).or_default().push(i),
            None => alone.push(i),
        }
    }
    // A declaration with an Sp1 among its receipts: all of them one by one, in order.
    by_declaration.retain(|_, list| {
        if list.iter().any(|i| receipts[*i].0.channel == "Sp1") {
            alone.extend(list.iter().copied());
            false
        } else {
            true
        }
    });
    let mut outcomes: Vec<Option<Outcome>> = vec![None; receipts.len()];
    let mut refused = Vec::new();
    match batch_tx(state, &receipts, &by_declaration).await {
        Ok(decided) => {
            for (i, result) in decided {
                match result {
                    Ok(recorded) => {
                        let r = &receipts[i].0;
                        let word = if recorded { "recorded" } else { "duplicate" };
                        outcomes[i] = Some(outcome(r, word, None));
                    }
                    Err(_) => refused.push(i),
                }
            }
        }
        Err(e) => {
            tracing::debug!(error = %e, "customs reader: the batch is recorded one by one");
            refused.extend(by_declaration.values().flatten().copied());
        }
    }
    alone.extend(refused);
    alone.sort_unstable();
    for i in alone {
        let (r, source) = receipts[i].clone();
        outcomes[i] = Some(record(state, r, &source).await?);
    }
    Ok(outcomes.into_iter().flatten().collect())
}

type Decided = Vec<(usize, Result<bool, DomainError>)>;

async fn batch_tx(
    state: &CommandState,
    receipts: &[(CustomsReceipt, String)],
    by_declaration: &std::collections::BTreeMap<Uuid, Vec<usize>>,
) -> Result<Decided, CommandError> {
    if by_declaration.is_empty() {
        return Ok(Vec::new());
    }
    let actor = customs_actor();
    let ctx = state.ctx(&actor);
    let reference = state.reference.current();
    let mut decided = Vec::new();
    let mut tx = state.pool.begin().await?;
    for (id, list) in by_declaration {
        let meta = system_metadata(&actor, None);
        let mut here = Vec::new();
        // A receipt that rejects the declaration gives its buyer's allowance back, here.
        also_append_counted(
            &state.store,
            &mut tx,
            reference.clone(),
            *id,
            &meta,
            |d, _| {
                let mut s = d.clone();
                let mut out = Vec::new();
                for i in list {
                    let (r, source) = &receipts[*i];
                    let cmd = DeclarationCommand::Customs(CustomsCommand::Receipt {
                        receipt: r.clone(),
                        source: source.clone(),
                    });
                    match s.decide(cmd, &ctx) {
                        Ok(events) => {
                            for e in &events {
                                s.evolve(e);
                            }
                            here.push((*i, Ok(!events.is_empty())));
                            out.extend(events);
                        }
                        Err(e) => here.push((*i, Err(e))),
                    }
                }
                Ok(out)
            },
        )
        .await?;
        decided.extend(here);
    }
    tx.commit().await?;
    state.store.notify();
    Ok(decided)
}

/// A free name in `dir` for `name` (`name`, else `<stem>.<n>.<ext>`).
fn free_name(dir: &Path, name: &str) -> PathBuf {
    let first = dir.join(name);
    if !first.exists() {
        return first;
    }
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    (1..)
        .map(|n| dir.join(format!("{stem}.{n}.{ext}")))
        .find(|p| !p.exists())
        .unwrap_or(first)
}

fn done(folder: &Folder, path: &Path) -> std::io::Result<()> {
    let name = path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    std::fs::create_dir_all(folder.done())?;
    std::fs::rename(path, free_name(&folder.done(), &name))
}

/// Moves `path` to `failed/` with `<name>.why.txt` beside it.
pub fn fail(folder: &Folder, path: &Path, why: &str) -> std::io::Result<()> {
    let name = path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    std::fs::create_dir_all(folder.failed())?;
    let target = free_name(&folder.failed(), &name);
    let target_name = target
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    std::fs::write(
        folder.failed().join(format!("{target_name}.why.txt")),
        format!("{why}\n"),
    )?;
    std::fs::rename(path, &target)?;
    tracing::warn!(file = %name, reason = %why, "customs reader: a receipt file was refused");
    Ok(())
}

/// Records one receipt on its declaration, or as an anomaly.
pub async fn record(
    state: &CommandState,
    receipt: CustomsReceipt,
    source: &str,
) -> Result<Outcome, CommandError> {
    let declaration: Option<Uuid> =
        sqlx::query_scalar("SELECT declaration_id FROM customs_messages WHERE cop_no = $1")
            .bind(&receipt.cop_no)
            .fetch_optional(&state.pool)
            .await?;
    let Some(id) = declaration else {
        let reason = format!("{} is not the CopNo of any message sent", receipt.cop_no);
        return anomaly(state, receipt, source, "unknown_cop_no", reason, None).await;
    };
    if receipt.channel == "Sp1" {
        return super::sp1::record(state, id, receipt, source).await;
    }
    let actor = customs_actor();
    let ctx = state.ctx(&actor);
    let cmd = Command::<DeclarationState>::on(&state.store, id, system_metadata(&actor, None));
    let appended = AtomicBool::new(false);
    // A receipt that rejects the declaration gives its buyer's allowance back, in the
    // receipt's transaction (crate::tax::allowance).
    let hook = AllowanceHook::new(
        state.store.clone(),
        state.reference.current(),
        system_metadata(&actor, None),
        id,
    );
    let decided = execute_then(
        cmd,
        |s, _| {
            let r = s.decide(
                DeclarationCommand::Customs(CustomsCommand::Receipt {
                    receipt: receipt.clone(),
                    source: source.to_string(),
                }),
                &ctx,
            );
            if let Ok(events) = &r {
                hook.decided(s, events);
            }
            appended.store(r.as_ref().is_ok_and(|e| !e.is_empty()), Ordering::Relaxed);
            r
        },
        Some(&hook),
    )
    .await;
    settle_outcome(
        state,
        receipt,
        source,
        id,
        decided.map(|_| appended.load(Ordering::Relaxed)),
    )
    .await
}
