//! `role_permissions`: the current permission codes of each role in `rm_roles`, read by the
//! permission cache (`api::permissions::RolePermissions`) and `GET /api/v1/roles`.
//! Applied only when the event's stream version is above the row's (idempotent).

use std::sync::Arc;

use events::role::{RoleEvent, STREAM_TYPE};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "role_permissions";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(RolePermissions)
}

pub struct RolePermissions;

impl Projection for RolePermissions {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_roles"]
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
    let (code, sort_no, permissions) = match RoleEvent::from_recorded(event)? {
        RoleEvent::Defined(d) => (d.role_code, Some(d.sort_no), d.permissions),
        RoleEvent::PermissionsChanged(c) => (c.role_code, None, c.permissions),
    };
    let default_sort = match code.as_str() {
        "SUPER_ADMIN" => 1,
        "ADMIN" => 2,
        "OPERATOR" => 3,
        _ => 4,
    };
    sqlx::query(
        "INSERT INTO rm_roles (role_code, sort_no, permissions, updated_at, updated_by, version)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (role_code) DO UPDATE SET
             sort_no = EXCLUDED.sort_no, permissions = EXCLUDED.permissions,
             updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by,
             version = EXCLUDED.version
         WHERE rm_roles.version < EXCLUDED.version",
    )
    .bind(&code)
    .bind(sort_no.unwrap_or(default_sort))
    .bind(&permissions)
    .bind(event.recorded_at)
    .bind(&event.metadata.actor_name)
    .bind(event.stream_version)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
