//! The clearance exception queries, read from `rm_clearance_exceptions` and
//! `rm_clearance_exception_history` (projection `clearance_exception_list`):
//! `GET /api/v1/clearance-exceptions` (the lists), `GET .../{id}` (the detail) and
//! `GET .../{id}/history` (the timeline). Staff need `clearance:management`; customers pass
//! by role and only ever see their own company's exceptions (another's is 404).
//!
//! SLA: every row says since when it waits (`statusSince`), on whom (`waitingOn`: `staff`
//! in 1 and 4, `customer` in 2 and 3, none when closed), its age in minutes, and whether it
//! is `overdue`: waiting on the customer longer than `CLEARWAY_EXCEPTION_OVERDUE_HOURS`
//! (default 48).

use std::collections::HashMap;
use std::sync::OnceLock;

use api::{Actor, ApiError, ApiResult, Page, Paging};
use axum::extract::{Path, State};
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::{FromRow, Postgres, QueryBuilder};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::QueryState;
use crate::declaration_list::{codes, filter::parse_tracking_numbers, shanghai};

/// The projection this module reads.
pub const PROJECTION: &str = "clearance_exception_list";

/// Default hours an exception may wait on the customer before it is overdue.
pub const DEFAULT_OVERDUE_HOURS: i64 = 48;

/// The configured overdue time (`CLEARWAY_EXCEPTION_OVERDUE_HOURS`, whole hours >= 1).
pub fn overdue_hours() -> i64 {
    static HOURS: OnceLock<i64> = OnceLock::new();
    *HOURS.get_or_init(|| {
        std::env::var("CLEARWAY_EXCEPTION_OVERDUE_HOURS")
            .ok()
            .and_then(|v| v.trim().parse::<i64>().ok())
            .filter(|h| *h >= 1)
            .unwrap_or(DEFAULT_OVERDUE_HOURS)
    })
}

/// The exception statuses with their labels (-1 in a filter: all).
pub const STATUSES: [(i16, &str, &str); 6] = [
    (1, "待处理", "pending"),
    (2, "已通知客户", "customer notified"),
    (3, "待客户确认", "awaiting customer confirmation"),
    (4, "待审核", "awaiting review"),
    (6, "审核完成", "review completed"),
    (7, "已作废", "voided"),
];

pub fn status_label(code: i16, lang: api::Lang) -> &'static str {
    STATUSES
        .iter()
        .find(|(c, _, _)| *c == code)
        .map(|(_, zh, en)| lang.pick(zh, en))
        .unwrap_or("")
}

/// Whom an exception waits on in `status`.
pub fn waiting_on(status: i16) -> Option<&'static str> {
    match status {
        1 | 4 => Some("staff"),
        2 | 3 => Some("customer"),
        _ => None,
    }
}

/// The moves a role may make from a status, as the command side's table has them (for the
/// detail's buttons; the command side decides).
pub fn actions(status: i16, role: api::Role) -> Vec<&'static str> {
    use api::Role::*;
    let staff = matches!(role, Operator | Admin | SuperAdmin);
    let admin = matches!(role, Admin | SuperAdmin);
    let mut out = Vec::new();
    match status {
        1 if staff => out.extend(["notify", "void"]),
        2 if role == Customer => out.push("acknowledge"),
        2 if staff => out.extend(["notify", "void"]),
        3 if role == Customer => out.push("respond"),
        3 if role == Operator => out.extend(["respond", "notify", "void"]),
        3 if admin => out.extend(["notify", "void"]),
        4 if role == Operator => out.extend(["approve", "reject"]),
        4 if admin => out.extend(["approve", "reject", "void"]),
        _ => {}
    }
    out
}

/// `status`: a known exception status, or 400 naming `status`.
fn parse_status(value: Option<i64>) -> Result<Option<i16>, ApiError> {
    match value {
        None | Some(-1) => Ok(None),
        Some(v) => STATUSES
            .iter()
            .find(|(c, _, _)| i64::from(*c) == v)
            .map(|(c, _, _)| Some(*c))
            .ok_or_else(|| {
                ApiError::bad_field(
                    "status",
                    "status：状态代码无效（-1 全部，1 2 3 4 6 7）",
                    "status: unknown status (-1 all, 1 2 3 4 6 7)",
                )
            }),
    }
}

