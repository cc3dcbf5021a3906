//! The `Customer` aggregate: a trading company (the tenant that owns declarations) and its
//! archive profile, maintained by staff. Registration, profile changes (each changed field
//! recorded old -> new), disable / enable, soft delete, and the customer's own Easy-clear
//! binding. Every decision is pure; the given/when/then tests are at the end of the file.
//! See docs/customers.md.

pub mod routes;
pub mod services;

use events::customer::{
    CustomerEvent, CustomerProfile, CustomsEmailChanged, CustomsNoticeMailed, EasyClearBound,
    FieldChange, ProfileChanged, Reason,
};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};
use crate::rules::{email_ok, uscc, username_violations};

/// The declaration type codes a customer may be limited to.
pub const TYPE_CODES: [&str; 6] = ["OB", "OC", "OD", "IB", "IC", "ID"];

pub use crate::customer_ref::CustomerState;

impl Aggregate for CustomerState {
    type Event = CustomerEvent;
    type Command = CustomerCommand;
    const STREAM_TYPE: &'static str = events::customer::STREAM_TYPE;

    fn evolve(&mut self, event: &CustomerEvent) {
        self.apply(event);
    }

    /// An e-mail about a customs receipt is recorded by the worker while staff may look at
    /// the archive: it never makes their next change a version conflict.
    fn is_side_record(event: &CustomerEvent) -> bool {
        matches!(event, CustomerEvent::CustomsNoticeMailed(_))
    }

    fn decide(&self, cmd: CustomerCommand, _ctx: &Ctx) -> Result<Vec<CustomerEvent>, DomainError> {
        use CustomerCommand as C;
        match cmd {
            C::Register {
                customer_id,
                username,
                profile,
            } => register(self, customer_id, &username, profile),
            C::ChangeProfile(update) => change_profile(self, update),
            C::Disable { reason } => disable(self, reason),
            C::Enable { reason } => enable(self, reason),
            C::Delete {
                reason,
                in_progress,
            } => delete(self, reason, in_progress),
            C::BindEasyClear {
                account_id,
                ups_id,
                account_no,
                is_from_ups,
            } => bind_easy_clear(
                self,
                account_id,
                &ups_id,
                account_no.as_deref(),
                is_from_ups,
            ),
            C::SetCustomsEmail { enabled } => {
                live(self)?;
                if self.customs_email == enabled {
                    return Ok(Vec::new());
                }
                Ok(vec![CustomerEvent::CustomsEmailChanged(
                    CustomsEmailChanged { enabled },
                )])
            }
            C::RecordCustomsNotice(attempt) => {
                if self.customer_id.is_none() {
                    return Err(DomainError::NotFound);
                }
                Ok(vec![CustomerEvent::CustomsNoticeMailed(*attempt)])
            }
        }
    }
}

/// What may be asked of a customer.
#[derive(Debug, Clone)]
pub enum CustomerCommand {
    Register {
        customer_id: Uuid,
        username: String,
        profile: CustomerProfile,
    },
    /// A change of the archive profile (see [`ProfileUpdate`]).
    ChangeProfile(ProfileUpdate),
    Disable {
        reason: Option<String>,
    },
    Enable {
        reason: Option<String>,
    },
    /// Soft delete. `in_progress` is the number of the customer's declarations in status
    /// 1, 2 or 3: while there are any, the customer stays (409, saying why).
    Delete {
        reason: Option<String>,
        in_progress: i64,
    },
    /// Bind the Easy-clear ID: `upsId` (and `accountNo` when staff registered one) must
    /// match what staff registered on the customer.
    BindEasyClear {
        account_id: Uuid,
        ups_id: String,
        account_no: Option<String>,
        is_from_ups: bool,
    },
    /// E-mail customs' release or rejection of the customer's declarations, or stop
    /// (docs/notifications.md); the same choice again changes nothing.
    SetCustomsEmail {
        enabled: bool,
    },
    /// Record one attempt of the customs-outcome e-mail (the notice worker, by the system).
    RecordCustomsNotice(Box<CustomsNoticeMailed>),
}

