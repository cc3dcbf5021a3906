//! `account_directory`: one row per account in `rm_accounts` (staff list with search and
//! paging, e-mail lookup of the forgotten-password flow, audit columns).
//!
//! Each row keeps the stream version it reflects; an event is applied only when its version
//! is above it, so applying an event twice (or replaying) changes nothing.

use std::sync::Arc;

use events::account::{AccountEvent, RoleGrant, STREAM_TYPE};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;
use sqlx::types::Json;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "account_directory";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(AccountDirectory)
}

pub struct AccountDirectory;

impl Projection for AccountDirectory {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_accounts"]
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

fn first_role(roles: &[RoleGrant]) -> Option<String> {
    roles
        .iter()
        .min_by_key(|g| g.sort_no)
        .map(|g| g.role_code.clone())
}

fn sorted(roles: &[RoleGrant]) -> Vec<RoleGrant> {
    let mut roles = roles.to_vec();
    roles.sort_by_key(|g| g.sort_no);
    roles
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type != STREAM_TYPE {
        return Ok(());
    }
    let e = AccountEvent::from_recorded(event)?;
    let id = event.stream_id;
    let v = event.stream_version;
    let by = event.metadata.actor_name.clone();
    let at = event.recorded_at;
    if let AccountEvent::Registered(r) = &e {
        let is_staff = r.roles.iter().any(|g| g.role_code != "CUSTOMER");
        sqlx::query(
            "INSERT INTO rm_accounts (account_id, username, display_name, email, staff_id,
                 customer_id, is_staff, role_code, roles, must_set_password, created_at,
                 created_by, updated_at, updated_by, version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $11, $12, $13)
             ON CONFLICT (account_id) DO NOTHING",
        )
        .bind(id)
        .bind(&r.username)
        .bind(&r.display_name)
        .bind(&r.email)
        .bind(&r.staff_id)
        .bind(r.customer_id)
        .bind(is_staff)
        .bind(first_role(&r.roles))
        .bind(Json(sorted(&r.roles)))
        .bind(r.must_set_password)
        .bind(at)
        .bind(&by)
        .bind(v)
        .execute(&mut *tx)
        .await?;
        return Ok(());
    }
    // The SET clause and its parameters from $5 on.
    enum Val {
        Text(Option<String>),
        Time(Option<chrono::DateTime<chrono::Utc>>),
        Roles(Vec<RoleGrant>),
    }
    let (set, vals): (&str, Vec<Val>) = match &e {
        AccountEvent::Registered(_) => return Ok(()),
        // A password given by someone else is one-time (as in the aggregate): the user
        // still sets their own at the first sign-in.
        AccountEvent::PasswordSet(p) if matches!(p.how.as_str(), "initial" | "admin") => {
            ("has_password = true", vec![])
        }
        AccountEvent::PasswordSet(_) => (
            "has_password = true, must_set_password = false, reset_forced = NULL",
            vec![],
        ),
        AccountEvent::PasswordResetForced(f) => {
            ("reset_forced = $5", vec![Val::Text(Some(f.reason.clone()))])
        }
        // A lock for one client address leaves the account open from every other: the
        // directory shows only locks that hold everywhere.
        AccountEvent::Locked(l) if l.every_address == Some(false) => {
            ("locked_until = locked_until", vec![])
        }
        AccountEvent::Locked(l) => ("locked_until = $5", vec![Val::Time(Some(l.until))]),
        AccountEvent::Transferred(t) => (
            "transfer_to = $5",
            vec![Val::Text(Some(t.new_username.clone()))],
        ),
        AccountEvent::TransferCompleted(_) => ("status = 'transferred'", vec![]),
        AccountEvent::Disabled(_) => ("status = 'disabled'", vec![]),
        AccountEvent::Enabled(_) => ("status = 'active'", vec![]),
        AccountEvent::Deleted(_) => ("status = 'deleted'", vec![]),
        AccountEvent::ProfileChanged(c) => (
            "display_name = COALESCE($5, display_name),
             email = CASE WHEN $6::text IS NULL THEN email ELSE NULLIF($6, '') END,
             staff_id = CASE WHEN $7::text IS NULL THEN staff_id ELSE NULLIF($7, '') END",
            vec![
                Val::Text(c.display_name.clone()),
                Val::Text(c.email.clone()),
                Val::Text(c.staff_id.clone()),
            ],
        ),
        AccountEvent::RolesChanged(c) => (
            "roles = $5, role_code = $6",
            vec![Val::Roles(sorted(&c.to)), Val::Text(first_role(&c.to))],
        ),
        // audit only: no column (the link itself is in sso_links)
        AccountEvent::SsoLinked(_) => ("status = status", vec![]),
    };
    let sql = format!(
        "UPDATE rm_accounts SET {set}, version = $2, updated_at = $3, updated_by = $4
          WHERE account_id = $1 AND version < $2"
    );
    let mut q = sqlx::query(&sql).bind(id).bind(v).bind(at).bind(by);
    for val in vals {
        q = match val {
            Val::Text(t) => q.bind(t),
            Val::Time(t) => q.bind(t),
            Val::Roles(r) => q.bind(Json(r)),
        };
    }
    q.execute(&mut *tx).await?;
    Ok(())
}
