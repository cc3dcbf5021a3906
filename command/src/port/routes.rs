//! Port management (spec `/platform-mgt/port`): register, change and (softly) delete a port,
//! and add, change and remove its facilities ("add SLIC"). The lists are on the query side
//! (`GET /api/v1/port/slic-info`, `GET /api/v1/ports`). Bodies are form or JSON and carry only
//! the fields named here: anything else (`id`, `deleted`, `createBy`, ...) is ignored.
//! Every command answers `{id, version, position}` (the port's stream) and honours `If-Match`.

use api::{Actor, ApiError, ApiResult, FormOrJson, Guards, Text, ok};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::aggregate::{Aggregate, DomainError};
use crate::handler::{Command, CommandAnswer, CommandError, execute};
use crate::http::{CommandState, if_match, metadata};
use crate::port::{self, PortCommand, PortState};

/// Every route of this module with the permission it needs.
pub fn router(g: &Guards) -> OpenApiRouter<CommandState> {
    OpenApiRouter::new()
        .routes(routes!(create_port).map(|r| r.route_layer(g.permission("ports:management"))))
        .routes(
            routes!(update_port, delete_port)
                .map(|r| r.route_layer(g.permission("ports:management"))),
        )
        .routes(routes!(add_slic).map(|r| r.route_layer(g.permission("ports:add-slic"))))
        .routes(
            routes!(update_slic, remove_slic)
                .map(|r| r.route_layer(g.permission("ports:add-slic"))),
        )
}

/// A path id that is not a UUID is "not found", like an unknown one.
fn path_id(id: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(id).map_err(|_| ApiError::not_found())
}

/// The answer of a refused or failed port command; conflicts name the clashing field.
fn answer(error: CommandError) -> ApiError {
    match error {
        CommandError::Domain(DomainError::Conflict(key)) if key == port::CODE_TAKEN => {
            ApiError::Conflict {
                reason: "CONFLICT",
                message: Text::new(
                    "该口岸代码已存在",
                    "a port with this portCode exists already",
                ),
            }
        }
        CommandError::Domain(DomainError::Conflict(key)) if key == port::SLIC_TAKEN => {
            ApiError::Conflict {
                reason: "CONFLICT",
                message: Text::new(
                    "该口岸已有相同 SLIC 的设施",
                    "this port has a facility with this upsFacilitySlic already",
                ),
            }
        }
        other => ApiError::from(other),
    }
}

async fn run(
    state: &CommandState,
    actor: &Actor,
    headers: &HeaderMap,
    id: Uuid,
    cmd: PortCommand,
) -> Result<CommandAnswer, ApiError> {
    let run = Command::<PortState>::on(&state.store, id, metadata(actor, headers, None))
        .expect(if_match(headers)?);
    execute(run, |s, _| s.decide(cmd.clone(), &state.ctx(actor)))
        .await
        .map_err(answer)
}

/// A new port; only these fields are taken.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct NewPort {
    /// 3 letters; upper-cased.
    #[schema(required = true, pattern = "^[A-Za-z]{3}$", example = "PVG")]
    port_code: Option<String>,
    /// At most 50 characters.
    #[schema(required = true, max_length = 50, example = "上海浦东")]
    port_name: Option<String>,
    /// At most 100 characters.
    #[schema(max_length = 100, example = "Shanghai Pudong")]
    port_name_en: Option<String>,
    /// 4 digits.
    #[schema(required = true, pattern = "^[0-9]{4}$", example = "2233")]
    declaration_slic: Option<String>,
}

