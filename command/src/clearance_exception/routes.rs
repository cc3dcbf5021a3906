//! Clearance exception command routes: raise one on a declaration (`POST
//! /api/v1/clearance-exceptions`, idempotent) and one route per move (`POST
//! /api/v1/clearance-exceptions/{id}/{notify|acknowledge|respond|approve|reject|void}`).
//! Staff need `clearance:management`; customers pass by role and reach their own
//! declarations' exceptions only (another's is 404, or 400 naming `declarationId` when
//! raising). Raising, approving and voiding also write the declaration's event, on the same
//! transaction ([`DeclarationLink`]).

use std::sync::Arc;

use api::{Actor, ApiError, ApiResult, Guards, Json, ok};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use events::Metadata;
use events::clearance_exception::{Contact, ExceptionDetail, ExceptionForm, NotificationContact};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use super::{DeclarationRef, ExceptionCommand, ExceptionState, ProposedValues};
use crate::aggregate::{Aggregate, Ctx};

pub mod documents;
pub mod link;
use crate::declaration::{DeclarationCommand, DeclarationState};
use crate::handler::{
    AfterAppend, Command, CommandAnswer, Hooked, Idempotency, execute_then, load, load_in,
};
use crate::http::{CommandState, idempotency_key, if_match, metadata};
use crate::reference::ReferenceData;
use crate::tax::allowance::also_append_counted;

/// Every route with who may call it.
pub fn router(g: &Guards, link: crate::identity::LinkLimits) -> OpenApiRouter<CommandState> {
    let guard = g.customer_or_permission(&["clearance:management"]);
    OpenApiRouter::new()
        .routes(routes!(create).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(notify).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(acknowledge).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(respond).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(approve).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(reject).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(void).map(|r| r.route_layer(guard.clone())))
        .merge(documents::router(g))
        .merge(link::router(link))
}

/// A blank text arrives as `null` (the body's strings are trimmed and blanks dropped before
/// it is read): here it is the empty text, which the rules then judge.
fn null_as_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(d)?.unwrap_or_default())
}

/// One line of the exception details.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[schema(as = ClearanceExceptionDetail)]
pub struct DetailBody {
    /// At most 50 characters.
    #[schema(max_length = 50, example = "E01")]
    #[serde(deserialize_with = "null_as_empty")]
    pub exception_code: String,
    /// At most 500 characters; a line needs a code or a description.
    #[schema(
        max_length = 500,
        example = "商业发票缺失 / commercial invoice missing"
    )]
    #[serde(deserialize_with = "null_as_empty")]
    pub exception_description: String,
    /// At most 500 characters.
    #[schema(max_length = 500)]
    #[serde(deserialize_with = "null_as_empty")]
    pub exception_handling: String,
}

/// The spec's "Notification contact" blank form: one address per party and channel
/// (WeChat: an openId; e-mail; SMS: a phone number). At most 100 characters each.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[schema(as = ClearanceNotificationContact)]
pub struct ContactBody {
    pub shipper_wechat: Option<String>,
    pub shipper_email: Option<String>,
    pub shipper_sms: Option<String>,
    pub recipient_wechat: Option<String>,
    pub recipient_email: Option<String>,
    pub recipient_sms: Option<String>,
    /// The carrier account number (at most 50 characters).
    pub ups_account: Option<String>,
    pub ups_account_wechat: Option<String>,
    pub ups_account_email: Option<String>,
    pub ups_account_sms: Option<String>,
}

