//! Untrusted documents are read in a child process, never in the server.
//!
//! A file's declared sizes are checked before any parser trusts them (see
//! the upload's reader and [`declared`]), but a parser may still fail in ways no check
//! foresees: an allocation the allocator cannot serve ends the whole process (Rust aborts),
//! a panic in a C tool's wrapper, a loop that never ends. So every read of an uploaded file
//! (the upload worker, AI drafts, the mapping-scheme preview, exception documents and the
//! recipient link's uploads) runs in a child: the server's own executable started as
//! `clearway read-document <job>` (the crate's `read_document` module), which first lowers its own resource
//! limits (data memory, CPU seconds, file size, no core dumps), then reads the file from
//! stdin and writes its result to stdout as JSON lines ([`Out`]). External tools
//! (`pdftotext`, `pdfinfo`, `tesseract`) are started by that child and inherit its limits.
//! The server kills the child when its wall-clock time is up, and maps a crash, a limit or
//! a timeout to a clear refusal ("the file could not be read safely: ...").
//!
//! How many children run at once is bounded by a semaphore ([`Sandbox::permit`]); a request
//! that cannot get a place within [`Limits::queue_wait`] is answered 429.
//!
//! The command crate does not know the binary: the path of the executable and the limits
//! come from the server's configuration (`CLEARWAY_READER_*`).

pub mod declared;
pub mod tools;
pub mod workbook;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Why a file was refused as a whole, in both languages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{en}")]
pub struct FileError {
    pub zh: String,
    pub en: String,
}

impl FileError {
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Self {
        Self {
            zh: zh.into(),
            en: en.into(),
        }
    }
}

/// Every external program the document reader starts, with the Debian package that has it:
/// the container image installs these (a test checks the Dockerfile against this list), and
/// `run_tool` starts no program missing from it.
pub const TOOLS: &[(&str, &str)] = &[
    ("pdftotext", "poppler-utils"),
    ("pdfinfo", "poppler-utils"),
    ("tesseract", "tesseract-ocr"),
];

/// The OCR models tesseract is asked for, with their Debian packages.
pub const OCR_LANGUAGES: &[(&str, &str)] = &[
    ("chi_sim", "tesseract-ocr-chi-sim"),
    ("eng", "tesseract-ocr-eng"),
];

/// The first argument that makes the server's executable a document reader.
pub const SUBCOMMAND: &str = "read-document";

/// Largest line a child may write (a row or a document as JSON).
const MAX_LINE_BYTES: u64 = 64 * 1024 * 1024;

/// The limits every child runs under.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Data memory (heap and anonymous mappings) of the child and of each tool it starts.
    pub memory_bytes: u64,
    /// CPU seconds of the child and of each tool it starts.
    pub cpu_secs: u64,
    /// Wall-clock time of one document read (AI drafts, preview, exception documents).
    pub timeout: Duration,
    /// Wall-clock time of one pass of the upload worker over a file (it streams rows while
    /// the worker writes declarations, so it runs as long as the upload).
    pub upload_timeout: Duration,
    /// How many children run at once.
    pub concurrency: usize,
    /// How long a request waits for a place before it is answered 429.
    pub queue_wait: Duration,
    /// How many requests that carry files (uploads, AI drafts, previews, documents) have
    /// their bodies read at once; one more is answered 429 at once.
    pub intake: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            memory_bytes: 1024 * 1024 * 1024,
            cpu_secs: 60,
            timeout: Duration::from_secs(30),
            upload_timeout: Duration::from_secs(600),
            concurrency: 2,
            queue_wait: Duration::from_secs(10),
            intake: 8,
        }
    }
}

/// One line of a child's answer.
#[derive(Debug, Serialize, Deserialize)]
pub enum Out<T> {
    /// A result (a row, a document, a sheet head).
    Item(T),
    /// The file is refused, with the reason for the user.
    Failed(FileError),
    /// The read is complete.
    Done,
}

/// Why a read did not give a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// The file is refused (a 400 naming the file's field, or a failed upload).
    Refused(FileError),
    /// Every place is taken for longer than the queue wait (429).
    Busy,
}

impl From<FileError> for ReadError {
    fn from(e: FileError) -> Self {
        Self::Refused(e)
    }
}

impl ReadError {
    /// The answer for a route: 429 when busy, else a 400 naming `field`.
    pub fn to_api(&self, field: &str) -> api::ApiError {
        match self {
            Self::Busy => api::ApiError::TooManyRequests {
                retry_after_secs: 5,
            },
            Self::Refused(e) => api::ApiError::bad_field(
                field.to_string(),
                format!("{field}：{}", e.zh),
                format!("{field}: {}", e.en),
            ),
        }
    }
}

/// The document reader: where the executable is, and the limits.
#[derive(Clone)]
pub struct Sandbox {
    program: Option<PathBuf>,
    limits: Limits,
    permits: Arc<Semaphore>,
    intake: Arc<Semaphore>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("program", &self.program)
            .field("limits", &self.limits)
            .finish()
    }
}

