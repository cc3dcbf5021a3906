//! Given/when/then tests of the declaration aggregate, without a database: given past
//! events, when a command arrives from an actor, then these events or this refusal.

mod amend;
mod create_edit;
mod customs;
mod exception;
mod field_rules;
mod form_check;
mod limits;
mod transitions;
mod validation;

use api::{Actor, Role};
use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use events::declaration::{
    DeclarationClass, DeclarationData, DeclarationEvent, DeclarationStatus, Direction, Drafted,
    GoodsLine, Transition, TypeCode,
};
use events::reference::{ReferenceTableVersionImported, Row};
use rust_decimal::Decimal;
use serde_json::Value;
use uuid::Uuid;

use super::{DeclarationCommand, DeclarationState};
use crate::aggregate::{Aggregate, DomainError, Violation};
use crate::reference::ReferenceData;
pub use crate::testing::{given, when_in};

pub const ACME: Uuid = Uuid::from_u128(0xac3e_0000_0000_0000_0000_0000_0000_0001);
pub const GLOBEX: Uuid = Uuid::from_u128(0x0006_106e_0000_0000_0000_0000_0000_0002);
pub const DECLARATION: Uuid = Uuid::from_u128(0xdec1_0000_0000_0000_0000_0000_0000_0003);

/// 2026-03-01 20:00 UTC is 2026-03-02 04:00 in Shanghai.
pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 20, 0, 0)
        .single()
        .unwrap_or_default()
}

pub fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

pub fn dec(s: &str) -> Decimal {
    s.parse().unwrap_or_else(|_| panic!("bad decimal {s}"))
}

pub fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

fn actor(name: &str, role: Role, customer_id: Option<Uuid>) -> Actor {
    Actor {
        id: Uuid::new_v5(&Uuid::NAMESPACE_OID, name.as_bytes()),
        username: name.into(),
        display_name: name.into(),
        role,
        customer_id,
        session_id: Uuid::nil(),
    }
}

pub fn acme() -> Actor {
    actor("acme", Role::Customer, Some(ACME))
}
pub fn globex() -> Actor {
    actor("globex", Role::Customer, Some(GLOBEX))
}
pub fn operator() -> Actor {
    actor("operator", Role::Operator, None)
}
pub fn admin() -> Actor {
    actor("admin", Role::Admin, None)
}
pub fn superadmin() -> Actor {
    actor("superadmin", Role::SuperAdmin, None)
}

pub fn ty(s: &str) -> TypeCode {
    s.parse()
        .unwrap_or(TypeCode::new(Direction::Import, DeclarationClass::C))
}

// ---------------------------------------------------------------------------------------
// Reference data

fn table(name: &str, from: NaiveDate, rows: &[&[(&str, &str)]]) -> ReferenceTableVersionImported {
    let rows: Vec<Row> = rows
        .iter()
        .map(|cells| {
            cells
                .iter()
                .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
                .collect()
        })
        .collect();
    ReferenceTableVersionImported {
        table: name.into(),
        effective_from: from,
        columns: rows
            .first()
            .map(|r| r.keys().cloned().collect())
            .unwrap_or_default(),
        row_count: rows.len() as i64,
        rows,
        source: "test".into(),
        content_hash: String::new(),
    }
}

fn codes(name: &str, list: &[&str]) -> ReferenceTableVersionImported {
    let rows: Vec<Vec<(&str, &str)>> = list.iter().map(|c| vec![("code", *c)]).collect();
    let refs: Vec<&[(&str, &str)]> = rows.iter().map(Vec::as_slice).collect();
    table(name, day(2020, 1, 1), &refs)
}