/// Staff need `clearance:management`; customers pass by role (their own only).
pub fn routes(g: &api::Guards) -> OpenApiRouter<QueryState> {
    let guard = g.customer_or_permission(&["clearance:management"]);
    OpenApiRouter::new()
        .routes(routes!(list).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(detail).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(history).map(|r| r.route_layer(guard)))
}

/// The list's query string (after `api::Query` cleaning: trimmed, `-1` and empty absent).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ExceptionListParams {
    /// -1 both (default), 0 import, 1 export.
    #[param(minimum = -1, maximum = 1)]
    pub shipment_type: Option<i64>,
    /// Class letter `B`, `C`, `D` (with `shipmentType`) or type code `OB OC OD IB IC ID`.
    pub declaration_type: Option<String>,
    /// -1 all (default), 1 pending, 2 customer notified, 3 awaiting customer confirmation,
    /// 4 awaiting review, 6 review completed, 7 voided.
    pub status: Option<i64>,
    pub port: Option<String>,
    /// One or many tracking numbers, separated by commas or newlines (exact match).
    pub tracking_number: Option<String>,
    /// First day (YYYYMMDD, Asia/Shanghai, inclusive) on the creation time.
    #[param(pattern = r"^\d{8}$", example = "20261122")]
    pub from_date: Option<String>,
    /// Last day (YYYYMMDD, Asia/Shanghai, inclusive) on the creation time.
    #[param(pattern = r"^\d{8}$", example = "20261122")]
    pub to_date: Option<String>,
    /// `1` creation time ascending, `2` descending (default); or `field,asc|desc` with
    /// field one of createdAt, updatedAt, status, trackingNumber, statusSince.
    pub sort: Option<String>,
    /// 1-based page number (default 1).
    #[param(minimum = 1)]
    pub page_no: Option<i64>,
    /// Rows per page (default 10, at most 500).
    #[param(minimum = 1, maximum = 500)]
    pub page_size: Option<i64>,
    /// Wait up to 2 s until the read model has applied the event at this `position`.
    pub min_position: Option<i64>,
}

/// The checked filters of the list and the export.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExceptionFilter {
    pub types: Vec<&'static str>,
    pub status: Option<i16>,
    pub port: Option<String>,
    pub tracking_numbers: Vec<String>,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
    pub customer_id: Option<Uuid>,
}

impl ExceptionFilter {
    /// Checks each parameter (400 naming it).
    #[allow(clippy::too_many_arguments)]
    pub fn parse(
        shipment_type: Option<i64>,
        declaration_type: Option<&str>,
        status: Option<i64>,
        port: Option<&str>,
        tracking_number: Option<&str>,
        from_date: Option<&str>,
        to_date: Option<&str>,
    ) -> Result<Self, ApiError> {
        let shipment_type = codes::parse_shipment_type("shipmentType", shipment_type)?;
        let (from, to) = api::dates::parse_range(from_date, to_date)?;
        Ok(Self {
            types: codes::resolve_types(declaration_type, shipment_type)?,
            status: parse_status(status)?,
            port: port
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string),
            tracking_numbers: parse_tracking_numbers(tracking_number)?,
            from: from.map(api::dates::day_start_utc),
            to: to.map(api::dates::day_end_exclusive_utc),
            customer_id: None,
        })
    }

    /// A customer sees their own company's exceptions only.
    pub fn restrict_to(&mut self, actor: &Actor) {
        if actor.is_customer() {
            self.customer_id = Some(actor.customer_id.unwrap_or_else(Uuid::nil));
        }
    }

    /// `WHERE ...` over `rm_clearance_exceptions`.
    pub fn push_where<'a>(&'a self, q: &mut QueryBuilder<'a, Postgres>) {
        q.push(" WHERE true");
        if !self.types.is_empty() {
            q.push(" AND declaration_type = ANY(")
                .push_bind(self.types.clone())
                .push(")");
        }
        if let Some(s) = self.status {
            q.push(" AND status = ").push_bind(s);
        }
        if let Some(p) = &self.port {
            q.push(" AND port = ").push_bind(p);
        }
        if !self.tracking_numbers.is_empty() {
            // Compared as the declaration list compares them: no case, spaces or hyphens.
            q.push(" AND ")
                .push(crate::declaration_list::filter::TRACKING_KEY)
                .push(" = ANY(")
                .push_bind(&self.tracking_numbers)
                .push(")");
        }
        if let Some(f) = self.from {
            q.push(" AND created_at >= ").push_bind(f);
        }
        if let Some(t) = self.to {
            q.push(" AND created_at < ").push_bind(t);
        }
        if let Some(c) = self.customer_id {
            q.push(" AND customer_id = ").push_bind(c);
        }
    }
}

