//! `POST /api/v1/clearance/batch-export`: the clearance exception export (spec sections 3
//! "Exception export form", 7, 9).
//!
//! Form (JSON or form-encoded): `declarationType` (class letter or type code; absent: all),
//! `port`, `shipmentType` (-1/0/1), `status` (-1 all, 1 2 3 4 6 7), `fromDate`/`toDate`
//! (YYYYMMDD, required, at most 365 days apart, on the creation time), `sort` (1 creation
//! time ascending, 2 descending; default 2), `exportFormat` (`01` xlsx, default; `02` XML;
//! `03` both in a zip). ADMIN and SUPER_ADMIN holding `clearance:management` (403
//! otherwise, as the declaration export).
//!
//! The file is named by the date and time (Asia/Shanghai):
//! `clearance-exceptions-YYYYMMDD-HHMMSS.{xlsx,xml,zip}`. The XML follows
//! `docs/schemas/clearance-exceptions.xsd` (namespace [`XML_NAMESPACE`]); text is escaped
//! and characters XML 1.0 does not allow are dropped, so the document is always well
//! formed. Spreadsheet text cells that would read as formulas are prefixed with `'`.
//!
//! The export is built in memory: exceptions are far fewer than declarations (a hold on a
//! small share of them), and a year of them is a few megabytes.

use std::io::{Cursor, Write};

use api::{Actor, ApiError, FormOrJson, Lang};
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use chrono_tz::Asia::Shanghai;
use rust_xlsxwriter::{Format, Workbook, XlsxError};
use serde::Deserialize;
use serde_json::Value;
use sqlx::{Postgres, QueryBuilder};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::clearance_exception_list::{
    COLUMNS, ExceptionFilter, ExceptionRow, NoticeDelivery, notice_deliveries, status_label,
};

/// Where each exported exception's last notice stands.
type Deliveries = std::collections::HashMap<uuid::Uuid, NoticeDelivery>;
use crate::reports::declaration_export::{lenient_number, lenient_text};
use crate::reports::xlsx::{XLSX_CONTENT_TYPE, content_disposition, safe_cell};

/// The longest export range, in days between `fromDate` and `toDate`.
pub const MAX_RANGE_DAYS: i64 = 365;
/// The XML document's namespace (the schema's `targetNamespace`).
pub const XML_NAMESPACE: &str = "urn:clearway:clearance-exceptions:1";

/// The export report is an admin-only button (spec section 6) on the clearance menu: ADMIN
/// or SUPER_ADMIN holding `clearance:management`.
pub fn routes(g: &api::Guards) -> OpenApiRouter<QueryState> {
    let guard = g.admin_permission("clearance:management");
    OpenApiRouter::new().routes(routes!(export).map(|r| r.route_layer(guard)))
}

/// The spec's exception export form.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ExceptionExportForm)]
pub struct ExceptionExportForm {
    /// Class letter or type code; absent: every type.
    #[serde(default, deserialize_with = "lenient_text")]
    pub declaration_type: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    pub port: Option<String>,
    /// -1 both, 0 import, 1 export.
    #[serde(default, deserialize_with = "lenient_number")]
    #[schema(minimum = -1, maximum = 1)]
    pub shipment_type: Option<i64>,
    /// -1 all, 1 pending, 2 customer notified, 3 awaiting customer confirmation, 4 awaiting
    /// review, 6 review completed, 7 voided.
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
    /// 1 creation time ascending, 2 descending (default).
    #[serde(default, deserialize_with = "lenient_number")]
    #[schema(minimum = 1, maximum = 2)]
    pub sort: Option<i64>,
    /// `01` EXCEL (.xlsx, default), `02` XML (.xml), `03` all formats (.zip of both).
    #[serde(default, deserialize_with = "lenient_text")]
    #[schema(example = "01")]
    pub export_format: Option<String>,
}

/// What the export produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Excel,
    Xml,
    All,
}

/// The checked export request.
#[derive(Debug, Clone, PartialEq)]
pub struct ExceptionExport {
    pub filter: ExceptionFilter,
    pub order_by: &'static str,
    pub format: ExportFormat,
}

