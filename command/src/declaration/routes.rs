//! Declaration command routes: create (idempotent), edit (If-Match), and one route per
//! state-machine action.

use api::{Actor, ApiError, ApiResult, Guards, Json, JsonParts, ok};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::post;
use events::declaration::{DeclarationData, Direction, TypeCode};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use super::{CustomerRef, DeclarationCommand, DeclarationState};
use crate::aggregate::{Aggregate, Ctx};
use crate::handler::{AfterAppend, Command, CommandAnswer, Idempotency, execute, execute_then};
use crate::http::{CommandState, idempotency_key, if_match, metadata};
use crate::tax::allowance::AllowanceHook;

/// Every route of this module with who may call it: staff need the route tag of their
/// declaration menu, customers pass by role and reach their own company's declarations only
/// (a foreign one is 404, checked in `run`).
pub fn router(g: &Guards) -> OpenApiRouter<CommandState> {
    let declarations = g.customer_or_permission(&["declarations:management"]);
    // One route serves every state-machine move; `actions` documents each move's path.
    let guard = declarations.clone();
    OpenApiRouter::with_openapi(actions::openapi())
        .routes(routes!(create).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(edit).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(validate::validate_form).map(|r| r.route_layer(guard.clone())))
        .route(
            "/api/v1/declarations/{id}/{action}",
            post(act).route_layer(declarations),
        )
}

/// The create body's fields beside the form (`DeclarationData`), read from the same body.
#[derive(Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
struct CreateHead {
    declaration_type: Option<String>,
    shipment_type: Option<i64>,
    customer_id: Option<Uuid>,
}

/// `declarationType` as a type code (`OC`) or a class letter (`C`) with `shipmentType`;
/// a type code whose direction disagrees with `shipmentType` is refused.
fn resolve_type(
    declaration_type: Option<&str>,
    shipment_type: Option<i64>,
) -> Result<TypeCode, ApiError> {
    let raw = declaration_type.ok_or_else(|| {
        ApiError::bad_field(
            "declarationType",
            "申报类型不能为空",
            "declarationType is required",
        )
    })?;
    let direction = shipment_type
        .map(|s| {
            Direction::from_shipment_type(s).ok_or_else(|| {
                ApiError::bad_field(
                    "shipmentType",
                    "进出口类型只能是 0（进口）或 1（出口）",
                    "shipmentType must be 0 (import) or 1 (export)",
                )
            })
        })
        .transpose()?;
    let code = match raw.to_ascii_uppercase().as_str() {
        c @ ("B" | "C" | "D") => {
            let direction = direction.ok_or_else(|| {
                ApiError::bad_field(
                    "shipmentType",
                    "只给出类别时必须提供进出口类型",
                    "shipmentType is required with a class letter",
                )
            })?;
            let d = match direction {
                Direction::Import => "I",
                Direction::Export => "O",
            };
            format!("{d}{c}")
        }
        other => other.to_string(),
    };
    let type_code: TypeCode = code.parse().map_err(|_| {
        ApiError::bad_field(
            "declarationType",
            "申报类型应为 OB OC OD IB IC ID 之一",
            "declarationType must be one of OB OC OD IB IC ID",
        )
    })?;
    if let Some(d) = direction
        && d != type_code.direction
    {
        return Err(ApiError::bad_field(
            "shipmentType",
            "进出口类型与申报类型不一致",
            "shipmentType does not match declarationType",
        ));
    }
    Ok(type_code)
}

/// The customer a new declaration is filed for. A customer files for their own company,
/// whatever the body says; staff name one in `customerId`, which must be live: a disabled or
/// deleted customer takes no new declarations. The customer's state comes from its stream
/// (through [`CustomerCache`](crate::customer::cache::CustomerCache), which drops an entry
/// when the stream changes), never from the customer read model, so a customer disabled a
/// moment ago is refused at once, not after the projection catches up.
pub(crate) async fn owner(
    state: &CommandState,
    actor: &Actor,
    customer_id: Option<Uuid>,
) -> Result<CustomerRef, ApiError> {
    let id = if actor.is_customer() {
        actor.customer_id.ok_or_else(ApiError::forbidden)?
    } else {
        customer_id.ok_or_else(|| {
            ApiError::bad_field(
                "customerId",
                "请选择客户",
                "customerId is required for staff",
            )
        })?
    };
    let customer = state
        .customers
        .get(&state.store, id)
        .await
        .map_err(crate::http::store_failure)?;
    if customer.customer_id.is_none() {
        return Err(if actor.is_customer() {
            ApiError::forbidden()
        } else {
            ApiError::bad_field("customerId", "客户不存在", "no such customer")
        });
    }
    if !customer.active() {
        return Err(if actor.is_customer() {
            ApiError::forbidden()
        } else {
            ApiError::bad_field(
                "customerId",
                "该客户已停用或已删除，不能新建申报",
                "the customer is disabled or deleted and takes no new declarations",
            )
        });
    }
    Ok(CustomerRef {
        customer_id: id,
        username: customer.username.clone(),
        company_name: Some(customer.profile.company_name.clone()),
    })
}