/// Every table the rules consult, small. `units` gains `999` on 2026-06-01.
pub fn reference() -> ReferenceData {
    ReferenceData::from_events([
        codes("currencies", &["CNY", "USD", "EUR", "JPY"]),
        codes("countries", &["CHN", "USA", "JPN", "DEU"]),
        codes("units", &["035", "011", "007"]),
        table(
            "units",
            day(2026, 6, 1),
            &[
                &[("code", "035")],
                &[("code", "011")],
                &[("code", "007")],
                &[("code", "999")],
            ],
        ),
        codes("ports", &["310000", "440300"]),
        codes("customs-offices", &["2200", "2233", "5300"]),
        codes("supervision-modes", &["0110", "9610"]),
        codes("levy-types", &["101"]),
        codes("levy-methods", &["1", "2", "3"]),
        codes("transport-modes", &["5", "A"]),
        codes("packing-types", &["22", "06"]),
        codes("service-types", &["065", "007"]),
        codes("customs-types", &["M", "D"]),
        codes("districts", &["31222", "44031"]),
        table(
            "exchange-rates",
            day(2020, 1, 1),
            &[
                &[("code", "USD"), ("rate", "7.10")],
                &[("code", "EUR"), ("rate", "7.80")],
            ],
        ),
    ])
}

// ---------------------------------------------------------------------------------------
// Forms

pub const USCC_A: &str = "91440300MA5FHK4H1F";
pub const USCC_B: &str = "91440300MA5FAQKF5W";
pub const USCC_C: &str = "91350100M000100Y43";

pub fn goods_line() -> GoodsLine {
    GoodsLine {
        goods_no: Some(Decimal::ONE),
        goods_code: s("8517130000"),
        goods_name: s("智能手机"),
        goods_quantity: Some(dec("2")),
        goods_unit: s("011"),
        unit_price: Some(dec("100")),
        total_price: Some(dec("200")),
        currency: s("USD"),
        origin_country: s("USA"),
        destination_country: s("CHN"),
        district_code: s("31222"),
        duty_mode: s("1"),
        quantity_one: Some(dec("2")),
        unit_one: s("011"),
        specification: s("0|0|品牌:X|型号:Y"),
        ..GoodsLine::default()
    }
}

/// A form that passes every rule for its class.
pub fn complete_data(t: TypeCode) -> DeclarationData {
    let mut d = DeclarationData {
        tracking_number: s("1Z999AA10123456784"),
        service_type: s("065"),
        shipper_name: s("John Smith"),
        recipient_name: s("张三"),
        recipient_address: s("上海市浦东新区"),
        currency_code: s("USD"),
        gross_weight: Some(dec("1.5")),
        net_weight: Some(dec("1.2")),
        declaration_goods_info: vec![goods_line()],
        ..DeclarationData::default()
    };
    match (t.class, t.direction) {
        (DeclarationClass::B, Direction::Import) => d.recipient_id_number = s("11010519491231002X"),
        (DeclarationClass::B, Direction::Export) => d.shipper_id_number = s("440524188001010014"),
        (DeclarationClass::C, _) => {}
        (DeclarationClass::D, dir) => {
            d.consignee_company_cn = s("深圳某某科技有限公司");
            d.consignee_scc = s(USCC_A);
            d.consignee_custom_master = s("4403960ABC");
            d.consignee_inspect_code = s("4700000001");
            d.consignor_company_en = s("Example Inc.");
            d.owner_company_name = s("深圳某某科技有限公司");
            d.owner_company_scc = s(USCC_B);
            d.declare_company_name = s("某某报关有限公司");
            d.declare_company_scc = s(USCC_C);
            d.declare_company_custom_master = s("3101980XYZ");
            d.custom_master = s("2233");
            d.ie_port = s("2233");
            d.supervision_mode = s("0110");
            d.cut_mode = s("101");
            d.traffic_mode = s("5");
            d.trade_country = s("USA");
            d.package_type = s("22");
            d.package_quantity = Some(dec("1"));
            match dir {
                Direction::Import => d.desp_port = s("440300"),
                Direction::Export => d.distinate_port = s("310000"),
            }
        }
    }
    d
}

// ---------------------------------------------------------------------------------------
// Given / when

