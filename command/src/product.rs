//! The `Product` aggregate: an article of a customer's product library. It fills goods
//! lines in the declaration form (autocomplete) and missing HS codes in uploads. Pure
//! `evolve` and `decide`; the reference tables come in as a snapshot and a date.
//!
//! Rules, each naming its field: `descriptionCn` required (at most 100 characters),
//! `descriptionEn` at most 100; `hsCode` required, 10 digits whose first six are a
//! subheading of HS 2022 (`crate::hs`); `declarationElements` at most 255; `declaredUnit`
//! required and, like `legalUnitOne`/`legalUnitTwo`, a code of the units table;
//! `originCountry` a code of the countries table (upper-cased); `unitPrice` above zero with
//! at most 4 decimals, and with it a `currency` of the currencies table. A table that is not
//! loaded is not checked. Nothing happens to a deleted product (404).

pub mod routes;

use chrono::NaiveDate;
use events::product::{Changed, Deleted, ProductEvent, ProductFields, Registered};
use rust_decimal::Decimal;
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};
use crate::hs;
use crate::master_data::{at_most, clean, refuse_if_any, required};
use crate::reference::ReferenceData;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ProductState {
    pub registered: bool,
    pub deleted: bool,
    pub customer_id: Uuid,
    pub fields: ProductFields,
}

impl ProductState {
    pub fn live(&self) -> bool {
        self.registered && !self.deleted
    }
}

impl Aggregate for ProductState {
    type Event = ProductEvent;
    type Command = ProductCommand;
    const STREAM_TYPE: &'static str = events::product::STREAM_TYPE;

    fn evolve(&mut self, event: &ProductEvent) {
        match event {
            ProductEvent::Registered(r) => {
                *self = Self {
                    registered: true,
                    deleted: false,
                    customer_id: r.customer_id,
                    fields: r.fields.clone(),
                }
            }
            ProductEvent::Changed(c) => self.fields = c.fields.clone(),
            ProductEvent::Deleted(_) => self.deleted = true,
        }
    }

