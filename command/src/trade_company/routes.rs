//! Trade companies (`/customers-center/trade`): register, change (the whole record) and
//! delete. Customers act on their own company's records; staff holding
//! `customers:management` on any customer's (naming it in `customerId` when registering). A
//! foreign or unknown id is 404. JSON bodies; every command answers `{id, version,
//! position}` and honours `If-Match`. The lists are on the query side
//! (`GET /api/v1/trade-companies`).

use api::{Actor, ApiError, ApiResult, FormOrJson, Guards, Json, ok};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use events::trade_company::TradeCompanyFields;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::aggregate::Aggregate;
use crate::handler::{Command, CommandAnswer, execute};
use crate::http::{CommandState, if_match, metadata};
use crate::master_data::{STAFF_PERMISSION, owner, path_id, reason_ok};
use crate::trade_company::{TradeCompanyCommand, TradeCompanyState};

pub fn router(g: &Guards) -> OpenApiRouter<CommandState> {
    let guard = g.customer_or_permission(&[STAFF_PERMISSION]);
    OpenApiRouter::new()
        .routes(routes!(create).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(update, delete).map(|r| r.route_layer(guard.clone())))
}

/// A trade company as sent by the form; absent optional fields are empty.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = TradeCompanyBody)]
struct Body {
    /// Staff only (ignored for customers): the owning customer. Registering only.
    #[schema(value_type = Option<Uuid>)]
    customer_id: Option<String>,
    /// Chinese name; required, at most 100 characters.
    #[schema(required = true, max_length = 100, example = "深圳某某科技有限公司")]
    company_name_cn: Option<String>,
    /// At most 200 characters.
    #[schema(max_length = 200)]
    company_name_en: Option<String>,
    /// Unified social credit code: 18 characters with its check character.
    #[schema(required = true, example = "91440300MA5FHK4H1F")]
    uscc: Option<String>,
    /// 10 characters: 4 digits, then 6 digits or capital letters.
    #[schema(pattern = "^[0-9]{4}[0-9A-Z]{6}$")]
    customs_code: Option<String>,
    /// 10 digits.
    #[schema(pattern = "^[0-9]{10}$")]
    inspection_code: Option<String>,
    /// At most 200 characters.
    #[schema(max_length = 200)]
    address: Option<String>,
}

impl Body {
    fn fields(self) -> TradeCompanyFields {
        TradeCompanyFields {
            company_name_cn: self.company_name_cn.unwrap_or_default(),
            company_name_en: self.company_name_en,
            uscc: self.uscc.unwrap_or_default(),
            customs_code: self.customs_code,
            inspection_code: self.inspection_code,
            address: self.address,
        }
    }
}

#[derive(Deserialize, Default, ToSchema)]
#[schema(as = TradeCompanyDelete)]
struct WithReason {
    /// At most 200 characters.
    #[schema(max_length = 200)]
    reason: Option<String>,
}

async fn run(
    state: &CommandState,
    actor: &Actor,
    headers: &HeaderMap,
    id: Uuid,
    cmd: TradeCompanyCommand,
) -> Result<CommandAnswer, ApiError> {
    let visible = |s: &TradeCompanyState| s.registered && actor.can_see(s.customer_id);
    let run = Command::<TradeCompanyState>::on(&state.store, id, metadata(actor, headers, None))
        .expect(if_match(headers)?)
        .visible_if(&visible)
        .customer_of(|s| Some(s.customer_id));
    Ok(execute(run, |s, _| s.decide(cmd.clone(), &state.ctx(actor))).await?)
}

/// Register a trade company
///
/// Customers (their own company) and staff with `customers:management` (naming
/// `customerId`). Bad fields: 400 naming each.
#[utoipa::path(
    post, path = "/api/v1/trade-companies", operation_id = "createTradeCompany",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    request_body(content = Body, content_type = "application/json"),
    responses(
        (status = 200, description = "Registered: the new company's id, version and position.", body = CommandAnswer),
        api::doc::Errors<400, 401, 403, 415>,
    ),
)]
async fn create(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Json(body): Json<Body>,
) -> ApiResult<CommandAnswer> {
    let customer_id = owner(&state, &actor, body.customer_id.as_deref()).await?;
    let id = Uuid::now_v7();
    let cmd = TradeCompanyCommand::Register {
        customer_id,
        fields: body.fields(),
    };
    let run = Command::<TradeCompanyState>::create(
        &state.store,
        id,
        metadata(&actor, &headers, Some(customer_id)),
    );
    Ok(ok(execute(run, |s, _| {
        s.decide(cmd.clone(), &state.ctx(&actor))
    })
    .await?))
}

/// Change a trade company
///
/// Replaces the whole record (absent optional fields are emptied); `customerId` is ignored.
#[utoipa::path(
    put, path = "/api/v1/trade-companies/{id}", operation_id = "updateTradeCompany",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::COMPANY), api::doc::IfMatch),
    request_body(content = Body, content_type = "application/json"),
    responses(api::doc::Done<api::doc::JsonCommandErrors>),
)]
async fn update(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<Body>,
) -> ApiResult<CommandAnswer> {
    let id = path_id(&id)?;
    let cmd = TradeCompanyCommand::Change {
        fields: body.fields(),
    };
    Ok(ok(run(&state, &actor, &headers, id, cmd).await?))
}

/// Delete a trade company
///
/// Soft: the record leaves the lists; its events stay.
#[utoipa::path(
    delete, path = "/api/v1/trade-companies/{id}", operation_id = "deleteTradeCompany",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::COMPANY), api::doc::IfMatch),
    request_body(content = Option<WithReason>, content_type = "application/json"),
    responses((status = 200, description = "Deleted.", body = CommandAnswer), api::doc::CommandErrors),
)]
async fn delete(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    let id = path_id(&id)?;
    let reason = body.reason;
    reason_ok(&reason)?;
    let cmd = TradeCompanyCommand::Delete { reason };
    Ok(ok(run(&state, &actor, &headers, id, cmd).await?))
}
