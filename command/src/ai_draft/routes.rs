//! Routes of document proposals: propose from documents (multipart), read a proposal,
//! accept the reviewed form (which makes the declaration).

use std::sync::Arc;

use api::{Actor, ApiError, ApiResult, Guards, Json, ok};
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::http::HeaderMap;
use events::Metadata;
use events::ai_draft::{DocumentLine, DocumentRead, Proposed};
use events::declaration::{DeclarationData, DeclarationEvent, Provenance, TypeCode};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use super::extract::{self, Company, Context, LibraryProduct};
use super::read::{self, MAX_DOCUMENT_BYTES, MAX_DOCUMENTS, MAX_TEXT_BYTES};
use super::{AiDraftCommand, AiDraftState, proposed, proposed_form, review};
use crate::aggregate::{Aggregate, Ctx};
use crate::declaration::routes::owner;
use crate::declaration::{CustomerRef, DeclarationCommand, DeclarationState};
use crate::handler::{
    AfterAppend, Command, CommandAnswer, Hooked, also_append, execute, execute_then, load, load_in,
};
use crate::http::{CommandState, if_match, metadata, part_error, text_part};
use crate::reference::ReferenceData;
use crate::sandbox::ReadError;

/// Largest request body (413 past it): the documents and the pasted text together.
pub const MAX_REQUEST_BYTES: usize = 32 * 1024 * 1024;

/// Lines of a document kept in the proposal (for the review screen).
const KEPT_LINES: usize = 600;
/// Characters of a kept line.
const KEPT_LINE_CHARS: usize = 400;

/// Who may create declarations may have documents read for one.
pub fn router(g: &Guards) -> OpenApiRouter<CommandState> {
    let guard = g.customer_or_permission(&["declarations:management"]);
    OpenApiRouter::new()
        .routes(routes!(propose).map(|r| {
            r.route_layer(guard.clone())
                .layer(DefaultBodyLimit::max(MAX_REQUEST_BYTES))
        }))
        .routes(routes!(get_draft).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(accept).map(|r| r.route_layer(guard.clone())))
}

fn bad(field: &str, zh: impl Into<String>, en: impl Into<String>) -> ApiError {
    ApiError::bad_field(field.to_string(), zh.into(), en.into())
}

/// The multipart body of a proposal.
#[derive(ToSchema)]
#[allow(dead_code)]
struct ProposeForm {
    /// Documents: PDF (with a text layer), PNG/JPEG/TIFF scans, xlsx, plain text; each at most 10 MB, at most 10.
    #[schema(value_type = Vec<String>, format = Binary)]
    files: Vec<Vec<u8>>,
    /// Pasted text (an e-mail), at most 200 KB.
    text: Option<String>,
    /// `OB OC OD IB IC ID`.
    #[schema(example = "IC")]
    declaration_type: String,
    /// Staff: the customer the declaration is for. Customers: their own or nothing.
    customer_id: Option<Uuid>,
}

/// A proposal: every proposed value with its source and confidence.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AiDraftView {
    pub id: Uuid,
    pub version: i64,
    pub position: i64,
    pub customer_id: Uuid,
    #[schema(example = "IC")]
    pub declaration_type: String,
    /// Field name -> `{value, source, location, confidence}`.
    #[schema(value_type = Object)]
    pub fields: serde_json::Value,
    /// One map per goods line, as `fields`.
    #[schema(value_type = Vec<Object>)]
    pub goods: serde_json::Value,
    pub warnings: Vec<String>,
    /// `{class, reasonZh, reasonEn}`: the class the documents suggest.
    #[schema(value_type = Option<Object>)]
    pub class: serde_json::Value,
    /// The documents as read: `{name, kind, size, sha256, pages, lines: [{page, line, text}]}`.
    #[schema(value_type = Vec<Object>)]
    pub documents: serde_json::Value,
    /// The form with every proposed value in place (what "accept all" saves).
    #[schema(value_type = Object)]
    pub form: serde_json::Value,
    /// The declaration the proposal made, once accepted.
    pub declaration_id: Option<Uuid>,
}

fn view(id: Uuid, version: i64, position: i64, p: &Proposed, made: Option<Uuid>) -> AiDraftView {
    AiDraftView {
        id,
        version,
        position,
        customer_id: p.customer_id,
        declaration_type: p.declaration_type.as_str().to_string(),
        fields: json(&p.fields),
        goods: json(&p.goods),
        warnings: p.warnings.clone(),
        class: json(&p.class),
        documents: json(&p.documents),
        form: json(&proposed_form(p)),
        declaration_id: made,
    }
}

fn json<T: Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

struct Upload {
    name: String,
    bytes: Vec<u8>,
}