/// `sort` as an ORDER BY clause (whitelisted), or 400 naming `sort`.
pub fn order_by(sort: Option<&str>) -> Result<String, ApiError> {
    let bad = || {
        ApiError::bad_field(
            "sort",
            "sort：应为 1、2 或 字段,asc|desc（createdAt updatedAt status trackingNumber statusSince）",
            "sort: 1, 2 or field,asc|desc (createdAt updatedAt status trackingNumber statusSince)",
        )
    };
    let Some(raw) = sort.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok("created_at DESC, id DESC".into());
    };
    match raw {
        "1" => return Ok("created_at ASC, id ASC".into()),
        "2" => return Ok("created_at DESC, id DESC".into()),
        _ => {}
    }
    let (field, dir) = raw.split_once(',').unwrap_or((raw, "asc"));
    let column = match field.trim() {
        "createdAt" => "created_at",
        "updatedAt" => "updated_at",
        "status" => "status",
        "trackingNumber" => "tracking_number",
        "statusSince" => "status_since",
        _ => return Err(bad()),
    };
    let dir = match dir.trim().to_ascii_lowercase().as_str() {
        "asc" => "ASC",
        "desc" => "DESC",
        _ => return Err(bad()),
    };
    Ok(format!("{column} {dir}, created_at DESC, id DESC"))
}

/// The columns every row query reads.
pub const COLUMNS: &str = "id, version, declaration_id, customer_id, username, company_name, \
    declaration_type, shipment_type, tracking_number, port, status, declaration_status, form, \
    proposed_changes, confirmed, channels, contacts, notice_count, documents, last_reason, \
    missing_documents, created_at, created_by, updated_at, status_since";

#[derive(Debug, Clone, FromRow)]
pub struct ExceptionRow {
    pub id: Uuid,
    pub version: i64,
    pub declaration_id: Uuid,
    pub customer_id: Uuid,
    pub username: String,
    pub company_name: Option<String>,
    pub declaration_type: String,
    pub shipment_type: i16,
    pub tracking_number: Option<String>,
    pub port: Option<String>,
    pub status: i16,
    pub declaration_status: i16,
    pub form: sqlx::types::Json<Value>,
    pub proposed_changes: sqlx::types::Json<Value>,
    pub confirmed: bool,
    pub channels: sqlx::types::Json<Value>,
    pub contacts: sqlx::types::Json<Value>,
    pub notice_count: i32,
    pub documents: sqlx::types::Json<Value>,
    pub last_reason: Option<String>,
    pub missing_documents: sqlx::types::Json<Value>,
    pub created_at: DateTime<Utc>,
    pub created_by: Option<String>,
    pub updated_at: DateTime<Utc>,
    pub status_since: DateTime<Utc>,
}

/// The document-request flags of the form, in the spec's order, as the list names them.
const DOCUMENT_FLAGS: [(&str, &str); 13] = [
    ("isPersonalIdChecked", "personalId"),
    ("isPassportChecked", "passport"),
    ("isPoaChecked", "poa"),
    ("isElectronicProxyChecked", "electronicProxy"),
    ("isWaybillChecked", "waybill"),
    ("isPackingListChecked", "packingList"),
    ("isCommercialInvoiceChecked", "commercialInvoice"),
    ("isTradeContractChecked", "tradeContract"),
    ("isProxyProtocolChecked", "proxyProtocol"),
    ("isPriceExemptionChecked", "priceExemption"),
    ("isFactSheetChecked", "factSheet"),
    ("isLegalInspectionChecked", "legalInspection"),
    ("isOriginCertificateChecked", "originCertificate"),
];

impl ExceptionRow {
    /// The requested documents (flags set, then the other documents by name).
    pub fn requested_documents(&self) -> Vec<String> {
        let form = &self.form.0;
        let mut out: Vec<String> = DOCUMENT_FLAGS
            .iter()
            .filter(|(flag, _)| form.get(*flag).and_then(Value::as_bool) == Some(true))
            .map(|(_, name)| (*name).to_string())
            .collect();
        if let Some(Value::Array(other)) = form.get("otherDocuments") {
            out.extend(other.iter().filter_map(Value::as_str).map(str::to_string));
        }
        out
    }

