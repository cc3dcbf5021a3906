//! `POST /api/v1/declarations/batch-export`: the admin's export report (spec sections 3
//! "Export form", 5 "Export", 9), an xlsx with one row per declaration.
//!
//! Form (JSON or form-encoded): `declarationType` (class letter, default D, or type code),
//! `username` (customer account), `port`, `slic`, `shipmentType` (-1/0/1), `status` (-1 all
//! but deleted), `fromDate`/`toDate` (YYYYMMDD, required, at most 365 days apart, on the
//! creation time), `sort` (1 port, 2 customer account, 3 estimated pickup time ascending,
//! 4 descending; default newest first). ADMIN and SUPER_ADMIN holding
//! `declarations:management` only (403 otherwise).
//!
//! Rows are streamed from PostgreSQL (`fetch`) through a bounded channel into a worksheet in
//! rust_xlsxwriter's constant-memory mode (each finished row goes to a temporary file), the
//! workbook is written to a temporary file and streamed back, so memory stays flat in the
//! number of rows. Every text cell starting with `=`, `+`, `-`, `@`, tab or CR is prefixed
//! with `'`; personal ID and phone numbers are masked. Any error is a JSON envelope with its
//! status (nothing is sent before the file is complete).
//!
//! Columns: tracking number, type code, status (label), receipt code, customer account,
//! company, port, SLIC, service type, estimated pickup time, goods count, total value,
//! currency, consignee, personal ID number (masked), phone (masked), created, updated,
//! submitted, entry number, unified number, the newest customs receipt. Times are Asia/Shanghai, `YYYY-MM-DD HH:MM:SS`.

use std::path::Path;

use api::{Actor, ApiError, FormOrJson, Lang};
use axum::extract::State;
use axum::response::Response;
use chrono::{DateTime, Utc};
use chrono_tz::Asia::Shanghai;
use futures::TryStreamExt;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use rust_xlsxwriter::{Format, Workbook, XlsxError};
use serde::{Deserialize, Deserializer};
use sqlx::{FromRow, Postgres, QueryBuilder};

use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::declaration_list::codes;
use crate::declaration_list::filter::Filter;
use crate::declaration_list::mask::{mask_id_number, mask_phone};
use crate::reports::xlsx::{file_download, safe_cell, temp_path};

/// The longest export range, in days between `fromDate` and `toDate`.
pub const MAX_RANGE_DAYS: i64 = 365;
/// Rows in flight between the database reader and the workbook writer.
const CHANNEL_ROWS: usize = 1024;

/// The export report (spec section 6: an admin's button on the declaration menu): whoever
/// holds `declarations:export`, by default ADMIN and SUPER_ADMIN.
pub const PERMISSION: &str = "declarations:export";

pub fn routes(g: &api::Guards) -> OpenApiRouter<QueryState> {
    let guard = g.permission(PERMISSION);
    OpenApiRouter::new().routes(routes!(export).map(|r| r.route_layer(guard)))
}

/// A number that may arrive as a JSON number or a string; `-1` and empty mean absent.
pub(crate) fn lenient_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    let parsed = match value {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::Number(n)) => Some(
            n.as_i64()
                .ok_or_else(|| serde::de::Error::custom("must be a whole number"))?,
        ),
        Some(serde_json::Value::String(s)) if s.trim().is_empty() => None,
        Some(serde_json::Value::String(s)) => Some(
            s.trim()
                .parse::<i64>()
                .map_err(|_| serde::de::Error::custom("must be a whole number"))?,
        ),
        Some(_) => return Err(serde::de::Error::custom("must be a whole number")),
    };
    Ok(parsed.filter(|v| *v != -1))
}

/// A text that may arrive as a JSON number (a date such as 20261122) or a string.
pub(crate) fn lenient_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match value {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        Some(_) => return Err(serde::de::Error::custom("must be a string")),
    })
}

