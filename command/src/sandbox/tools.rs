//! The document tools (poppler, tesseract) as the reader runs them: each on a temporary copy
//! of the document, its output capped, killed after a timeout.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::process::Command;

use super::FileError;

/// A tool that has not answered by then is killed and the document refused (less than the
/// child's own wall-clock limit, `CLEARWAY_READER_TIMEOUT_SECS`, 30 s by default, so that
/// the child kills its tool rather than being killed beside it).
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(25);
/// Most bytes of a tool's output (far beyond any real document's text, 20 pages of
/// `-bbox-layout` are about 2 MB); a tool that writes more is stopped and the file refused.
pub const MAX_TOOL_OUTPUT: u64 = 16 * 1024 * 1024;

/// Runs `program args` with `input` in a temporary file, killing it after [`TOOL_TIMEOUT`].
pub async fn run_tool(
    program: &str,
    args: &[&str],
    input: &[u8],
    suffix: &str,
) -> Result<String, FileError> {
    if !super::TOOLS.iter().any(|(t, _)| *t == program) {
        tracing::error!(program, "a document tool missing from sandbox::TOOLS");
        return Err(FileError::new(
            format!("服务器不使用文档工具 {program}"),
            format!("the server does not use the document tool {program}"),
        ));
    }
    let input_file = TempFile::write(input, suffix)?;
    let path = input_file.0.to_string_lossy().to_string();
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if *a == "{input}" {
                path.clone()
            } else {
                a.to_string()
            }
        })
        .collect();
    let mut child = Command::new(program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| {
            tracing::error!(program, error = %e, "document reader is not installed");
            FileError::new(
                format!("服务器缺少文档读取工具 {program}"),
                format!("the server lacks the document reader {program}"),
            )
        })?;
    let mut stdout = child
        .stdout
        .take()
        .ok_or_else(|| FileError::new("读取失败", "read failed"))?;
    let work = async {
        let mut out = Vec::new();
        (&mut stdout)
            .take(MAX_TOOL_OUTPUT + 1)
            .read_to_end(&mut out)
            .await
            .map_err(|e| e.to_string())?;
        if out.len() as u64 > MAX_TOOL_OUTPUT {
            // The tool would block on a full pipe: stop it now rather than at the timeout.
            let _ = child.kill().await;
            return Err(format!(
                "the document holds more text than {} MB",
                MAX_TOOL_OUTPUT / 1024 / 1024
            ));
        }
        let status = child.wait().await.map_err(|e| e.to_string())?;
        Ok::<_, String>((status, out))
    };
    match tokio::time::timeout(TOOL_TIMEOUT, work).await {
        Err(_) => Err(FileError::new(
            "文件读取超时",
            "reading the document took too long",
        )),
        Ok(Err(e)) => Err(FileError::new(
            format!("文件读取失败：{e}"),
            format!("reading failed: {e}"),
        )),
        Ok(Ok((status, _))) if !status.success() => Err(FileError::new(
            "文件已损坏或无法读取",
            "the document is damaged or cannot be read",
        )),
        Ok(Ok((_, out))) => Ok(String::from_utf8_lossy(&out).into_owned()),
    }
}

/// A document written under a generated name in the temporary directory, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn write(bytes: &[u8], suffix: &str) -> Result<Self, FileError> {
        let path =
            std::env::temp_dir().join(format!("clearway-doc-{}{suffix}", uuid::Uuid::new_v4()));
        std::fs::write(&path, bytes).map_err(|e| {
            tracing::error!(error = %e, "cannot write a temporary document");
            FileError::new(
                "服务器临时文件失败",
                "the server could not store the document",
            )
        })?;
        Ok(Self(path))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