/// Raise a clearance exception: `declarationId` and the spec's "Exception and documents"
/// form, with the proposed new values of the checked exchange/update flags.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[schema(as = NewClearanceException)]
pub struct CreateBody {
    /// The declaration held by the exception (status 1 or 2; the caller's own for a customer).
    #[schema(required = true)]
    pub declaration_id: Option<Uuid>,
    pub exception_details: Vec<DetailBody>,
    // Exchange and update flags, each with its new value
    pub is_exchange_hts_code_checked: bool,
    pub is_exchange_credit_code_checked: bool,
    pub is_update_product_description_checked: bool,
    pub is_update_product_declare_element_checked: bool,
    pub is_exchange_customs_code_checked: bool,
    /// The goods line (0-based) the HS code, product description and declaration elements
    /// changes apply to; default 0.
    #[schema(minimum = 0)]
    pub goods_index: Option<u32>,
    /// With `isExchangeHtsCodeChecked`: 10 digits (goods line `goodsCode`).
    #[schema(pattern = "^[0-9]{10}$")]
    pub new_hts_code: Option<String>,
    /// With `isExchangeCreditCodeChecked`: an 18-character USCC (`consigneeScc`).
    pub new_credit_code: Option<String>,
    /// With `isExchangeCustomsCodeChecked`: 10 characters (`consigneeCustomMaster`).
    pub new_customs_code: Option<String>,
    /// With `isUpdateProductDescriptionChecked`: at most 200 characters (goods line `goodsName`).
    pub new_product_description: Option<String>,
    /// With `isUpdateProductDeclareElementChecked`: at most 500 characters (goods line
    /// `specification`).
    pub new_declare_element: Option<String>,
    // Document-request flags
    pub is_personal_id_checked: bool,
    pub is_passport_checked: bool,
    pub is_poa_checked: bool,
    pub is_electronic_proxy_checked: bool,
    pub is_waybill_checked: bool,
    pub is_packing_list_checked: bool,
    pub is_commercial_invoice_checked: bool,
    pub is_trade_contract_checked: bool,
    pub is_proxy_protocol_checked: bool,
    pub is_price_exemption_checked: bool,
    pub is_fact_sheet_checked: bool,
    pub is_legal_inspection_checked: bool,
    pub is_origin_certificate_checked: bool,
    /// Other documents asked for (at most 20, each at most 200 characters).
    pub other_documents: Vec<String>,
    // Channels
    pub send_to_wechat: bool,
    pub send_to_email: bool,
    pub send_to_sms: bool,
    /// A phone number for SMS.
    pub personal_phone: Option<String>,
    /// An e-mail address.
    pub personal_email: Option<String>,
    /// At most 20, each at most 200 characters.
    pub other_descriptions: Vec<String>,
    /// At most 1000 characters.
    pub exception_summary: Option<String>,
    pub notification_contact: ContactBody,
}

impl CreateBody {
    fn form(&self) -> ExceptionForm {
        let c = self.notification_contact.clone();
        ExceptionForm {
            exception_details: self
                .exception_details
                .iter()
                .map(|d| ExceptionDetail {
                    exception_code: d.exception_code.clone(),
                    exception_description: d.exception_description.clone(),
                    exception_handling: d.exception_handling.clone(),
                })
                .collect(),
            is_exchange_hts_code_checked: self.is_exchange_hts_code_checked,
            is_exchange_credit_code_checked: self.is_exchange_credit_code_checked,
            is_update_product_description_checked: self.is_update_product_description_checked,
            is_update_product_declare_element_checked: self
                .is_update_product_declare_element_checked,
            is_exchange_customs_code_checked: self.is_exchange_customs_code_checked,
            is_personal_id_checked: self.is_personal_id_checked,
            is_passport_checked: self.is_passport_checked,
            is_poa_checked: self.is_poa_checked,
            is_electronic_proxy_checked: self.is_electronic_proxy_checked,
            is_waybill_checked: self.is_waybill_checked,
            is_packing_list_checked: self.is_packing_list_checked,
            is_commercial_invoice_checked: self.is_commercial_invoice_checked,
            is_trade_contract_checked: self.is_trade_contract_checked,
            is_proxy_protocol_checked: self.is_proxy_protocol_checked,
            is_price_exemption_checked: self.is_price_exemption_checked,
            is_fact_sheet_checked: self.is_fact_sheet_checked,
            is_legal_inspection_checked: self.is_legal_inspection_checked,
            is_origin_certificate_checked: self.is_origin_certificate_checked,
            other_documents: self.other_documents.clone(),
            send_to_wechat: self.send_to_wechat,
            send_to_email: self.send_to_email,
            send_to_sms: self.send_to_sms,
            personal_phone: self.personal_phone.clone(),
            personal_email: self.personal_email.clone(),
            other_descriptions: self.other_descriptions.clone(),
            exception_summary: self.exception_summary.clone(),
            notification_contact: NotificationContact {
                shipper_wechat: c.shipper_wechat,
                shipper_email: c.shipper_email,
                shipper_sms: c.shipper_sms,
                recipient_wechat: c.recipient_wechat,
                recipient_email: c.recipient_email,
                recipient_sms: c.recipient_sms,
                ups_account: c.ups_account,
                ups_account_wechat: c.ups_account_wechat,
                ups_account_email: c.ups_account_email,
                ups_account_sms: c.ups_account_sms,
            },
        }
    }

    fn proposed(&self) -> ProposedValues {
        ProposedValues {
            goods_index: self.goods_index.unwrap_or(0) as usize,
            new_hts_code: self.new_hts_code.clone(),
            new_credit_code: self.new_credit_code.clone(),
            new_customs_code: self.new_customs_code.clone(),
            new_product_description: self.new_product_description.clone(),
            new_declare_element: self.new_declare_element.clone(),
        }
    }
}

