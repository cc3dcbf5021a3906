//! `port_directory`: one row per port in `rm_ports` and one per facility in `rm_port_slics`,
//! with the audit columns (create/update by and time, `deleted`). Read by
//! `GET /api/v1/port/slic-info` and `GET /api/v1/ports`.
//!
//! Every row keeps the port stream version it reflects; an event is applied to a row only
//! when its version is above the row's, so applying an event twice (or replaying) changes
//! nothing. Every event of a port moves the port row's version (its `If-Match` version).

use std::sync::Arc;

use events::port::{FieldChange, PortEvent, STREAM_TYPE};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "port_directory";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(PortDirectory)
}

pub struct PortDirectory;

impl Projection for PortDirectory {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_ports", "rm_port_slics"]
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

/// The new value of `field` among `changes`: `None` = not changed, `Some(None)` = emptied.
fn changed(changes: &[FieldChange], field: &str) -> Option<Option<String>> {
    changes
        .iter()
        .rev()
        .find(|c| c.field == field)
        .map(|c| c.to.clone())
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type != STREAM_TYPE {
        return Ok(());
    }
    let e = PortEvent::from_recorded(event)?;
    let port = event.stream_id;
    let v = event.stream_version;
    let by = event.metadata.actor_name.clone();
    let at = event.recorded_at;
    match &e {
        PortEvent::Registered(r) => {
            sqlx::query(
                "INSERT INTO rm_ports (port_id, port_code, port_name, port_name_en,
                     declaration_slic, create_by, create_time, update_by, update_time, deleted,
                     version)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $6, $7, false, $8)
                 ON CONFLICT (port_id) DO UPDATE SET
                     port_code = EXCLUDED.port_code, port_name = EXCLUDED.port_name,
                     port_name_en = EXCLUDED.port_name_en,
                     declaration_slic = EXCLUDED.declaration_slic,
                     create_by = EXCLUDED.create_by, create_time = EXCLUDED.create_time,
                     update_by = EXCLUDED.update_by, update_time = EXCLUDED.update_time,
                     deleted = false, version = EXCLUDED.version
                 WHERE rm_ports.version < EXCLUDED.version",
            )
            .bind(port)
            .bind(&r.port_code)
            .bind(&r.port_name)
            .bind(&r.port_name_en)
            .bind(&r.declaration_slic)
            .bind(&by)
            .bind(at)
            .bind(v)
            .execute(&mut *tx)
            .await?;
            // registered afresh after a delete: the old facilities stay gone
            retire_facilities(tx, event, None).await?;
            return Ok(());
        }
        PortEvent::Changed(c) => {
            let name = changed(&c.changes, "portName");
            let name_en = changed(&c.changes, "portNameEn");
            let slic = changed(&c.changes, "declarationSlic");
            sqlx::query(
                "UPDATE rm_ports SET
                     port_name = CASE WHEN $5 THEN coalesce($6, port_name) ELSE port_name END,
                     port_name_en = CASE WHEN $7 THEN $8 ELSE port_name_en END,
                     declaration_slic = CASE WHEN $9 THEN coalesce($10, declaration_slic)
                                        ELSE declaration_slic END,
                     update_by = $3, update_time = $4, version = $2
                 WHERE port_id = $1 AND version < $2",
            )
            .bind(port)
            .bind(v)
            .bind(&by)
            .bind(at)
            .bind(name.is_some())
            .bind(name.flatten())
            .bind(name_en.is_some())
            .bind(name_en.flatten())
            .bind(slic.is_some())
            .bind(slic.flatten())
            .execute(&mut *tx)
            .await?;
            return Ok(());
        }
        PortEvent::SlicAdded(a) => {
            sqlx::query(
                "INSERT INTO rm_port_slics (slic_id, port_id, ups_facility_name,
                     ups_facility_slic, create_by, create_time, update_by, update_time,
                     deleted, version)
                 VALUES ($1, $2, $3, $4, $5, $6, $5, $6, false, $7)
                 ON CONFLICT (slic_id) DO NOTHING",
            )
            .bind(a.slic_id)
            .bind(port)
            .bind(&a.ups_facility_name)
            .bind(&a.ups_facility_slic)
            .bind(&by)
            .bind(at)
            .bind(v)
            .execute(&mut *tx)
            .await?;
        }
        PortEvent::SlicChanged(c) => {
            let name = changed(&c.changes, "upsFacilityName").flatten();
            let slic = changed(&c.changes, "upsFacilitySlic").flatten();
            sqlx::query(
                "UPDATE rm_port_slics SET
                     ups_facility_name = coalesce($5, ups_facility_name),
                     ups_facility_slic = coalesce($6, ups_facility_slic),
                     update_by = $3, update_time = $4, version = $2
                 WHERE slic_id = $1 AND version < $2",
            )
            .bind(c.slic_id)
            .bind(v)
            .bind(&by)
            .bind(at)
            .bind(name)
            .bind(slic)
            .execute(&mut *tx)
            .await?;
        }
        PortEvent::SlicRemoved(r) => retire_facilities(tx, event, Some(r.slic_id)).await?,
        PortEvent::Deleted(_) => {
            sqlx::query(
                "UPDATE rm_ports SET deleted = true, update_by = $3, update_time = $4,
                     version = $2
                 WHERE port_id = $1 AND version < $2",
            )
            .bind(port)
            .bind(v)
            .bind(&by)
            .bind(at)
            .execute(&mut *tx)
            .await?;
            retire_facilities(tx, event, None).await?;
            return Ok(());
        }
    }
    // a facility event is also a change of the port (its version and update columns)
    sqlx::query(
        "UPDATE rm_ports SET update_by = $3, update_time = $4, version = $2
          WHERE port_id = $1 AND version < $2",
    )
    .bind(port)
    .bind(v)
    .bind(&by)
    .bind(at)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Mark one facility (or every live one of the port) deleted by this event.
async fn retire_facilities(
    tx: &mut PgConnection,
    event: &RecordedEvent,
    slic_id: Option<uuid::Uuid>,
) -> Result<(), ProjectionError> {
    sqlx::query(
        "UPDATE rm_port_slics SET deleted = true, update_by = $3, update_time = $4, version = $2
          WHERE port_id = $1 AND NOT deleted AND version < $2
            AND ($5::uuid IS NULL OR slic_id = $5)",
    )
    .bind(event.stream_id)
    .bind(event.stream_version)
    .bind(&event.metadata.actor_name)
    .bind(event.recorded_at)
    .bind(slic_id)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