/// The export form of spec section 3.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportForm {
    /// Class letter (default D) or type code.
    #[serde(default, deserialize_with = "lenient_text")]
    pub declaration_type: Option<String>,
    /// Customer account; empty for all.
    #[serde(default, deserialize_with = "lenient_text")]
    pub username: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    pub port: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    pub slic: Option<String>,
    /// -1 both, 0 import, 1 export.
    #[serde(default, deserialize_with = "lenient_number")]
    #[schema(minimum = -1, maximum = 1)]
    pub shipment_type: Option<i64>,
    /// -1 all but deleted.
    #[serde(default, deserialize_with = "lenient_number")]
    pub status: Option<i64>,
    /// YYYYMMDD, required.
    #[serde(default, deserialize_with = "lenient_text")]
    #[schema(pattern = r"^\d{8}$", example = "20261122", required)]
    pub from_date: Option<String>,
    /// YYYYMMDD, required, at most 365 days after `fromDate`.
    #[serde(default, deserialize_with = "lenient_text")]
    #[schema(pattern = r"^\d{8}$", example = "20261122", required)]
    pub to_date: Option<String>,
    /// 1 port, 2 customer account, 3 estimated pickup time ascending, 4 descending; default
    /// newest first.
    #[serde(default, deserialize_with = "lenient_number")]
    #[schema(minimum = 1, maximum = 4)]
    pub sort: Option<i64>,
}

/// The checked export request.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportRequest {
    /// As asked (class letter or type code), for the file name.
    pub type_label: String,
    pub filter: Filter,
    pub order_by: &'static str,
}

impl ExportForm {
    pub fn check(&self) -> Result<ExportRequest, ApiError> {
        let type_label = self
            .declaration_type
            .as_deref()
            .unwrap_or("D")
            .to_ascii_uppercase();
        let shipment_type = codes::parse_shipment_type("shipmentType", self.shipment_type)?;
        let types = codes::resolve_types(Some(&type_label), shipment_type)?;
        let status = codes::parse_status("status", self.status)?;
        let from = self.from_date.as_deref().ok_or_else(|| {
            ApiError::bad_field("fromDate", "请选择自定义日期", "choose a date range")
        })?;
        let to = self.to_date.as_deref().ok_or_else(|| {
            ApiError::bad_field("toDate", "请选择自定义日期", "choose a date range")
        })?;
        let (from, to) = api::dates::parse_range(Some(from), Some(to))?;
        let (Some(from), Some(to)) = (from, to) else {
            return Err(ApiError::bad_field(
                "fromDate",
                "请选择自定义日期",
                "choose a date range",
            ));
        };
        if (to - from).num_days() > MAX_RANGE_DAYS {
            return Err(ApiError::bad_field(
                "toDate",
                "时间跨度不能超过一年",
                "time span cannot exceed one year",
            ));
        }
        let order_by = match self.sort {
            None => "created_at DESC, id DESC",
            Some(1) => "port ASC NULLS LAST, created_at DESC, id DESC",
            Some(2) => "username ASC, created_at DESC, id DESC",
            Some(3) => "estimated_pickup_time ASC NULLS LAST, created_at DESC, id DESC",
            Some(4) => "estimated_pickup_time DESC NULLS LAST, created_at DESC, id DESC",
            Some(_) => {
                return Err(ApiError::bad_field(
                    "sort",
                    "排序应为 1 港口、2 客户账号、3 预计提货时间升序、4 降序",
                    "sort must be 1 port, 2 customer account, 3 estimated pickup time ascending, 4 descending",
                ));
            }
        };
        let mut filter = Filter {
            types,
            status,
            username: self.username.clone(),
            port: self.port.clone(),
            slic: self.slic.clone(),
            ..Filter::default()
        };
        filter.set_days(Some(from), Some(to));
        Ok(ExportRequest {
            type_label,
            filter,
            order_by,
        })
    }
}

#[derive(Debug, FromRow)]
struct ExportRow {
    tracking_number: Option<String>,
    declaration_type: String,
    status: i16,
    declaration_status: Option<String>,
    username: String,
    company_name: Option<String>,
    port: Option<String>,
    slic: Option<String>,
    service_type: Option<String>,
    estimated_pickup_time: Option<DateTime<Utc>>,
    goods_count: i32,
    total_value: Option<Decimal>,
    currency: Option<String>,
    consignee_name: Option<String>,
    id_number: Option<String>,
    phone: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    submitted_at: Option<DateTime<Utc>>,
    entry_id: Option<String>,
    cus_ciq_no: Option<String>,
    customs_receipt: Option<String>,
    estimated_tax: Option<Decimal>,
    assessed_tax: Option<Decimal>,
}

