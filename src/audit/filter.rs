//! The log's filter, shared by the log (`GET /api/v1/audit/events`, query parameters) and the
//! export (`POST /api/v1/audit/exports`, a JSON body): checked once, pushed as SQL once.

use api::ApiError;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{Postgres, QueryBuilder};
use utoipa::ToSchema;
use uuid::Uuid;

use super::access::ACCESS_STREAM_TYPE;

/// The filter as asked for (every field optional; all of them: the whole log).
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogFilterBody {
    /// Stream type (exact), e.g. `declaration`.
    #[schema(max_length = 100)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_type: Option<String>,
    /// Event type (exact), e.g. `DeclarationReviewed`.
    #[schema(max_length = 100)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_type: Option<String>,
    /// The acting user's login (metadata `actorName`, case-insensitive).
    #[schema(max_length = 100)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// The customer (metadata `customerId`, or the declaration's owner).
    #[schema(format = Uuid)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<String>,
    /// A shipment's tracking number (case and spaces ignored): the events of its
    /// declarations, of the clearance exceptions on them and of the uploads that made them.
    #[schema(max_length = 100)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tracking_number: Option<String>,
    /// One stream's events.
    #[schema(format = Uuid)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_id: Option<String>,
    /// Recorded at or after (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<DateTime<Utc>>,
    /// Leave out the reads of the log itself (the `audit_access` streams: who read, exported
    /// or verified it); default false. A `streamType` of `audit_access` shows them anyway.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hide_reads: Option<bool>,
    /// Recorded before (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<DateTime<Utc>>,
}

/// A checked filter.
#[derive(Debug, Clone, Default)]
pub struct LogFilter {
    stream_type: Option<String>,
    event_type: Option<String>,
    actor: Option<String>,
    customer: Option<Uuid>,
    tracking: Option<String>,
    stream_id: Option<Uuid>,
    hide_reads: bool,
    from: Option<DateTime<Utc>>,
    to: Option<DateTime<Utc>>,
}

pub(crate) fn uuid_field(field: &str, value: &Option<String>) -> Result<Option<Uuid>, ApiError> {
    value
        .as_deref()
        .map(|v| {
            Uuid::parse_str(v.trim()).map_err(|_| {
                ApiError::bad_field(
                    field,
                    format!("{field} 不是有效的 UUID"),
                    format!("{field} is not a UUID"),
                )
            })
        })
        .transpose()
}

fn short_field(field: &str, value: &Option<String>) -> Result<Option<String>, ApiError> {
    match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        Some(v) if v.chars().count() > 100 => Err(ApiError::bad_field(
            field,
            format!("{field} 最多 100 个字符"),
            format!("{field} is at most 100 characters"),
        )),
        other => Ok(other.map(String::from)),
    }
}

impl LogFilter {
    /// Checks the filter: 400 naming the field.
    pub fn parse(body: &LogFilterBody) -> Result<Self, ApiError> {
        let filter = Self {
            stream_type: short_field("streamType", &body.stream_type)?,
            event_type: short_field("eventType", &body.event_type)?,
            actor: short_field("actor", &body.actor)?,
            tracking: short_field("trackingNumber", &body.tracking_number)?,
            customer: uuid_field("customerId", &body.customer_id)?,
            stream_id: uuid_field("streamId", &body.stream_id)?,
            hide_reads: body.hide_reads.unwrap_or(false),
            from: body.from,
            to: body.to,
        };
        if let (Some(from), Some(to)) = (filter.from, filter.to)
            && to < from
        {
            return Err(ApiError::bad_field(
                "to",
                "to 不能早于 from",
                "to is not before from",
            ));
        }
        Ok(filter)
    }

    /// Appends ` AND ...` for each condition, on the `events` table's columns (unqualified:
    /// `stream_type`, `event_type`, `metadata`, `stream_id`, `recorded_at`).
    pub fn push(&self, qb: &mut QueryBuilder<'_, Postgres>) {
        if let Some(v) = &self.stream_type {
            qb.push(" AND stream_type = ").push_bind(v.clone());
        }
        if let Some(v) = &self.event_type {
            qb.push(" AND event_type = ").push_bind(v.clone());
        }
        if let Some(v) = &self.actor {
            qb.push(" AND lower(metadata ->> 'actorName') = lower(")
                .push_bind(v.clone())
                .push(")");
        }
        if let Some(v) = self.customer {
            qb.push(" AND (metadata ->> 'customerId' = ")
                .push_bind(v.to_string())
                .push(" OR stream_id IN (SELECT id FROM rm_declarations WHERE customer_id = ")
                .push_bind(v)
                .push(") OR stream_id = ")
                .push_bind(v)
                .push(")");
        }
        if let Some(v) = &self.tracking {
            // Everything about the shipment: its declarations, the clearance exceptions on
            // them and the uploads that made them. Case and spaces are ignored.
            let wanted: String = v
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
                .to_uppercase();
            qb.push(
                " AND stream_id IN (WITH d AS (SELECT id FROM rm_declarations \
                 WHERE upper(replace(tracking_number, ' ', '')) = ",
            )
            .push_bind(wanted)
            .push(
                ") SELECT id FROM d \
                 UNION SELECT x.id FROM rm_clearance_exceptions x \
                       WHERE x.declaration_id IN (SELECT id FROM d) \
                 UNION SELECT (u.payload -> 'upload' ->> 'uploadId')::uuid FROM events u \
                       WHERE u.stream_id IN (SELECT id FROM d) \
                         AND u.event_type = 'DeclarationDrafted' AND u.payload ? 'upload')",
            );
        }
        if let Some(v) = self.stream_id {
            qb.push(" AND stream_id = ").push_bind(v);
        }
        if self.hide_reads && self.stream_type.as_deref() != Some(ACCESS_STREAM_TYPE) {
            qb.push(" AND stream_type <> ")
                .push_bind(ACCESS_STREAM_TYPE);
        }
        if let Some(v) = self.from {
            qb.push(" AND recorded_at >= ").push_bind(v);
        }
        if let Some(v) = self.to {
            qb.push(" AND recorded_at < ").push_bind(v);
        }
    }
}