fn unsafe_read(zh: &str, en: &str) -> FileError {
    FileError::new(
        format!("无法安全读取该文件：{zh}"),
        format!("the file could not be read safely: {en}"),
    )
}

impl Sandbox {
    /// `program`: the executable that answers `read-document` (`None`: every read fails
    /// with a clear message and the server logs why).
    pub fn new(program: Option<PathBuf>, limits: Limits) -> Self {
        let permits = Arc::new(Semaphore::new(limits.concurrency.max(1)));
        let intake = Arc::new(Semaphore::new(limits.intake.max(1)));
        Self {
            program,
            limits,
            permits,
            intake,
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A place among the requests whose file bodies are read at once, or 429 at once.
    pub fn admit(&self) -> Result<OwnedSemaphorePermit, api::ApiError> {
        Arc::clone(&self.intake)
            .try_acquire_owned()
            .map_err(|_| api::ApiError::TooManyRequests {
                retry_after_secs: 5,
            })
    }

    /// A place to run a child, waiting at most [`Limits::queue_wait`].
    pub async fn permit(&self) -> Result<OwnedSemaphorePermit, ReadError> {
        tokio::time::timeout(
            self.limits.queue_wait,
            Arc::clone(&self.permits).acquire_owned(),
        )
        .await
        .map_err(|_| ReadError::Busy)?
        .map_err(|_| ReadError::Busy)
    }

    /// A place to run a child from a blocking thread, waiting as long as it takes (the
    /// upload worker: its jobs queue in the database anyway).
    pub fn permit_blocking(&self) -> Option<OwnedSemaphorePermit> {
        futures::executor::block_on(Arc::clone(&self.permits).acquire_owned()).ok()
    }

    /// Runs `job` on `input` in a child and collects its items, off the async runtime,
    /// within the read timeout and a place of the semaphore.
    pub async fn run<T: DeserializeOwned + Send + 'static>(
        &self,
        job: Vec<String>,
        input: Vec<u8>,
    ) -> Result<Vec<T>, ReadError> {
        let permit = self.permit().await?;
        let me = self.clone();
        let timeout = self.limits.timeout;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let mut items = Vec::new();
            me.stream(&job, &input, timeout, |item| {
                items.push(item);
                Ok(true)
            })
            .map(|()| items)
        })
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "a document read task failed");
            ReadError::Refused(unsafe_read("读取中断", "the read was interrupted"))
        })?
        .map_err(ReadError::Refused)
    }

    /// Runs `job` on `input` in a child (blocking), handing each item to `on_item` as it
    /// arrives; `on_item` answers `false` to stop early (the child is then killed). The
    /// child is killed after `timeout`.
    pub fn stream<T: DeserializeOwned>(
        &self,
        job: &[String],
        input: &[u8],
        timeout: Duration,
        mut on_item: impl FnMut(T) -> Result<bool, FileError>,
    ) -> Result<(), FileError> {
        let Some(program) = &self.program else {
            tracing::error!("no document reader is configured (CLEARWAY_READER_BIN)");
            return Err(unsafe_read(
                "服务器未配置文档读取程序",
                "the server has no document reader configured",
            ));
        };
        let mut command = Command::new(program);
        command
            .arg(SUBCOMMAND)
            .arg(self.limits.memory_bytes.to_string())
            .arg(self.limits.cpu_secs.to_string())
            .args(job)
            // The child sees none of the server's secrets (database URL, keys).
            .env_clear()
            .envs(kept_env())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = command.spawn().map_err(|e| {
            tracing::error!(program = %program.display(), error = %e, "cannot start the document reader");
            unsafe_read(
                "服务器无法启动文档读取程序",
                "the server could not start its document reader",
            )
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let child = Mutex::new(child);
        let timed_out = AtomicBool::new(false);
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let kill = || {
            if let Ok(mut c) = child.lock() {
                let _ = c.kill();
            }
        };
        let (kill, timed_out) = (&kill, &timed_out);
        let outcome = std::thread::scope(|s| {
            s.spawn(|| {
                if let Some(mut stdin) = stdin {
                    // A child that stops reading (it failed early) closes the pipe: fine.
                    let _ = stdin.write_all(input);
                }
            });
            s.spawn(move || {
                if let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(timeout) {
                    timed_out.store(true, Ordering::SeqCst);
                    kill();
                }
            });
            let outcome = match stdout {
                Some(stdout) => read_answer(BufReader::new(stdout), &mut on_item),
                None => Answer::Ended,
            };
            if !matches!(outcome, Answer::Ended) {
                kill();
            }
            let _ = done_tx.send(());
            outcome
        });
        let status = child.lock().ok().and_then(|mut c| c.wait().ok());
        match outcome {
            Answer::Done | Answer::Stopped => Ok(()),
            Answer::Failed(e) => Err(e),
            Answer::Consumer(e) => Err(e),
            Answer::Ended => Err(classify(
                status,
                timed_out.load(Ordering::SeqCst),
                timeout,
                self.limits.memory_bytes,
            )),
        }
    }
}

/// The environment a child keeps: where its tools are, its locale, and the OCR data.
fn kept_env() -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| {
            matches!(
                k.as_str(),
                "PATH" | "LANG" | "LC_ALL" | "TMPDIR" | "TESSDATA_PREFIX"
            )
        })
        .collect();
    // One OCR thread per child: the semaphore bounds the CPU the readers take together.
    env.push(("OMP_THREAD_LIMIT".into(), "1".into()));
    env
}

