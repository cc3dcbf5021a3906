//! `declaration_list`: one row per declaration in `rm_declarations`, for the lists, the
//! detail page and the export, and the counters in `rm_declaration_counts` (per type code,
//! status and Shanghai day of creation; per customer, per carrier port and for all) for
//! list totals and the counts endpoint. Counter changes are appended to
//! `rm_declaration_count_deltas` and folded into `rm_declaration_counts` every
//! [`FOLD_EVERY`] feed positions; readers add both. A full rebuild writes no counter
//! changes while it replays and counts the rows afresh at its end ([`RECOUNT`]).
//!
//! The projection applies a window of the feed with a handful of set-based statements
//! ([`batch`]): it reads the rows the window touches, folds the window's events per
//! declaration in memory (a draft creates a row unless one exists; every other event applies
//! only to a row whose version is below the event's stream version), and writes new rows,
//! changed rows and the counter changes netted per counter. So applying an event twice (a
//! retried batch, a replay over a live table) changes neither the row nor the counters, and
//! a window gives the same tables as its events applied in windows of one (tested).
//!
//! `draft_status`: 0 incomplete, 1 complete. The command side does not record completeness
//! in its events yet; until it does, a declaration counts as complete once it has been
//! submitted at least once (submit runs the full validation).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use events::declaration::{DeclarationData, DeclarationEvent};
use events::store::FeedBatch;
use futures::future::BoxFuture;
use rust_decimal::Decimal;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Projection, ProjectionError};

mod batch;

pub const NAME: &str = "declaration_list";

/// The projection, ready for the runtime.
pub fn projection() -> Arc<dyn Projection> {
    Arc::new(DeclarationList)
}

pub struct DeclarationList;

impl Projection for DeclarationList {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &[
            "rm_declarations",
            "rm_declaration_counts",
            "rm_declaration_count_deltas",
        ]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            let erased = crate::erasure::erased_streams(window)?;
            batch::apply(tx, window).await?;
            apply_erasures(tx, erased).await
        })
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&crate::erasure::STREAM_TYPES)
    }

    fn prepare(&self) -> Option<fn(&mut FeedBatch)> {
        Some(crate::declaration_feed::prepare)
    }

    fn rebuild_finish(&self) -> &'static [&'static str] {
        &RECOUNT
    }
}

/// The columns derived from a declaration's form data.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    pub tracking_number: Option<String>,
    pub port: Option<String>,
    pub slic: Option<String>,
    pub service_type: Option<String>,
    pub estimated_pickup_time: Option<DateTime<Utc>>,
    pub goods_count: i32,
    pub total_value: Option<Decimal>,
    pub currency: Option<String>,
    pub consignee_name: Option<String>,
    /// The entry number and unified number customs gave (`entryId`, `cusCiqNo`).
    pub entry_id: Option<String>,
    pub cus_ciq_no: Option<String>,
}

fn non_empty(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

impl Derived {
    pub fn of(data: &DeclarationData) -> Self {
        let goods = &data.declaration_goods_info;
        let total_value = goods
            .iter()
            .filter_map(|g| g.total_price)
            .fold(None, |acc: Option<Decimal>, price| {
                Some(acc.unwrap_or_default().saturating_add(price))
            });
        let currency = goods
            .iter()
            .find_map(|g| non_empty(&g.currency))
            .or_else(|| non_empty(&data.currency_code));
        let consignee_name =
            non_empty(&data.consignee_company_cn).or_else(|| non_empty(&data.recipient_name));
        Self {
            tracking_number: non_empty(&data.tracking_number),
            port: non_empty(&data.port),
            slic: non_empty(&data.slic),
            service_type: non_empty(&data.service_type),
            estimated_pickup_time: data.estimated_pickup_time.map(|t| t.with_timezone(&Utc)),
            goods_count: i32::try_from(goods.len()).unwrap_or(i32::MAX),
            total_value,
            currency,
            consignee_name,
            entry_id: non_empty(&data.entry_id).map(|e| e.to_uppercase()),
            cus_ciq_no: non_empty(&data.cus_ciq_no),
        }
    }
}

/// Counter changes are appended to `rm_declaration_count_deltas` (never an update of a hot
/// counter row) and folded into `rm_declaration_counts` at every feed position that is a
/// multiple of this (event by event and in batches alike, so both give the same rows). A
/// full rebuild counts afresh at its end instead ([`RECOUNT`]): the same counters, folded.
pub const FOLD_EVERY: i64 = 4096;

/// The end of a full rebuild: the counters counted afresh from `rm_declarations`, all
/// folded (no pending deltas, no zero rows). The rebuild's replay writes no counter changes
/// (a counter is a function of the rows: per customer, for all, per port; type code,
/// status, Shanghai day of creation), which is most of what made it slower than the
/// scan; live catch-up keeps them up to date from here on.
const RECOUNT: [&str; 3] = [
    "DELETE FROM rm_declaration_count_deltas",
    "DELETE FROM rm_declaration_counts",
    "INSERT INTO rm_declaration_counts (scope, declaration_type, status, day, n)
     SELECT s.scope, r.declaration_type, r.status,
            (r.created_at AT TIME ZONE 'Asia/Shanghai')::date, count(*)
     FROM rm_declarations r
     CROSS JOIN LATERAL (VALUES (r.customer_id),
         ('00000000-0000-0000-0000-000000000000'::uuid),
         (md5('port:' || r.port)::uuid)) AS s(scope)
     WHERE s.scope IS NOT NULL
     GROUP BY 1, 2, 3, 4",
];

/// The form as JSON text, for the `json` column (`$n::json` checks it, nothing more).
fn json_text(data: &DeclarationData) -> Result<String, ProjectionError> {
    serde_json::to_string(data).map_err(|e| ProjectionError::Invalid(e.to_string()))
}

/// The window's erasures (docs/personal-data.md): in each named declaration's row, the
/// personal fields of its form that read `[erased]` now are set so.
async fn apply_erasures(tx: &mut PgConnection, erased: Vec<Uuid>) -> Result<(), ProjectionError> {
    for id in erased {
        let mut latest: Option<DeclarationData> = None;
        for (_, event) in crate::erasure::declaration_events(tx, id).await? {
            match event {
                DeclarationEvent::Drafted(d) => latest = Some(d.data),
                DeclarationEvent::Edited(e) => latest = Some(e.data),
                DeclarationEvent::Amended(a) => latest = Some(a.data),
                DeclarationEvent::ExceptionResolved(r) => latest = Some(r.data),
                _ => {}
            }
        }
        let Some(data) = latest else { continue };
        // The declaration's personal fields as its event module declares them: each one
        // that reads as erased now is erased in the row's form too.
        let form = serde_json::to_value(&data).unwrap_or_default();
        let mut erased = serde_json::Map::new();
        for (field, _) in events::declaration::PERSONAL.fields {
            if form.get(*field).and_then(serde_json::Value::as_str) == Some(events::pii::ERASED) {
                erased.insert((*field).into(), events::pii::ERASED.into());
            }
        }
        if erased.is_empty() {
            continue;
        }
        sqlx::query(
            "UPDATE rm_declarations SET data = (data::jsonb || $2::jsonb)::json WHERE id = $1",
        )
        .bind(id)
        .bind(serde_json::Value::Object(erased))
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}