pub fn drafted(t: TypeCode, data: DeclarationData) -> DeclarationEvent {
    DeclarationEvent::Drafted(Drafted {
        declaration_id: DECLARATION,
        declaration_type: t,
        customer_id: ACME,
        username: "acme".into(),
        company_name: s("Acme Trading"),
        data,
        upload: None,
        provenance: None,
    })
}

fn moved(
    wrap: fn(Transition) -> DeclarationEvent,
    from: DeclarationStatus,
    to: DeclarationStatus,
) -> DeclarationEvent {
    wrap(Transition {
        from,
        to,
        reason: None,
        receipt_code: None,
        tax_estimate: None,
    })
}

/// The events that bring a complete IC declaration of ACME to `status` (4 has no events
/// yet; see [`state_in`]).
pub fn history_to(status: DeclarationStatus) -> Vec<DeclarationEvent> {
    use DeclarationStatus::*;
    let t = ty("IC");
    let mut ev = vec![drafted(t, complete_data(t))];
    type Step = (
        fn(Transition) -> DeclarationEvent,
        DeclarationStatus,
        DeclarationStatus,
    );
    let path: &[Step] = match status {
        Draft | DocumentException => &[],
        Unprocessed => &[(DeclarationEvent::Submitted, Draft, Unprocessed)],
        ReviewedNotCompleted => &[
            (DeclarationEvent::Submitted, Draft, Unprocessed),
            (
                DeclarationEvent::Reviewed,
                Unprocessed,
                ReviewedNotCompleted,
            ),
        ],
        Completed => &[
            (DeclarationEvent::Submitted, Draft, Unprocessed),
            (
                DeclarationEvent::Reviewed,
                Unprocessed,
                ReviewedNotCompleted,
            ),
            (DeclarationEvent::Completed, ReviewedNotCompleted, Completed),
        ],
        ReturnedNotCompleted => &[
            (DeclarationEvent::Submitted, Draft, Unprocessed),
            (
                DeclarationEvent::Reviewed,
                Unprocessed,
                ReviewedNotCompleted,
            ),
            (
                DeclarationEvent::Rejected,
                ReviewedNotCompleted,
                ReturnedNotCompleted,
            ),
        ],
        ReturnedNotSubmitted => &[
            (DeclarationEvent::Submitted, Draft, Unprocessed),
            (
                DeclarationEvent::Returned,
                Unprocessed,
                ReturnedNotSubmitted,
            ),
        ],
        Deleted => &[(DeclarationEvent::Deleted, Draft, Deleted)],
    };
    ev.extend(path.iter().map(|(w, f, t)| moved(*w, *f, *t)));
    ev
}

/// A state in `status`, complete IC data, owned by ACME. Status 4 is set directly: the
/// events that lead there arrive with the clearance-exception aggregate.
pub fn state_in(status: DeclarationStatus) -> DeclarationState {
    let mut state = given::<DeclarationState>(&history_to(status));
    if status == DeclarationStatus::DocumentException {
        state.previous_status = state.status;
        state.status = Some(status);
    }
    assert_eq!(state.status, Some(status));
    state
}

/// The violations of a refused command (panics on anything else).
pub fn violations(result: Result<Vec<DeclarationEvent>, DomainError>) -> Vec<Violation> {
    match result {
        Err(DomainError::Validation(v)) => v,
        other => panic!("expected a validation error, got {other:?}"),
    }
}

pub fn fields(v: &[Violation]) -> Vec<&str> {
    v.iter().map(|v| v.field.as_str()).collect()
}

pub fn has(v: &[Violation], field: &str, rule: &str) -> bool {
    v.iter().any(|x| x.field == field && x.rule == rule)
}

/// The single event of an accepted command.
pub fn one_event(result: Result<Vec<DeclarationEvent>, DomainError>) -> DeclarationEvent {
    match result {
        Ok(mut events) if events.len() == 1 => events.remove(0),
        other => panic!("expected one event, got {other:?}"),
    }
}