fn trimmed(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

/// Trim every field (empty = absent), upper-case the codes, and put the declaration types
/// in their fixed order without repeats.
pub fn normalize(p: CustomerProfile) -> CustomerProfile {
    let upper = |v: Option<String>| trimmed(v).map(|s| s.to_uppercase());
    let mut types: Vec<String> = p
        .declaration_types
        .iter()
        .map(|t| t.trim().to_uppercase())
        .filter(|t| !t.is_empty())
        .collect();
    types.sort_by_key(|t| TYPE_CODES.iter().position(|c| c == t).unwrap_or(usize::MAX));
    types.dedup();
    CustomerProfile {
        company_name: p.company_name.trim().to_string(),
        city: trimmed(p.city),
        port_code: upper(p.port_code),
        slic_code: trimmed(p.slic_code),
        postal_code: trimmed(p.postal_code),
        ups_account: trimmed(p.ups_account),
        ups_id: trimmed(p.ups_id),
        account_no: trimmed(p.account_no),
        email: trimmed(p.email),
        scc: upper(p.scc),
        declaration_types: types,
    }
}

fn too_long(field: &str, value: Option<&str>, max: usize, out: &mut Vec<Violation>) {
    if value.is_some_and(|v| v.chars().count() > max) {
        out.push(Violation::new(
            field,
            "length",
            format!("{field} 最多 {max} 个字符"),
            format!("{field} has at most {max} characters"),
        ));
    }
}

/// The rule violations of a (normalized) profile, each naming its field.
pub fn profile_violations(p: &CustomerProfile) -> Vec<Violation> {
    let mut out = Vec::new();
    if p.company_name.is_empty() {
        out.push(Violation::new(
            "companyName",
            "required",
            "公司名称不能为空",
            "companyName is required",
        ));
    }
    too_long("companyName", Some(&p.company_name), 200, &mut out);
    too_long("city", p.city.as_deref(), 100, &mut out);
    too_long("upsAccount", p.ups_account.as_deref(), 64, &mut out);
    too_long("upsId", p.ups_id.as_deref(), 64, &mut out);
    too_long("accountNo", p.account_no.as_deref(), 64, &mut out);
    if p.port_code
        .as_deref()
        .is_some_and(|c| !crate::port::port_code_ok(c))
    {
        out.push(Violation::new(
            "portCode",
            "format",
            "港口代码应为 3 个字母",
            "portCode must be 3 letters",
        ));
    }
    if p.slic_code
        .as_deref()
        .is_some_and(|c| !crate::port::slic_ok(c))
    {
        out.push(Violation::new(
            "slicCode",
            "format",
            "SLIC 代码应为 4 位数字",
            "slicCode must be 4 digits",
        ));
    }
    if p.postal_code
        .as_deref()
        .is_some_and(|c| c.len() != 6 || !c.bytes().all(|b| b.is_ascii_digit()))
    {
        out.push(Violation::new(
            "postalCode",
            "format",
            "邮政编码应为 6 位数字",
            "postalCode must be 6 digits",
        ));
    }
    if p.email.as_deref().is_some_and(|e| !email_ok(e)) {
        out.push(Violation::new(
            "email",
            "email",
            "邮箱格式不正确",
            "not a valid e-mail address",
        ));
    }
    match p.scc.as_deref().map(uscc::check) {
        Some(Err(uscc::UsccError::Format)) => out.push(Violation::new(
            "scc",
            "uscc_format",
            "统一社会信用代码应为 18 位（数字和大写字母，不含 I O S V Z）",
            "scc must be 18 characters (digits and capital letters except I O S V Z)",
        )),
        Some(Err(uscc::UsccError::CheckDigit)) => out.push(Violation::new(
            "scc",
            "uscc_check_digit",
            "统一社会信用代码校验位错误",
            "the check character of scc is wrong",
        )),
        _ => {}
    }
    for (i, t) in p.declaration_types.iter().enumerate() {
        if !TYPE_CODES.contains(&t.as_str()) {
            out.push(Violation::new(
                format!("declarationTypes[{i}]"),
                "unknown",
                format!("未知的报关类型：{t}（OB OC OD IB IC ID）"),
                format!("unknown declaration type: {t} (OB OC OD IB IC ID)"),
            ));
        }
    }
    out
}

fn refuse_if_any(violations: Vec<Violation>) -> Result<(), DomainError> {
    if violations.is_empty() {
        Ok(())
    } else {
        Err(DomainError::Validation(violations))
    }
}

fn register(
    state: &CustomerState,
    customer_id: Uuid,
    username: &str,
    profile: CustomerProfile,
) -> Result<Vec<CustomerEvent>, DomainError> {
    if state.customer_id.is_some() {
        return Err(DomainError::Conflict("customer already exists".into()));
    }
    let username = username.trim();
    let profile = normalize(profile);
    let mut violations = username_violations("username", username);
    violations.extend(profile_violations(&profile));
    refuse_if_any(violations)?;
    Ok(vec![CustomerEvent::Registered(
        events::customer::Registered {
            customer_id,
            username: username.to_string(),
            profile,
        },
    )])
}

/// A change of the archive profile: `None` leaves a field as it is; `Some(None)` clears an
/// optional one; `declaration_types: Some(vec![])` means "all types".
#[derive(Debug, Clone, Default)]
pub struct ProfileUpdate {
    pub company_name: Option<String>,
    pub city: Option<Option<String>>,
    pub port_code: Option<Option<String>>,
    pub slic_code: Option<Option<String>>,
    pub postal_code: Option<Option<String>>,
    pub ups_account: Option<Option<String>>,
    pub ups_id: Option<Option<String>>,
    pub account_no: Option<Option<String>>,
    pub email: Option<Option<String>>,
    pub scc: Option<Option<String>>,
    pub declaration_types: Option<Vec<String>>,
}

fn live(state: &CustomerState) -> Result<(), DomainError> {
    if state.exists() {
        Ok(())
    } else {
        Err(DomainError::NotFound)
    }
}

/// The profile fields as the wire names them, for the recorded changes.
fn fields(p: &CustomerProfile) -> [(&'static str, Value); 11] {
    [
        ("companyName", json!(p.company_name)),
        ("city", json!(p.city)),
        ("portCode", json!(p.port_code)),
        ("slicCode", json!(p.slic_code)),
        ("postalCode", json!(p.postal_code)),
        ("upsAccount", json!(p.ups_account)),
        ("upsId", json!(p.ups_id)),
        ("accountNo", json!(p.account_no)),
        ("email", json!(p.email)),
        ("scc", json!(p.scc)),
        ("declarationTypes", json!(p.declaration_types)),
    ]
}

fn change_profile(
    state: &CustomerState,
    update: ProfileUpdate,
) -> Result<Vec<CustomerEvent>, DomainError> {
    live(state)?;
    let old = &state.profile;
    let pick = |new: Option<Option<String>>, old: &Option<String>| new.unwrap_or(old.clone());
    let profile = normalize(CustomerProfile {
        company_name: update
            .company_name
            .unwrap_or_else(|| old.company_name.clone()),
        city: pick(update.city, &old.city),
        port_code: pick(update.port_code, &old.port_code),
        slic_code: pick(update.slic_code, &old.slic_code),
        postal_code: pick(update.postal_code, &old.postal_code),
        ups_account: pick(update.ups_account, &old.ups_account),
        ups_id: pick(update.ups_id, &old.ups_id),
        account_no: pick(update.account_no, &old.account_no),
        email: pick(update.email, &old.email),
        scc: pick(update.scc, &old.scc),
        declaration_types: update
            .declaration_types
            .unwrap_or_else(|| old.declaration_types.clone()),
    });
    refuse_if_any(profile_violations(&profile))?;
    let changes: Vec<FieldChange> = fields(old)
        .into_iter()
        .zip(fields(&profile))
        .filter(|((_, from), (_, to))| from != to)
        .map(|((field, from), (_, to))| FieldChange {
            field: field.to_string(),
            from,
            to,
        })
        .collect();
    if changes.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![CustomerEvent::ProfileChanged(ProfileChanged {
        changes,
        profile,
    })])
}

fn disable(
    state: &CustomerState,
    reason: Option<String>,
) -> Result<Vec<CustomerEvent>, DomainError> {
    live(state)?;
    if state.disabled {
        return Ok(Vec::new());
    }
    Ok(vec![CustomerEvent::Disabled(Reason { reason })])
}

fn enable(
    state: &CustomerState,
    reason: Option<String>,
) -> Result<Vec<CustomerEvent>, DomainError> {
    live(state)?;
    if !state.disabled {
        return Ok(Vec::new());
    }
    Ok(vec![CustomerEvent::Enabled(Reason { reason })])
}

/// Soft delete. `in_progress` is the number of the customer's declarations in status 1, 2
/// or 3: while there are any, the customer stays (409, saying why).
fn delete(
    state: &CustomerState,
    reason: Option<String>,
    in_progress: i64,
) -> Result<Vec<CustomerEvent>, DomainError> {
    live(state)?;
    if in_progress > 0 {
        return Err(DomainError::Conflict(format!(
            "the customer has {in_progress} declaration(s) in progress (status 1, 2 or 3); \
             finish them before deleting it"
        )));
    }
    Ok(vec![CustomerEvent::Deleted(Reason { reason })])
}

fn no_match() -> DomainError {
    DomainError::Validation(vec![Violation::new(
        "upsId",
        "mismatch",
        "易清关 ID 或账号与登记信息不符",
        "the Easy-clear ID or account number does not match the registered one",
    )])
}

/// Bind the Easy-clear ID: `upsId` (and `accountNo` when staff registered one) must match
/// what staff registered on the customer. The same ID again changes nothing; another one
/// once bound is a conflict.
fn bind_easy_clear(
    state: &CustomerState,
    account_id: Uuid,
    ups_id: &str,
    account_no: Option<&str>,
    is_from_ups: bool,
) -> Result<Vec<CustomerEvent>, DomainError> {
    if state.customer_id.is_none() {
        return Err(DomainError::NotFound);
    }
    let ups_id = ups_id.trim();
    if ups_id.is_empty() {
        return Err(DomainError::Validation(vec![Violation::new(
            "upsId",
            "required",
            "请输入易清关 ID",
            "upsId is required",
        )]));
    }
    if let Some(bound) = &state.bound_ups_id {
        return if bound == ups_id {
            Ok(Vec::new())
        } else {
            Err(DomainError::Conflict(
                "an Easy-clear ID is already bound".into(),
            ))
        };
    }
    let registered = state.profile.ups_id.as_deref().map(str::trim);
    if registered != Some(ups_id) {
        return Err(no_match());
    }
    if let Some(expected) = state.profile.account_no.as_deref().map(str::trim)
        && account_no.map(str::trim) != Some(expected)
    {
        return Err(no_match());
    }
    Ok(vec![CustomerEvent::EasyClearBound(EasyClearBound {
        ups_id: ups_id.to_string(),
        is_from_ups,
        account_id,
    })])
}

#[cfg(test)]
mod tests;
