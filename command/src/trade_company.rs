//! The `TradeCompany` aggregate: a company a customer trades with, kept in the customer's
//! master data to fill a declaration's parties. Pure `evolve` and `decide`; the routes are
//! in `trade_company/routes.rs`.
//!
//! Rules, each naming its field: `companyNameCn` required (at most 100 characters),
//! `companyNameEn` at most 200, `uscc` required, 18 characters with its GB 32100-2015 check
//! character (lower case is upper-cased), `customsCode` 10 characters (4 digits, then 6
//! digits or capital letters), `inspectionCode` 10 digits, `address` at most 200. Nothing
//! happens to a deleted company (404).

pub mod routes;

use events::trade_company::{Changed, Deleted, Registered, TradeCompanyEvent, TradeCompanyFields};
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};
use crate::master_data::{at_most, clean, refuse_if_any, required};
use crate::rules::uscc;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TradeCompanyState {
    pub registered: bool,
    pub deleted: bool,
    pub customer_id: Uuid,
    pub fields: TradeCompanyFields,
}

impl TradeCompanyState {
    pub fn live(&self) -> bool {
        self.registered && !self.deleted
    }
}

impl Aggregate for TradeCompanyState {
    type Event = TradeCompanyEvent;
    type Command = TradeCompanyCommand;
    const STREAM_TYPE: &'static str = events::trade_company::STREAM_TYPE;

    fn evolve(&mut self, event: &TradeCompanyEvent) {
        match event {
            TradeCompanyEvent::Registered(r) => {
                *self = Self {
                    registered: true,
                    deleted: false,
                    customer_id: r.customer_id,
                    fields: r.fields.clone(),
                }
            }
            TradeCompanyEvent::Changed(c) => self.fields = c.fields.clone(),
            TradeCompanyEvent::Deleted(_) => self.deleted = true,
        }
    }

    fn decide(
        &self,
        cmd: TradeCompanyCommand,
        _ctx: &Ctx,
    ) -> Result<Vec<TradeCompanyEvent>, DomainError> {
        let state = self;
        match cmd {
            TradeCompanyCommand::Register {
                customer_id,
                fields,
            } => {
                let fields = normalize(fields);
                refuse_if_any(check(&fields))?;
                if state.registered {
                    return Err(DomainError::Conflict("id".into()));
                }
                Ok(vec![TradeCompanyEvent::Registered(Registered {
                    customer_id,
                    fields,
                })])
            }
            TradeCompanyCommand::Change { fields } => {
                if !state.live() {
                    return Err(DomainError::NotFound);
                }
                let fields = normalize(fields);
                refuse_if_any(check(&fields))?;
                if fields == state.fields {
                    return Ok(Vec::new());
                }
                Ok(vec![TradeCompanyEvent::Changed(Changed { fields })])
            }
            TradeCompanyCommand::Delete { reason } => {
                if !state.live() {
                    return Err(DomainError::NotFound);
                }
                Ok(vec![TradeCompanyEvent::Deleted(Deleted { reason })])
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TradeCompanyCommand {
    Register {
        customer_id: Uuid,
        fields: TradeCompanyFields,
    },
    /// Replaces the whole record.
    Change {
        fields: TradeCompanyFields,
    },
    Delete {
        reason: Option<String>,
    },
}

/// The fields as typed, trimmed (empty optional fields become `None`, codes upper-cased).
pub fn normalize(f: TradeCompanyFields) -> TradeCompanyFields {
    let upper = |v: Option<String>| clean(v).map(|s| s.to_uppercase());
    TradeCompanyFields {
        company_name_cn: f.company_name_cn.trim().to_string(),
        company_name_en: clean(f.company_name_en),
        uscc: f.uscc.trim().to_uppercase(),
        customs_code: upper(f.customs_code),
        inspection_code: clean(f.inspection_code),
        address: clean(f.address),
    }
}

/// Every rule the fields break.
pub fn check(f: &TradeCompanyFields) -> Vec<Violation> {
    let mut v = Vec::new();
    required(&mut v, "companyNameCn", "中文名称", &f.company_name_cn, 100);
    at_most(&mut v, "companyNameEn", f.company_name_en.as_deref(), 200);
    if f.uscc.is_empty() {
        v.push(Violation::new(
            "uscc",
            "required",
            "uscc：请输入统一社会信用代码",
            "uscc: is required",
        ));
    } else {
        match uscc::check(&f.uscc) {
            Ok(()) => {}
            Err(uscc::UsccError::Format) => v.push(Violation::new(
                "uscc",
                "uscc_format",
                "uscc：应为 18 位统一社会信用代码（数字及除 I、O、S、V、Z 外的大写字母）",
                "uscc: must be an 18-character unified social credit code (digits and capital letters except I, O, S, V, Z)",
            )),
            Err(uscc::UsccError::CheckDigit) => v.push(Violation::new(
                "uscc",
                "uscc_check_digit",
                "uscc：统一社会信用代码的校验位不正确",
                "uscc: the check character of the unified social credit code is wrong",
            )),
        }
    }
    if let Some(code) = &f.customs_code {
        let b = code.as_bytes();
        let ok = b.len() == 10
            && b[..4].iter().all(u8::is_ascii_digit)
            && b[4..]
                .iter()
                .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase());
        if !ok {
            v.push(Violation::new(
                "customsCode",
                "customs_code",
                "customsCode：应为 10 位海关编码（4 位数字加 6 位数字或大写字母）",
                "customsCode: must be a 10-character customs code (4 digits, then 6 digits or capital letters)",
            ));
        }
    }
    if let Some(code) = &f.inspection_code
        && !(code.len() == 10 && code.bytes().all(|b| b.is_ascii_digit()))
    {
        v.push(Violation::new(
            "inspectionCode",
            "inspection_code",
            "inspectionCode：应为 10 位数字的检验检疫编码",
            "inspectionCode: must be a 10-digit inspection code",
        ));
    }
    at_most(&mut v, "address", f.address.as_deref(), 200);
    v
}

#[cfg(test)]
mod tests;