/// A notice recipient chosen for `notify`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ClearanceContact)]
pub struct ContactChoice {
    /// `wechat`, `email` or `sms`.
    #[schema(example = "email")]
    pub channel: String,
    /// `shipper`, `recipient`, `upsAccount` or `personal`.
    #[schema(example = "recipient")]
    pub party: String,
    /// The openId, e-mail address or phone number (at most 100 characters).
    #[schema(example = "buyer@example.com")]
    pub address: String,
}

/// The body of a move; which fields a move takes is in its description.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[schema(as = ClearanceExceptionActionBody)]
pub struct ActionBody {
    /// Reject: required; void: required unless the exception awaits review. Trimmed, at
    /// most 500 characters.
    #[schema(max_length = 500)]
    pub reason: Option<String>,
    /// Respond (required when staff answer for the customer), approve, notify. At most 500
    /// characters.
    #[schema(max_length = 500)]
    pub note: Option<String>,
    /// Respond: the customer confirms the proposed changes (applied on approval).
    pub confirm_changes: Option<bool>,
    /// Notify: `wechat`, `email`, `sms`; absent: the form's channels.
    pub channels: Option<Vec<String>>,
    /// Notify: the recipients; absent: the form's contacts on the chosen channels.
    pub contacts: Option<Vec<ContactChoice>>,
    /// Respond: why each requested document that has no file is missing (every requested
    /// document needs a file or a reason).
    pub missing: Option<Vec<MissingDocumentBody>>,
}

/// A requested document the answer comes without, and why.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MissingDocument)]
pub struct MissingDocumentBody {
    /// The requested document: its wire name (`poa`) or the text of an other document.
    #[schema(max_length = 200)]
    pub document: String,
    /// Required; at most 500 characters.
    #[schema(max_length = 500)]
    pub reason: Option<String>,
}

/// The wire's reasons as the command takes them.
pub fn missing_documents(
    given: Option<Vec<MissingDocumentBody>>,
) -> Vec<events::clearance_exception::MissingDocument> {
    given
        .unwrap_or_default()
        .into_iter()
        .map(|m| events::clearance_exception::MissingDocument {
            document: m.document,
            reason: m.reason.unwrap_or_default(),
        })
        .collect()
}

/// A path id that is not a UUID names nothing: 404.
fn path_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| ApiError::not_found())
}

/// What the declaration does alongside the exception's event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LinkKind {
    Raise,
    Resolve,
    Void,
}

/// The [`AfterAppend`] hook that writes the declaration's side of a move on the
/// exception's transaction: it reads the exception as just appended (same transaction) and
/// appends the declaration's event naming it. A refusal or a failed write rolls both back.
struct DeclarationLink {
    store: events::EventStore,
    exception_id: Uuid,
    metadata: Metadata,
    actor: Actor,
    reference: Arc<ReferenceData>,
    kind: LinkKind,
    reason: Option<String>,
}

impl AfterAppend for DeclarationLink {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, _appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            let (exception, _) =
                load_in::<ExceptionState>(&self.store, &mut *tx, self.exception_id).await?;
            let command = match self.kind {
                LinkKind::Raise => DeclarationCommand::RaiseException {
                    exception_id: self.exception_id,
                },
                LinkKind::Resolve => DeclarationCommand::ResolveException {
                    exception_id: self.exception_id,
                    changes: ExceptionState::change_map(&exception.confirmed_changes()),
                },
                LinkKind::Void => DeclarationCommand::VoidException {
                    exception_id: self.exception_id,
                    reason: self.reason.clone(),
                },
            };
            let mut meta = self.metadata.clone();
            meta.customer_id = Some(exception.customer_id);
            meta.causation_id = Some(self.metadata.command_id);
            meta.command_id = Uuid::now_v7();
            // A void (4 -> 11) gives the buyer's allowance back, and a resolution that changes
            // the value counts it again (crate::tax::allowance).
            let appended = also_append_counted(
                &self.store,
                tx,
                self.reference.clone(),
                exception.declaration_id,
                &meta,
                |d, _| {
                    let ctx = Ctx::new(&self.actor, self.reference.clone());
                    d.decide(command, &ctx)
                },
            )
            .await?;
            Ok(appended.position)
        })
    }
}

