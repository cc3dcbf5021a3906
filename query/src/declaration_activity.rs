//! `GET /api/v1/declarations/activity`: the declaration event feed across declarations (who
//! did what, when), newest first, from `rm_declaration_history`.
//!
//! Filters: `actor` (the actor name recorded with the event), `action` (create, edit,
//! submit, withdraw, review, return, complete, reject, redeclare, send-back, amend, delete),
//! `declarationType` (class letter or type code), `trackingNumber` (one or many, as the
//! declaration had it when the event happened), `fromDate`/`toDate` (YYYYMMDD inclusive,
//! Asia/Shanghai, on the event time); paged. Customers see only their own company's
//! declarations' events.
//!
//! Personal ID numbers and phone numbers in the recorded changes (`old` and `new` of
//! `recipientIdNumber`, `shipperIdNumber`, `shipperPhone`, `recipientPhone`) are masked for
//! every role, as in the lists and exports: the feed spans declarations, and whoever needs
//! the full value opens the declaration (its detail and history show it to the owner and
//! staff).

use api::{Actor, ApiError, ApiResult, Page, Paging};
use axum::extract::State;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::{Postgres, QueryBuilder};
use uuid::Uuid;

use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::declaration_history::{ACTIONS, HISTORY_COLUMNS, HistoryEntry, HistoryRow, PROJECTION};
use crate::declaration_list::mask::{mask_id_number, mask_phone};
use crate::declaration_list::{codes, filter};

