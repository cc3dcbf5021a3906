//! The documents of a clearance exception: `POST /api/v1/clearance-exceptions/{id}/documents`
//! (multipart, one part `file`) and `GET .../{id}/documents/{documentId}`.
//!
//! An upload is refused before its body is read when `Content-Length` says it is larger
//! than [`MAX_UPLOAD`] (413), and while reading when it grows past it. Its type is judged
//! from the content (the `infer` crate), never from the name or the declared type: PDF,
//! JPEG, PNG, GIF, WebP, BMP, TIFF or xlsx; anything else is 400 naming `file`. The content
//! is stored once per exception and SHA-256 in `clearance_document_blobs` (not in the event
//! log; an S3-compatible store is not built), **sealed** under the key of the exception's
//! documents subject (`events::pii::documents_subject`, docs/personal-data.md): an erasure
//! of anyone the exception or its declaration names destroys that key, and the download
//! then answers that the document was erased. The `ClearanceExceptionDocumentAttached`
//! event names it; both are written in one transaction. Files are deleted by the
//! housekeeping sweep once their exception has been closed longer than the retention. Only those who may see the exception
//! (its customer, staff with `clearance:management`) upload and download; another
//! customer's exception or an unknown document is 404.

use api::{Actor, ApiError, ApiResult, Guards, ok};
use axum::body::Body;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use super::path_id;
use crate::aggregate::Aggregate;
use crate::clearance_exception::{ExceptionCommand, ExceptionState};
use crate::handler::{
    AfterAppend, Command, CommandAnswer, CommandError, Hooked, execute_answering, load,
};
use crate::http::{CommandState, if_match, metadata};
use crate::sandbox::declared::INSPECT_JOB;

/// The largest file accepted, in bytes (the multipart envelope may add a little).
pub const MAX_UPLOAD: usize = 3 * 1024 * 1024;

/// The types accepted, as `infer` names them.
const ALLOWED: [&str; 8] = [
    "application/pdf",
    "image/jpeg",
    "image/png",
    "image/gif",
    "image/webp",
    "image/bmp",
    "image/tiff",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
];

/// The exception's customer, or staff with `clearance:management`.
pub fn router(g: &Guards) -> OpenApiRouter<CommandState> {
    let guard = g.customer_or_permission(&["clearance:management"]);
    OpenApiRouter::new()
        .routes(routes!(upload).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(download).map(|r| r.route_layer(guard)))
}

/// The upload form: one file.
#[derive(Deserialize, ToSchema)]
#[schema(as = ClearanceDocumentUpload)]
#[allow(dead_code)]
struct UploadForm {
    /// PDF, an image (JPEG, PNG, GIF, WebP, BMP, TIFF) or xlsx; at most 3 MB.
    #[schema(value_type = String, format = Binary)]
    file: String,
    /// The requested document the file supplies (a wire name such as `poa`, or the text of
    /// an other document asked for); leave out for a file sent beside the request.
    requested: Option<String>,
}

/// What an upload answers: the exception's new version and the document's id.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ClearanceDocumentAnswer)]
pub struct DocumentAnswer {
    /// The exception's id.
    pub id: Uuid,
    pub version: i64,
    pub position: i64,
    pub document_id: Uuid,
    /// The content's SHA-256 (hex).
    pub sha256: String,
}

pub(super) fn too_large() -> ApiError {
    ApiError::PayloadTooLarge
}

/// The file's name without any path, control characters or quotes; at most 200 characters.
fn clean_name(raw: Option<&str>) -> String {
    let base = raw
        .unwrap_or("")
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control() && *c != '"')
        .take(200)
        .collect::<String>();
    let base = base.trim().to_string();
    if base.is_empty() {
        "document".into()
    } else {
        base
    }
}

/// Reads the part `file` (at most [`MAX_UPLOAD`] bytes): its name and content.
pub(super) async fn read_file(mut multipart: Multipart) -> Result<Upload, ApiError> {
    let bad = |en: &'static str, zh: &'static str| ApiError::bad_field("file", zh, en);
    let mut file = None;
    let mut requested = None;
    while let Some(mut field) = multipart.next_field().await.map_err(|_| {
        bad(
            "file: the multipart body is malformed",
            "file：表单格式不正确",
        )
    })? {
        match field.name() {
            Some("requested") => {
                let text = field.text().await.map_err(|_| {
                    ApiError::bad_field(
                        "requested",
                        "requested：无法读取",
                        "requested: could not be read",
                    )
                })?;
                if text.chars().count() > 200 {
                    return Err(ApiError::bad_field(
                        "requested",
                        "requested：最多 200 个字符",
                        "requested: at most 200 characters",
                    ));
                }
                requested = Some(text);
            }
            Some("file") if file.is_none() => {
                let name = clean_name(field.file_name());
                let mut content = Vec::new();
                while let Some(chunk) = field.chunk().await.map_err(|e| {
                    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                        too_large()
                    } else {
                        bad("file: the upload was cut off", "file：上传中断")
                    }
                })? {
                    if content.len() + chunk.len() > MAX_UPLOAD {
                        return Err(too_large());
                    }
                    content.extend_from_slice(&chunk);
                }
                if content.is_empty() {
                    return Err(bad("file: the file is empty", "file：文件为空"));
                }
                file = Some((name, content));
            }
            _ => continue,
        }
    }
    let (file_name, content) = file.ok_or_else(|| bad("file is required", "file：请选择文件"))?;
    Ok(Upload {
        file_name,
        content,
        requested,
    })
}