/// The personal ID number and phone of the party the declaration is about: the recipient
/// of an import, the shipper of an export (class B needs the ID number of that person).
/// `data` is `json` (text): [`EXPORT_FROM`] parses it once per row for the four fields
/// (two `->>` per row parsed it twice, 0.55 s more per 100,000 rows).
const EXPORT_COLUMNS: &str = "tracking_number, declaration_type, status, declaration_status, \
    username, company_name, port, slic, service_type, estimated_pickup_time, goods_count, \
    total_value, currency, consignee_name, \
    CASE WHEN shipment_type = 0 THEN p.\"recipientIdNumber\" ELSE p.\"shipperIdNumber\" END AS id_number, \
    CASE WHEN shipment_type = 0 THEN p.\"recipientPhone\" ELSE p.\"shipperPhone\" END AS phone, \
    created_at, updated_at, submitted_at, entry_id, cus_ciq_no, customs_receipt, \
    t.estimated_total AS estimated_tax, t.assessed_total AS assessed_tax";

const EXPORT_FROM: &str = " FROM rm_declarations \
    LEFT JOIN rm_declaration_taxes t ON t.declaration_id = rm_declarations.id, \
    json_to_record(data) AS p(\
    \"recipientIdNumber\" text, \"shipperIdNumber\" text, \"recipientPhone\" text, \"shipperPhone\" text)";

const HEADERS: [(&str, &str, f64); 24] = [
    ("运单号", "Tracking number", 20.0),
    ("报关类型", "Type", 8.0),
    ("状态", "Status", 16.0),
    ("回执", "Receipt", 8.0),
    ("客户账号", "Customer account", 16.0),
    ("公司", "Company", 24.0),
    ("港口", "Port", 8.0),
    ("SLIC", "SLIC", 8.0),
    ("服务类型", "Service type", 10.0),
    ("预计提货时间", "Estimated pickup", 20.0),
    ("商品项数", "Goods lines", 10.0),
    ("总价", "Total value", 12.0),
    ("币制", "Currency", 8.0),
    ("收货人", "Consignee", 24.0),
    ("证件号码", "Personal ID number", 22.0),
    ("电话", "Phone", 14.0),
    ("创建时间", "Created", 20.0),
    ("更新时间", "Updated", 20.0),
    ("提交时间", "Submitted", 20.0),
    ("报关单号", "Entry number", 20.0),
    ("统一编号", "Unified number", 20.0),
    ("海关回执", "Customs receipt", 10.0),
    ("预估税费", "Estimated tax (CNY)", 14.0),
    ("海关核定税费", "Assessed tax (CNY)", 14.0),
];