/// `POST /api/v1/ports` (ports:management) {portCode, portName, portNameEn?, declarationSlic}.
#[utoipa::path(
    post, path = "/api/v1/ports", operation_id = "createPort",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Register a port",
    description = "Needs `ports:management`. A live port with the code: 409.",
    params(api::doc::IfMatch),
    request_body(content((NewPort = "application/x-www-form-urlencoded"), (NewPort = "application/json"))),
    responses(api::doc::Done<api::doc::Errors<400, 401, 403, 409, 415>>),
)]
async fn create_port(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    FormOrJson(body): FormOrJson<NewPort>,
) -> ApiResult<CommandAnswer> {
    let code = port::normalize_code(body.port_code.as_deref().unwrap_or(""));
    let cmd = PortCommand::Register {
        port_code: code.clone(),
        port_name: body.port_name.unwrap_or_default(),
        port_name_en: body.port_name_en,
        declaration_slic: body.declaration_slic.unwrap_or_default(),
    };
    // A code that breaks the rule is refused by the decision before anything is written.
    let id = events::port::port_id(&code);
    Ok(ok(run(&state, &actor, &headers, id, cmd).await?))
}

/// A port's changes; only these fields are taken, absent ones are unchanged.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PortUpdate {
    /// At most 50 characters.
    #[schema(max_length = 50)]
    port_name: Option<String>,
    /// Absent: unchanged; `null` or `""` in JSON: emptied. At most 100 characters.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 100)]
    port_name_en: Option<Option<String>>,
    /// 4 digits.
    #[schema(pattern = "^[0-9]{4}$")]
    declaration_slic: Option<String>,
}

/// A field that is present (possibly `null`) as `Some`, so "absent" and "emptied" differ.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// `PUT /api/v1/ports/{id}` (ports:management) {portName?, portNameEn?, declarationSlic?}.
#[utoipa::path(
    put, path = "/api/v1/ports/{id}", operation_id = "updatePort",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Change a port",
    description = "Needs `ports:management`. Absent fields are unchanged; an empty `portNameEn` empties it.",
    params(("id" = Uuid, Path, description = api::doc::id::PORT), api::doc::IfMatch),
    request_body(content((PortUpdate = "application/x-www-form-urlencoded"), (PortUpdate = "application/json"))),
    responses(api::doc::Done<api::doc::JsonCommandErrors>),
)]
async fn update_port(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<PortUpdate>,
) -> ApiResult<CommandAnswer> {
    let cmd = PortCommand::Change {
        port_name: body.port_name,
        port_name_en: body.port_name_en,
        declaration_slic: body.declaration_slic,
    };
    Ok(ok(run(&state, &actor, &headers, path_id(&id)?, cmd).await?))
}

#[derive(Deserialize, Default, ToSchema)]
#[schema(as = PortReason)]
struct WithReason {
    /// At most 200 characters.
    #[schema(max_length = 200)]
    reason: Option<String>,
}

fn reason_ok(reason: &Option<String>) -> Result<(), ApiError> {
    if reason.as_deref().is_some_and(|r| r.chars().count() > 200) {
        return Err(ApiError::bad_field(
            "reason",
            "原因最多 200 个字符",
            "reason has at most 200 characters",
        ));
    }
    Ok(())
}

/// `DELETE /api/v1/ports/{id}` (ports:management), optional `reason`: soft delete.
#[utoipa::path(
    delete, path = "/api/v1/ports/{id}", operation_id = "deletePort",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Delete a port (soft)",
    description = "Needs `ports:management`. Its code may be registered again later.",
    params(("id" = Uuid, Path, description = api::doc::id::PORT), api::doc::IfMatch),
    request_body(content((Option<WithReason> = "application/x-www-form-urlencoded"), (Option<WithReason> = "application/json"))),
    responses(api::doc::Done<api::doc::CommandErrors>),
)]
async fn delete_port(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    reason_ok(&body.reason)?;
    let cmd = PortCommand::Delete {
        reason: body.reason,
    };
    Ok(ok(run(&state, &actor, &headers, path_id(&id)?, cmd).await?))
}