/// Staff need `declarations:management`; customers pass by role and see their own
/// company's declarations only.
pub fn routes(g: &api::Guards) -> OpenApiRouter<QueryState> {
    let declarations = g.customer_or_permission(&["declarations:management"]);
    OpenApiRouter::new().routes(routes!(activity).map(|r| r.route_layer(declarations)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ActivityParams {
    /// The actor's username.
    pub actor: Option<String>,
    /// One of [`ACTIONS`].
    #[param(
        pattern = "^(create|edit|submit|withdraw|review|return|complete|reject|redeclare|send-back|amend|delete)$"
    )]
    pub action: Option<String>,
    /// Class letter `B`, `C`, `D` (with `shipmentType`) or type code `OB OC OD IB IC ID`.
    pub declaration_type: Option<String>,
    /// -1 both (default), 0 import, 1 export; a type code it contradicts answers 400.
    #[param(minimum = -1, maximum = 1)]
    pub shipment_type: Option<i64>,
    /// One or many tracking numbers, separated by commas or newlines (exact match).
    pub tracking_number: Option<String>,
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

/// A history entry and the declaration it belongs to (`ActivityEntry` of docs/api.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActivityEntry {
    #[serde(flatten)]
    pub entry: HistoryEntry,
    pub declaration_id: Uuid,
    /// As the declaration had it when the event happened.
    pub tracking_number: Option<String>,
    /// Type code.
    pub declaration_type: Option<String>,
}

struct ActivityFilter {
    actor: Option<String>,
    action: Option<&'static str>,
    types: Vec<&'static str>,
    tracking_numbers: Vec<String>,
    customer_id: Option<Uuid>,
    from: Option<DateTime<Utc>>,
    to: Option<DateTime<Utc>>,
}

impl ActivityFilter {
    fn parse(params: &ActivityParams, actor: &Actor) -> Result<Self, ApiError> {
        let action = params
            .action
            .as_deref()
            .map(|a| {
                ACTIONS
                    .iter()
                    .copied()
                    .find(|known| known.eq_ignore_ascii_case(a))
                    .ok_or_else(|| {
                        ApiError::bad_field(
                            "action",
                            format!("操作应为 {}", ACTIONS.join(" ")),
                            format!("action must be one of {}", ACTIONS.join(" ")),
                        )
                    })
            })
            .transpose()?;
        let shipment_type = codes::parse_shipment_type("shipmentType", params.shipment_type)?;
        let (from, to) =
            api::dates::parse_range(params.from_date.as_deref(), params.to_date.as_deref())?;
        Ok(Self {
            actor: params.actor.clone(),
            action,
            types: codes::resolve_types(params.declaration_type.as_deref(), shipment_type)?,
            tracking_numbers: filter::parse_tracking_numbers(params.tracking_number.as_deref())?,
            customer_id: actor
                .is_customer()
                .then(|| actor.customer_id.unwrap_or(Uuid::nil())),
            from: from.map(api::dates::day_start_utc),
            to: to.map(api::dates::day_end_exclusive_utc),
        })
    }

    fn push_where(&self, qb: &mut QueryBuilder<'_, Postgres>) {
        qb.push(" WHERE true");
        if let Some(customer_id) = self.customer_id {
            qb.push(" AND customer_id = ").push_bind(customer_id);
        }
        if let Some(actor) = &self.actor {
            qb.push(" AND actor_name = ").push_bind(actor.clone());
        }
        if let Some(action) = self.action {
            qb.push(" AND action = '").push(action).push("'");
        }
        if !self.types.is_empty() {
            qb.push(" AND declaration_type IN (");
            for (i, code) in self.types.iter().enumerate() {
                if i > 0 {
                    qb.push(", ");
                }
                qb.push("'").push(*code).push("'");
            }
            qb.push(")");
        }
        if !self.tracking_numbers.is_empty() {
            qb.push(" AND ")
                .push(filter::TRACKING_KEY)
                .push(" = ANY(")
                .push_bind(self.tracking_numbers.clone())
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

pub async fn load(
    pool: &sqlx::PgPool,
    actor: &Actor,
    params: &ActivityParams,
) -> Result<Page<ActivityEntry>, ApiError> {
    let paging = Paging {
        page_no: params.page_no,
        page_size: params.page_size,
    };
    let (_, limit, offset) = paging.resolve()?;
    let filter = ActivityFilter::parse(params, actor)?;
    let mut qb: QueryBuilder<'_, Postgres> = QueryBuilder::new("SELECT ");
    qb.push(HISTORY_COLUMNS)
        .push(" FROM rm_declaration_history");
    filter.push_where(&mut qb);
    qb.push(" ORDER BY recorded_at DESC, position DESC LIMIT ")
        .push_bind(limit)
        .push(" OFFSET ")
        .push_bind(offset);
    let rows: Vec<HistoryRow> = qb
        .build_query_as()
        .persistent(false)
        .fetch_all(pool)
        .await?;
    let fetched = i64::try_from(rows.len()).unwrap_or(i64::MAX);
    let total = if fetched < limit && (fetched > 0 || offset == 0) {
        offset + fetched
    } else {
        let mut qb: QueryBuilder<'_, Postgres> =
            QueryBuilder::new("SELECT count(*) FROM rm_declaration_history");
        filter.push_where(&mut qb);
        qb.build_query_scalar()
            .persistent(false)
            .fetch_one(pool)
            .await?
    };
    let records = rows
        .iter()
        .map(|r| ActivityEntry {
            entry: masked(HistoryEntry::from(r)),
            declaration_id: r.declaration_id,
            tracking_number: r.tracking_number.clone(),
            declaration_type: r.declaration_type.clone(),
        })
        .collect();
    Ok(Page { records, total })
}

/// The fields of the form that carry personal data, and how each is masked.
fn personal(field: &str) -> Option<fn(&str) -> String> {
    match field {
        "recipientIdNumber" | "shipperIdNumber" => Some(mask_id_number),
        "shipperPhone" | "recipientPhone" => Some(mask_phone),
        _ => None,
    }
}

/// `entry` with the personal values of its changes masked.
fn masked(mut entry: HistoryEntry) -> HistoryEntry {
    mask_changes(&mut entry.changes);
    entry
}

/// Masks `old` and `new` of every `{field, old, new}` change of a personal field.
pub fn mask_changes(changes: &mut Value) {
    let Value::Array(items) = changes else { return };
    for change in items {
        let Some(mask) = change
            .get("field")
            .and_then(Value::as_str)
            .and_then(personal)
        else {
            continue;
        };
        for side in ["old", "new"] {
            if let Some(v) = change.get_mut(side)
                && let Some(text) = v.as_str()
            {
                *v = Value::String(mask(text));
            }
        }
    }
}

/// Activity feed: who did what, when
///
/// Events across declarations, newest first. Customers see their own company's only.
/// Staff need `declarations:management` (403 without it).
#[utoipa::path(
    get, path = "/api/v1/declarations/activity", operation_id = "declarationActivity",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(ActivityParams),
    responses((status = 200, description = "A page of events.", body = Page<ActivityEntry>), api::doc::ListErrors),
)]
async fn activity(
    State(state): State<QueryState>,
    actor: Actor,
    api::Query(params): api::Query<ActivityParams>,
) -> ApiResult<Page<ActivityEntry>> {
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let page = load(&state.pool, &actor, &params).await?;
    Ok(api::ok(page).no_store())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn personal_values_of_changes_are_masked_and_others_kept() {
        // Given an edit that changed an ID number, a phone (from nothing) and a name.
        let mut changes = json!([
            {"field": "recipientIdNumber", "old": "110101199001011234", "new": "11010519491231002X"},
            {"field": "recipientPhone", "old": null, "new": "13812345678"},
            {"field": "recipientName", "old": "张三", "new": "李四"},
        ]);
        // When masked for the feed.
        mask_changes(&mut changes);
        // Then only the personal values are masked.
        assert_eq!(
            changes,
            json!([
                {"field": "recipientIdNumber", "old": "1101**********1234", "new": "1101**********002X"},
                {"field": "recipientPhone", "old": null, "new": "138****5678"},
                {"field": "recipientName", "old": "张三", "new": "李四"},
            ])
        );
    }
}
