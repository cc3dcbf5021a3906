//! `declaration_taxes`: per declaration the duties-and-taxes estimate its submit recorded
//! (`DeclarationSubmitted.taxEstimate`) and what customs assessed (the taxes of its latest
//! `T` receipt, `DeclarationCustomsReceiptRecorded.taxes`), in `rm_declaration_taxes`
//! (docs/taxes.md). Only those two event types are decoded, and only their tax fields.

use std::str::FromStr;
use std::sync::Arc;

use events::store::FeedBatch;
use futures::future::BoxFuture;
use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::Value;
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "declaration_taxes";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(DeclarationTaxes)
}

pub struct DeclarationTaxes;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Submitted {
    #[serde(default)]
    tax_estimate: Option<Value>,
}

#[derive(Deserialize)]
struct Assessed {
    #[serde(rename = "type")]
    tax_type: String,
    amount: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Receipt {
    #[serde(default)]
    taxes: Vec<Assessed>,
    #[serde(default)]
    notice_date: Option<chrono::DateTime<chrono::FixedOffset>>,
}

impl Projection for DeclarationTaxes {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_declaration_taxes"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            for i in 0..window.events.len() {
                let event = &window.events[i];
                let (id, position) = (event.stream_id, event.global_position);
                match event.event_type.as_str() {
                    "DeclarationSubmitted" => {
                        let s: Submitted = window.decode(i)?;
                        let Some(estimate) = s.tax_estimate else {
                            continue;
                        };
                        let total = estimate
                            .get("total")
                            .and_then(Value::as_f64)
                            .and_then(|t| Decimal::from_str(&t.to_string()).ok());
                        sqlx::query(
                            "INSERT INTO rm_declaration_taxes
                                 (declaration_id, estimated_total, estimate, position)
                             VALUES ($1, $2, $3, $4)
                             ON CONFLICT (declaration_id) DO UPDATE
                             SET estimated_total = EXCLUDED.estimated_total,
                                 estimate = EXCLUDED.estimate, position = EXCLUDED.position
                             WHERE rm_declaration_taxes.position < EXCLUDED.position",
                        )
                        .bind(id)
                        .bind(total)
                        .bind(sqlx::types::Json(&estimate))
                        .bind(position)
                        .execute(&mut *tx)
                        .await?;
                    }
                    "DeclarationCustomsReceiptRecorded" => {
                        let r: Receipt = window.decode(i)?;
                        if r.taxes.is_empty() {
                            continue;
                        }
                        // An amount customs wrote that is no number is kept in the list and
                        // left out of the total.
                        let total: Decimal = r
                            .taxes
                            .iter()
                            .filter_map(|t| Decimal::from_str(t.amount.trim()).ok())
                            .sum();
                        let list: Vec<Value> = r
                            .taxes
                            .iter()
                            .map(|t| serde_json::json!({"type": t.tax_type, "amount": t.amount}))
                            .collect();
                        sqlx::query(
                            "INSERT INTO rm_declaration_taxes
                                 (declaration_id, assessed_total, assessed, assessed_at, position)
                             VALUES ($1, $2, $3, $4, $5)
                             ON CONFLICT (declaration_id) DO UPDATE
                             SET assessed_total = EXCLUDED.assessed_total,
                                 assessed = EXCLUDED.assessed,
                                 assessed_at = EXCLUDED.assessed_at, position = EXCLUDED.position
                             WHERE rm_declaration_taxes.position < EXCLUDED.position",
                        )
                        .bind(id)
                        .bind(total)
                        .bind(sqlx::types::Json(Value::Array(list)))
                        .bind(r.notice_date)
                        .bind(position)
                        .execute(&mut *tx)
                        .await?;
                    }
                    _ => {}
                }
            }
            Ok(())
        })
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&[events::declaration::STREAM_TYPE])
    }
}