/// A facility (SLIC) of a port; only these fields are taken. Both are required to add
/// one; when changing one, absent fields are unchanged.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = PortFacility)]
struct Facility {
    /// At most 100 characters.
    #[schema(max_length = 100, example = "Pudong Gateway")]
    ups_facility_name: Option<String>,
    /// 4 digits, unique among the port's facilities.
    #[schema(pattern = "^[0-9]{4}$", example = "2234")]
    ups_facility_slic: Option<String>,
}

/// `POST /api/v1/ports/{id}/slics` (ports:add-slic) {upsFacilityName, upsFacilitySlic}; the
/// answer's `id` is the port's, the new facility is in `slicInfoList` of the lists.
#[utoipa::path(
    post, path = "/api/v1/ports/{id}/slics", operation_id = "addPortSlic",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Add a facility (SLIC)",
    description = "Needs `ports:add-slic`. A SLIC the port has already: 409.",
    params(("id" = Uuid, Path, description = api::doc::id::PORT), api::doc::IfMatch),
    request_body(content((Facility = "application/x-www-form-urlencoded"), (Facility = "application/json"))),
    responses(api::doc::Done<api::doc::JsonCommandErrors>),
)]
async fn add_slic(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<Facility>,
) -> ApiResult<CommandAnswer> {
    let cmd = PortCommand::AddSlic {
        slic_id: Uuid::now_v7(),
        ups_facility_name: body.ups_facility_name.unwrap_or_default(),
        ups_facility_slic: body.ups_facility_slic.unwrap_or_default(),
    };
    Ok(ok(run(&state, &actor, &headers, path_id(&id)?, cmd).await?))
}

/// `PUT /api/v1/ports/{id}/slics/{slicId}` (ports:add-slic) {upsFacilityName?, upsFacilitySlic?}.
#[utoipa::path(
    put, path = "/api/v1/ports/{id}/slics/{slicId}", operation_id = "updatePortSlic",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Change a facility",
    description = "Needs `ports:add-slic`. Absent fields are unchanged.",
    params(
        ("id" = Uuid, Path, description = api::doc::id::PORT),
        ("slicId" = Uuid, Path, description = api::doc::id::SLIC),
        api::doc::IfMatch,
    ),
    request_body(content((Facility = "application/x-www-form-urlencoded"), (Facility = "application/json"))),
    responses(api::doc::Done<api::doc::JsonCommandErrors>),
)]
async fn update_slic(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path((id, slic_id)): Path<(String, String)>,
    FormOrJson(body): FormOrJson<Facility>,
) -> ApiResult<CommandAnswer> {
    let cmd = PortCommand::ChangeSlic {
        slic_id: path_id(&slic_id)?,
        ups_facility_name: body.ups_facility_name,
        ups_facility_slic: body.ups_facility_slic,
    };
    Ok(ok(run(&state, &actor, &headers, path_id(&id)?, cmd).await?))
}

/// `DELETE /api/v1/ports/{id}/slics/{slicId}` (ports:add-slic), optional `reason`.
#[utoipa::path(
    delete, path = "/api/v1/ports/{id}/slics/{slicId}", operation_id = "removePortSlic",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Remove a facility",
    description = "Needs `ports:add-slic`.",
    params(
        ("id" = Uuid, Path, description = api::doc::id::PORT),
        ("slicId" = Uuid, Path, description = api::doc::id::SLIC),
        api::doc::IfMatch,
    ),
    request_body(content((Option<WithReason> = "application/x-www-form-urlencoded"), (Option<WithReason> = "application/json"))),
    responses(api::doc::Done<api::doc::CommandErrors>),
)]
async fn remove_slic(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path((id, slic_id)): Path<(String, String)>,
    FormOrJson(body): FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    reason_ok(&body.reason)?;
    let cmd = PortCommand::RemoveSlic {
        slic_id: path_id(&slic_id)?,
        reason: body.reason,
    };
    Ok(ok(run(&state, &actor, &headers, path_id(&id)?, cmd).await?))
}