async fn read_part(
    field: &mut axum::extract::multipart::Field<'_>,
    name: &str,
) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(|e| part_error("files", e))? {
        if bytes.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            let e = read::too_large();
            return Err(bad(
                "files",
                format!("{name}：{}", e.zh),
                format!("files: {name}: {}", e.en),
            ));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

fn parse_type(raw: Option<&str>) -> Result<TypeCode, ApiError> {
    let raw = raw
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            bad(
                "declarationType",
                "请选择申报类型",
                "declarationType is required",
            )
        })?;
    raw.to_ascii_uppercase().parse().map_err(|_| {
        bad(
            "declarationType",
            "申报类型应为 OB OC OD IB IC ID 之一",
            "declarationType must be one of OB OC OD IB IC ID",
        )
    })
}

/// The customer's live trade companies and products, for matching.
async fn master_data(
    pool: &sqlx::PgPool,
    customer_id: Uuid,
) -> Result<(Vec<Company>, Vec<LibraryProduct>), ApiError> {
    let companies = sqlx::query_as::<_, (String, Option<String>, String, Option<String>, Option<String>)>(
        "SELECT company_name_cn, company_name_en, uscc, customs_code, inspection_code
         FROM rm_trade_companies WHERE customer_id = $1 AND NOT deleted ORDER BY create_time LIMIT 2000",
    )
    .bind(customer_id)
    .fetch_all(pool)
    .await
    .map_err(ApiError::internal)?
    .into_iter()
    .map(|(name_cn, name_en, uscc, customs_code, inspection_code)| Company {
        name_cn,
        name_en,
        uscc,
        customs_code,
        inspection_code,
    })
    .collect();
    let products = sqlx::query_as::<_, (String, Option<String>, String, Option<String>, Option<String>, Option<String>)>(
        "SELECT description_cn, description_en, hs_code, declaration_elements, legal_unit_one, origin_country
         FROM rm_products WHERE customer_id = $1 AND NOT deleted ORDER BY create_time LIMIT 5000",
    )
    .bind(customer_id)
    .fetch_all(pool)
    .await
    .map_err(ApiError::internal)?
    .into_iter()
    .map(|(description_cn, description_en, hs_code, declaration_elements, legal_unit_one, origin_country)| LibraryProduct {
        description_cn,
        description_en,
        hs_code,
        declaration_elements,
        legal_unit_one,
        origin_country,
    })
    .collect();
    Ok((companies, products))
}

fn kept(doc: &read::Document, size: usize, sha256: String) -> DocumentRead {
    DocumentRead {
        name: doc.name.clone(),
        kind: doc.kind.as_str().to_string(),
        size: size as u64,
        sha256,
        pages: doc.pages,
        lines: doc
            .lines
            .iter()
            .take(KEPT_LINES)
            .map(|l| DocumentLine {
                page: l.page,
                line: l.number,
                text: l.text().chars().take(KEPT_LINE_CHARS).collect(),
            })
            .collect(),
    }
}