fn local(t: DateTime<Utc>) -> String {
    t.with_timezone(&Shanghai)
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// Write the rows arriving on `rx` into an xlsx at `path` (blocking: run it off the
/// async runtime). Answers the number of data rows written.
fn write_workbook(
    path: &Path,
    lang: Lang,
    mut rx: tokio::sync::mpsc::Receiver<ExportRow>,
) -> Result<u32, XlsxError> {
    let mut workbook = Workbook::new();
    let bold = Format::new().set_bold();
    let sheet = workbook.add_worksheet_with_constant_memory()?;
    sheet.set_name(lang.pick("报关单", "Declarations"))?;
    for (col, (zh, en, width)) in (0u16..).zip(HEADERS.iter()) {
        sheet.set_column_width(col, *width)?;
        sheet.write_string_with_format(0, col, lang.pick(zh, en), &bold)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    let mut row: u32 = 0;
    while let Some(r) = rx.blocking_recv() {
        row += 1;
        let mut text = |col: u16, value: Option<&str>| -> Result<(), XlsxError> {
            if let Some(v) = value.filter(|v| !v.is_empty()) {
                sheet.write_string(row, col, safe_cell(v))?;
            }
            Ok(())
        };
        text(0, r.tracking_number.as_deref())?;
        text(1, Some(&r.declaration_type))?;
        text(2, Some(codes::status_label(r.status, lang)))?;
        text(3, r.declaration_status.as_deref())?;
        text(4, Some(&r.username))?;
        text(5, r.company_name.as_deref())?;
        text(6, r.port.as_deref())?;
        text(7, r.slic.as_deref())?;
        text(8, r.service_type.as_deref())?;
        text(9, r.estimated_pickup_time.map(local).as_deref())?;
        text(12, r.currency.as_deref())?;
        text(13, r.consignee_name.as_deref())?;
        text(14, r.id_number.as_deref().map(mask_id_number).as_deref())?;
        text(15, r.phone.as_deref().map(mask_phone).as_deref())?;
        text(16, Some(&local(r.created_at)))?;
        text(17, Some(&local(r.updated_at)))?;
        text(18, r.submitted_at.map(local).as_deref())?;
        text(19, r.entry_id.as_deref())?;
        text(20, r.cus_ciq_no.as_deref())?;
        text(21, r.customs_receipt.as_deref())?;
        sheet.write_number(row, 10, r.goods_count)?;
        if let Some(total) = r.total_value.and_then(|d| d.to_f64()) {
            sheet.write_number(row, 11, total)?;
        }
        for (col, tax) in [(22, r.estimated_tax), (23, r.assessed_tax)] {
            if let Some(v) = tax.and_then(|d| d.to_f64()) {
                sheet.write_number(row, col, v)?;
            }
        }
    }
    workbook.save(path)?;
    Ok(row)
}

/// Build the export file for `request` at `path`.
pub async fn build(
    pool: &sqlx::PgPool,
    request: &ExportRequest,
    lang: Lang,
    path: &Path,
) -> Result<u32, ApiError> {
    let (tx, rx) = tokio::sync::mpsc::channel::<ExportRow>(CHANNEL_ROWS);
    let writer_path = path.to_path_buf();
    let writer = tokio::task::spawn_blocking(move || write_workbook(&writer_path, lang, rx));

    let mut qb: QueryBuilder<'_, Postgres> = QueryBuilder::new("SELECT ");
    qb.push(EXPORT_COLUMNS).push(EXPORT_FROM);
    request.filter.push_where(&mut qb);
    qb.push(" ORDER BY ").push(request.order_by);
    let read = async {
        let mut rows = qb
            .build_query_as::<ExportRow>()
            .persistent(false)
            .fetch(pool);
        while let Some(row) = rows.try_next().await? {
            if tx.send(row).await.is_err() {
                // The writer stopped early; its error is reported below.
                break;
            }
        }
        Ok::<(), sqlx::Error>(())
    };
    let read_result = read.await;
    drop(tx);
    let written = writer
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal);
    read_result?;
    written
}

/// Export declarations as xlsx
///
/// Needs the permission `declarations:export` (by default ADMIN and SUPER_ADMIN; a role
/// granted it may, one without it may not). Form-encoded or JSON. Errors are JSON envelopes.
#[utoipa::path(
    post, path = "/api/v1/declarations/batch-export", operation_id = "exportDeclarations",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    request_body(
        description = "The export form.",
        content(
            (ExportForm = "application/x-www-form-urlencoded"),
            (ExportForm = "application/json"),
        ),
    ),
    responses(
        (
            status = 200,
            description = "The workbook.",
            content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            body = String,
            headers(("Content-Disposition" = String, description = "`attachment` with a safe file name.")),
        ),
        api::doc::Errors<400, 401, 403, 415>,
    ),
)]
async fn export(
    State(state): State<QueryState>,
    _actor: Actor,
    FormOrJson(form): FormOrJson<ExportForm>,
) -> Result<Response, ApiError> {
    crate::wait::wait_for(
        &state.pool,
        &[
            crate::declaration_list::PROJECTION,
            crate::declaration_taxes::PROJECTION,
        ],
        None,
    )
    .await?;
    let request = form.check()?;
    let lang = api::lang::current();
    let path = temp_path("declarations");
    let built = build(&state.pool, &request, lang, &path).await;
    if let Err(e) = built {
        let _ = tokio::fs::remove_file(&path).await;
        return Err(e);
    }
    let now = Utc::now().with_timezone(&Shanghai);
    let file_name = format!(
        "declarations-{}-{}.xlsx",
        request.type_label,
        now.format("%m%d-%H%M")
    );
    file_download(&path, &file_name).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(from: &str, to: &str) -> ExportForm {
        ExportForm {
            from_date: Some(from.into()),
            to_date: Some(to.into()),
            ..ExportForm::default()
        }
    }

    #[test]
    fn the_date_range_is_required_and_at_most_a_year() {
        assert!(form("20260101", "20261231").check().is_ok());
        assert!(form("20250101", "20260102").check().is_err());
        assert!(ExportForm::default().check().is_err());
    }

    #[test]
    fn the_default_type_is_class_d_both_directions() {
        let request = form("20260101", "20260131").check().ok();
        assert_eq!(
            request.map(|r| (r.type_label, r.filter.types)),
            Some(("D".to_string(), vec!["OD", "ID"]))
        );
    }

    #[test]
    fn sort_codes_outside_one_to_four_are_refused() {
        let mut f = form("20260101", "20260131");
        f.sort = Some(5);
        assert!(f.check().is_err());
        f.sort = Some(3);
        assert!(
            f.check()
                .is_ok_and(|r| r.order_by.starts_with("estimated_pickup_time ASC"))
        );
    }
}
