//! A projection that cannot apply an event stops there, visibly, until an admin resumes it.
//!
//! Retrying a poison event forever would burn a connection and the log while the read model
//! silently falls behind; skipping it would leave the read model wrong for good. So when the
//! same event fails [`super::RuntimeConfig::stop_after`] times in a row with an error that
//! is not a lost connection or an overloaded server ([`repeating`]), the live runtime
//! records the stop in `projection_stops` (the event's position, stream, type and the
//! error); health and metrics show it, every instance of the projection leaves the
//! projection alone while the row exists, and [`resume`] (the `clearway resume` command,
//! the admin route) deletes it, after which the projection retries the event. Other
//! projections go on meanwhile.

use chrono::{DateTime, Utc};
use events::StoreError;
use serde::Serialize;
use sqlx::{PgPool, Row};
use uuid::Uuid;

use super::RuntimeError;
use crate::ProjectionError;

/// Where and why a projection stopped.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectionStop {
    pub position: i64,
    pub stream_type: String,
    pub stream_id: Uuid,
    pub event_id: Uuid,
    pub event_type: String,
    pub error: String,
    pub attempts: i32,
    pub stopped_at: DateTime<Utc>,
}

/// The position of the event a failure names, when retrying cannot be expected to help: the
/// projection refused the event itself, not for a lost connection or a busy server.
pub(crate) fn repeating(error: &RuntimeError) -> Option<i64> {
    match error {
        RuntimeError::Apply {
            position, source, ..
        } if !transient(source) => Some(*position),
        _ => None,
    }
}

fn transient(error: &ProjectionError) -> bool {
    match error {
        ProjectionError::Database(e) | ProjectionError::Store(StoreError::Database(e)) => {
            transient_sql(e)
        }
        _ => false,
    }
}

/// A connection problem, a server shutting down or out of resources, a serialization
/// failure or deadlock: worth retrying whatever the event.
fn transient_sql(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| {
            ["08", "53", "57"]
                .iter()
                .any(|class| code.starts_with(class))
                || code == "40001"
                || code == "40P01"
        }),
        _ => false,
    }
}

/// Records that the projection named by `error` (an [`RuntimeError::Apply`]) stopped.
pub(crate) async fn record(
    pool: &PgPool,
    error: &RuntimeError,
    attempts: u32,
) -> Result<(), RuntimeError> {
    let RuntimeError::Apply {
        name,
        position,
        tx_id,
        stream_type,
        stream_id,
        event_id,
        event_type,
        source,
    } = error
    else {
        return Ok(());
    };
    sqlx::query(
        "INSERT INTO projection_stops (projection, position, tx_id, stream_type, stream_id,
                                       event_id, event_type, error, attempts)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (projection) DO NOTHING",
    )
    .bind(name)
    .bind(position)
    .bind(i64::try_from(*tx_id).unwrap_or(i64::MAX))
    .bind(stream_type)
    .bind(stream_id)
    .bind(event_id)
    .bind(event_type)
    .bind(source.to_string())
    .bind(i32::try_from(attempts).unwrap_or(i32::MAX))
    .execute(pool)
    .await?;
    Ok(())
}

/// Whether `name` is stopped.
pub(crate) async fn is_stopped(pool: &PgPool, name: &str) -> Result<bool, RuntimeError> {
    Ok(
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM projection_stops WHERE projection = $1)")
            .bind(name)
            .fetch_one(pool)
            .await?,
    )
}

/// Resumes the stopped projection `name`: its instances retry the event (within
/// [`super::RuntimeConfig::lock_retry_interval`]). Answers where it had stopped; `None`
/// when it was not stopped.
pub async fn resume(pool: &PgPool, name: &str) -> Result<Option<ProjectionStop>, RuntimeError> {
    let row = sqlx::query(
        "DELETE FROM projection_stops WHERE projection = $1
         RETURNING position, stream_type, stream_id, event_id, event_type, error, attempts,
                   stopped_at",
    )
    .bind(name)
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let stop = ProjectionStop {
        position: row.try_get(0)?,
        stream_type: row.try_get(1)?,
        stream_id: row.try_get(2)?,
        event_id: row.try_get(3)?,
        event_type: row.try_get(4)?,
        error: row.try_get(5)?,
        attempts: row.try_get(6)?,
        stopped_at: row.try_get(7)?,
    };
    tracing::info!(
        projection = name,
        position = stop.position,
        "projection resumed"
    );
    Ok(Some(stop))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(source: ProjectionError) -> RuntimeError {
        RuntimeError::Apply {
            name: "p",
            position: 7,
            tx_id: 1,
            stream_type: "s".into(),
            stream_id: Uuid::nil(),
            event_id: Uuid::nil(),
            event_type: "E".into(),
            source,
        }
    }

    #[test]
    fn a_refused_event_repeats_but_a_lost_connection_does_not() {
        let invalid = refused(ProjectionError::Invalid("bad".into()));
        let lost = refused(ProjectionError::Database(sqlx::Error::Io(
            std::io::Error::from(std::io::ErrorKind::ConnectionReset),
        )));
        let pool = refused(ProjectionError::Database(sqlx::Error::PoolTimedOut));

        assert_eq!(repeating(&invalid), Some(7));
        assert_eq!(repeating(&lost), None);
        assert_eq!(repeating(&pool), None);
        assert_eq!(repeating(&RuntimeError::Aborted("p")), None);
    }
}