impl ExceptionExportForm {
    pub fn check(&self) -> Result<ExceptionExport, ApiError> {
        let format = match self
            .export_format
            .as_deref()
            .map(|f| f.trim().trim_start_matches('0'))
        {
            None | Some("1") => ExportFormat::Excel,
            Some("2") => ExportFormat::Xml,
            Some("3") => ExportFormat::All,
            Some(_) => {
                return Err(ApiError::bad_field(
                    "exportFormat",
                    "导出格式应为 01（EXCEL）、02（XML）或 03（全部）",
                    "exportFormat must be 01 (EXCEL), 02 (XML) or 03 (all)",
                ));
            }
        };
        let from = self.from_date.as_deref().ok_or_else(|| {
            ApiError::bad_field("fromDate", "请选择自定义日期", "choose a date range")
        })?;
        let to = self.to_date.as_deref().ok_or_else(|| {
            ApiError::bad_field("toDate", "请选择自定义日期", "choose a date range")
        })?;
        let (Some(from_day), Some(to_day)) = api::dates::parse_range(Some(from), Some(to))? else {
            return Err(ApiError::bad_field(
                "fromDate",
                "请选择自定义日期",
                "choose a date range",
            ));
        };
        if (to_day - from_day).num_days() > MAX_RANGE_DAYS {
            return Err(ApiError::bad_field(
                "toDate",
                "时间跨度不能超过一年",
                "time span cannot exceed one year",
            ));
        }
        let order_by = match self.sort {
            None | Some(2) => "created_at DESC, id DESC",
            Some(1) => "created_at ASC, id ASC",
            Some(_) => {
                return Err(ApiError::bad_field(
                    "sort",
                    "排序应为 1（创建时间升序）或 2（降序）",
                    "sort must be 1 (creation time ascending) or 2 (descending)",
                ));
            }
        };
        let filter = ExceptionFilter::parse(
            self.shipment_type,
            self.declaration_type.as_deref(),
            self.status,
            self.port.as_deref(),
            None,
            Some(from),
            Some(to),
        )?;
        Ok(ExceptionExport {
            filter,
            order_by,
            format,
        })
    }
}

