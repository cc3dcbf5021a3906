//! Verification of the audit chain in the background (`/api/v1/audit/verifications`): a run is
//! `clearway verify`'s verification ([`projector::audit_chain::verify::verify`]) in a tokio
//! task of the server, its progress (chain rows done of the total) and result kept in
//! `audit_verifications`. One run at a time across servers: starting a second while one runs
//! answers 409 (`VERIFICATION_RUNNING`). The start (`AuditVerificationStarted`) and the result
//! (`AuditChainVerified`) are recorded on the starter's `audit_access` stream.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use api::{Actor, ApiError, Auth, Guards};
use axum::extract::{FromRef, Path, State};
use chrono::{DateTime, Utc};
use ed25519_dalek::VerifyingKey;
use projector::audit_chain::verify::{Report, verify};
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::{FromRow, PgPool};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use super::filter::uuid_field;

/// A running run whose server wrote no progress for this long is abandoned.
const STALE: &str = "30 seconds";
/// How often a run writes its progress.
const HEARTBEAT: Duration = Duration::from_secs(1);

#[derive(Clone)]
pub struct VerificationState {
    pool: PgPool,
    auth: Auth,
    public_key: VerifyingKey,
}

impl FromRef<VerificationState> for Auth {
    fn from_ref(state: &VerificationState) -> Auth {
        state.auth.clone()
    }
}

pub fn routes(pool: PgPool, auth: Auth, public_key: VerifyingKey) -> OpenApiRouter {
    let read = Guards::new(&auth).permission("audit:read");
    OpenApiRouter::new()
        .routes(routes!(start, latest).map(|r| r.route_layer(read.clone())))
        .routes(routes!(one).map(|r| r.route_layer(read)))
        .with_state(VerificationState {
            pool,
            auth,
            public_key,
        })
}

/// One verification run.
#[derive(Debug, Serialize, ToSchema, FromRow)]
#[serde(rename_all = "camelCase")]
pub struct VerificationRun {
    pub id: Uuid,
    /// `running`, `held` (no break), `broken` (see `firstBreak`), `failed` (see `error`) or
    /// `abandoned` (its server stopped).
    pub state: String,
    /// The login of whoever started it.
    pub started_by: String,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Chain rows verified so far.
    pub done: i64,
    /// Chain rows when the run started (raised to `done` when the chain grew meanwhile).
    pub total: i64,
    /// The last position verified (when done).
    pub verified_to: Option<i64>,
    /// The last position covered by a verified seal (when done).
    pub sealed_to: Option<i64>,
    pub seals_checked: Option<i64>,
    /// Events after the chain's head, not chained yet (when done).
    pub unchained: Option<i64>,
    /// `{position, kind, detail}`: the first break (`changed`, `missing`, `inserted`,
    /// `signature`).
    #[schema(value_type = Option<Object>)]
    pub first_break: Option<sqlx::types::Json<Value>>,
    pub error: Option<String>,
}

const RUN_COLUMNS: &str = "id, CASE WHEN state = 'running' AND heartbeat_at < now() - interval '30 seconds' \
     THEN 'abandoned' ELSE state END AS state, started_by_name AS started_by, started_at, \
     finished_at, done, total, verified_to, sealed_to, seals_checked, unchained, first_break, error";

async fn run_by_id(pool: &PgPool, id: Uuid) -> Result<Option<VerificationRun>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {RUN_COLUMNS} FROM audit_verifications WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// Start a verification of the audit chain
///
/// Needs `audit:read`. Starts `clearway verify` over the whole chain in the background and
/// answers the run (state `running`); follow it with `GET /api/v1/audit/verifications/{id}`.
/// One run at a time: while one runs, 409 with `data.reason: VERIFICATION_RUNNING`. Recorded
/// on the starter's `audit_access` stream, and so is the result.
#[utoipa::path(
    post, path = "/api/v1/audit/verifications", operation_id = "auditStartVerification",
    tag = "audit", security(("bearer" = [])),
    responses(
        (status = 200, description = "The run, started.", body = VerificationRun),
        api::doc::Errors<401, 403, 409>,
    ),
)]
async fn start(
    State(state): State<VerificationState>,
    actor: Actor,
) -> Result<api::Ok<VerificationRun>, ApiError> {
    sqlx::query(&format!(
        "UPDATE audit_verifications SET state = 'abandoned', finished_at = now()
         WHERE state = 'running' AND heartbeat_at < now() - interval '{STALE}'"
    ))
    .execute(&state.pool)
    .await?;
    let id = Uuid::now_v7();
    let inserted = sqlx::query(
        "INSERT INTO audit_verifications (id, started_by, started_by_name, state, total)
         SELECT $1, $2, $3, 'running', coalesce(max(seq), 0) FROM audit_chain
         ON CONFLICT DO NOTHING",
    )
    .bind(id)
    .bind(actor.id)
    .bind(&actor.username)
    .execute(&state.pool)
    .await?;
    if inserted.rows_affected() == 0 {
        let running: Option<Uuid> =
            sqlx::query_scalar("SELECT id FROM audit_verifications WHERE state = 'running'")
                .fetch_optional(&state.pool)
                .await?;
        let running = running.map(|r| r.to_string()).unwrap_or_default();
        return Err(ApiError::Conflict {
            reason: "VERIFICATION_RUNNING",
            message: api::Text::new(
                format!("已有一次校验正在进行（{running}）"),
                format!("a verification is running already ({running})"),
            ),
        });
    }
    super::access::append(
        &state.pool,
        &actor,
        "AuditVerificationStarted",
        json!({ "runId": id, "username": actor.username }),
    )
    .await?;
    tokio::spawn(run(state.clone(), actor, id));
    let run = run_by_id(&state.pool, id)
        .await?
        .ok_or_else(|| ApiError::internal("the run just started is gone"))?;
    Ok(api::ok(run))
}