    fn decide(&self, cmd: ProductCommand, ctx: &Ctx) -> Result<Vec<ProductEvent>, DomainError> {
        let state = self;
        let reference: &ReferenceData = &ctx.reference;
        let on = ctx.today();
        match cmd {
            ProductCommand::Register {
                customer_id,
                fields,
            } => {
                let fields = normalize(fields);
                refuse_if_any(check(&fields, reference, on))?;
                if state.registered {
                    return Err(DomainError::Conflict("id".into()));
                }
                Ok(vec![ProductEvent::Registered(Registered {
                    customer_id,
                    fields,
                })])
            }
            ProductCommand::Change { fields } => {
                if !state.live() {
                    return Err(DomainError::NotFound);
                }
                let fields = normalize(fields);
                refuse_if_any(check(&fields, reference, on))?;
                if fields == state.fields {
                    return Ok(Vec::new());
                }
                Ok(vec![ProductEvent::Changed(Changed { fields })])
            }
            ProductCommand::Delete { reason } => {
                if !state.live() {
                    return Err(DomainError::NotFound);
                }
                Ok(vec![ProductEvent::Deleted(Deleted { reason })])
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProductCommand {
    Register {
        customer_id: Uuid,
        fields: ProductFields,
    },
    /// Replaces the whole record.
    Change {
        fields: ProductFields,
    },
    Delete {
        reason: Option<String>,
    },
}

/// The fields as typed, trimmed; codes upper-cased where the tables are (countries,
/// currencies), empty optional fields `None`.
pub fn normalize(f: ProductFields) -> ProductFields {
    let upper = |v: Option<String>| clean(v).map(|s| s.to_uppercase());
    ProductFields {
        description_cn: f.description_cn.trim().to_string(),
        description_en: clean(f.description_en),
        hs_code: f.hs_code.trim().to_string(),
        declaration_elements: clean(f.declaration_elements),
        declared_unit: f.declared_unit.trim().to_string(),
        legal_unit_one: clean(f.legal_unit_one),
        legal_unit_two: clean(f.legal_unit_two),
        origin_country: upper(f.origin_country),
        unit_price: f.unit_price.map(|p| p.normalize()),
        currency: upper(f.currency),
    }
}

fn code(
    out: &mut Vec<Violation>,
    reference: &ReferenceData,
    on: NaiveDate,
    table: &str,
    field: &str,
    value: Option<&str>,
) {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return;
    };
    if reference.is_loaded(table) && !reference.exists(table, value, on) {
        out.push(Violation::new(
            field,
            "reference_code",
            format!("{field}：{value} 不在代码表 {table} 中"),
            format!("{field}: {value} is not a code of the {table} table"),
        ));
    }
}

/// The HS code rule shared with the upload and the declaration form: 10 digits, the first
/// six a subheading of HS 2022.
pub fn check_hs_code(out: &mut Vec<Violation>, field: &str, value: &str) {
    if value.is_empty() {
        out.push(Violation::new(
            field,
            "required",
            format!("{field}：请输入 HS 编码"),
            format!("{field}: is required"),
        ));
        return;
    }
    match hs::check(value) {
        Ok(()) => {}
        Err(hs::HsError::Format) => out.push(Violation::new(
            field,
            "hs_code",
            format!("{field}：应为 10 位数字的商品编码"),
            format!("{field}: must be a 10-digit HS code"),
        )),
        Err(hs::HsError::UnknownSubheading) => out.push(Violation::new(
            field,
            "hs_subheading",
            format!("{field}：前 6 位 {} 不是 HS 2022 的子目", &value[..6]),
            format!(
                "{field}: its first six digits {} are not a subheading of HS 2022",
                &value[..6]
            ),
        )),
    }
}

/// Every rule the fields break, the codes judged by the tables in force on `on`.
pub fn check(f: &ProductFields, reference: &ReferenceData, on: NaiveDate) -> Vec<Violation> {
    let mut v = Vec::new();
    required(&mut v, "descriptionCn", "中文品名", &f.description_cn, 100);
    at_most(&mut v, "descriptionEn", f.description_en.as_deref(), 100);
    check_hs_code(&mut v, "hsCode", &f.hs_code);
    at_most(
        &mut v,
        "declarationElements",
        f.declaration_elements.as_deref(),
        255,
    );
    if f.declared_unit.is_empty() {
        v.push(Violation::new(
            "declaredUnit",
            "required",
            "declaredUnit：请选择申报单位",
            "declaredUnit: is required",
        ));
    }
    code(
        &mut v,
        reference,
        on,
        "units",
        "declaredUnit",
        Some(&f.declared_unit),
    );
    code(
        &mut v,
        reference,
        on,
        "units",
        "legalUnitOne",
        f.legal_unit_one.as_deref(),
    );
    code(
        &mut v,
        reference,
        on,
        "units",
        "legalUnitTwo",
        f.legal_unit_two.as_deref(),
    );
    code(
        &mut v,
        reference,
        on,
        "countries",
        "originCountry",
        f.origin_country.as_deref(),
    );
    if let Some(p) = f.unit_price {
        if p <= Decimal::ZERO {
            v.push(Violation::new(
                "unitPrice",
                "positive",
                "unitPrice：必须大于 0",
                "unitPrice: must be above zero",
            ));
        } else if p.scale() > 4 {
            v.push(Violation::new(
                "unitPrice",
                "scale",
                "unitPrice：最多 4 位小数",
                "unitPrice: at most 4 decimals",
            ));
        }
        if f.currency.is_none() {
            v.push(Violation::new(
                "currency",
                "required",
                "currency：填写单价时须选择币制",
                "currency: is required with unitPrice",
            ));
        }
    }
    code(
        &mut v,
        reference,
        on,
        "currencies",
        "currency",
        f.currency.as_deref(),
    );
    v
}

#[cfg(test)]
mod tests;