/// A multipart upload: the file and the requested document it supplies.
pub(super) struct Upload {
    pub(super) file_name: String,
    pub(super) content: Vec<u8>,
    pub(super) requested: Option<String>,
}

/// The content's type, judged from its bytes: one of [`ALLOWED`], else 400 naming `file`.
pub(super) fn sniff(content: &[u8]) -> Result<&'static str, ApiError> {
    infer::get(content)
        .map(|t| t.mime_type())
        .and_then(|m| ALLOWED.iter().find(|a| **a == m).copied())
        .ok_or_else(|| {
            ApiError::bad_field(
                "file",
                "file：只接受 PDF、图片或 xlsx 文件",
                "file: only PDF, images or xlsx are accepted",
            )
        })
}

/// The content's type ([`sniff`]), then the content judged readable within the document
/// reader's limits, in its child process (`inspect`: a PDF's page count and a text read of
/// its first pages, an image's declared dimensions, a workbook's declared sizes), so that
/// no stored document is one that would take down whoever reads it later.
pub(super) async fn accept(state: &CommandState, content: &[u8]) -> Result<&'static str, ApiError> {
    let content_type = sniff(content)?;
    let _admitted = state.documents.admit()?;
    let answers: Vec<()> = state
        .documents
        .run(vec![INSPECT_JOB.to_string()], content.to_vec())
        .await
        .map_err(|e| e.to_api("file"))?;
    if answers.is_empty() {
        return Err(ApiError::bad_field(
            "file",
            "file：文件无法读取",
            "file: the document cannot be read",
        ));
    }
    Ok(content_type)
}

/// Writes the content (once per exception and hash), sealed, in the transaction of the event
/// that names it.
pub(super) struct StoreBlob {
    pub(super) exception_id: Uuid,
    pub(super) sha256: String,
    pub(super) content: Vec<u8>,
    pub(super) content_type: &'static str,
}

impl AfterAppend for StoreBlob {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            let subject = events::pii::documents_subject(self.exception_id);
            let key = events::pii::live_key(&mut *tx, &subject, self.exception_id).await?;
            let sealed = events::pii::encrypt_bytes(&key, &subject, &self.content);
            // The declaration the exception was raised on (its first event): an erasure of a
            // subject of that declaration reaches the exception's documents too.
            sqlx::query(
                "INSERT INTO clearance_document_blobs (exception_id, declaration_id, subject,
                     sha256, content, size, content_type)
                 SELECT $1, (SELECT (payload ->> 'declarationId')::uuid FROM events
                              WHERE stream_id = $1 AND stream_version = 1),
                        $2, $3, $4, $5, $6
                 ON CONFLICT (exception_id, sha256) DO NOTHING",
            )
            .bind(self.exception_id)
            .bind(&subject)
            .bind(&self.sha256)
            .bind(&sealed)
            .bind(self.content.len() as i64)
            .bind(self.content_type)
            .execute(&mut *tx)
            .await
            .map_err(CommandError::from)?;
            Ok(appended.position)
        })
    }
}

/// Upload a document
///
/// Multipart with one part `file`: PDF, an image or xlsx (judged from the content), at
/// most 3 MB. The exception's customer or staff, while the exception is open.
#[utoipa::path(
    post, path = "/api/v1/clearance-exceptions/{id}/documents", operation_id = "uploadClearanceDocument",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::EXCEPTION), api::doc::IfMatch),
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Stored.", body = DocumentAnswer),
        api::doc::Errors<400, 401, 403, 404, 409, 413, 415, 429>,
    ),
)]
async fn upload(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<DocumentAnswer> {
    let id = path_id(&id)?;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_UPLOAD + 64 * 1024) {
        return Err(too_large());
    }
    // Only those who may see the exception send it a body we read.
    let (exception, _) = load::<ExceptionState>(&state.store, id)
        .await
        .map_err(crate::http::store_failure)?;
    if !exception.exists() || !actor.can_see(exception.customer_id) {
        return Err(ApiError::not_found());
    }
    let multipart = multipart.map_err(|_| ApiError::UnsupportedMediaType)?;
    let Upload {
        file_name,
        content,
        requested,
    } = read_file(multipart).await?;
    let content_type = accept(&state, &content).await?;
    let sha256 = hex::encode(Sha256::digest(&content));
    let document_id = Uuid::now_v7();
    let command = ExceptionCommand::AttachDocument {
        document_id,
        file_name,
        content_type: content_type.to_string(),
        size: content.len() as i64,
        sha256: sha256.clone(),
        requested,
    };
    let blob = StoreBlob {
        exception_id: id,
        sha256: sha256.clone(),
        content,
        content_type,
    };
    let visible = |s: &ExceptionState| s.exists() && actor.can_see(s.customer_id);
    let run = Command::on(&state.store, id, metadata(&actor, &headers, None))
        .expect(if_match(&headers)?)
        .visible_if(&visible)
        .customer_of(|s: &ExceptionState| Some(s.customer_id));
    let answer = execute_answering(
        run,
        |s, _| s.decide(command.clone(), &state.ctx(&actor)),
        Some(&blob),
        |a: CommandAnswer| DocumentAnswer {
            id: a.id,
            version: a.version,
            position: a.position,
            document_id,
            sha256: sha256.clone(),
        },
    )
    .await?;
    Ok(ok(answer))
}