/// The declaration an exception is raised on; one the caller cannot see is "no such
/// declaration" (400 naming `declarationId`), never a hint that it exists.
async fn declaration_ref(
    state: &CommandState,
    actor: &Actor,
    id: Option<Uuid>,
) -> Result<DeclarationRef, ApiError> {
    let id = id.ok_or_else(|| {
        ApiError::bad_field(
            "declarationId",
            "declarationId：请选择报关单",
            "declarationId is required",
        )
    })?;
    let (d, _) = load::<DeclarationState>(&state.store, id)
        .await
        .map_err(crate::http::store_failure)?;
    let (Some(status), Some(ty)) = (d.status, d.declaration_type) else {
        return Err(no_declaration());
    };
    if !actor.can_see(d.customer_id) {
        return Err(no_declaration());
    }
    Ok(DeclarationRef {
        id,
        customer_id: d.customer_id,
        username: d.username,
        company_name: d.company_name,
        declaration_type: ty.as_str().to_string(),
        status,
        open_exception: d.open_exception,
        data: d.data,
    })
}

fn no_declaration() -> ApiError {
    ApiError::bad_field(
        "declarationId",
        "declarationId：报关单不存在",
        "declarationId: no such declaration",
    )
}

/// Raise a clearance exception
///
/// Staff with `clearance:management`, or a customer on their own declaration. The
/// declaration must be in status 1 or 2 and moves to 4 in the same transaction; a
/// declaration with an open exception answers 409. With `Idempotency-Key` a retry answers
/// the first result again.
#[utoipa::path(
    post, path = "/api/v1/clearance-exceptions", operation_id = "createClearanceException",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(api::doc::IdempotencyKey),
    request_body(content = CreateBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Raised: the exception's id, version and position.", body = CommandAnswer),
        api::doc::Errors<400, 401, 403, 409, 413, 415>,
    ),
)]
async fn create(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Json(body): Json<CreateBody>,
) -> ApiResult<CommandAnswer> {
    let declaration = declaration_ref(&state, &actor, body.declaration_id).await?;
    let meta = metadata(&actor, &headers, Some(declaration.customer_id));
    let idempotency = idempotency_key(&headers)?.map(|key| Idempotency {
        store: &state.idempotency,
        scope: format!("clearance-exceptions.create:{}", actor.id),
        key,
        request_hash: hex::encode(Sha256::digest(
            serde_json::to_vec(&body).unwrap_or_default(),
        )),
    });
    let id = Uuid::now_v7();
    let command = ExceptionCommand::Raise {
        id,
        declaration: Box::new(declaration),
        form: Box::new(body.form()),
        proposed: body.proposed(),
    };
    let link = DeclarationLink {
        store: state.store.clone(),
        exception_id: id,
        metadata: meta.clone(),
        actor: actor.clone(),
        reference: state.reference.current(),
        kind: LinkKind::Raise,
        reason: None,
    };
    let run = Command::<ExceptionState>::create(&state.store, id, meta).idempotent(idempotency);
    let ctx = state.ctx(&actor);
    let answer = execute_then(run, |s, _| s.decide(command.clone(), &ctx), Some(&link)).await?;
    Ok(ok(answer))
}

/// One move on an existing exception: another customer's is 404 before anything else.
async fn run(
    state: &CommandState,
    actor: &Actor,
    headers: &HeaderMap,
    raw_id: &str,
    command: ExceptionCommand,
) -> ApiResult<CommandAnswer> {
    let id = path_id(raw_id)?;
    let expected = if_match(headers)?;
    let meta = metadata(actor, headers, None);
    let kind = match &command {
        ExceptionCommand::Approve { .. } => Some(LinkKind::Resolve),
        ExceptionCommand::Void { .. } => Some(LinkKind::Void),
        _ => None,
    };
    let reason = match &command {
        ExceptionCommand::Void { reason } => reason.clone(),
        _ => None,
    };
    let link = kind.map(|kind| DeclarationLink {
        store: state.store.clone(),
        exception_id: id,
        metadata: meta.clone(),
        actor: actor.clone(),
        reference: state.reference.current(),
        kind,
        reason,
    });
    let visible = |s: &ExceptionState| s.exists() && actor.can_see(s.customer_id);
    let cmd = Command::on(&state.store, id, meta)
        .expect(expected)
        .visible_if(&visible)
        .customer_of(|s: &ExceptionState| Some(s.customer_id));
    let answer = execute_then(
        cmd,
        |s, _| s.decide(command.clone(), &state.ctx(actor)),
        link.as_ref().map(|l| l as &dyn AfterAppend),
    )
    .await?;
    Ok(ok(answer))
}

