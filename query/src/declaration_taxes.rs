//! `GET /api/v1/declarations/{id}/taxes`: the duties-and-taxes estimate recorded at submit
//! beside what customs assessed (its latest `T` receipt), per tax and in total, and whether
//! they differ by more than the configured share (`CLEARWAY_TAX_DIFFERENCE_SHARE`,
//! docs/taxes.md). Read from `rm_declaration_taxes` (projection `declaration_taxes`);
//! readable by whoever may read the declaration.

use std::str::FromStr;

use api::{Actor, ApiError, ApiResult};
use axum::extract::{Path, State};
use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::QueryState;
use crate::read_models::shanghai;

pub const PROJECTION: &str = crate::read_models::DECLARATION_TAXES;

/// The share of the assessed total above which an estimate is flagged when none is
/// configured.
pub const DEFAULT_DIFFERENCE_SHARE: f64 = 0.05;

pub fn routes(g: &api::Guards) -> OpenApiRouter<QueryState> {
    let declarations = g.customer_or_permission(&["declarations:management"]);
    OpenApiRouter::new().routes(routes!(taxes).map(|r| r.route_layer(declarations)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct TaxesParams {
    /// Wait up to 2 s until the read models have applied the event at this `position`.
    pub min_position: Option<i64>,
}

/// One tax, estimated and assessed (CNY).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaxComparison {
    /// `duty` (customs code `A`), `consumptionTax` (`Y`), `vat` (`L`), or `other` for a code
    /// the estimate has no figure for.
    pub tax: String,
    /// The code customs used, when it assessed this tax.
    pub code: Option<String>,
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub estimated: Option<Decimal>,
    /// As customs wrote it, when it is a number.
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub assessed: Option<Decimal>,
}

/// The estimate beside the assessment.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeclarationTaxes {
    /// The estimate as the submit recorded it (`Estimate` of the validate answer), or null
    /// before a submit.
    #[schema(value_type = Option<Object>)]
    pub estimate: Option<Value>,
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub estimated_total: Option<Decimal>,
    /// The sum of the assessed taxes; null until a `T` receipt is recorded.
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub assessed_total: Option<Decimal>,
    /// The `T` receipt's notice date (Asia/Shanghai), when there is one.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub assessed_at: Option<chrono::DateTime<chrono::FixedOffset>>,
    pub taxes: Vec<TaxComparison>,
    /// `assessedTotal - estimatedTotal`, when both are known.
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub difference: Option<Decimal>,
    /// `|difference|` over the assessed total (1 when customs assessed 0 and the estimate is
    /// not 0).
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub difference_share: Option<Decimal>,
    /// The configured share (`CLEARWAY_TAX_DIFFERENCE_SHARE`).
    pub flag_share: f64,
    /// `differenceShare > flagShare`.
    pub flagged: bool,
}

#[derive(Debug, sqlx::FromRow)]
struct Row {
    customer_id: Uuid,
    estimated_total: Option<Decimal>,
    estimate: Option<sqlx::types::Json<Value>>,
    assessed_total: Option<Decimal>,
    assessed: Option<sqlx::types::Json<Value>>,
    assessed_at: Option<DateTime<Utc>>,
}

/// The customs code of each estimated tax and its key in the estimate.
const TAXES: &[(&str, &str)] = &[("duty", "A"), ("consumptionTax", "Y"), ("vat", "L")];

fn decimal(v: &Value) -> Option<Decimal> {
    match v {
        Value::Number(n) => Decimal::from_str(&n.to_string()).ok(),
        Value::String(s) => Decimal::from_str(s.trim()).ok(),
        _ => None,
    }
}

fn compare(row: Row, flag_share: f64) -> DeclarationTaxes {
    let estimate = row.estimate.map(|e| e.0);
    let assessed: Vec<(String, Value)> = row
        .assessed
        .map(|a| a.0)
        .and_then(|a| a.as_array().cloned())
        .unwrap_or_default()
        .into_iter()
        .map(|t| {
            (
                t["type"].as_str().unwrap_or_default().to_string(),
                t["amount"].clone(),
            )
        })
        .collect();
    let mut taxes: Vec<TaxComparison> = TAXES
        .iter()
        .map(|(key, code)| {
            let found = assessed.iter().find(|(c, _)| c == code);
            TaxComparison {
                tax: (*key).to_string(),
                code: found.map(|(c, _)| c.clone()),
                estimated: estimate.as_ref().and_then(|e| decimal(&e[*key])),
                assessed: found.and_then(|(_, a)| decimal(a)),
            }
        })
        .collect();
    for (code, amount) in &assessed {
        if !TAXES.iter().any(|(_, c)| c == code) {
            taxes.push(TaxComparison {
                tax: "other".into(),
                code: Some(code.clone()),
                estimated: None,
                assessed: decimal(amount),
            });
        }
    }
    let difference = row
        .assessed_total
        .zip(row.estimated_total)
        .map(|(a, e)| a - e);
    let difference_share = difference.zip(row.assessed_total).map(|(d, a)| {
        if a.is_zero() {
            if d.is_zero() {
                Decimal::ZERO
            } else {
                Decimal::ONE
            }
        } else {
            (d.abs() / a.abs()).round_dp(4)
        }
    });
    let limit = Decimal::from_str(&flag_share.to_string()).unwrap_or(Decimal::ZERO);
    DeclarationTaxes {
        estimate,
        estimated_total: row.estimated_total,
        assessed_total: row.assessed_total,
        assessed_at: row.assessed_at.map(shanghai),
        taxes,
        difference,
        flagged: difference_share.is_some_and(|s| s > limit),
        difference_share,
        flag_share,
    }
}

/// The estimate beside what customs assessed
///
/// The estimate recorded when the declaration was submitted (null before) and the taxes of
/// its latest `T` receipt (empty until one is recorded), per tax and in total; `flagged`
/// when they differ by more than the configured share of the assessed total. A declaration
/// the caller may not see answers 404, like a missing one. Staff need
/// `declarations:management` (403 without it).
#[utoipa::path(
    get, path = "/api/v1/declarations/{id}/taxes", operation_id = "declarationTaxes",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::DECLARATION), TaxesParams),
    responses((status = 200, description = "The estimate and the assessment.", body = DeclarationTaxes), api::doc::ReadErrors),
)]
async fn taxes(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    api::Query(params): api::Query<TaxesParams>,
) -> ApiResult<DeclarationTaxes> {
    let id = Uuid::parse_str(id.trim()).map_err(|_| ApiError::not_found())?;
    crate::wait::wait_for(
        &state.pool,
        &[crate::read_models::DECLARATION_LIST, PROJECTION],
        params.min_position,
    )
    .await?;
    let row: Option<Row> = sqlx::query_as(
        "SELECT d.customer_id, t.estimated_total, t.estimate, t.assessed_total, t.assessed,
                t.assessed_at
         FROM rm_declarations d LEFT JOIN rm_declaration_taxes t ON t.declaration_id = d.id
         WHERE d.id = $1",
    )
    .bind(id)
    .fetch_optional(&state.pool)
    .await?;
    let row = row
        .filter(|r| actor.can_see(r.customer_id))
        .ok_or_else(ApiError::not_found)?;
    Ok(api::ok(compare(row, state.tax_difference_share)).no_store())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(estimate: Option<Value>, assessed: Option<Value>) -> Row {
        let total =
            |v: &Option<Value>, f: &dyn Fn(&Value) -> Option<Decimal>| v.as_ref().and_then(f);
        Row {
            customer_id: Uuid::nil(),
            estimated_total: total(&estimate, &|e| decimal(&e["total"])),
            assessed_total: total(&assessed, &|a| {
                a.as_array()
                    .map(|l| l.iter().filter_map(|t| decimal(&t["amount"])).sum())
            }),
            estimate: estimate.map(sqlx::types::Json),
            assessed: assessed.map(sqlx::types::Json),
            assessed_at: None,
        }
    }

    #[test]
    fn a_difference_over_the_share_is_flagged_and_taxes_pair_by_customs_code() {
        let estimate = json!({"duty": 126.38, "consumptionTax": 0, "vat": 290.25, "total": 416.63});
        // Assessed 126.38 + 290.25 = 416.63: no difference.
        let same = compare(
            row(
                Some(estimate.clone()),
                Some(json!([{"type": "A", "amount": "126.38"}, {"type": "L", "amount": "290.25"}])),
            ),
            0.05,
        );
        assert_eq!(same.difference, Some(Decimal::ZERO));
        assert!(!same.flagged);
        assert_eq!(same.taxes[2].assessed, Some(Decimal::new(29025, 2)));
        // Assessed 126.38 + 350.00 = 476.38: 59.75 / 476.38 = 12.54% > 5%.
        let more = compare(
            row(
                Some(estimate.clone()),
                Some(json!([{"type": "A", "amount": "126.38"}, {"type": "L", "amount": "350.00"}])),
            ),
            0.05,
        );
        assert_eq!(more.difference, Some(Decimal::new(5975, 2)));
        assert_eq!(more.difference_share, Some(Decimal::new(1254, 4)));
        assert!(more.flagged);
        // The same with a share of 20% configured: not flagged.
        let tolerant = compare(
            row(
                Some(estimate.clone()),
                Some(json!([{"type": "A", "amount": "126.38"}, {"type": "L", "amount": "350.00"}])),
            ),
            0.2,
        );
        assert!(!tolerant.flagged);
        // Before any receipt: the assessed column is empty, nothing flagged.
        let waiting = compare(row(Some(estimate), None), 0.05);
        assert!(waiting.assessed_total.is_none() && !waiting.flagged);
        assert!(waiting.taxes.iter().all(|t| t.assessed.is_none()));
    }
}