fn local(t: DateTime<Utc>) -> String {
    t.with_timezone(&Shanghai)
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// The proposed changes as `field: old -> new` lines.
fn changes_text(row: &ExceptionRow) -> String {
    let Some(list) = row.proposed_changes.0.as_array() else {
        return String::new();
    };
    list.iter()
        .map(|c| {
            let s = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("");
            format!("{}: {} -> {}", s("kind"), s("old"), s("new"))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

const HEADERS: [(&str, &str, f64); 16] = [
    ("运单号", "Tracking number", 20.0),
    ("报关类型", "Type", 8.0),
    ("进出口", "Import/export", 10.0),
    ("港口", "Port", 8.0),
    ("客户账号", "Customer account", 16.0),
    ("公司", "Company", 24.0),
    ("状态", "Status", 18.0),
    ("异常", "Exception", 30.0),
    ("所需文件", "Requested documents", 30.0),
    ("变更", "Proposed changes", 30.0),
    ("摘要", "Summary", 30.0),
    ("等待方", "Waiting on", 10.0),
    ("超时", "Overdue", 8.0),
    ("创建时间", "Created", 20.0),
    ("更新时间", "Updated", 20.0),
    ("状态开始", "Status since", 20.0),
];

/// The workbook of `rows`.
pub fn xlsx(
    rows: &[ExceptionRow],
    delivery: &Deliveries,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<Vec<u8>, XlsxError> {
    let mut workbook = Workbook::new();
    let bold = Format::new().set_bold();
    let sheet = workbook.add_worksheet();
    sheet.set_name(lang.pick("清关异常", "Clearance exceptions"))?;
    for (col, (zh, en, width)) in (0u16..).zip(HEADERS.iter()) {
        sheet.set_column_width(col, *width)?;
        sheet.write_string_with_format(0, col, lang.pick(zh, en), &bold)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    for (row, r) in (1u32..).zip(rows) {
        let summary = r.summary(now, lang, delivery.get(&r.id).cloned().unwrap_or_default());
        let cells: [Option<String>; 16] = [
            r.tracking_number.clone(),
            Some(r.declaration_type.clone()),
            Some(
                if r.shipment_type == 1 {
                    lang.pick("出口", "export")
                } else {
                    lang.pick("进口", "import")
                }
                .to_string(),
            ),
            r.port.clone(),
            Some(r.username.clone()),
            r.company_name.clone(),
            Some(status_label(r.status, lang).to_string()),
            Some(r.details_text()),
            Some(r.requested_documents().join(", ")),
            Some(changes_text(r)),
            summary.exception_summary.clone(),
            summary.waiting_on.clone(),
            Some(
                if summary.overdue {
                    lang.pick("是", "yes")
                } else {
                    lang.pick("否", "no")
                }
                .to_string(),
            ),
            Some(local(r.created_at)),
            Some(local(r.updated_at)),
            Some(local(r.status_since)),
        ];
        for (col, value) in (0u16..).zip(cells) {
            if let Some(v) = value.filter(|v| !v.is_empty()) {
                sheet.write_string(row, col, safe_cell(&v))?;
            }
        }
    }
    workbook.save_to_buffer()
}

/// `value` as XML character data or attribute text: the five special characters escaped,
/// characters that XML 1.0 does not allow dropped.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

fn element(out: &mut String, indent: &str, name: &str, value: Option<&str>) {
    if let Some(v) = value {
        out.push_str(&format!("{indent}<{name}>{}</{name}>\n", escape(v)));
    }
}

/// The XML document of `rows` (schema `docs/schemas/clearance-exceptions.xsd`).
pub fn xml(rows: &[ExceptionRow], delivery: &Deliveries, lang: Lang, now: DateTime<Utc>) -> String {
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<clearanceExceptions xmlns=\"{XML_NAMESPACE}\" generatedAt=\"{}\" count=\"{}\">\n",
        now.with_timezone(&Shanghai).to_rfc3339(),
        rows.len()
    ));
    for r in rows {
        let s = r.summary(now, lang, delivery.get(&r.id).cloned().unwrap_or_default());
        out.push_str(&format!(
            "  <exception id=\"{}\" version=\"{}\">\n",
            r.id, r.version
        ));
        let i = "    ";
        element(
            &mut out,
            i,
            "declarationId",
            Some(&r.declaration_id.to_string()),
        );
        element(&mut out, i, "trackingNumber", r.tracking_number.as_deref());
        element(&mut out, i, "declarationType", Some(&r.declaration_type));
        element(
            &mut out,
            i,
            "shipmentType",
            Some(&r.shipment_type.to_string()),
        );
        element(&mut out, i, "port", r.port.as_deref());
        element(&mut out, i, "username", Some(&r.username));
        element(&mut out, i, "companyName", r.company_name.as_deref());
        out.push_str(&format!(
            "{i}<status code=\"{}\">{}</status>\n",
            r.status,
            escape(status_label(r.status, lang))
        ));
        element(
            &mut out,
            i,
            "createdAt",
            Some(&r.created_at.with_timezone(&Shanghai).to_rfc3339()),
        );
        element(
            &mut out,
            i,
            "updatedAt",
            Some(&r.updated_at.with_timezone(&Shanghai).to_rfc3339()),
        );
        element(
            &mut out,
            i,
            "statusSince",
            Some(&r.status_since.with_timezone(&Shanghai).to_rfc3339()),
        );
        element(&mut out, i, "waitingOn", s.waiting_on.as_deref());
        element(
            &mut out,
            i,
            "overdue",
            Some(if s.overdue { "true" } else { "false" }),
        );
        element(&mut out, i, "summary", s.exception_summary.as_deref());
        out.push_str(&format!("{i}<details>\n"));
        if let Some(list) = r.form.0.get("exceptionDetails").and_then(Value::as_array) {
            for d in list {
                let t = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                out.push_str(&format!(
                    "{i}  <detail code=\"{}\"><description>{}</description><handling>{}</handling></detail>\n",
                    escape(&t("exceptionCode")),
                    escape(&t("exceptionDescription")),
                    escape(&t("exceptionHandling")),
                ));
            }
        }
        out.push_str(&format!("{i}</details>\n{i}<requestedDocuments>\n"));
        for doc in r.requested_documents() {
            element(&mut out, "      ", "document", Some(&doc));
        }
        out.push_str(&format!("{i}</requestedDocuments>\n{i}<proposedChanges>\n"));
        if let Some(list) = r.proposed_changes.0.as_array() {
            for c in list {
                let t = |k: &str| c.get(k).and_then(Value::as_str).map(str::to_string);
                out.push_str(&format!(
                    "{i}  <change kind=\"{}\" field=\"{}\">",
                    escape(&t("kind").unwrap_or_default()),
                    escape(&t("field").unwrap_or_default())
                ));
                if let Some(old) = t("old") {
                    out.push_str(&format!("<old>{}</old>", escape(&old)));
                }
                out.push_str(&format!(
                    "<new>{}</new></change>\n",
                    escape(&t("new").unwrap_or_default())
                ));
            }
        }
        out.push_str(&format!("{i}</proposedChanges>\n  </exception>\n"));
    }
    out.push_str("</clearanceExceptions>\n");
    out
}

/// A zip holding the workbook and the XML document under `stem`.
pub fn zip_both(stem: &str, xlsx: &[u8], xml: &str) -> Result<Vec<u8>, ApiError> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in [
        (format!("{stem}.xlsx"), xlsx),
        (format!("{stem}.xml"), xml.as_bytes()),
    ] {
        zip.start_file(name, options).map_err(ApiError::internal)?;
        zip.write_all(bytes).map_err(ApiError::internal)?;
    }
    Ok(zip.finish().map_err(ApiError::internal)?.into_inner())
}

/// The rows of an export.
pub async fn fetch(
    pool: &sqlx::PgPool,
    request: &ExceptionExport,
) -> Result<Vec<ExceptionRow>, ApiError> {
    let mut q: QueryBuilder<'_, Postgres> =
        QueryBuilder::new(format!("SELECT {COLUMNS} FROM rm_clearance_exceptions"));
    request.filter.push_where(&mut q);
    q.push(" ORDER BY ").push(request.order_by);
    Ok(q.build_query_as().fetch_all(pool).await?)
}

fn download(
    bytes: Vec<u8>,
    content_type: &'static str,
    file_name: &str,
) -> Result<Response, ApiError> {
    let length = bytes.len();
    let mut response = Body::from(bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    let disposition =
        HeaderValue::from_str(&content_disposition(file_name)).map_err(ApiError::internal)?;
    headers.insert(header::CONTENT_DISPOSITION, disposition);
    Ok(response)
}

/// Export clearance exceptions
///
/// Admins holding `clearance:management`. Form-encoded or JSON. `exportFormat` 01 xlsx, 02 XML
/// (schema `docs/schemas/clearance-exceptions.xsd`), 03 both in a zip; the file is named
/// `clearance-exceptions-YYYYMMDD-HHMMSS` (Asia/Shanghai). Errors are JSON envelopes.
#[utoipa::path(
    post, path = "/api/v1/clearance/batch-export", operation_id = "exportClearanceExceptions",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    request_body(
        description = "The exception export form.",
        content(
            (ExceptionExportForm = "application/x-www-form-urlencoded"),
            (ExceptionExportForm = "application/json"),
        ),
    ),
    responses(
        (
            status = 200,
            description = "The file: xlsx, XML or a zip of both.",
            content(
                (String = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
                (String = "application/xml"),
                (String = "application/zip"),
            ),
            headers(("Content-Disposition" = String, description = "`attachment` named by date and time.")),
        ),
        api::doc::Errors<400, 401, 403, 415>,
    ),
)]
async fn export(
    State(state): State<QueryState>,
    actor: Actor,
    FormOrJson(form): FormOrJson<ExceptionExportForm>,
) -> Result<Response, ApiError> {
    crate::wait::wait_for(
        &state.pool,
        &[crate::clearance_exception_list::PROJECTION],
        None,
    )
    .await?;
    let request = form.check()?;
    let lang = api::lang::current();
    let rows = fetch(&state.pool, &request).await?;
    let delivery = notice_deliveries(&state.pool, &rows, &actor).await?;
    let now = Utc::now();
    let stem = format!(
        "clearance-exceptions-{}",
        now.with_timezone(&Shanghai).format("%Y%m%d-%H%M%S")
    );
    match request.format {
        ExportFormat::Excel => {
            let bytes = xlsx(&rows, &delivery, lang, now).map_err(ApiError::internal)?;
            download(bytes, XLSX_CONTENT_TYPE, &format!("{stem}.xlsx"))
        }
        ExportFormat::Xml => download(
            xml(&rows, &delivery, lang, now).into_bytes(),
            "application/xml",
            &format!("{stem}.xml"),
        ),
        ExportFormat::All => {
            let book = xlsx(&rows, &delivery, lang, now).map_err(ApiError::internal)?;
            let doc = xml(&rows, &delivery, lang, now);
            let bytes = zip_both(&stem, &book, &doc)?;
            download(bytes, "application/zip", &format!("{stem}.zip"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    fn form(from: &str, to: &str) -> ExceptionExportForm {
        ExceptionExportForm {
            from_date: Some(from.into()),
            to_date: Some(to.into()),
            ..ExceptionExportForm::default()
        }
    }

    #[test]
    fn the_range_is_required_and_at_most_a_year_and_the_codes_are_checked() {
        assert!(form("20260101", "20261231").check().is_ok());
        assert!(form("20250101", "20260102").check().is_err());
        assert!(ExceptionExportForm::default().check().is_err());
        let mut f = form("20260101", "20260102");
        f.export_format = Some("03".into());
        assert_eq!(f.check().map(|r| r.format).ok(), Some(ExportFormat::All));
        f.export_format = Some("2".into());
        assert_eq!(f.check().map(|r| r.format).ok(), Some(ExportFormat::Xml));
        f.export_format = Some("04".into());
        assert!(f.check().is_err());
        f.export_format = None;
        f.sort = Some(1);
        assert_eq!(
            f.check().map(|r| r.order_by).ok(),
            Some("created_at ASC, id ASC")
        );
        f.sort = Some(3);
        assert!(f.check().is_err());
        f.sort = None;
        f.status = Some(5);
        assert!(f.check().is_err());
    }

    #[test]
    fn escaping_keeps_the_document_well_formed() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(escape("x\u{1}y\u{FFFF}z"), "xyz");
        assert_eq!(escape("中文\n"), "中文\n");
    }

    /// A row with every awkward character the form can carry.
    pub fn awkward_row() -> ExceptionRow {
        let t = Utc::now();
        ExceptionRow {
            id: Uuid::now_v7(),
            version: 3,
            declaration_id: Uuid::now_v7(),
            customer_id: Uuid::now_v7(),
            username: "acme<&>".into(),
            company_name: Some("Acme \"Trading\" & Co".into()),
            declaration_type: "ID".into(),
            shipment_type: 0,
            tracking_number: Some("1Z<999>".into()),
            port: None,
            status: 2,
            declaration_status: 1,
            form: sqlx::types::Json(serde_json::json!({
                "exceptionDetails": [{"exceptionCode": "E<1>", "exceptionDescription": "发票 & 合同\u{1}", "exceptionHandling": ""}],
                "isCommercialInvoiceChecked": true,
                "otherDocuments": ["=HYPERLINK(\"x\")"],
                "exceptionSummary": "]]> <!-- -->"
            })),
            proposed_changes: sqlx::types::Json(serde_json::json!([
                {"kind": "htsCode", "field": "declarationGoodsInfo[0].goodsCode", "old": null, "new": "8471414000"}
            ])),
            confirmed: false,
            channels: sqlx::types::Json(serde_json::json!([])),
            contacts: sqlx::types::Json(serde_json::json!([])),
            notice_count: 1,
            documents: sqlx::types::Json(serde_json::json!([])),
            last_reason: None,
            missing_documents: sqlx::types::Json(serde_json::json!([])),
            created_at: t,
            created_by: None,
            updated_at: t,
            status_since: t - chrono::Duration::hours(100),
        }
    }

    /// The XML validates against the documented schema (with `xmllint`, Debian
    /// `libxml2-utils`).
    #[test]
    fn the_xml_validates_against_the_documented_schema() {
        let doc = xml(
            &[awkward_row(), awkward_row()],
            &Deliveries::new(),
            Lang::Zh,
            Utc::now(),
        );
        assert!(doc.contains("<overdue>true</overdue>"), "{doc}");
        let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../docs/schemas/clearance-exceptions.xsd");
        let path = std::env::temp_dir().join(format!("clearance-{}.xml", Uuid::new_v4()));
        std::fs::write(&path, &doc).expect("write");
        let out = std::process::Command::new("xmllint")
            .arg("--noout")
            .arg("--schema")
            .arg(&schema)
            .arg(&path)
            .output()
            .expect("xmllint (Debian libxml2-utils) must be installed");
        let _ = std::fs::remove_file(&path);
        assert!(
            out.status.success(),
            "{}\n{doc}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn the_workbook_and_the_zip_read_back() {
        let rows = [awkward_row()];
        let book = xlsx(&rows, &Deliveries::new(), Lang::En, Utc::now()).expect("xlsx");
        let mut wb: calamine::Xlsx<_> =
            calamine::open_workbook_from_rs(Cursor::new(book.clone())).expect("open");
        use calamine::Reader;
        let range = wb.worksheet_range("Clearance exceptions").expect("sheet");
        assert_eq!(range.get_size(), (2, 16));
        assert_eq!(
            range.get((1, 0)).map(|c| c.to_string()),
            Some("1Z<999>".into())
        );
        assert_eq!(
            range.get((1, 12)).map(|c| c.to_string()),
            Some("yes".into())
        );
        assert!(
            range
                .get((1, 8))
                .map(|c| c.to_string())
                .is_some_and(|s| s.contains("commercialInvoice, =HYPERLINK"))
        );
        let zipped = zip_both("x", &book, "<a/>").expect("zip");
        let mut archive = zip::ZipArchive::new(Cursor::new(zipped)).expect("zip");
        let names: Vec<String> = archive
            .file_names()
            .filter_map(Result::ok)
            .map(|n| n.to_string())
            .collect();
        assert_eq!(names.len(), 2);
        assert!(names.contains(&"x.xlsx".to_string()) && names.contains(&"x.xml".to_string()));
        assert!(archive.by_name("x.xml").is_ok());
    }
}