/// The run itself: progress written every [`HEARTBEAT`], the result at the end.
async fn run(state: VerificationState, actor: Actor, id: Uuid) {
    let done = Arc::new(AtomicU64::new(0));
    let (stop_tx, mut stop_rx) = tokio::sync::watch::channel(false);
    let heartbeat = {
        let (pool, done) = (state.pool.clone(), done.clone());
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(HEARTBEAT) => {}
                    _ = stop_rx.wait_for(|s| *s) => return,
                }
                let n = done.load(Ordering::Relaxed) as i64;
                if let Err(e) = sqlx::query(
                    "UPDATE audit_verifications SET done = $2, total = greatest(total, $2),
                         heartbeat_at = now()
                     WHERE id = $1 AND state = 'running'",
                )
                .bind(id)
                .bind(n)
                .execute(&pool)
                .await
                {
                    tracing::warn!(error = %e, "writing a verification's progress failed");
                }
            }
        })
    };
    let progress = done.clone();
    // Its own task: a run that panics on some row is finished as failed with that reason at
    // once, instead of holding the one running slot until its heartbeat goes stale.
    let verifying = {
        let (pool, key) = (state.pool.clone(), state.public_key);
        tokio::spawn(async move {
            verify(&pool, &key, None, &mut |n| {
                progress.store(n, Ordering::Relaxed);
            })
            .await
        })
    };
    let result = match verifying.await {
        Ok(Ok(report)) => Ok(report),
        Ok(Err(e)) => {
            tracing::error!(error = %e, run = %id, "a verification failed");
            Err("the verification could not read the chain (see the server's log)")
        }
        Err(e) => {
            tracing::error!(error = %e, run = %id, "a verification stopped unexpectedly");
            Err("the verification stopped unexpectedly (see the server's log)")
        }
    };
    let _ = stop_tx.send(true);
    let _ = heartbeat.await;
    let payload = match &result {
        Ok(r) => json!({
            "runId": id,
            "state": if r.ok() { "held" } else { "broken" },
            "events": r.events,
            "verifiedTo": r.verified_to,
            "sealedTo": r.sealed_to,
            "sealsChecked": r.seals_checked,
            "firstBreak": r.first_break,
        }),
        Err(e) => json!({ "runId": id, "state": "failed", "error": e }),
    };
    // The result is recorded before the run reads as finished, so whoever sees it finished
    // finds its record on the starter's stream (a crash in between leaves the run to be
    // judged abandoned, its result recorded).
    if let Err(e) = super::access::append(&state.pool, &actor, "AuditChainVerified", payload).await
    {
        tracing::error!(error = ?e, run = %id, "recording a verification's result failed");
    }
    let saved = finish(&state.pool, id, &result).await;
    if let Err(e) = &saved {
        tracing::error!(error = %e, run = %id, "saving a verification's result failed");
    }
}

async fn finish(pool: &PgPool, id: Uuid, result: &Result<Report, &str>) -> Result<(), sqlx::Error> {
    match result {
        Ok(r) => {
            sqlx::query(
                "UPDATE audit_verifications SET state = $2, done = $3, total = greatest(total, $3),
                     verified_to = $4,
                     sealed_to = $5, seals_checked = $6, unchained = $7, first_break = $8,
                     finished_at = now(), heartbeat_at = now()
                 WHERE id = $1",
            )
            .bind(id)
            .bind(if r.ok() { "held" } else { "broken" })
            .bind(r.events as i64)
            .bind(r.verified_to)
            .bind(r.sealed_to)
            .bind(r.seals_checked as i64)
            .bind(r.unchained as i64)
            .bind(r.first_break.as_ref().map(sqlx::types::Json))
            .execute(pool)
            .await?;
        }
        Err(e) => {
            sqlx::query(
                "UPDATE audit_verifications SET state = 'failed', error = $2,
                     finished_at = now(), heartbeat_at = now()
                 WHERE id = $1",
            )
            .bind(id)
            .bind(e)
            .execute(pool)
            .await?;
        }
    }
    Ok(())
}

/// The recent verification runs
///
/// Needs `audit:read`. The last ten runs, newest first.
#[utoipa::path(
    get, path = "/api/v1/audit/verifications", operation_id = "auditVerifications",
    tag = "audit", security(("bearer" = [])),
    responses(
        (status = 200, description = "The runs, newest first.", body = Vec<VerificationRun>),
        api::doc::Errors<401, 403>,
    ),
)]
async fn latest(
    State(state): State<VerificationState>,
) -> Result<api::Ok<Vec<VerificationRun>>, ApiError> {
    let runs = sqlx::query_as(&format!(
        "SELECT {RUN_COLUMNS} FROM audit_verifications ORDER BY started_at DESC, id DESC LIMIT 10"
    ))
    .fetch_all(&state.pool)
    .await?;
    Ok(api::ok(runs))
}

/// One verification run
///
/// Needs `audit:read`. Its progress (`done` of `total` chain rows), state and result.
#[utoipa::path(
    get, path = "/api/v1/audit/verifications/{id}", operation_id = "auditVerification",
    tag = "audit", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The run's id.")),
    responses((status = 200, description = "The run.", body = VerificationRun), api::doc::ReadErrors),
)]
async fn one(
    State(state): State<VerificationState>,
    Path(id): Path<String>,
) -> Result<api::Ok<VerificationRun>, ApiError> {
    let id = uuid_field("id", &Some(id))?.unwrap_or_default();
    let run = run_by_id(&state.pool, id)
        .await?
        .ok_or_else(ApiError::not_found)?;
    Ok(api::ok(run))
}