    /// The exception details' codes and descriptions, one line each.
    pub fn details_text(&self) -> String {
        let Some(Value::Array(details)) = self.form.0.get("exceptionDetails") else {
            return String::new();
        };
        details
            .iter()
            .map(|d| {
                let code = d.get("exceptionCode").and_then(Value::as_str).unwrap_or("");
                let text = d
                    .get("exceptionDescription")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                [code, text]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The row as the lists show it; `delivery`: where its last notice stands (see
    /// [`notice_deliveries`]).
    pub fn summary(
        &self,
        now: DateTime<Utc>,
        lang: api::Lang,
        delivery: NoticeDelivery,
    ) -> ExceptionSummary {
        // A notice that reached no one leaves staff to act (resend, another channel), not
        // the customer, who was never told.
        let waiting_on = match waiting_on(self.status) {
            Some("customer") if delivery.state == NOT_DELIVERED => Some("staff"),
            other => other,
        };
        let age_minutes = (now - self.status_since).num_minutes().max(0);
        ExceptionSummary {
            id: self.id,
            version: self.version,
            declaration_id: self.declaration_id,
            tracking_number: self.tracking_number.clone(),
            declaration_type: self.declaration_type.clone(),
            shipment_type: self.shipment_type,
            port: self.port.clone(),
            username: self.username.clone(),
            company_name: self.company_name.clone(),
            status: self.status,
            status_label: status_label(self.status, lang).to_string(),
            exception_summary: self
                .form
                .0
                .get("exceptionSummary")
                .and_then(Value::as_str)
                .map(str::to_string),
            requested_documents: self.requested_documents(),
            notice_count: self.notice_count,
            notice_delivery: delivery,
            created_at: shanghai(self.created_at),
            created_by: self.created_by.clone(),
            updated_at: shanghai(self.updated_at),
            status_since: shanghai(self.status_since),
            waiting_on: waiting_on.map(str::to_string),
            age_minutes,
            overdue: waiting_on == Some("customer") && age_minutes >= overdue_hours() * 60,
        }
    }
}

/// One row of the exception lists.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionSummary {
    pub id: Uuid,
    /// The exception's stream version (`If-Match` of its moves).
    pub version: i64,
    pub declaration_id: Uuid,
    pub tracking_number: Option<String>,
    /// `OB OC OD IB IC ID`.
    pub declaration_type: String,
    /// 0 import, 1 export.
    pub shipment_type: i16,
    pub port: Option<String>,
    /// The customer account owning the declaration.
    pub username: String,
    pub company_name: Option<String>,
    /// 1 pending, 2 customer notified, 3 awaiting customer confirmation, 4 awaiting
    /// review, 6 review completed, 7 voided.
    pub status: i16,
    /// The status in the caller's language.
    pub status_label: String,
    pub exception_summary: Option<String>,
    /// Requested documents: flag names (`commercialInvoice`, ...) then other documents.
    pub requested_documents: Vec<String>,
    /// How many notices were sent.
    pub notice_count: i32,
    /// Whether the last notice (notify, or the rejection's) reached the customer.
    pub notice_delivery: NoticeDelivery,
    /// +08:00.
    pub created_at: DateTime<FixedOffset>,
    pub created_by: Option<String>,
    pub updated_at: DateTime<FixedOffset>,
    /// When the current status began: the SLA's "waiting since".
    pub status_since: DateTime<FixedOffset>,
    /// `staff`, `customer`, or null when closed.
    pub waiting_on: Option<String>,
    /// Minutes in the current status.
    pub age_minutes: i64,
    /// Waiting on the customer longer than the configured time.
    pub overdue: bool,
}

/// A clearance exception with everything the detail screens show.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionView {
    #[serde(flatten)]
    pub summary: ExceptionSummary,
    /// The declaration's status when the exception was raised.
    pub declaration_status: i16,
    /// The whole form as raised (the spec's "Exception and documents" and "Notification
    /// contact" fields, camelCase).
    #[schema(value_type = Object)]
    pub form: Value,
    /// `[{kind, field, old, new}]`: proposed changes, old -> new.
    #[schema(value_type = Vec<Object>)]
    pub proposed_changes: Value,
    /// The customer confirmed the proposed changes.
    pub confirmed: bool,
    /// The last notice's channels.
    #[schema(value_type = Vec<String>)]
    pub channels: Value,
    /// The last notice's contacts `[{channel, party, address}]`.
    #[schema(value_type = Vec<Object>)]
    pub contacts: Value,
    /// `[{documentId, fileName, contentType, size, sha256, uploadedBy, uploadedAt,
    /// requested}]`; `requested` names the requested document the file supplies (one of
    /// `requestedDocuments`), null for a file sent beside the request.
    #[schema(value_type = Vec<Object>)]
    pub documents: Value,
    /// The last reason given (reject, void).
    pub last_reason: Option<String>,
    /// The last answer's requested documents that came without a file, each with the
    /// customer's reason: `[{document, reason}]`.
    #[schema(value_type = Vec<Object>)]
    pub missing_documents: Value,
    /// The moves the caller may make now.
    pub actions: Vec<String>,
    /// The delivery log of the notices: one entry per channel and recipient of each notice.
    pub deliveries: Vec<ExceptionDelivery>,
}

/// One delivery of a notice (on one channel to one recipient) and where it stands.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[schema(as = ClearanceExceptionDelivery)]
pub struct ExceptionDelivery {
    pub id: Uuid,
    /// `notify` (the exception was notified), `reject` (rejected back to the customer) or
    /// `remind` (the automatic reminder of an overdue exception).
    pub kind: String,
    /// `wechat`, `email` or `sms`.
    pub channel: String,
    /// The recipient, masked (`a***@example.com`, `138****5678`).
    pub recipient: String,
    /// `pending` (waiting, or being sent), `sent`, `failed` (no attempt left) or
    /// `not_configured` (no provider for the channel; nothing was sent).
    pub status: String,
    pub attempts: i32,
    /// The provider's reason of the last failed attempt.
    pub last_error: Option<String>,
    /// When the next attempt is due (pending only).
    pub next_attempt_at: Option<chrono::DateTime<Utc>>,
    pub updated_at: chrono::DateTime<Utc>,
}

/// The deliveries of exception `id`, oldest notice first.
pub async fn deliveries(pool: &sqlx::PgPool, id: Uuid) -> Result<Vec<ExceptionDelivery>, ApiError> {
    Ok(sqlx::query_as(
        "SELECT id, kind, channel, recipient_masked AS recipient,
                CASE WHEN status = 'sending' THEN 'pending' ELSE status END AS status,
                attempts, last_error,
                CASE WHEN status IN ('pending', 'sending') THEN next_attempt_at END
                    AS next_attempt_at,
                updated_at
           FROM exception_deliveries WHERE exception_id = $1
          ORDER BY notice_version, channel, recipient",
    )
    .bind(id)
    .fetch_all(pool)
    .await?)
}

const NOT_DELIVERED: &str = "not_delivered";

/// Where an exception's last notice stands: `none` (no notice yet), `pending` (being sent,
/// nothing delivered yet), `delivered` (it reached the customer on at least one channel) or
/// `not_delivered` (every attempt ended and none reached anyone, or it had no recipient),
/// with why, per channel and recipient.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoticeDelivery {
    /// `none`, `pending`, `delivered` or `not_delivered`.
    pub state: String,
    /// Why it was not delivered (staff only; empty for customers and when delivered).
    pub problems: Vec<DeliveryProblem>,
}

/// One delivery of the last notice that did not reach its recipient.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryProblem {
    /// `wechat`, `email` or `sms`.
    pub channel: String,
    /// Masked (`a***@example.com`).
    pub recipient: String,
    /// `failed` or `not_configured`.
    pub status: String,
    /// The provider's reason of the last failed attempt.
    pub error: Option<String>,
}

