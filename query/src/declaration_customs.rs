//! What users see of the customs channel (docs/customs.md, "Screens"):
//!
//! - `GET /api/v1/declarations/{id}/customs`: a declaration's customs timeline, read from
//!   `rm_declaration_customs` (projection `declaration_customs`): each message sent or
//!   refused, each re-send asked for, each receipt (code, its meaning in Chinese and
//!   English, customs' notice time, note, entry number, unified number, taxes), with the
//!   entry and unified numbers and the newest receipt from `rm_declarations`. Readable by
//!   whoever may read the declaration; anyone else gets 404, like a missing declaration.
//! - `GET /api/v1/customs/holds`: what customs holds, for the staff welcome page: declared
//!   declarations (2, or 4 held by an exception) whose newest receipt is `C` (inspection),
//!   `H` (suspended) or `Sp1` (documents asked for), or that have had no receipt for a long
//!   time after their message was written, oldest first, with counts by age.

use api::{Actor, ApiError, ApiResult};
use axum::extract::{Path, State};
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use sqlx::FromRow;
use uuid::Uuid;

use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::declaration_list::shanghai;

/// The projection the timeline reads (the header's columns come from `declaration_list`).
pub const PROJECTION: &str = "declaration_customs";

/// The timeline: whoever may read the declaration. What customs holds: staff with
/// `declarations:management`.
pub fn routes(g: &api::Guards) -> OpenApiRouter<QueryState> {
    let declarations = g.customer_or_permission(&["declarations:management"]);
    let staff = g.permission("declarations:management");
    OpenApiRouter::new()
        .routes(routes!(timeline).map(|r| r.route_layer(declarations)))
        .routes(routes!(holds).map(|r| r.route_layer(staff)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct TimelineParams {
    /// Wait up to 2 s until the read models have applied the event at this `position` (from
    /// a command's answer). A value that is not a 64-bit integer answers 400 naming
    /// `minPosition`.
    pub min_position: Option<i64>,
}

/// A tax a `T` receipt assessed: `A` duty, `L` import VAT, `Y` consumption tax, in CNY.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CustomsTax {
    #[serde(rename = "type")]
    pub tax_type: String,
    /// The amount exactly as customs wrote it (two decimals).
    pub amount: String,
}

/// The stored payload of a customs event (every kind's fields, each optional).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Detail {
    kind: Option<String>,
    file_name: Option<String>,
    sha256: Option<String>,
    problems: Vec<String>,
    previous: Option<String>,
    reason: Option<String>,
    channel: Option<String>,
    notice_date: Option<DateTime<FixedOffset>>,
    cus_ciq_no: Option<String>,
    entry_id: Option<String>,
    note: Option<String>,
    taxes: Vec<CustomsTax>,
    docs: Vec<String>,
    effect: Option<String>,
    source: Option<String>,
    meaning_zh: Option<String>,
    meaning_en: Option<String>,
}

/// One entry of a declaration's customs timeline.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomsEntry {
    /// The declaration's version after this event.
    pub version: i64,
    /// `sent` (a message written to customs), `refused` (a message that could not be made
    /// valid, not sent), `resend` (staff asked for a new sending) or `receipt`.
    pub kind: String,
    /// When Clearway recorded it (+08:00).
    pub at: DateTime<FixedOffset>,
    /// Who recorded it (`customs` for receipts, the staff member for a re-send).
    pub actor: Option<String>,
    /// The message's CopNo (of a receipt: the message it answers).
    pub cop_no: String,
    /// `declaration` or `supplement` (sent, refused).
    pub message_kind: Option<String>,
    /// The file written to `outbox/` (sent).
    pub file_name: Option<String>,
    pub sha256: Option<String>,
    /// Why a message was refused, one line per problem.
    pub problems: Vec<String>,
    /// The CopNo a re-send replaces, and why it was asked for.
    pub previous: Option<String>,
    pub reason: Option<String>,
    /// The receipt's code (`CHANNEL`).
    pub code: Option<String>,
    /// The code's meaning (null for a code the contract does not know).
    pub meaning_zh: Option<String>,
    pub meaning_en: Option<String>,
    /// Customs' notice time, with customs' offset.
    pub notice_date: Option<DateTime<FixedOffset>>,
    pub note: Option<String>,
    /// The entry number (`ENTRY_ID`) and unified number (`CUS_CIQ_NO`) the receipt gave.
    pub entry_id: Option<String>,
    pub cus_ciq_no: Option<String>,
    /// The taxes a `T` assessed.
    pub taxes: Vec<CustomsTax>,
    /// The documents an `Sp1` asked for.
    pub docs: Vec<String>,
    /// `moved` (it moved the status), `progress` or `late` (older than the receipt that set
    /// the status: history only).
    pub effect: Option<String>,
    /// The inbox file it came in, or `push`.
    pub source: Option<String>,
}

