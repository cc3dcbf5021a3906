//! What the customer-owned master data aggregates (`trade_company`, `product`,
//! `mapping_scheme`) share: the owner of a new record, the ownership check on an existing
//! one, and the small text rules their decisions use.
//!
//! Ownership: a customer creates and reaches only their own company's records (a foreign id
//! answers 404, like an unknown one); staff holding `customers:management` name the owner
//! in `customerId` when creating and reach every record.

use api::{Actor, ApiError};
use uuid::Uuid;

use crate::aggregate::Violation;
use crate::customer_ref::CustomerState;
use crate::handler::load;
use crate::http::CommandState;

/// The permission staff need for the master data routes (the customer-management menu).
pub const STAFF_PERMISSION: &str = "customers:management";

/// The owner of a new record: the customer's own company, or for staff the live customer
/// named in `customerId` (read from its stream, so a customer disabled a moment ago is
/// refused at once).
pub async fn owner(
    state: &CommandState,
    actor: &Actor,
    customer_id: Option<&str>,
) -> Result<Uuid, ApiError> {
    if actor.is_customer() {
        return actor.customer_id.ok_or_else(ApiError::forbidden);
    }
    let raw = customer_id.map(str::trim).filter(|s| !s.is_empty());
    let Some(raw) = raw else {
        return Err(ApiError::bad_field(
            "customerId",
            "请选择客户",
            "customerId is required for staff",
        ));
    };
    let unknown = || ApiError::bad_field("customerId", "客户不存在", "no such customer");
    let id = Uuid::parse_str(raw).map_err(|_| unknown())?;
    let (customer, _) = load::<CustomerState>(&state.store, id)
        .await
        .map_err(crate::http::store_failure)?;
    if customer.customer_id.is_none() {
        return Err(unknown());
    }
    if !customer.active() {
        return Err(ApiError::bad_field(
            "customerId",
            "该客户已停用或已删除",
            "the customer is disabled or deleted",
        ));
    }
    Ok(id)
}

/// A path id that is not a UUID names nothing: 404, like an unknown one.
pub fn path_id(id: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(id).map_err(|_| ApiError::not_found())
}

/// The optional reason of a delete: at most 200 characters.
pub fn reason_ok(reason: &Option<String>) -> Result<(), ApiError> {
    if reason.as_deref().is_some_and(|r| r.chars().count() > 200) {
        return Err(ApiError::bad_field(
            "reason",
            "原因最多 200 个字符",
            "reason has at most 200 characters",
        ));
    }
    Ok(())
}

/// A trimmed text; empty becomes `None`.
pub fn clean(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

/// Required text of at most `max` characters.
pub fn required(out: &mut Vec<Violation>, field: &str, zh_name: &str, value: &str, max: usize) {
    if value.trim().is_empty() {
        out.push(Violation::new(
            field,
            "required",
            format!("{field}：请输入{zh_name}"),
            format!("{field}: is required"),
        ));
    } else {
        at_most(out, field, Some(value), max);
    }
}

/// Optional text of at most `max` characters.
pub fn at_most(out: &mut Vec<Violation>, field: &str, value: Option<&str>, max: usize) {
    if value.is_some_and(|v| v.chars().count() > max) {
        out.push(Violation::new(
            field,
            "max_length",
            format!("{field}：最多 {max} 个字符"),
            format!("{field}: at most {max} characters"),
        ));
    }
}

/// `Err(Validation)` when there is any violation.
pub fn refuse_if_any(v: Vec<Violation>) -> Result<(), crate::aggregate::DomainError> {
    if v.is_empty() {
        Ok(())
    } else {
        Err(crate::aggregate::DomainError::Validation(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_trimmed_and_emptied() {
        assert_eq!(clean(Some("  a ".into())), Some("a".into()));
        assert_eq!(clean(Some("   ".into())), None);
        assert_eq!(clean(None), None);
    }

    #[test]
    fn lengths_count_characters() {
        let mut v = Vec::new();
        at_most(&mut v, "address", Some(&"地".repeat(10)), 10);
        assert!(v.is_empty());
        at_most(&mut v, "address", Some(&"地".repeat(11)), 10);
        required(&mut v, "companyNameCn", "中文名称", " ", 10);
        let fields: Vec<_> = v.iter().map(|v| (v.field.as_str(), v.rule)).collect();
        assert_eq!(
            fields,
            [("address", "max_length"), ("companyNameCn", "required")]
        );
    }
}
