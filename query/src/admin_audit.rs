//! `GET /api/v1/admin/audit` (staff:management): the administration audit view from
//! `rm_admin_audit` (projection `admin_audit`): every change of accounts, roles, ports and
//! customers, newest first, as `{records: [{position, time, actorName, actorRole,
//! subjectType, subjectId, subjectLabel, action, changes: [{field, from, to}], reason}],
//! total}`.
//!
//! Filters: `subjectType` (account, role, port, customer), `subjectId` (the stream id),
//! `actor` (the actor's login, case-insensitive), `action` (the event type, e.g.
//! `RolePermissionsChanged`, case-insensitive), `keyword` (contains, in the subject label,
//! actor, action, reason or changes), `fromDate`/`toDate` (YYYYMMDD inclusive, Asia/Shanghai,
//! on the event time); `pageNo`/`pageSize`; `minPosition`.

use api::{ApiError, ApiResult, Guards, Page, Paging, Query, ok};
use axum::extract::State;
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::{FromRow, Postgres, QueryBuilder};
use uuid::Uuid;

use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::declaration_list::shanghai;

pub const PROJECTION: &str = "admin_audit";

/// The subject types: the audited streams.
pub const SUBJECT_TYPES: [&str; 4] = ["account", "role", "port", "customer"];