/// A declaration's customs timeline with the numbers customs gave.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomsTimeline {
    /// The entry number (报关单号), from an `L` or `G` receipt.
    pub entry_id: Option<String>,
    /// The unified number (统一编号).
    pub cus_ciq_no: Option<String>,
    /// The newest receipt's code and customs' notice time.
    pub customs_receipt: Option<String>,
    pub customs_receipt_at: Option<DateTime<FixedOffset>>,
    /// The current status was set by a staff member's complete or reject (reported only
    /// while the customs channel is configured).
    pub moved_by_hand: bool,
    /// Oldest first.
    pub entries: Vec<CustomsEntry>,
}

#[derive(Debug, FromRow)]
struct HeaderRow {
    customer_id: Uuid,
    entry_id: Option<String>,
    cus_ciq_no: Option<String>,
    customs_receipt: Option<String>,
    customs_receipt_at: Option<DateTime<Utc>>,
    moved_by_hand: bool,
}

#[derive(Debug, FromRow)]
struct EntryRow {
    version: i64,
    kind: String,
    cop_no: String,
    recorded_at: DateTime<Utc>,
    actor_name: Option<String>,
    detail: sqlx::types::Json<serde_json::Value>,
}

impl From<EntryRow> for CustomsEntry {
    fn from(r: EntryRow) -> Self {
        let d: Detail = serde_json::from_value(r.detail.0).unwrap_or_default();
        let receipt = r.kind == "receipt";
        Self {
            version: r.version,
            kind: r.kind,
            at: shanghai(r.recorded_at),
            actor: r.actor_name,
            cop_no: r.cop_no,
            message_kind: d.kind,
            file_name: d.file_name,
            sha256: d.sha256,
            problems: d.problems,
            previous: d.previous,
            reason: d.reason,
            code: d.channel.filter(|_| receipt),
            meaning_zh: d.meaning_zh,
            meaning_en: d.meaning_en,
            notice_date: d.notice_date,
            note: d.note,
            entry_id: d.entry_id,
            cus_ciq_no: d.cus_ciq_no,
            taxes: d.taxes,
            docs: d.docs,
            effect: d.effect,
            source: d.source,
        }
    }
}

/// A declaration's customs timeline
///
/// Each message sent to customs (CopNo, file, when), each one refused before sending (and
/// why), each re-send, and each receipt (code and meaning, customs' notice time, note,
/// entry and unified numbers, taxes), oldest first; with the entry and unified numbers and
/// the newest receipt. A declaration the caller may not see answers 404, like a missing one.
#[utoipa::path(
    get, path = "/api/v1/declarations/{id}/customs", operation_id = "getDeclarationCustoms",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::DECLARATION), TimelineParams),
    responses(
        (status = 200, description = "The customs timeline.", body = CustomsTimeline),
        api::doc::ReadErrors,
    ),
)]
async fn timeline(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    api::Query(params): api::Query<TimelineParams>,
) -> ApiResult<CustomsTimeline> {
    let id = Uuid::parse_str(id.trim()).map_err(|_| ApiError::not_found())?;
    crate::wait::wait_for(
        &state.pool,
        &[PROJECTION, crate::declaration_list::PROJECTION],
        params.min_position,
    )
    .await?;
    let header: Option<HeaderRow> = sqlx::query_as(
        "SELECT customer_id, entry_id, cus_ciq_no, customs_receipt, customs_receipt_at,
                moved_by_hand
           FROM rm_declarations WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&state.pool)
    .await?;
    let Some(header) = header.filter(|h| actor.can_see(h.customer_id)) else {
        return Err(ApiError::not_found());
    };
    let rows: Vec<EntryRow> = sqlx::query_as(
        "SELECT version, kind, cop_no, recorded_at, actor_name, detail
           FROM rm_declaration_customs WHERE declaration_id = $1 ORDER BY version",
    )
    .bind(id)
    .fetch_all(&state.pool)
    .await?;
    Ok(api::ok(CustomsTimeline {
        entry_id: header.entry_id,
        cus_ciq_no: header.cus_ciq_no,
        customs_receipt: header.customs_receipt,
        customs_receipt_at: header.customs_receipt_at.map(shanghai),
        moved_by_hand: header.moved_by_hand && state.customs_channel,
        entries: rows.into_iter().map(CustomsEntry::from).collect(),
    })
    .no_store())
}