enum Answer {
    Done,
    /// The consumer had enough.
    Stopped,
    Failed(FileError),
    /// The consumer refused an item.
    Consumer(FileError),
    /// The output ended without `Done` (crash, limit, timeout).
    Ended,
}

fn read_answer<T: DeserializeOwned>(
    mut out: impl BufRead,
    on_item: &mut impl FnMut(T) -> Result<bool, FileError>,
) -> Answer {
    let mut line = Vec::new();
    loop {
        line.clear();
        match (&mut out).take(MAX_LINE_BYTES).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return Answer::Ended,
            Ok(_) => {}
        }
        if line.last() != Some(&b'\n') {
            // Cut off (a crash mid-line) or longer than any answer may be.
            return Answer::Ended;
        }
        match serde_json::from_slice::<Out<T>>(&line) {
            Ok(Out::Item(item)) => match on_item(item) {
                Ok(true) => {}
                Ok(false) => return Answer::Stopped,
                Err(e) => return Answer::Consumer(e),
            },
            Ok(Out::Failed(e)) => return Answer::Failed(e),
            Ok(Out::Done) => return Answer::Done,
            Err(e) => {
                tracing::error!(error = %e, "the document reader wrote an unreadable line");
                return Answer::Ended;
            }
        }
    }
}

/// What a child that ended without an answer ran into.
fn classify(
    status: Option<ExitStatus>,
    timed_out: bool,
    timeout: Duration,
    memory: u64,
) -> FileError {
    use std::os::unix::process::ExitStatusExt;
    let mb = memory / 1024 / 1024;
    if timed_out {
        let s = timeout.as_secs();
        return unsafe_read(
            &format!("读取超过 {s} 秒，已停止"),
            &format!("reading it took longer than {s} s and was stopped"),
        );
    }
    let signal = status.and_then(|s| s.signal());
    tracing::warn!(
        ?status,
        ?signal,
        "the document reader ended without an answer"
    );
    match signal {
        // SIGXCPU at the soft CPU limit, SIGKILL at the hard one.
        Some(24) | Some(9) => unsafe_read(
            "读取占用的处理时间超过上限",
            "reading it needs more processing time than allowed",
        ),
        // Rust aborts when an allocation fails (the data limit).
        Some(6) => unsafe_read(
            &format!("读取所需内存超过 {mb} MB 的上限"),
            &format!("reading it needs more than the {mb} MB of memory allowed"),
        ),
        Some(_) => unsafe_read("读取程序异常终止", "the reader crashed on it"),
        None => unsafe_read("读取程序出错", "the reader failed on it"),
    }
}

/// The executable that answers `read-document`: `configured` when set, else the running
/// executable when it is the server's own binary (`clearway`), else a `clearway` beside it
/// or one directory up (a test or benchmark binary of the same build).
pub fn locate(configured: Option<PathBuf>) -> Option<PathBuf> {
    if configured.is_some() {
        return configured;
    }
    let exe = std::env::current_exe().ok()?;
    if exe.file_stem().is_some_and(|s| s == "clearway") {
        return Some(exe);
    }
    let dir = exe.parent()?;
    [dir.join("clearway"), dir.parent()?.join("clearway")]
        .into_iter()
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_cut_off_midway_is_no_answer() {
        let mut seen = Vec::new();
        let out = b"{\"Item\":1}\n{\"Item\":2}\n{\"It".as_slice();
        let a = read_answer::<u32>(out, &mut |i| {
            seen.push(i);
            Ok(true)
        });
        assert!(matches!(a, Answer::Ended));
        assert_eq!(seen, vec![1, 2]);
    }

    #[test]
    fn a_refusal_is_passed_on() {
        let out = b"{\"Failed\":{\"zh\":\"z\",\"en\":\"e\"}}\n".as_slice();
        let a = read_answer::<u32>(out, &mut |_| Ok(true));
        assert!(matches!(a, Answer::Failed(e) if e.en == "e"));
    }

    #[test]
    fn an_abort_reads_as_memory_and_a_timeout_as_time() {
        use std::os::unix::process::ExitStatusExt;
        let abort = classify(
            Some(ExitStatus::from_raw(6)),
            false,
            Duration::from_secs(3),
            256 << 20,
        );
        assert!(abort.en.contains("256 MB"), "{}", abort.en);
        let late = classify(None, true, Duration::from_secs(3), 256 << 20);
        assert!(late.en.contains("3 s"), "{}", late.en);
    }
}