impl NoticeDelivery {
    fn state(state: &str) -> Self {
        Self {
            state: state.to_string(),
            problems: Vec::new(),
        }
    }

    /// What `actor` is shown: a customer the state only, never the channels' plumbing.
    fn for_reader(mut self, actor: &Actor) -> Self {
        if actor.role == api::Role::Customer {
            self.problems.clear();
        }
        self
    }
}

/// Where the last notice of each of `rows` stands, as `actor` may read it. The last notice
/// is the latest notify or rejection (the reminder repeats one the customer may already
/// have had).
pub async fn notice_deliveries(
    pool: &sqlx::PgPool,
    rows: &[ExceptionRow],
    actor: &Actor,
) -> Result<HashMap<Uuid, NoticeDelivery>, ApiError> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let found: Vec<(Uuid, sqlx::types::Json<DeliveryProblem>)> = sqlx::query_as(
        "SELECT d.exception_id,
                jsonb_build_object('channel', d.channel, 'recipient', d.recipient_masked,
                                   'status', d.status, 'error', d.last_error)
           FROM exception_deliveries d
          WHERE d.exception_id = ANY($1) AND d.kind IN ('notify', 'reject')
            AND d.notice_version = (SELECT max(l.notice_version) FROM exception_deliveries l
                                     WHERE l.exception_id = d.exception_id
                                       AND l.kind IN ('notify', 'reject'))
          ORDER BY d.channel, d.recipient_masked",
    )
    .bind(&ids)
    .fetch_all(pool)
    .await?;
    let mut by_id: HashMap<Uuid, Vec<DeliveryProblem>> = HashMap::new();
    for (id, delivery) in found {
        by_id.entry(id).or_default().push(delivery.0);
    }
    Ok(rows
        .iter()
        .map(|r| {
            let deliveries = by_id.remove(&r.id).unwrap_or_default();
            (
                r.id,
                delivery_of(r.notice_count, deliveries).for_reader(actor),
            )
        })
        .collect())
}