/// Read documents into a proposed declaration
///
/// Multipart: `files` (PDF with a text layer, PNG/JPEG/TIFF scans, xlsx, plain text; each
/// at most 10 MB, at most 10) and/or `text` (pasted, at most 200 KB), `declarationType`
/// (`OB` ... `ID`), and for staff `customerId`. Answers every proposed value with its
/// source (document page and line, trade company, product library) and confidence, the
/// goods lines, warnings and the class the documents suggest; the proposal is stored
/// (an `ai_draft` stream) until accepted.
#[utoipa::path(
    post, path = "/api/v1/ai-drafts", operation_id = "proposeAiDraft",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    request_body(content = ProposeForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The proposal.", body = AiDraftView),
        api::doc::Errors<400, 401, 403, 404, 413, 429>,
    ),
)]
async fn propose(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> ApiResult<AiDraftView> {
    actor.require(&[
        api::Role::Customer,
        api::Role::Operator,
        api::Role::Admin,
        api::Role::SuperAdmin,
    ])?;
    let mut multipart = multipart.map_err(|_| {
        bad(
            "files",
            "请以 multipart/form-data 上传文件或文字",
            "files: send the documents as multipart/form-data",
        )
    })?;
    // A place among the requests whose bodies are read at once (429 when all are taken).
    let _admitted = state.documents.admit()?;
    let mut uploads: Vec<Upload> = Vec::new();
    let mut pasted: Option<String> = None;
    let mut text = std::collections::HashMap::<String, String>::new();
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| part_error("files", e))?
    {
        let name = field.name().unwrap_or_default().to_string();
        if name == "files" || name == "file" {
            if uploads.len() == MAX_DOCUMENTS {
                return Err(bad(
                    "files",
                    format!("一次最多 {MAX_DOCUMENTS} 个文件"),
                    format!("files: at most {MAX_DOCUMENTS} documents at once"),
                ));
            }
            let file_name: String = field
                .file_name()
                .unwrap_or("document")
                .chars()
                .take(200)
                .collect();
            let bytes = read_part(&mut field, &file_name).await?;
            uploads.push(Upload {
                name: file_name,
                bytes,
            });
        } else if name == "text" {
            let bytes = read_part(&mut field, "text").await.map_err(|e| {
                if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    e
                } else {
                    bad(
                        "text",
                        "粘贴的文字过长（上限 200 KB）",
                        "text is too long (at most 200 KB)",
                    )
                }
            })?;
            if bytes.len() > MAX_TEXT_BYTES {
                return Err(bad(
                    "text",
                    "粘贴的文字过长（上限 200 KB）",
                    "text is too long (at most 200 KB)",
                ));
            }
            let s = String::from_utf8(bytes)
                .map_err(|_| bad("text", "文字不是 UTF-8", "text is not UTF-8"))?;
            if !s.trim().is_empty() {
                pasted = Some(s);
            }
        } else {
            let value = text_part(&mut field, &name, 200).await?;
            text.insert(name, value);
        }
    }
    let declaration_type = parse_type(text.get("declarationType").map(String::as_str))?;
    let customer_id = match text.get("customerId").map(|s| s.trim()) {
        None | Some("") => None,
        Some(raw) => Some(Uuid::parse_str(raw).map_err(|_| {
            bad(
                "customerId",
                "客户 id 格式错误",
                "customerId must be a UUID",
            )
        })?),
    };
    // A customer names no other company: a foreign id is not theirs to see.
    if actor.is_customer()
        && let Some(id) = customer_id
        && actor.customer_id != Some(id)
    {
        return Err(ApiError::not_found());
    }
    if uploads.is_empty() && pasted.is_none() {
        return Err(bad(
            "files",
            "请上传单证文件或粘贴文字",
            "files: upload at least one document or paste text",
        ));
    }
    let customer = owner(&state, &actor, customer_id).await?;
    let mut documents = Vec::new();
    let mut stored = Vec::new();
    for u in &uploads {
        let doc = read::read(&state.documents, &u.name, &u.bytes)
            .await
            .map_err(|e| match e {
                ReadError::Refused(e) => bad(
                    "files",
                    format!("{}：{}", u.name, e.zh),
                    format!("files: {}: {}", u.name, e.en),
                ),
                busy => busy.to_api("files"),
            })?;
        stored.push(kept(
            &doc,
            u.bytes.len(),
            hex::encode(Sha256::digest(&u.bytes)),
        ));
        documents.push(doc);
    }
    if let Some(t) = &pasted {
        let doc = read::Document {
            name: "text".into(),
            kind: read::Kind::Text,
            pages: 1,
            lines: read::text_lines(t),
        };
        stored.push(kept(
            &doc,
            t.len(),
            hex::encode(Sha256::digest(t.as_bytes())),
        ));
        documents.push(doc);
    }
    let (companies, products) = master_data(&state.pool, customer.customer_id).await?;
    let reference = state.reference.current();
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::Asia::Shanghai)
        .date_naive();
    let ctx = Context {
        reference: &reference,
        on: today,
        declaration_type,
        companies: &companies,
        products: &products,
    };
    let mut extraction = extract::extract(&documents, &ctx);
    if let Some(cfg) = super::llm::LlmConfig::from_env() {
        match super::llm::ask(&cfg, &documents).await {
            Ok(answer) => super::llm::merge(&mut extraction, &answer, &ctx),
            Err(why) => {
                tracing::warn!(error = %why, "the language model gave no proposal");
                extraction.warnings.push(format!("LLM: {why}"));
            }
        }
    }
    let p = proposed(customer.customer_id, declaration_type, stored, extraction);
    let id = Uuid::now_v7();
    let meta = metadata(&actor, &headers, Some(customer.customer_id));
    let run = Command::<AiDraftState>::create(&state.store, id, meta);
    let command = AiDraftCommand::Propose(Box::new(p.clone()));
    let ctx = state.ctx(&actor);
    let answer = execute(run, |s, _| s.decide(command.clone(), &ctx)).await?;
    Ok(ok(view(id, answer.version, answer.position, &p, None)))
}

fn parse_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| ApiError::not_found())
}

/// Read a proposal
///
/// The proposal as stored, with the documents' text lines for the review screen and the
/// declaration it made once accepted. Another company's proposal is 404.
#[utoipa::path(
    get, path = "/api/v1/ai-drafts/{id}", operation_id = "getAiDraft",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The proposal's id (a malformed id answers 404).")),
    responses((status = 200, description = "The proposal.", body = AiDraftView), api::doc::Errors<401, 403, 404>),
)]
async fn get_draft(
    State(state): State<CommandState>,
    actor: Actor,
    Path(id): Path<String>,
) -> ApiResult<AiDraftView> {
    let id = parse_id(&id)?;
    let (draft, version) = load::<AiDraftState>(&state.store, id)
        .await
        .map_err(crate::http::store_failure)?;
    let Some(p) = draft
        .proposed
        .as_ref()
        .filter(|p| actor.can_see(p.customer_id))
    else {
        return Err(ApiError::not_found());
    };
    Ok(ok(view(id, version, 0, p, draft.accepted)))
}

