//! The document reader's child: `clearway read-document MEMORY CPU JOB [ARGS]` (the sandbox
//! runs it: [`crate::sandbox`]). It stands above the aggregates whose parsers it runs (the
//! upload's rows, the mapping scheme's sheet head, the AI draft's document), so the sandbox
//! under them names none of them.
//!
//! It lowers its own limits first (they hold for the tools it starts too), reads the file
//! from stdin, does its job and writes [`Out`] lines to stdout. Jobs:
//! - `xlsx-rows SHEET`: the sheet's rows, one `Item([number, [cells]])` each;
//! - `sheet-head HEADER_ROW ROWS`: the mapping preview's head of the first sheet;
//! - `document`: an AI draft's document read into positioned lines;
//! - `inspect`: a stored document judged readable (exception documents);
//! - `allocate BYTES`: asks for that much memory at once (the limit's own test).

use std::io::{Read, Write};

use serde::Serialize;

use crate::sandbox::{FileError, Out, declared};
use crate::upload::read::{LocalWorkbook, ROWS_JOB};

/// Largest input read from stdin.
const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;
/// Largest file a tool may write (the temporary copy of the document).
const MAX_FILE_WRITE_BYTES: u64 = 128 * 1024 * 1024;

/// Set (to `1`) in the environment of the child once it runs under its limits.
const LIMITED: &str = "CLEARWAY_READER_LIMITED";

/// Runs the child with `args` (after `read-document`); answers the exit code.
///
/// Limits lowered by a running process do not reach memory its allocator reserved before
/// (mimalloc takes an arena at start-up), so the child lowers them and then executes itself
/// again, in the same process: the new image starts under the limits from its first byte.
pub fn main(args: &[String]) -> i32 {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if std::env::var_os(LIMITED).is_none() {
        let e = match limited(args) {
            Ok(e) => e,
            Err(e) => e,
        };
        let _ = emit::<()>(&mut out, &Out::Failed(e));
        let _ = out.flush();
        return 1;
    }
    let code = match run(args, &mut out) {
        Ok(()) => emit::<()>(&mut out, &Out::Done).map_or(3, |()| 0),
        Err(e) => emit::<()>(&mut out, &Out::Failed(e)).map_or(3, |()| 1),
    };
    let _ = out.flush();
    code
}

fn emit<T: Serialize>(out: &mut impl Write, line: &Out<T>) -> Result<(), FileError> {
    serde_json::to_writer(&mut *out, line).map_err(|_| gone())?;
    out.write_all(b"\n").map_err(|_| gone())
}

fn gone() -> FileError {
    FileError::new("读取已停止", "the read was stopped")
}

fn usage() -> FileError {
    FileError::new(
        "读取程序参数错误",
        "the document reader was started wrongly",
    )
}

fn number<T: std::str::FromStr>(args: &[String], i: usize) -> Result<T, FileError> {
    args.get(i).and_then(|a| a.parse().ok()).ok_or_else(usage)
}

/// Lowers the limits and executes this program again under them; returns only on failure.
fn limited(args: &[String]) -> Result<FileError, FileError> {
    use std::os::unix::process::CommandExt;
    let memory: u64 = number(args, 0)?;
    let cpu: u64 = number(args, 1)?;
    limit(memory, cpu)?;
    let exe = std::env::current_exe().map_err(|_| usage())?;
    let e = std::process::Command::new(exe)
        .arg(crate::sandbox::SUBCOMMAND)
        .args(args)
        .env(LIMITED, "1")
        .exec();
    Ok(FileError::new(
        format!("读取程序无法启动：{e}"),
        format!("the document reader could not start: {e}"),
    ))
}

fn run(args: &[String], out: &mut impl Write) -> Result<(), FileError> {
    let job = args.get(2).map(String::as_str).unwrap_or_default();
    let rest = args.get(3..).unwrap_or_default();
    if job == "allocate" {
        // BYTES at once, or in blocks of 64 KiB with `small` (many small allocations).
        let n: usize = number(rest, 0)?;
        let block = if rest.get(1).is_some_and(|a| a == "small") {
            64 * 1024
        } else {
            n.max(1)
        };
        let mut held: Vec<Vec<u8>> = Vec::new();
        let mut total = 0usize;
        while total < n {
            held.push(vec![1u8; block]);
            total += block;
        }
        return emit(out, &Out::Item(total as u64));
    }
    let mut input = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut input)
        .map_err(|_| gone())?;
    if input.len() as u64 > MAX_INPUT_BYTES {
        return Err(FileError::new("文件过大", "the file is too large"));
    }
    match job {
        ROWS_JOB => {
            let sheet: usize = number(rest, 0)?;
            let mut book = LocalWorkbook::open(&input)?;
            book.rows(sheet, |row| emit(out, &Out::Item((row.number, row.cells))))
        }
        crate::mapping_scheme::sheet::HEAD_JOB => {
            let header_row: u32 = number(rest, 0)?;
            let rows: usize = number(rest, 1)?;
            let head = crate::mapping_scheme::sheet::read_head(&input, header_row, rows);
            emit(out, &Out::Item(head))
        }
        crate::ai_draft::read::DOCUMENT_JOB => {
            let doc = tools_runtime()?.block_on(crate::ai_draft::read::read_local("", &input))?;
            emit(out, &Out::Item(doc))
        }
        declared::INSPECT_JOB => {
            tools_runtime()?.block_on(inspect(&input))?;
            emit(out, &Out::Item(()))
        }
        _ => Err(usage()),
    }
}

/// A single-threaded runtime for the tools' processes and their time limits.
fn tools_runtime() -> Result<tokio::runtime::Runtime, FileError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|_| FileError::new("读取程序启动失败", "the document reader could not start"))
}

/// Lowers this process's limits (inherited by every tool it starts): data memory, CPU
/// seconds (SIGXCPU at the soft limit, SIGKILL a second later), file size, no core dumps.
fn limit(memory: u64, cpu: u64) -> Result<(), FileError> {
    use rlimit::Resource;
    let set = |r: Resource, soft: u64, hard: u64| {
        r.set(soft, hard).map_err(|e| {
            FileError::new(
                format!("无法设置读取限制：{e}"),
                format!("the reader's limits could not be set: {e}"),
            )
        })
    };
    set(Resource::DATA, memory, memory)?;
    set(Resource::CPU, cpu, cpu + 1)?;
    set(Resource::FSIZE, MAX_FILE_WRITE_BYTES, MAX_FILE_WRITE_BYTES)?;
    set(Resource::CORE, 0, 0)?;
    Ok(())
}

/// The `inspect` job (in the child).
async fn inspect(bytes: &[u8]) -> Result<(), FileError> {
    if bytes.starts_with(b"%PDF-") {
        declared::check_pdf_streams(bytes)?;
        declared::check_pdf_pages(bytes).await?;
        // A text read of the first pages within the limits: a PDF that expands without end
        // or loops is refused here, not when someone opens it. A scan without text passes.
        crate::ai_draft::read::pdf_lines(bytes).await?;
        return Ok(());
    }
    if bytes.starts_with(b"PK\x03\x04") {
        // The archive's checks, then each sheet's declared dimensions.
        let mut book = crate::upload::read::LocalWorkbook::open(bytes)?;
        for sheet in 0..book.sheet_names().len() {
            book.rows_while(sheet, |_| Ok(false))?;
        }
        return Ok(());
    }
    if declared::is_image(bytes) {
        return declared::check_image(bytes);
    }
    Ok(())
}
