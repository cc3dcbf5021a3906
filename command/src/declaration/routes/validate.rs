//! `POST /api/v1/declarations/validate`: the create body checked without storing anything,
//! for the assisted-creation wizard's live checks. The same parsing (`JsonParts` of
//! [`CreateHead`] and the form), the same type and owner resolution as create, the same
//! validators as a draft (`shape`) and a submit (`validate`), and the class rule of
//! `validate::class::propose`. Nothing is appended, read models are not touched.

use api::{Actor, ApiResult, JsonParts, ok};
use axum::extract::State;
use events::declaration::{DeclarationData, Direction, TypeCode};
use serde::Serialize;
use utoipa::ToSchema;

use super::{CreateHead, owner, resolve_type};
use crate::aggregate::Violation;
use crate::declaration::shape;
use crate::declaration::validate::class::{Valued, goods_value_cny, propose};
use crate::declaration::validate::{self, present};
use crate::http::CommandState;
use crate::reference::ReferenceData;
use crate::tax::allowance;

/// One problem of the form, in the caller's language.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FormProblem {
    /// JSON path of the field, e.g. `declarationGoodsInfo[2].goodsCode`.
    #[schema(example = "declarationGoodsInfo[0].goodsCode")]
    pub field: String,
    pub message: String,
    /// Stable rule id, e.g. `required`, `uscc_check_digit`, `class_c_limit`.
    #[schema(example = "required")]
    pub rule: String,
    /// `true`: the form cannot even be saved as a draft; `false`: only submitting is refused.
    pub blocks_draft: bool,
}

/// The class the form's facts call for, next to the one chosen.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClassCheck {
    /// The chosen type's class letter.
    #[schema(example = "C")]
    pub declared: String,
    /// `B`, `C` or `D`; absent when the value cannot be told (no goods value, or a
    /// currency without a rate on the declaration's date).
    #[schema(example = "C")]
    pub proposed: Option<String>,
    /// `proposed == declared` (`true` when nothing is proposed).
    pub agrees: bool,
    pub reason_zh: Option<String>,
    pub reason_en: Option<String>,
    /// The goods value in CNY at the day's rates, when it can be told.
    #[schema(value_type = Option<f64>, example = 1280.5)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub value_cny: Option<rust_decimal::Decimal>,
}

/// What `validate` answers: the problems (empty: the form may be submitted) and the class.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FormCheck {
    /// `OB` ... `ID`, as resolved from `declarationType` (and `shipmentType`).
    #[schema(example = "OC")]
    pub declaration_type: String,
    /// No problem at all: a submit would pass the form's rules.
    pub valid: bool,
    /// No problem that blocks a draft: "save as draft" would be accepted.
    pub draft_valid: bool,
    /// The declaration's date the rules judged by (`YYYY-MM-DD`).
    #[schema(example = "2026-11-27")]
    pub judged_on: String,
    pub problems: Vec<FormProblem>,
    /// What deserves a second look but blocks nothing (`blocksDraft` is `false`): goods
    /// lines in another currency than the header (`currency_mismatch`).
    pub warnings: Vec<FormProblem>,
    pub class: ClassCheck,
    /// The duties-and-taxes estimate (docs/taxes.md): per line and in total, each tax with
    /// its rate and basis, what is exempt and why, what is missing, the tables used.
    pub tax: crate::tax::Estimate,
    /// Cross-border retail import (9610, 1210, 1239) with the buyer's ID number: what the
    /// buyer's declared orders used of the year's allowance and what remains (docs/taxes.md).
    /// Only staff and the form's owning customer call this check.
    pub allowance: Option<crate::tax::allowance::Use>,
}