/// Makes the declaration on the acceptance's transaction: the reviewed form through the
/// declaration's own decision, its first event carrying the review.
struct MakeDeclaration {
    store: events::EventStore,
    draft_id: Uuid,
    declaration_id: Uuid,
    form: DeclarationData,
    customer: CustomerRef,
    actor: Actor,
    reference: Arc<ReferenceData>,
    metadata: Metadata,
}

impl AfterAppend for MakeDeclaration {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, _appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            let (draft, _) = load_in::<AiDraftState>(&self.store, &mut *tx, self.draft_id).await?;
            let p = draft
                .proposed
                .ok_or(crate::aggregate::DomainError::NotFound)?;
            let fields = review(&p, &self.form);
            let mut meta = self.metadata.clone();
            meta.causation_id = Some(self.metadata.command_id);
            meta.command_id = Uuid::now_v7();
            let command = DeclarationCommand::Create {
                id: self.declaration_id,
                declaration_type: p.declaration_type,
                customer: self.customer.clone(),
                data: self.form.clone(),
            };
            let appended = also_append::<DeclarationState, _>(
                &self.store,
                tx,
                self.declaration_id,
                &meta,
                |d, _| {
                    let ctx = Ctx::new(&self.actor, self.reference.clone());
                    let mut events = d.decide(command, &ctx)?;
                    for e in &mut events {
                        if let DeclarationEvent::Drafted(drafted) = e {
                            drafted.provenance = Some(Provenance {
                                ai_draft_id: self.draft_id,
                                reviewer_id: self.actor.id,
                                reviewer_name: self.actor.display_name.clone(),
                                fields: fields.clone(),
                            });
                        }
                    }
                    Ok(events)
                },
            )
            .await?;
            Ok(appended.position)
        })
    }
}

/// Accept a proposal with the reviewed form
///
/// The body is the declaration form as the reviewer left it (the proposal's `form` with
/// their corrections). Creates the declaration (status 0, draft) through the declaration's
/// own rules; its first event records, per proposed field, the proposed value, its source
/// and confidence, and whether the reviewer accepted, changed or rejected it. A proposal
/// is accepted once (409 after). Answers the new declaration's `{id, version, position}`.
#[utoipa::path(
    post, path = "/api/v1/ai-drafts/{id}/accept", operation_id = "acceptAiDraft",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The proposal's id (a malformed id answers 404)."), api::doc::IfMatch),
    request_body(content = ref("#/components/schemas/DeclarationForm"), content_type = "application/json"),
    responses((status = 200, description = "The declaration made.", body = CommandAnswer), api::doc::EditErrors),
)]
async fn accept(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(form): Json<DeclarationData>,
) -> ApiResult<CommandAnswer> {
    actor.require(&[
        api::Role::Customer,
        api::Role::Operator,
        api::Role::Admin,
        api::Role::SuperAdmin,
    ])?;
    let id = parse_id(&id)?;
    let expected = if_match(&headers)?;
    let (draft, _) = load::<AiDraftState>(&state.store, id)
        .await
        .map_err(crate::http::store_failure)?;
    let Some(customer_id) = draft.customer_id().filter(|c| actor.can_see(*c)) else {
        return Err(ApiError::not_found());
    };
    let customer = owner(&state, &actor, Some(customer_id)).await?;
    let meta = metadata(&actor, &headers, Some(customer_id));
    let declaration_id = Uuid::now_v7();
    let hook = MakeDeclaration {
        store: state.store.clone(),
        draft_id: id,
        declaration_id,
        form: form.clone(),
        customer,
        actor: actor.clone(),
        reference: state.reference.current(),
        metadata: meta.clone(),
    };
    let visible = |s: &AiDraftState| s.customer_id().is_some_and(|c| actor.can_see(c));
    let run = Command::on(&state.store, id, meta)
        .expect(expected)
        .visible_if(&visible)
        .customer_of(|s: &AiDraftState| s.customer_id());
    let answer = execute_then(
        run,
        |s, _| {
            let p = s
                .proposed
                .as_ref()
                .ok_or(crate::aggregate::DomainError::NotFound)?;
            s.decide(
                AiDraftCommand::Accept {
                    declaration_id,
                    fields: review(p, &form),
                },
                &state.ctx(&actor),
            )
        },
        Some(&hook),
    )
    .await?;
    Ok(ok(CommandAnswer {
        id: declaration_id,
        version: 1,
        position: answer.position,
    }))
}