/// The state of one exception's last notice from its deliveries.
fn delivery_of(notice_count: i32, deliveries: Vec<DeliveryProblem>) -> NoticeDelivery {
    if notice_count == 0 && deliveries.is_empty() {
        return NoticeDelivery::state("none");
    }
    if deliveries.is_empty() {
        // Notified, but to no one: no channel had a recipient.
        return NoticeDelivery {
            state: NOT_DELIVERED.into(),
            problems: vec![DeliveryProblem {
                channel: String::new(),
                recipient: String::new(),
                status: "no_recipient".into(),
                error: None,
            }],
        };
    }
    if deliveries.iter().any(|d| d.status == "sent") {
        return NoticeDelivery::state("delivered");
    }
    if deliveries
        .iter()
        .any(|d| matches!(d.status.as_str(), "pending" | "sending"))
    {
        return NoticeDelivery::state("pending");
    }
    NoticeDelivery {
        state: NOT_DELIVERED.into(),
        problems: deliveries,
    }
}

/// A page of exceptions for `filter`.
pub async fn fetch_page(
    pool: &sqlx::PgPool,
    filter: &ExceptionFilter,
    order_by: &str,
    limit: i64,
    offset: i64,
) -> Result<(Vec<ExceptionRow>, i64), ApiError> {
    let mut q = QueryBuilder::new(format!("SELECT {COLUMNS} FROM rm_clearance_exceptions"));
    filter.push_where(&mut q);
    q.push(format!(" ORDER BY {order_by} LIMIT "))
        .push_bind(limit)
        .push(" OFFSET ")
        .push_bind(offset);
    let rows: Vec<ExceptionRow> = q.build_query_as().fetch_all(pool).await?;
    let mut c = QueryBuilder::new("SELECT count(*) FROM rm_clearance_exceptions");
    filter.push_where(&mut c);
    let total: i64 = c.build_query_scalar().fetch_one(pool).await?;
    Ok((rows, total))
}

/// One exception the caller may see, or `None`.
pub async fn fetch_one(
    pool: &sqlx::PgPool,
    actor: &Actor,
    id: Uuid,
) -> Result<Option<ExceptionRow>, ApiError> {
    let row: Option<ExceptionRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM rm_clearance_exceptions WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(pool)
    .await?;
    Ok(row.filter(|r| actor.can_see(r.customer_id)))
}

