//! `customer_directory`: one row per customer stream in `rm_customers` (the customer archive
//! list and detail, the export dialog's customer list). A deleted customer keeps its row with
//! status `deleted`.
//!
//! Each row keeps the stream version it reflects; an event is applied only when its version
//! is above it, so applying an event twice (or replaying) changes nothing.

use std::sync::Arc;

use events::customer::{CustomerEvent, CustomerProfile, STREAM_TYPE};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "customer_directory";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(CustomerDirectory)
}

pub struct CustomerDirectory;

impl Projection for CustomerDirectory {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_customers"]
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

/// The profile columns, from `$5` on, in this order.
const PROFILE_COLUMNS: [&str; 11] = [
    "company_name",
    "city",
    "port_code",
    "slic_code",
    "postal_code",
    "ups_account",
    "ups_id",
    "account_no",
    "email",
    "scc",
    "declaration_types",
];

fn bind_profile<'q>(
    q: sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>,
    p: &'q CustomerProfile,
) -> sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments> {
    q.bind(&p.company_name)
        .bind(&p.city)
        .bind(&p.port_code)
        .bind(&p.slic_code)
        .bind(&p.postal_code)
        .bind(&p.ups_account)
        .bind(&p.ups_id)
        .bind(&p.account_no)
        .bind(&p.email)
        .bind(&p.scc)
        .bind(&p.declaration_types)
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type != STREAM_TYPE {
        return Ok(());
    }
    let e = CustomerEvent::from_recorded(event)?;
    let id = event.stream_id;
    let v = event.stream_version;
    let by = event.metadata.actor_name.clone();
    let at = event.recorded_at;
    match &e {
        CustomerEvent::Registered(r) => {
            let placeholders: Vec<String> = (5..16).map(|i| format!("${i}")).collect();
            let sql = format!(
                "INSERT INTO rm_customers (customer_id, username, created_at, created_by,
                     updated_at, updated_by, version, {})
                 VALUES ($1, $2, $3, $4, $3, $4, $16, {})
                 ON CONFLICT (customer_id) DO NOTHING",
                PROFILE_COLUMNS.join(", "),
                placeholders.join(", ")
            );
            let q = sqlx::query(&sql)
                .bind(id)
                .bind(&r.username)
                .bind(at)
                .bind(&by);
            bind_profile(q, &r.profile)
                .bind(v)
                .execute(&mut *tx)
                .await?;
        }
        CustomerEvent::ProfileChanged(c) => {
            let set: Vec<String> = PROFILE_COLUMNS
                .iter()
                .enumerate()
                .map(|(i, col)| format!("{col} = ${}", i + 5))
                .collect();
            let sql = format!(
                "UPDATE rm_customers SET {}, version = $2, updated_at = $3, updated_by = $4
                  WHERE customer_id = $1 AND version < $2",
                set.join(", ")
            );
            let q = sqlx::query(&sql).bind(id).bind(v).bind(at).bind(&by);
            bind_profile(q, &c.profile).execute(&mut *tx).await?;
        }
        other => {
            let (set, value): (&str, Option<&str>) = match other {
                CustomerEvent::EasyClearBound(b) => ("bound_ups_id = $5", Some(&b.ups_id)),
                CustomerEvent::Disabled(_) => ("status = 'disabled'", None),
                CustomerEvent::Enabled(_) => ("status = 'active'", None),
                CustomerEvent::Deleted(_) => ("status = 'deleted'", None),
                CustomerEvent::Registered(_)
                | CustomerEvent::ProfileChanged(_)
                | CustomerEvent::CustomsEmailChanged(_)
                | CustomerEvent::CustomsNoticeMailed(_) => return Ok(()),
            };
            let sql = format!(
                "UPDATE rm_customers SET {set}, version = $2, updated_at = $3, updated_by = $4
                  WHERE customer_id = $1 AND version < $2"
            );
            let mut q = sqlx::query(&sql).bind(id).bind(v).bind(at).bind(&by);
            if let Some(value) = value {
                q = q.bind(value);
            }
            q.execute(&mut *tx).await?;
        }
    }
    Ok(())
}