/// The longest "no receipt after sending" that may be asked for, in hours (30 days).
pub const MAX_SILENT_HOURS: i64 = 720;
/// The most declarations one answer lists.
pub const MAX_HOLDS: i64 = 200;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct HoldsParams {
    /// A declaration whose message has had no receipt for this many hours counts as held
    /// (default 24, 1 to 720).
    #[param(minimum = 1, maximum = 720)]
    pub silent_hours: Option<i64>,
    /// How many declarations to list, oldest first (default 20, 1 to 200); the counts cover
    /// them all.
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// One declaration customs holds.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, FromRow)]
#[serde(rename_all = "camelCase")]
pub struct CustomsHold {
    pub id: Uuid,
    pub tracking_number: Option<String>,
    pub declaration_type: String,
    pub status: i16,
    pub username: String,
    pub company_name: Option<String>,
    /// `C` (inspection), `H` (suspended), `Sp1` (documents asked for) or `silent` (no
    /// receipt since the message was written).
    pub reason: String,
    /// Since when: the receipt's notice time, or when the message was written.
    #[sqlx(skip)]
    pub since: Option<DateTime<FixedOffset>>,
    #[serde(skip)]
    pub since_utc: DateTime<Utc>,
    /// How long, in seconds.
    pub age_secs: i64,
}

/// How many declarations customs holds for one reason, by age.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, FromRow)]
#[serde(rename_all = "camelCase")]
pub struct HoldCount {
    /// `C`, `H`, `Sp1` or `silent`.
    pub reason: String,
    /// Held for less than a day, one to three days, longer.
    pub under_one_day: i64,
    pub one_to_three_days: i64,
    pub over_three_days: i64,
}

/// What customs holds.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomsHolds {
    /// The oldest first, at most `limit`.
    pub records: Vec<CustomsHold>,
    /// All of them.
    pub total: i64,
    /// One row per reason (`C`, `H`, `Sp1`, `silent`), each by age.
    pub counts: Vec<HoldCount>,
}

/// The rows customs holds with their reason and since when (`$1`: the silence, in hours).
const HELD: &str = "SELECT id, tracking_number, declaration_type, status, username, company_name,
        CASE WHEN customs_receipt IN ('C', 'H', 'Sp1') THEN customs_receipt ELSE 'silent' END
            AS reason,
        COALESCE(CASE WHEN customs_receipt IN ('C', 'H', 'Sp1') THEN customs_receipt_at
            ELSE customs_sent_at END, updated_at) AS since_utc
   FROM rm_declarations
  WHERE status IN (2, 4)
    AND (customs_receipt IN ('C', 'H', 'Sp1')
         OR (customs_receipt IS NULL AND customs_sent_at IS NOT NULL
             AND customs_sent_at < now() - make_interval(hours => $1::int)))";

/// What customs holds
///
/// Declared declarations (status 2, or 4 while an exception holds them) whose newest
/// receipt is `C` (inspection), `H` (suspended) or `Sp1` (documents asked for), or whose
/// message has had no receipt for `silentHours`: the oldest first, with counts per reason
/// by age. Staff with `declarations:management`.
#[utoipa::path(
    get, path = "/api/v1/customs/holds", operation_id = "getCustomsHolds",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(HoldsParams),
    responses(
        (status = 200, description = "What customs holds.", body = CustomsHolds),
        api::doc::Errors<400, 401, 403>,
    ),
)]
async fn holds(
    State(state): State<QueryState>,
    api::Query(params): api::Query<HoldsParams>,
) -> ApiResult<CustomsHolds> {
    let silent = params.silent_hours.unwrap_or(24);
    if !(1..=MAX_SILENT_HOURS).contains(&silent) {
        return Err(ApiError::bad_field(
            "silentHours",
            format!("silentHours：应为 1 到 {MAX_SILENT_HOURS} 小时"),
            format!("silentHours: must be 1 to {MAX_SILENT_HOURS} hours"),
        ));
    }
    let limit = params.limit.unwrap_or(20);
    if !(1..=MAX_HOLDS).contains(&limit) {
        return Err(ApiError::bad_field(
            "limit",
            format!("limit：应为 1 到 {MAX_HOLDS}"),
            format!("limit: must be 1 to {MAX_HOLDS}"),
        ));
    }
    let now = Utc::now();
    let rows: Vec<CustomsHold> = sqlx::query_as(&format!(
        "SELECT *, 0::int8 AS age_secs FROM ({HELD}) AS held
          ORDER BY since_utc, id LIMIT $2"
    ))
    .bind(silent)
    .bind(limit)
    .fetch_all(&state.pool)
    .await?;
    let counts: Vec<HoldCount> = sqlx::query_as(&format!(
        "SELECT reason,
                count(*) FILTER (WHERE since_utc > now() - interval '1 day') AS under_one_day,
                count(*) FILTER (WHERE since_utc <= now() - interval '1 day'
                                   AND since_utc > now() - interval '3 days') AS one_to_three_days,
                count(*) FILTER (WHERE since_utc <= now() - interval '3 days') AS over_three_days
           FROM ({HELD}) AS held GROUP BY reason ORDER BY reason"
    ))
    .bind(silent)
    .fetch_all(&state.pool)
    .await?;
    let total = counts
        .iter()
        .map(|c| c.under_one_day + c.one_to_three_days + c.over_three_days)
        .sum();
    let records = rows
        .into_iter()
        .map(|mut r| {
            r.age_secs = (now - r.since_utc).num_seconds().max(0);
            r.since = Some(shanghai(r.since_utc));
            r
        })
        .collect();
    Ok(api::ok(CustomsHolds {
        records,
        total,
        counts,
    })
    .no_store())
}
