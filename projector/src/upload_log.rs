//! `upload_log`: one row per upload in `rm_uploads` (history, status polling, unread count)
//! and one per abnormal or repeated row in `rm_upload_items` (details, the error file).
//! Read by the `/api/v1/upload/...` queries.
//!
//! An event is applied to an upload's row only when its stream version is above the row's,
//! and items are keyed by (upload, row): applying an event twice changes nothing.

use std::sync::Arc;

use events::store::FeedBatch;
use events::upload::{STREAM_TYPE, UploadEvent};
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "upload_log";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(UploadLog)
}

pub struct UploadLog;

impl Projection for UploadLog {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_uploads", "rm_upload_items"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        crate::each_event!(tx, window, apply)
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE])
    }
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type != STREAM_TYPE {
        return Ok(());
    }
    let e = UploadEvent::from_recorded(event)?;
    let id = event.stream_id;
    let v = event.stream_version;
    match &e {
        UploadEvent::Received(r) => {
            sqlx::query(
                "INSERT INTO rm_uploads (id, version, customer_id, uploader_id, file_origin_name,
                     declaration_type, is_row_data, is_fixed, create_time)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(id)
            .bind(v)
            .bind(r.customer_id)
            .bind(r.uploader_id)
            .bind(&r.file_origin_name)
            .bind(&r.declaration_type)
            .bind(r.is_row_data)
            .bind(r.is_fixed)
            .bind(event.recorded_at)
            .execute(&mut *tx)
            .await?;
        }
        UploadEvent::Started(s) => {
            sqlx::query(
                "UPDATE rm_uploads SET total = $3, version = $2 WHERE id = $1 AND version < $2",
            )
            .bind(id)
            .bind(v)
            .bind(s.total as i32)
            .execute(&mut *tx)
            .await?;
        }
        UploadEvent::Progressed(p) => {
            let updated = sqlx::query(
                "UPDATE rm_uploads SET version = $2, done = done + $3, success = success + $4,
                     ticket_success = ticket_success + $5, repeat = repeat + $6,
                     abnormal = abnormal + $7
                 WHERE id = $1 AND version < $2",
            )
            .bind(id)
            .bind(v)
            .bind(p.done as i32)
            .bind(p.success as i32)
            .bind(p.ticket_success as i32)
            .bind(p.repeat as i32)
            .bind(p.abnormal as i32)
            .execute(&mut *tx)
            .await?;
            if updated.rows_affected() == 0 || p.items.is_empty() {
                return Ok(());
            }
            let rows: Vec<i32> = p.items.iter().map(|i| i.row as i32).collect();
            let tracking: Vec<Option<String>> =
                p.items.iter().map(|i| i.tracking_number.clone()).collect();
            let files: Vec<Option<String>> = p.items.iter().map(|i| i.file_name.clone()).collect();
            let desc: Vec<String> = p.items.iter().map(|i| i.desc.clone()).collect();
            let desc_en: Vec<String> = p.items.iter().map(|i| i.desc_en.clone()).collect();
            let repeat: Vec<bool> = p.items.iter().map(|i| i.is_repeat).collect();
            let note: Vec<bool> = p.items.iter().map(|i| i.note).collect();
            sqlx::query(
                "INSERT INTO rm_upload_items (upload_id, row_no, tracking_number, file_name,
                     description, description_en, is_repeat, note)
                 SELECT $1, * FROM UNNEST($2::int[], $3::text[], $4::text[], $5::text[],
                     $6::text[], $7::bool[], $8::bool[])
                 ON CONFLICT (upload_id, row_no) DO NOTHING",
            )
            .bind(id)
            .bind(&rows)
            .bind(&tracking)
            .bind(&files)
            .bind(&desc)
            .bind(&desc_en)
            .bind(&repeat)
            .bind(&note)
            .execute(&mut *tx)
            .await?;
        }
        UploadEvent::Completed(_) => {
            sqlx::query(
                "UPDATE rm_uploads SET version = $2,
                     status = CASE WHEN repeat + abnormal > 0 THEN '2' ELSE '1' END
                 WHERE id = $1 AND version < $2",
            )
            .bind(id)
            .bind(v)
            .execute(&mut *tx)
            .await?;
        }
        UploadEvent::Failed(f) => {
            sqlx::query(
                "UPDATE rm_uploads SET version = $2, status = '0', fail_reason = $3,
                     fail_reason_en = $4
                 WHERE id = $1 AND version < $2",
            )
            .bind(id)
            .bind(v)
            .bind(&f.reason)
            .bind(&f.reason_en)
            .execute(&mut *tx)
            .await?;
        }
        UploadEvent::Confirmed(_) => {
            sqlx::query(
                "UPDATE rm_uploads SET version = $2, confirm = true WHERE id = $1 AND version < $2",
            )
            .bind(id)
            .bind(v)
            .execute(&mut *tx)
            .await?;
        }
    }
    Ok(())
}