/// Notify the customer (1 -> 2)
///
/// Operators and admins. Records the channels and contacts chosen (default: the form's);
/// the notices are delivered by an outbox that reads this event.
#[utoipa::path(
    post, path = "/api/v1/clearance-exceptions/{id}/notify", operation_id = "notifyClearanceException",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::EXCEPTION), api::doc::IfMatch),
    request_body(content = ActionBody, content_type = "application/json"),
    responses((status = 200, description = "Done.", body = CommandAnswer), api::doc::JsonCommandErrors),
)]
async fn notify(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<ActionBody>,
) -> ApiResult<CommandAnswer> {
    let command = ExceptionCommand::Notify {
        channels: body.channels,
        contacts: body.contacts.map(|list| {
            list.into_iter()
                .map(|c| Contact {
                    channel: c.channel,
                    party: c.party,
                    address: c.address,
                })
                .collect()
        }),
        note: body.note,
    };
    run(&state, &actor, &headers, &id, command).await
}

/// Acknowledge the notice (2 -> 3)
///
/// The customer (their own exception) or the system.
#[utoipa::path(
    post, path = "/api/v1/clearance-exceptions/{id}/acknowledge", operation_id = "acknowledgeClearanceException",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::EXCEPTION), api::doc::IfMatch),
    request_body(content = Option<ActionBody>, content_type = "application/json"),
    responses((status = 200, description = "Done.", body = CommandAnswer), api::doc::JsonCommandErrors),
)]
async fn acknowledge(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<CommandAnswer> {
    run(&state, &actor, &headers, &id, ExceptionCommand::Acknowledge).await
}

/// Answer the exception (3 -> 4)
///
/// The customer, or an operator on the customer's behalf with a `note`. `confirmChanges`
/// confirms the proposed changes.
#[utoipa::path(
    post, path = "/api/v1/clearance-exceptions/{id}/respond", operation_id = "respondClearanceException",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::EXCEPTION), api::doc::IfMatch),
    request_body(content = ActionBody, content_type = "application/json"),
    responses((status = 200, description = "Done.", body = CommandAnswer), api::doc::JsonCommandErrors),
)]
async fn respond(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<ActionBody>,
) -> ApiResult<CommandAnswer> {
    let command = ExceptionCommand::Respond {
        confirm_changes: body.confirm_changes.unwrap_or(false),
        note: body.note,
        via_link: None,
        missing: missing_documents(body.missing),
    };
    run(&state, &actor, &headers, &id, command).await
}

/// Approve: review completed (4 -> 6)
///
/// Operators and admins, not the person who answered or uploaded. The declaration returns
/// to the status it had, with the confirmed proposed changes, in the same transaction.
#[utoipa::path(
    post, path = "/api/v1/clearance-exceptions/{id}/approve", operation_id = "approveClearanceException",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::EXCEPTION), api::doc::IfMatch),
    request_body(content = Option<ActionBody>, content_type = "application/json"),
    responses((status = 200, description = "Done.", body = CommandAnswer), api::doc::JsonCommandErrors),
)]
async fn approve(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<ActionBody>,
) -> ApiResult<CommandAnswer> {
    run(
        &state,
        &actor,
        &headers,
        &id,
        ExceptionCommand::Approve { note: body.note },
    )
    .await
}

/// Reject the answer as insufficient (4 -> 3)
///
/// Operators and admins, with a `reason`; the customer is asked again.
#[utoipa::path(
    post, path = "/api/v1/clearance-exceptions/{id}/reject", operation_id = "rejectClearanceException",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::EXCEPTION), api::doc::IfMatch),
    request_body(content = ActionBody, content_type = "application/json"),
    responses((status = 200, description = "Done.", body = CommandAnswer), api::doc::JsonCommandErrors),
)]
async fn reject(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<ActionBody>,
) -> ApiResult<CommandAnswer> {
    let command = ExceptionCommand::Reject {
        reason: body.reason.unwrap_or_default(),
    };
    run(&state, &actor, &headers, &id, command).await
}

/// Void the exception (1, 2, 3 -> 7; 4 -> 7 admins only)
///
/// Operators and admins with a `reason` (optional when it awaits review). The declaration
/// goes to 11 in the same transaction.
#[utoipa::path(
    post, path = "/api/v1/clearance-exceptions/{id}/void", operation_id = "voidClearanceException",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::EXCEPTION), api::doc::IfMatch),
    request_body(content = ActionBody, content_type = "application/json"),
    responses((status = 200, description = "Done.", body = CommandAnswer), api::doc::JsonCommandErrors),
)]
async fn void(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<ActionBody>,
) -> ApiResult<CommandAnswer> {
    let command = ExceptionCommand::Void {
        reason: body.reason,
    };
    run(&state, &actor, &headers, &id, command).await
}