/// Create a draft declaration
///
/// Customers, operators and admins. `declarationType` and `trackingNumber` suffice; staff
/// add `customerId`. Creates status 0 (draft). With `Idempotency-Key` a retry with the same
/// body answers the first result again; the same key with another body answers 409.
#[utoipa::path(
    post, path = "/api/v1/declarations", operation_id = "createDeclaration",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(api::doc::IdempotencyKey),
    request_body(content = ref("#/components/schemas/CreateDeclaration"), content_type = "application/json"),
    responses(
        (status = 200, description = "Created.", body = CommandAnswer),
        api::doc::Errors<400, 401, 403, 409, 413, 415>,
    ),
)]
async fn create(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    parts: Result<JsonParts<CreateHead, DeclarationData>, ApiError>,
) -> ApiResult<CommandAnswer> {
    let JsonParts(body, data) = parts.map_err(super::labels::relabel)?;
    actor.require(&[
        api::Role::Customer,
        api::Role::Operator,
        api::Role::Admin,
        api::Role::SuperAdmin,
    ])?;
    let declaration_type = resolve_type(body.declaration_type.as_deref(), body.shipment_type)?;
    let customer = owner(&state, &actor, body.customer_id).await?;
    let meta = metadata(&actor, &headers, Some(customer.customer_id));
    let reference = state.reference.current();
    // Only a keyed request is compared with an earlier one.
    let idempotency = idempotency_key(&headers)?.map(|key| Idempotency {
        store: &state.idempotency,
        scope: format!("declarations.create:{}", actor.id),
        key,
        request_hash: hex::encode(Sha256::digest(
            serde_json::to_vec(&(&body, &data)).unwrap_or_default(),
        )),
    });
    let id = Uuid::now_v7();
    let command = DeclarationCommand::Create {
        id,
        declaration_type,
        customer,
        data,
    };
    let run = Command::<DeclarationState>::create(&state.store, id, meta).idempotent(idempotency);
    let answer = execute(run, |s, _| {
        let ctx = Ctx::new(&actor, reference.clone());
        s.decide(command.clone(), &ctx)
    })
    .await?;
    Ok(ok(answer))
}

/// Run one command on an existing declaration: a foreign or missing declaration is 404
/// before anything else is said about it.
async fn run(
    state: &CommandState,
    actor: &Actor,
    headers: &HeaderMap,
    id: Uuid,
    command: DeclarationCommand,
) -> ApiResult<CommandAnswer> {
    let expected = if_match(headers)?;
    let reference = state.reference.current();
    let visible =
        |current: &DeclarationState| current.exists() && actor.can_see(current.customer_id);
    let run = Command::on(&state.store, id, metadata(actor, headers, None))
        .expect(expected)
        .visible_if(&visible)
        .customer_of(|current: &DeclarationState| Some(current.customer_id));
    // A move may charge or give back the buyer's cross-border allowance, in the same
    // transaction (crate::tax::allowance); an edit moves nothing.
    let hook = (!matches!(command, DeclarationCommand::Edit { .. })).then(|| {
        AllowanceHook::new(
            state.store.clone(),
            reference.clone(),
            metadata(actor, headers, None),
            id,
        )
    });
    let answer = execute_then(
        run,
        |s, _| {
            let ctx = Ctx::new(actor, reference.clone());
            let events = s.decide(command.clone(), &ctx)?;
            if let Some(hook) = &hook {
                hook.decided(s, &events);
            }
            Ok(events)
        },
        hook.as_ref().map(|h| h as &dyn AfterAppend),
    )
    .await?;
    Ok(ok(answer))
}