/// A document's bytes: opened with its exception's documents key; a file stored before
/// sealing as it is. 404 when it is gone (the retention sweep) or erased (its key destroyed;
/// the answer says so).
async fn document_content(
    pool: &sqlx::PgPool,
    exception: Uuid,
    sha256: &str,
) -> Result<Vec<u8>, ApiError> {
    let row: Option<(Vec<u8>, Option<String>)> = sqlx::query_as(
        "SELECT content, subject FROM clearance_document_blobs
          WHERE sha256 = $2 AND (exception_id = $1 OR exception_id IS NULL)
          ORDER BY exception_id NULLS LAST LIMIT 1",
    )
    .bind(exception)
    .bind(sha256)
    .fetch_optional(pool)
    .await
    .map_err(ApiError::internal)?;
    let Some((content, subject)) = row else {
        return Err(ApiError::not_found());
    };
    let Some(subject) = subject else {
        return Ok(content);
    };
    let mut conn = pool.acquire().await.map_err(ApiError::internal)?;
    let key = events::pii::key_of(&mut conn, &subject)
        .await
        .map_err(ApiError::internal)?;
    events::pii::decrypt_bytes(key.as_ref(), &subject, &content).ok_or_else(|| {
        ApiError::NotFound(api::Text::new(
            "该文件含个人信息，已按删除请求删除",
            "this document was erased (a personal-data erasure)",
        ))
    })
}

/// `Content-Disposition: attachment` with a safe ASCII name and the exact one in
/// `filename*`.
fn disposition(file_name: &str) -> String {
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

/// Download a document
///
/// The file as uploaded, with its detected type. The exception's customer or staff;
/// another customer's exception or a document of another exception is 404.
#[utoipa::path(
    get, path = "/api/v1/clearance-exceptions/{id}/documents/{documentId}", operation_id = "downloadClearanceDocument",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The exception's id."),
        ("documentId" = Uuid, Path, description = "The document's id."),
    ),
    responses(
        (status = 200, description = "The file.", content_type = "application/octet-stream", body = String,
         headers(("Content-Disposition" = String, description = "`attachment` with the file name."))),
        api::doc::Errors<401, 403, 404>,
    ),
)]
async fn download(
    State(state): State<CommandState>,
    actor: Actor,
    Path((id, document_id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let id = path_id(&id)?;
    let document_id = path_id(&document_id)?;
    let (exception, _) = load::<ExceptionState>(&state.store, id)
        .await
        .map_err(crate::http::store_failure)?;
    if !exception.exists() || !actor.can_see(exception.customer_id) {
        return Err(ApiError::not_found());
    }
    let document = exception
        .documents
        .iter()
        .find(|d| d.id == document_id)
        .ok_or_else(ApiError::not_found)?;
    let content = document_content(&state.pool, id, &document.sha256).await?;
    let mut response = Body::from(content).into_response();
    let h = response.headers_mut();
    let content_type = ALLOWED
        .iter()
        .find(|a| **a == document.content_type)
        .copied()
        .unwrap_or("application/octet-stream");
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&disposition(&document.file_name)).map_err(ApiError::internal)?,
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_lose_their_path_and_quotes() {
        assert_eq!(
            clean_name(Some("C:\\Users\\x\\发票 \"1\".pdf")),
            "发票 1.pdf"
        );
        assert_eq!(clean_name(Some("../../etc/passwd")), "passwd");
        assert_eq!(clean_name(None), "document");
        assert_eq!(clean_name(Some("a\u{0}b")), "ab");
    }

    #[test]
    fn the_type_is_judged_from_the_content() {
        let pdf = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n";
        assert_eq!(
            infer::get(pdf).map(|t| t.mime_type()),
            Some("application/pdf")
        );
        let png = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
        assert_eq!(infer::get(&png).map(|t| t.mime_type()), Some("image/png"));
        assert!(infer::get(b"MZ\x90\x00 an exe").is_none_or(|t| !ALLOWED.contains(&t.mime_type())));
        assert!(infer::get(b"just text").is_none());
    }
}