/// Clearance exceptions
///
/// The lists of staff (`clearance:management`) and customers (their own only), newest
/// first unless `sort` says otherwise, with the SLA fields.
#[utoipa::path(
    get, path = "/api/v1/clearance-exceptions", operation_id = "listClearanceExceptions",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(ExceptionListParams),
    responses(
        (status = 200, description = "A page of exceptions.", body = Page<ExceptionSummary>),
        api::doc::ListErrors,
    ),
)]
async fn list(
    State(state): State<QueryState>,
    actor: Actor,
    api::Query(params): api::Query<ExceptionListParams>,
) -> ApiResult<Page<ExceptionSummary>> {
    let lang = api::lang::current();
    let (_, page_size, offset) = Paging {
        page_no: params.page_no,
        page_size: params.page_size,
    }
    .resolve()?;
    let order_by = order_by(params.sort.as_deref())?;
    let mut filter = ExceptionFilter::parse(
        params.shipment_type,
        params.declaration_type.as_deref(),
        params.status,
        params.port.as_deref(),
        params.tracking_number.as_deref(),
        params.from_date.as_deref(),
        params.to_date.as_deref(),
    )?;
    filter.restrict_to(&actor);
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let (rows, total) = fetch_page(&state.pool, &filter, &order_by, page_size, offset).await?;
    let now = Utc::now();
    let mut delivery = notice_deliveries(&state.pool, &rows, &actor).await?;
    let records = rows
        .iter()
        .map(|r| r.summary(now, lang, delivery.remove(&r.id).unwrap_or_default()))
        .collect();
    Ok(api::ok(Page { records, total }).no_store())
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct WaitParams {
    /// Wait up to 2 s until the read model has applied the event at this `position`.
    pub min_position: Option<i64>,
}

/// A clearance exception
///
/// Its form, proposed changes, notices, documents, version and the moves the caller may
/// make now. Another customer's is 404.
#[utoipa::path(
    get, path = "/api/v1/clearance-exceptions/{id}", operation_id = "getClearanceException",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::EXCEPTION_READ), WaitParams),
    responses((status = 200, description = "The exception.", body = ExceptionView), api::doc::ReadErrors),
)]
async fn detail(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    api::Query(params): api::Query<WaitParams>,
) -> ApiResult<ExceptionView> {
    let lang = api::lang::current();
    let id = Uuid::parse_str(id.trim()).map_err(|_| ApiError::not_found())?;
    crate::wait::wait_for(
        &state.pool,
        &[PROJECTION, "exception_outbox"],
        params.min_position,
    )
    .await?;
    let row = fetch_one(&state.pool, &actor, id)
        .await?
        .ok_or_else(ApiError::not_found)?;
    let customer = actor.role == api::Role::Customer;
    let delivery = notice_deliveries(&state.pool, std::slice::from_ref(&row), &actor)
        .await?
        .remove(&row.id)
        .unwrap_or_default();
    let view = ExceptionView {
        summary: row.summary(Utc::now(), lang, delivery),
        declaration_status: row.declaration_status,
        form: row.form.0.clone(),
        proposed_changes: row.proposed_changes.0.clone(),
        confirmed: row.confirmed,
        channels: row.channels.0.clone(),
        contacts: row.contacts.0.clone(),
        documents: row.documents.0.clone(),
        last_reason: row.last_reason.clone(),
        missing_documents: row.missing_documents.0.clone(),
        actions: actions(row.status, actor.role)
            .into_iter()
            .map(str::to_string)
            .collect(),
        // The delivery log is staff's: a customer sees what is asked of them, not the
        // channels' plumbing.
        deliveries: if customer {
            Vec::new()
        } else {
            deliveries(&state.pool, id).await?
        },
    };
    Ok(api::ok(view).no_store())
}

/// Who made a move (null fields for the system).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ClearanceHistoryActor)]
pub struct Who {
    pub id: Option<Uuid>,
    pub name: Option<String>,
    /// A customer reads the system's own moves (reminders, customs) as `SYSTEM`, with no
    /// name or id.
    pub role: Option<String>,
}

/// One event of an exception's timeline.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionHistoryEntry {
    /// The exception's version after this event.
    pub version: i64,
    /// The event's global position.
    pub position: i64,
    /// +08:00.
    pub at: DateTime<FixedOffset>,
    pub actor: Who,
    pub event_type: String,
    /// raise, notify, acknowledge, respond, approve, reject, void, upload.
    pub action: String,
    pub from_status: Option<i16>,
    pub to_status: Option<i16>,
    pub reason: Option<String>,
    pub note: Option<String>,
    /// The event's data (channels and contacts of a notice, a document, the form).
    #[schema(value_type = Object)]
    pub detail: Value,
}

#[derive(Debug, FromRow)]
struct HistoryRow {
    version: i64,
    position: i64,
    recorded_at: DateTime<Utc>,
    customer_id: Uuid,
    actor_id: Option<Uuid>,
    actor_name: Option<String>,
    actor_role: Option<String>,
    event_type: String,
    action: String,
    from_status: Option<i16>,
    to_status: Option<i16>,
    reason: Option<String>,
    note: Option<String>,
    detail: sqlx::types::Json<Value>,
}