fn parse_id(raw: &str) -> Result<Uuid, ApiError> {
    // An id that is not a UUID cannot name a declaration: same answer as a missing one.
    Uuid::parse_str(raw).map_err(|_| ApiError::not_found())
}

/// Edit a declaration (the whole form)
///
/// Replaces the whole form. The owner or staff while 0 or 11, staff while 10; any other
/// status answers 409.
#[utoipa::path(
    put, path = "/api/v1/declarations/{id}", operation_id = "editDeclaration",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::DECLARATION), api::doc::IfMatch),
    request_body(content = ref("#/components/schemas/DeclarationForm"), content_type = "application/json"),
    responses((status = 200, description = "Edited.", body = CommandAnswer), api::doc::EditErrors),
)]
async fn edit(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    data: Result<Json<DeclarationData>, ApiError>,
) -> ApiResult<CommandAnswer> {
    let Json(data) = data.map_err(super::labels::relabel)?;
    run(
        &state,
        &actor,
        &headers,
        parse_id(&id)?,
        DeclarationCommand::Edit { data },
    )
    .await
}

/// The body of a state-machine move; which fields an action takes is in its description.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[schema(as = DeclarationActionBody)]
struct ActionBody {
    /// Trimmed, at most 500 characters.
    #[schema(max_length = 500)]
    reason: Option<String>,
    /// Customs receipt code: `P` (released) or `R` (closed) for complete; `E`, `Z` or `Y`
    /// for reject.
    #[schema(pattern = "^[PREZY]$", example = "P")]
    receipt_code: Option<String>,
    /// Amend: field path -> new value (at least one); a top-level field (`grossWeight`), a
    /// goods-line field (`declarationGoodsInfo[0].goodsCode`) or a whole goods line.
    #[schema(value_type = Option<Object>)]
    changes: Option<Map<String, Value>>,
}

fn required_reason(reason: Option<String>) -> Result<String, ApiError> {
    reason.ok_or_else(|| ApiError::bad_field("reason", "请填写原因", "reason is required"))
}

/// The state-machine moves, one route for all: each move is documented under its own path
/// below (`POST /api/v1/declarations/{id}/submit`, ...), so `act` itself carries no
/// annotation; [`actions`] holds them.
async fn act(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    body: Bytes,
) -> ApiResult<CommandAnswer> {
    let body: ActionBody = api::extract::parse_json_body(&body)?;
    let command = match action.as_str() {
        "submit" => DeclarationCommand::Submit,
        "withdraw" => DeclarationCommand::Withdraw,
        "review" => DeclarationCommand::Review,
        "return" => DeclarationCommand::Return {
            reason: required_reason(body.reason)?,
        },
        "complete" => DeclarationCommand::Complete {
            receipt_code: body.receipt_code,
        },
        "reject" => DeclarationCommand::Reject {
            reason: required_reason(body.reason)?,
            receipt_code: body.receipt_code,
        },
        "redeclare" => DeclarationCommand::Redeclare,
        "send-back" => DeclarationCommand::SendBack {
            reason: required_reason(body.reason)?,
        },
        "amend" => DeclarationCommand::Amend {
            reason: required_reason(body.reason)?,
            changes: body.changes.ok_or_else(|| {
                ApiError::bad_field("changes", "请填写要修改的字段", "changes is required")
            })?,
        },
        "delete" | "abandon" => DeclarationCommand::Delete {
            reason: body.reason,
        },
        _ => return Err(ApiError::not_found()),
    };
    run(&state, &actor, &headers, parse_id(&id)?, command).await
}

pub mod actions;
pub mod validate;

#[cfg(test)]
mod tests {
    use super::resolve_type;

    #[test]
    fn a_type_code_or_a_class_with_direction_resolves() {
        assert_eq!(resolve_type(Some("oc"), None).expect("ok").as_str(), "OC");
        assert_eq!(resolve_type(Some("B"), Some(0)).expect("ok").as_str(), "IB");
        assert!(resolve_type(Some("C"), None).is_err());
        assert!(resolve_type(Some("OC"), Some(0)).is_err());
        assert!(resolve_type(Some("XX"), None).is_err());
        assert!(resolve_type(None, None).is_err());
    }
}