pub fn routes(g: &Guards) -> OpenApiRouter<QueryState> {
    let staff = g.permission("staff:management");
    OpenApiRouter::new().routes(routes!(list).map(|r| r.route_layer(staff)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AuditParams {
    /// One of [`SUBJECT_TYPES`].
    #[param(pattern = "^(account|role|port|customer)$")]
    pub subject_type: Option<String>,
    /// The subject's id.
    #[param(format = Uuid)]
    pub subject_id: Option<String>,
    /// The actor's login (case-insensitive).
    #[param(max_length = 100)]
    pub actor: Option<String>,
    /// The event type (case-insensitive).
    #[param(max_length = 100)]
    pub action: Option<String>,
    /// Contains, in label, actor, action, reason or changes.
    #[param(max_length = 100)]
    pub keyword: Option<String>,
    /// First day (YYYYMMDD, Asia/Shanghai, inclusive) on the event time.
    #[param(pattern = r"^\d{8}$", example = "20261122")]
    pub from_date: Option<String>,
    /// Last day (YYYYMMDD, Asia/Shanghai, inclusive) on the event time.
    #[param(pattern = r"^\d{8}$", example = "20261122")]
    pub to_date: Option<String>,
    /// 1-based page number (default 1).
    #[param(minimum = 1)]
    pub page_no: Option<i64>,
    /// Rows per page (default 10, at most 500).
    #[param(minimum = 1, maximum = 500)]
    pub page_size: Option<i64>,
    /// Wait up to 2 s until the read model has applied the event at this `position` (from a
    /// command's answer). A value that is not a 64-bit integer answers 400 naming
    /// `minPosition`.
    pub min_position: Option<i64>,
}

#[derive(Debug, FromRow)]
struct Row {
    position: i64,
    recorded_at: DateTime<Utc>,
    actor_name: Option<String>,
    actor_role: Option<String>,
    subject_type: String,
    subject_id: Uuid,
    subject_label: Option<String>,
    action: String,
    changes: sqlx::types::Json<Value>,
    reason: Option<String>,
}

/// One event of the account, role, port or customer streams.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditRecord {
    /// The event's global position (unique, increasing).
    pub position: i64,
    pub time: DateTime<FixedOffset>,
    pub actor_name: Option<String>,
    pub actor_role: Option<String>,
    pub subject_type: String,
    pub subject_id: Uuid,
    pub subject_label: Option<String>,
    pub action: String,
    #[schema(schema_with = audit_changes)]
    pub changes: Value,
    pub reason: Option<String>,
}

struct Filter {
    subject_type: Option<&'static str>,
    subject_id: Option<Uuid>,
    actor: Option<String>,
    action: Option<String>,
    pattern: Option<String>,
    from: Option<DateTime<Utc>>,
    to: Option<DateTime<Utc>>,
}

fn too_long(field: &str, value: &Option<String>) -> Result<(), ApiError> {
    if value.as_deref().is_some_and(|v| v.chars().count() > 100) {
        return Err(ApiError::bad_field(
            field,
            format!("{field} 最多 100 个字符"),
            format!("{field} has at most 100 characters"),
        ));
    }
    Ok(())
}

fn like(keyword: &str) -> String {
    let escaped = keyword
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!("%{}%", escaped.to_lowercase())
}

impl Filter {
    fn parse(p: &AuditParams) -> Result<Self, ApiError> {
        let subject_type = p
            .subject_type
            .as_deref()
            .map(|t| {
                SUBJECT_TYPES
                    .iter()
                    .copied()
                    .find(|k| k.eq_ignore_ascii_case(t))
                    .ok_or_else(|| {
                        ApiError::bad_field(
                            "subjectType",
                            format!("对象类型应为 {}", SUBJECT_TYPES.join(" ")),
                            format!("subjectType must be one of {}", SUBJECT_TYPES.join(" ")),
                        )
                    })
            })
            .transpose()?;
        let subject_id = p
            .subject_id
            .as_deref()
            .map(|id| {
                Uuid::parse_str(id).map_err(|_| {
                    ApiError::bad_field(
                        "subjectId",
                        "对象编号格式不正确",
                        "subjectId is not a UUID",
                    )
                })
            })
            .transpose()?;
        too_long("actor", &p.actor)?;
        too_long("action", &p.action)?;
        too_long("keyword", &p.keyword)?;
        let (from, to) = api::dates::parse_range(p.from_date.as_deref(), p.to_date.as_deref())?;
        Ok(Self {
            subject_type,
            subject_id,
            actor: p.actor.as_ref().map(|a| a.to_lowercase()),
            action: p.action.as_ref().map(|a| a.to_lowercase()),
            pattern: p.keyword.as_deref().map(like),
            from: from.map(api::dates::day_start_utc),
            to: to.map(api::dates::day_end_exclusive_utc),
        })
    }

    fn push_where(&self, qb: &mut QueryBuilder<'_, Postgres>) {
        qb.push(" WHERE true");
        if let Some(t) = self.subject_type {
            qb.push(" AND subject_type = ").push_bind(t);
        }
        if let Some(id) = self.subject_id {
            qb.push(" AND subject_id = ").push_bind(id);
        }
        if let Some(actor) = &self.actor {
            qb.push(" AND lower(actor_name) = ")
                .push_bind(actor.clone());
        }
        if let Some(action) = &self.action {
            qb.push(" AND lower(action) = ").push_bind(action.clone());
        }
        if let Some(p) = &self.pattern {
            qb.push(" AND (lower(coalesce(subject_label, '')) LIKE ")
                .push_bind(p.clone())
                .push(" OR lower(coalesce(actor_name, '')) LIKE ")
                .push_bind(p.clone())
                .push(" OR lower(action) LIKE ")
                .push_bind(p.clone())
                .push(" OR lower(coalesce(reason, '')) LIKE ")
                .push_bind(p.clone())
                .push(" OR lower(changes::text) LIKE ")
                .push_bind(p.clone())
                .push(")");
        }
        if let Some(from) = self.from {
            qb.push(" AND recorded_at >= ").push_bind(from);
        }
        if let Some(to) = self.to {
            qb.push(" AND recorded_at < ").push_bind(to);
        }
    }
}

/// Administration audit view
///
/// Needs `staff:management`. Every change of accounts, roles, ports and customers, newest
/// first.
#[utoipa::path(
    get, path = "/api/v1/admin/audit", operation_id = "adminAudit",
    tag = api::doc::AUTH, security(("bearer" = [])),
    params(AuditParams),
    responses((status = 200, description = "A page of audit records.", body = Page<AuditRecord>), api::doc::ListErrors),
)]
async fn list(
    State(state): State<QueryState>,
    Query(params): Query<AuditParams>,
) -> ApiResult<Page<AuditRecord>> {
    let (_, limit, offset) = Paging {
        page_no: params.page_no,
        page_size: params.page_size,
    }
    .resolve()?;
    let filter = Filter::parse(&params)?;
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let mut qb: QueryBuilder<'_, Postgres> = QueryBuilder::new(
        "SELECT position, recorded_at, actor_name, actor_role, subject_type, subject_id,
                subject_label, action, changes, reason FROM rm_admin_audit",
    );
    filter.push_where(&mut qb);
    qb.push(" ORDER BY recorded_at DESC, position DESC LIMIT ")
        .push_bind(limit)
        .push(" OFFSET ")
        .push_bind(offset);
    let rows: Vec<Row> = qb
        .build_query_as()
        .persistent(false)
        .fetch_all(&state.pool)
        .await?;
    let mut qb: QueryBuilder<'_, Postgres> =
        QueryBuilder::new("SELECT count(*) FROM rm_admin_audit");
    filter.push_where(&mut qb);
    let total: i64 = qb
        .build_query_scalar()
        .persistent(false)
        .fetch_one(&state.pool)
        .await?;
    let records = rows
        .into_iter()
        .map(|r| AuditRecord {
            position: r.position,
            time: shanghai(r.recorded_at),
            actor_name: r.actor_name,
            actor_role: r.actor_role,
            subject_type: r.subject_type,
            subject_id: r.subject_id,
            subject_label: r.subject_label,
            action: r.action,
            changes: r.changes.0,
            reason: r.reason,
        })
        .collect();
    Ok(ok(Page { records, total }).no_store())
}

/// `[ValueChange]` (`{field, from, to}`, the component the audit diff documents).
fn audit_changes() -> utoipa::openapi::Array {
    utoipa::openapi::ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name("ValueChange"))
        .description(Some("The fields the action changed, each from and to."))
        .build()
}