/// A clearance exception's history
///
/// Every event in version order: who, when, status from -> to, reason or note, and the
/// event's data. Another customer's is 404.
#[utoipa::path(
    get, path = "/api/v1/clearance-exceptions/{id}/history", operation_id = "clearanceExceptionHistory",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::EXCEPTION_READ), WaitParams),
    responses((status = 200, description = "The events.", body = Vec<ExceptionHistoryEntry>), api::doc::ReadErrors),
)]
async fn history(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    api::Query(params): api::Query<WaitParams>,
) -> ApiResult<Vec<ExceptionHistoryEntry>> {
    let id = Uuid::parse_str(id.trim()).map_err(|_| ApiError::not_found())?;
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let rows: Vec<HistoryRow> = sqlx::query_as(
        "SELECT version, position, recorded_at, customer_id, actor_id, actor_name, actor_role,
                event_type, action, from_status, to_status, reason, note, detail
           FROM rm_clearance_exception_history WHERE exception_id = $1 ORDER BY version",
    )
    .bind(id)
    .fetch_all(&state.pool)
    .await?;
    if rows.is_empty() || !rows.iter().all(|r| actor.can_see(r.customer_id)) {
        return Err(ApiError::not_found());
    }
    // A customer reads what happened to their exception, not the channels' plumbing: no
    // delivery attempts, and the system's own moves (reminders, customs) named as the
    // system, not as the account that runs it.
    let customer = actor.role == api::Role::Customer;
    let entries = rows
        .into_iter()
        .filter(|r| !(customer && r.action == "delivery"))
        .map(|r| ExceptionHistoryEntry {
            detail: masked_detail(&r.action, r.detail.0),
            version: r.version,
            position: r.position,
            at: shanghai(r.recorded_at),
            actor: if customer && r.actor_id.is_none_or(|a| a.is_nil()) {
                Who {
                    id: None,
                    name: None,
                    role: Some("SYSTEM".into()),
                }
            } else {
                Who {
                    id: r.actor_id,
                    name: r.actor_name,
                    role: r.actor_role,
                }
            },
            event_type: r.event_type,
            action: r.action,
            from_status: r.from_status,
            to_status: r.to_status,
            reason: r.reason,
            note: r.note,
        })
        .collect();
    Ok(api::ok(entries).no_store())
}

/// A delivery attempt's recipient is kept whole in the timeline's row (so an erasure finds
/// and scrubs it) and masked on the way out, as the delivery log shows it.
fn masked_detail(action: &str, mut detail: Value) -> Value {
    if action == "delivery"
        && let Some(Value::String(recipient)) = detail.get_mut("recipient")
    {
        *recipient = crate::declaration_list::mask::mask_contact(recipient);
    }
    detail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delivery_recipient_is_masked_on_the_way_out() {
        let detail = serde_json::json!({"channel": "sms", "recipient": "13812345678"});
        assert_eq!(
            masked_detail("delivery", detail.clone())["recipient"],
            "138****5678"
        );
        assert_eq!(masked_detail("notify", detail)["recipient"], "13812345678");
    }

    #[test]
    fn sort_takes_the_spec_codes_and_whitelisted_fields() {
        assert_eq!(
            order_by(Some("1")).ok().as_deref(),
            Some("created_at ASC, id ASC")
        );
        assert_eq!(
            order_by(Some("2")).ok().as_deref(),
            Some("created_at DESC, id DESC")
        );
        assert_eq!(
            order_by(None).ok().as_deref(),
            Some("created_at DESC, id DESC")
        );
        assert!(order_by(Some("status,desc")).is_ok());
        assert!(order_by(Some("3")).is_err());
        assert!(order_by(Some("password,asc")).is_err());
    }

    #[test]
    fn the_buttons_follow_the_command_table() {
        use api::Role::*;
        assert_eq!(actions(1, Operator), ["notify", "void"]);
        assert_eq!(actions(2, Customer), ["acknowledge"]);
        assert_eq!(actions(2, Operator), ["notify", "void"]);
        assert_eq!(actions(3, Operator), ["respond", "notify", "void"]);
        assert_eq!(actions(3, Admin), ["notify", "void"]);
        assert_eq!(actions(4, Operator), ["approve", "reject"]);
        assert_eq!(actions(4, SuperAdmin), ["approve", "reject", "void"]);
        assert!(actions(6, Admin).is_empty());
        assert!(actions(4, Customer).is_empty());
    }

    #[test]
    fn statuses_parse_and_5_is_refused() {
        assert_eq!(parse_status(Some(-1)).ok(), Some(None));
        assert_eq!(parse_status(Some(4)).ok(), Some(Some(4)));
        assert!(parse_status(Some(5)).is_err());
        assert_eq!(waiting_on(2), Some("customer"));
        assert_eq!(waiting_on(4), Some("staff"));
        assert_eq!(waiting_on(7), None);
    }
}
