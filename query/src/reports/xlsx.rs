//! Helpers for spreadsheet downloads: formula-injection-safe cells, file names and the
//! download answer (a temporary file streamed back, then gone).

use futures::StreamExt;
use std::path::{Path, PathBuf};

use api::ApiError;
use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use tokio::io::AsyncReadExt;

pub const XLSX_CONTENT_TYPE: &str =
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// A text cell that a spreadsheet program would read as a formula (or that starts with a
/// control character) gets a leading `'`, so it is shown as text and never evaluated.
pub fn safe_cell(value: &str) -> std::borrow::Cow<'_, str> {
    match value.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{value}").into(),
        _ => value.into(),
    }
}

/// `Content-Disposition` with a safe ASCII `filename` and the exact name in `filename*`.
pub fn content_disposition(file_name: &str) -> String {
    let ascii: String = file_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut encoded = String::new();
    for b in file_name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'~') {
            encoded.push(char::from(b));
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

/// A fresh path in the temporary directory for one download.
pub fn temp_path(prefix: &str) -> PathBuf {
    std::env::temp_dir().join(format!("clearway-{prefix}-{}.xlsx", uuid::Uuid::new_v4()))
}

/// Answer a finished file on disk as a download. The file is unlinked as soon as it is
/// open, so it disappears when the answer has been sent (or dropped).
pub async fn file_download(path: &Path, file_name: &str) -> Result<Response, ApiError> {
    let opened = tokio::fs::File::open(path).await;
    let _ = tokio::fs::remove_file(path).await;
    let file = opened.map_err(ApiError::internal)?;
    let length = file.metadata().await.map_err(ApiError::internal)?.len();
    let stream = futures::stream::unfold(Some(file), |state| async move {
        let mut file = state?;
        let mut buf = vec![0u8; 64 * 1024];
        match file.read(&mut buf).await {
            Ok(0) => None,
            Ok(n) => {
                buf.truncate(n);
                Some((Ok::<_, std::io::Error>(Bytes::from(buf)), Some(file)))
            }
            Err(e) => Some((Err(e), None)),
        }
    })
    // A layer may poll once more after the end (compression does): a fused stream answers
    // "ended" again instead of panicking.
    .fuse();
    let mut response = Body::from_stream(stream).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(XLSX_CONTENT_TYPE),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    let disposition =
        HeaderValue::from_str(&content_disposition(file_name)).map_err(ApiError::internal)?;
    headers.insert(header::CONTENT_DISPOSITION, disposition);
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_like_cells_are_prefixed_with_a_quote() {
        for bad in ["=1+1", "+1", "-2", "@SUM(A1)", "\tx", "\rx"] {
            assert_eq!(safe_cell(bad), format!("'{bad}"));
        }
        assert_eq!(safe_cell("1Z999"), "1Z999");
        assert_eq!(safe_cell(""), "");
    }

    #[test]
    fn the_file_name_is_ascii_with_a_utf8_twin() {
        assert_eq!(
            content_disposition("declarations-D-1122-0930.xlsx"),
            "attachment; filename=\"declarations-D-1122-0930.xlsx\"; \
             filename*=UTF-8''declarations-D-1122-0930.xlsx"
        );
        assert!(
            content_disposition("报关-\"x\".xlsx")
                .starts_with("attachment; filename=\"__-_x_.xlsx\"")
        );
    }
}
