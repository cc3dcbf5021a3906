//! `POST /api/v1/admin/data-subjects/erase` (docs/personal-data.md): erase one data subject.
//! Whoever holds `personal-data:erase`, whatever the role (by default only SUPER_ADMIN holds
//! it; an admin or a compliance reviewer may be granted it).

use api::{Actor, ApiResult, Guards, Json, ok};
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::data_subject::{ErasureAnswer, erase};
use crate::http::{CommandState, metadata};

pub const PERMISSION: &str = "personal-data:erase";

pub fn router(g: &Guards) -> OpenApiRouter<CommandState> {
    OpenApiRouter::new()
        .routes(routes!(erase_subject).map(|r| r.route_layer(g.permission(PERMISSION))))
}

/// Whose personal data to erase.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EraseDataSubject)]
struct Body {
    /// A personal ID number, a phone number (as written on declarations; spaces, dashes and
    /// a leading +86 do not matter) or a subject id (`ds_` + 32 hex digits). At most 100
    /// characters.
    #[schema(required = true, max_length = 100, example = "110101199001011234")]
    subject: Option<String>,
    /// Why (e.g. the request's reference); at most 500 characters. Recorded with the erasure.
    #[schema(max_length = 500, example = "Request 2026-17 under PIPL art. 47")]
    reason: Option<String>,
}

/// Erase a data subject's personal data
///
/// Needs the permission `personal-data:erase`, whatever the role (by default SUPER_ADMIN; an
/// ADMIN or a COMPLIANCE reviewer granted it may, an ADMIN without it may not). Destroys the key of the subject
/// (one ID number or phone number) in the same transaction as the `DataSubjectErased` event on
/// the subject's stream: every value of the subject in the event log (any declaration) then
/// reads as `[erased]` in replay, the audit API, detail, history, lists and exports. The log
/// itself is not changed (the audit chain still verifies). Values stored before encryption
/// was introduced are plaintext in the log and are not affected. 404: nothing was ever stored
/// for the subject; 409: already erased.
#[utoipa::path(
    post, path = "/api/v1/admin/data-subjects/erase", operation_id = "eraseDataSubject",
    tag = api::doc::OPERATIONS, security(("bearer" = [])),
    request_body(content = Body, content_type = "application/json"),
    responses(
        (status = 200, description = "Erased: the subject id, the streams that held its values and the event's position.", body = ErasureAnswer),
        api::doc::EditErrors,
    ),
)]
async fn erase_subject(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Json(body): Json<Body>,
) -> ApiResult<ErasureAnswer> {
    let subject = body.subject.as_deref().map(str::trim).unwrap_or_default();
    if subject.is_empty() {
        return Err(api::ApiError::bad_field(
            "subject",
            "请填写身份证号、电话号码或数据主体编号",
            "subject is required (an ID number, a phone number or a subject id)",
        ));
    }
    if subject.chars().count() > 100 {
        return Err(api::ApiError::bad_field(
            "subject",
            "subject 最多 100 个字符",
            "subject is at most 100 characters",
        ));
    }
    let answer = erase(
        &state.store,
        metadata(&actor, &headers, None),
        subject,
        body.reason.as_deref(),
    )
    .await?;
    Ok(ok(answer))
}