/// Check a declaration form without saving it
///
/// Customers, operators and admins, as create. The body is create's (`declarationType`,
/// `shipmentType`, staff's `customerId`, the form). Answers every field problem of a draft
/// and of a submit (`blocksDraft` tells them apart) and the class the value and consignee
/// call for, with its reason, beside the chosen type's class. Stores nothing. A body that
/// does not parse, an unknown type and (for staff) a missing, unknown, disabled or deleted
/// customer answer 400 naming the field, as create does.
#[utoipa::path(
    post, path = "/api/v1/declarations/validate", operation_id = "validateDeclaration",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    request_body(content = ref("#/components/schemas/CreateDeclaration"), content_type = "application/json"),
    responses(
        (status = 200, description = "The problems and the class check.", body = FormCheck),
        api::doc::Errors<400, 401, 403, 413, 415>,
    ),
)]
pub(super) async fn validate_form(
    State(state): State<CommandState>,
    actor: Actor,
    parts: Result<JsonParts<CreateHead, DeclarationData>, api::ApiError>,
) -> ApiResult<FormCheck> {
    let JsonParts(body, data) = parts.map_err(crate::declaration::labels::relabel)?;
    actor.require(&[
        api::Role::Customer,
        api::Role::Operator,
        api::Role::Admin,
        api::Role::SuperAdmin,
    ])?;
    let ty = resolve_type(body.declaration_type.as_deref(), body.shipment_type)?;
    owner(&state, &actor, body.customer_id).await?;
    let reference = state.reference.current();
    let now = chrono::Utc::now();
    let mut answer = check(ty, &data, &reference, now);
    // The buyer's yearly allowance: read from the buyer's ledger (not pure, so not in
    // `check`); a refusal the submit would make is a problem of the form.
    let problem = match allowance::claim(ty, &data, &reference, now) {
        Ok(Some(claim)) => {
            let standing = allowance::standing(&state.store, &state.pool, &claim)
                .await
                .map_err(api::ApiError::from)?;
            let problem = standing.violation();
            answer.allowance = Some(standing);
            problem
        }
        Ok(None) => None,
        Err(v) => Some(v),
    };
    if let Some(v) = problem {
        let lang = api::lang::current();
        answer.problems.push(FormProblem {
            message: lang.pick(&v.zh, &v.en).to_string(),
            field: v.field,
            rule: v.rule.to_string(),
            blocks_draft: false,
        });
        answer.valid = false;
    }
    Ok(ok(answer))
}

/// The check itself (pure): draft problems first, then the submit rules', each field and
/// rule once.
pub fn check(
    ty: TypeCode,
    data: &DeclarationData,
    reference: &ReferenceData,
    now: chrono::DateTime<chrono::Utc>,
) -> FormCheck {
    let lang = api::lang::current();
    let on = validate::declaration_date(data, now);
    let draft = shape::check(data);
    let full = validate::validate(ty, data, reference, on);
    let mut problems: Vec<FormProblem> = Vec::new();
    let mut push = |v: Violation, blocks_draft: bool| {
        if problems
            .iter()
            .any(|p| p.field == v.field && p.rule == v.rule)
        {
            return;
        }
        problems.push(FormProblem {
            message: lang.pick(&v.zh, &v.en).to_string(),
            field: v.field,
            rule: v.rule.to_string(),
            blocks_draft,
        });
    };
    let draft_valid = draft.is_empty();
    for v in draft {
        push(v, true);
    }
    for v in full {
        push(v, false);
    }
    for v in crate::tax::limit_violations(ty, data, reference, on) {
        push(v, false);
    }
    let warnings = validate::warnings::warnings(data)
        .into_iter()
        .map(|v| FormProblem {
            message: lang.pick(&v.zh, &v.en).to_string(),
            field: v.field,
            rule: v.rule.to_string(),
            blocks_draft: false,
        })
        .collect();
    FormCheck {
        declaration_type: ty.as_str().to_string(),
        valid: problems.is_empty(),
        draft_valid,
        judged_on: on.format("%Y-%m-%d").to_string(),
        problems,
        warnings,
        class: class_check(ty, data, reference, on),
        tax: crate::tax::estimate(ty, data, reference, on),
        allowance: None,
    }
}

/// The class rule on the form's facts: a licence number, the goods value at the day's
/// rates, and whether the party that receives (import) or sends (export) is a person (a
/// personal ID number given and no company USCC).
fn class_check(
    ty: TypeCode,
    data: &DeclarationData,
    reference: &ReferenceData,
    on: chrono::NaiveDate,
) -> ClassCheck {
    let licence = present(&data.licence_no).is_some();
    let date = on.format("%Y-%m-%d").to_string();
    let goods = goods_value_cny(reference, on, &date, data);
    // No valued line (or only zeros): nothing to propose from.
    let cny = goods
        .cny
        .filter(|c| *c > rust_decimal::Decimal::ZERO)
        .map(|c| c.round_dp(2).normalize());
    let value = cny.map(|cny| match goods.declared.clone() {
        Some((total, currency)) => Valued {
            total: total.normalize(),
            currency,
            cny,
        },
        None => Valued {
            total: cny,
            currency: "CNY".into(),
            cny,
        },
    });
    let id_number = match ty.direction {
        Direction::Import => &data.recipient_id_number,
        Direction::Export => &data.shipper_id_number,
    };
    let person = present(id_number).is_some() && present(&data.consignee_scc).is_none();
    let proposal = propose(licence, value.as_ref(), person);
    let declared = ty.class.letter().to_string();
    ClassCheck {
        agrees: proposal.as_ref().is_none_or(|p| p.class == declared),
        proposed: proposal.as_ref().map(|p| p.class.clone()),
        reason_zh: proposal.as_ref().map(|p| p.reason_zh.clone()),
        reason_en: proposal.map(|p| p.reason_en),
        declared,
        value_cny: cny,
    }
}
