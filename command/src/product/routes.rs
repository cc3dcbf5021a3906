//! The product library (`/customers-center/product`): register, change (the whole record)
//! and delete. Customers act on their own company's products; staff holding
//! `customers:management` on any customer's (naming it in `customerId` when registering). A
//! foreign or unknown id is 404. JSON bodies; every command answers `{id, version,
//! position}` and honours `If-Match`. Search and autocomplete are on the query side
//! (`GET /api/v1/products`, `GET /api/v1/products/suggest`).

use api::{Actor, ApiError, ApiResult, FormOrJson, Guards, Json, ok};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use events::product::ProductFields;
use rust_decimal::Decimal;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::aggregate::Aggregate;
use crate::handler::{Command, CommandAnswer, execute};
use crate::http::{CommandState, if_match, metadata};
use crate::master_data::{STAFF_PERMISSION, owner, path_id, reason_ok};
use crate::product::{ProductCommand, ProductState};

pub fn router(g: &Guards) -> OpenApiRouter<CommandState> {
    let guard = g.customer_or_permission(&[STAFF_PERMISSION]);
    OpenApiRouter::new()
        .routes(routes!(create).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(update, delete).map(|r| r.route_layer(guard.clone())))
}

/// A product as sent by the form; absent optional fields are empty.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ProductBody)]
struct Body {
    /// Staff only (ignored for customers): the owning customer. Registering only.
    #[schema(value_type = Option<Uuid>)]
    customer_id: Option<String>,
    /// Chinese description (the goods line's `goodsName`); required, at most 100 characters.
    #[schema(required = true, max_length = 100, example = "智能手机")]
    description_cn: Option<String>,
    /// At most 100 characters.
    #[schema(max_length = 100, example = "Smartphone")]
    description_en: Option<String>,
    /// 10 digits; the first six a subheading of HS 2022.
    #[schema(required = true, pattern = "^[0-9]{10}$", example = "8517130000")]
    hs_code: Option<String>,
    /// Declaration elements (申报要素), pipe separated; at most 255 characters.
    #[schema(max_length = 255)]
    declaration_elements: Option<String>,
    /// Declared unit: a code of the units table (`011`).
    #[schema(required = true, example = "011")]
    declared_unit: Option<String>,
    /// First legal unit (units table).
    legal_unit_one: Option<String>,
    /// Second legal unit (units table).
    legal_unit_two: Option<String>,
    /// Default country of origin (countries table, alpha-3).
    #[schema(example = "CHN")]
    origin_country: Option<String>,
    /// Above zero, at most 4 decimals; a number or a numeric string.
    #[serde(
        default,
        deserialize_with = "events::declaration::lenient_decimal::deserialize"
    )]
    #[schema(value_type = Option<f64>, example = 199.9)]
    unit_price: Option<Decimal>,
    /// Currency of `unitPrice` (currencies table); required with it.
    #[schema(example = "USD")]
    currency: Option<String>,
}

impl Body {
    fn fields(self) -> ProductFields {
        ProductFields {
            description_cn: self.description_cn.unwrap_or_default(),
            description_en: self.description_en,
            hs_code: self.hs_code.unwrap_or_default(),
            declaration_elements: self.declaration_elements,
            declared_unit: self.declared_unit.unwrap_or_default(),
            legal_unit_one: self.legal_unit_one,
            legal_unit_two: self.legal_unit_two,
            origin_country: self.origin_country,
            unit_price: self.unit_price,
            currency: self.currency,
        }
    }
}

#[derive(Deserialize, Default, ToSchema)]
#[schema(as = ProductDelete)]
struct WithReason {
    /// At most 200 characters.
    #[schema(max_length = 200)]
    reason: Option<String>,
}

async fn decide_and_append(
    state: &CommandState,
    actor: &Actor,
    run: Command<'_, ProductState>,
    cmd: ProductCommand,
) -> Result<CommandAnswer, ApiError> {
    let ctx = state.ctx(actor);
    Ok(execute(run, |s, _| s.decide(cmd.clone(), &ctx)).await?)
}

async fn run(
    state: &CommandState,
    actor: &Actor,
    headers: &HeaderMap,
    id: Uuid,
    cmd: ProductCommand,
) -> Result<CommandAnswer, ApiError> {
    let visible = |s: &ProductState| s.registered && actor.can_see(s.customer_id);
    let run = Command::<ProductState>::on(&state.store, id, metadata(actor, headers, None))
        .expect(if_match(headers)?)
        .visible_if(&visible)
        .customer_of(|s| Some(s.customer_id));
    decide_and_append(state, actor, run, cmd).await
}

/// Register a product
///
/// Customers (their own library) and staff with `customers:management` (naming
/// `customerId`). Bad fields: 400 naming each (an HS code whose first six digits are not an
/// HS 2022 subheading among them).
#[utoipa::path(
    post, path = "/api/v1/products", operation_id = "createProduct",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    request_body(content = Body, content_type = "application/json"),
    responses(
        (status = 200, description = "Registered: the new product's id, version and position.", body = CommandAnswer),
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
    let cmd = ProductCommand::Register {
        customer_id,
        fields: body.fields(),
    };
    let run = Command::<ProductState>::create(
        &state.store,
        id,
        metadata(&actor, &headers, Some(customer_id)),
    );
    Ok(ok(decide_and_append(&state, &actor, run, cmd).await?))
}

/// Change a product
///
/// Replaces the whole record (absent optional fields are emptied); `customerId` is ignored.
#[utoipa::path(
    put, path = "/api/v1/products/{id}", operation_id = "updateProduct",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::PRODUCT), api::doc::IfMatch),
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
    let cmd = ProductCommand::Change {
        fields: body.fields(),
    };
    Ok(ok(run(&state, &actor, &headers, id, cmd).await?))
}

/// Delete a product
///
/// Soft: the product leaves the library; its events stay.
#[utoipa::path(
    delete, path = "/api/v1/products/{id}", operation_id = "deleteProduct",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::PRODUCT), api::doc::IfMatch),
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
    reason_ok(&body.reason)?;
    let cmd = ProductCommand::Delete {
        reason: body.reason,
    };
    Ok(ok(run(&state, &actor, &headers, id, cmd).await?))
}
