//! Operations routes: health with each projection's lag (and where a stopped one stopped),
//! Prometheus metrics, and an admin's resume of a stopped projection. Documented next to
//! their handlers like every other route.

use api::{ApiError, Auth};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The operations routes, with their documentation.
pub fn routes(
    pool: PgPool,
    auth: Auth,
    development: bool,
    customs: command::customs::routes::Channel,
) -> OpenApiRouter {
    let health = OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(metrics))
        .with_state(HealthState {
            pool: pool.clone(),
            development,
            customs,
        });
    let admin = OpenApiRouter::new()
        .routes(routes!(resume_projection))
        .with_state(ProjectionAdmin { pool, auth });
    health.merge(admin)
}

#[derive(Clone)]
struct HealthState {
    pool: PgPool,
    development: bool,
    customs: command::customs::routes::Channel,
}

/// The customs channel in the health report (docs/customs.md).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CustomsHealth {
    /// `ok`, `degraded` or `off` (no exchange folder configured).
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    problem: Option<String>,
    inbox_backlog: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    inbox_oldest_secs: Option<u64>,
}

fn customs_health(channel: &command::customs::routes::Channel) -> CustomsHealth {
    let (backlog, oldest, problem) = command::customs::routes::folder_state(channel);
    CustomsHealth {
        status: match (&channel.folder, &problem) {
            (None, _) => "off",
            (Some(_), Some(_)) => "degraded",
            (Some(_), None) => "ok",
        },
        problem,
        inbox_backlog: backlog,
        inbox_oldest_secs: oldest,
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Health {
    status: &'static str,
    mode: &'static str,
    version: &'static str,
    commit: &'static str,
    database: &'static str,
    projections: Vec<projector::runtime::ProjectionStatus>,
    customs: CustomsHealth,
}

/// Health and read-model lag
///
/// No token needed.
#[utoipa::path(
    get, path = "/api/v1/health", operation_id = "health",
    tag = api::doc::OPERATIONS,
    responses((status = 200, description = "Healthy.", body = ref("#/components/schemas/Health"))),
)]
async fn health(State(state): State<HealthState>) -> Result<api::Ok<Health>, ApiError> {
    let projections = projector::runtime::status(&state.pool).await.map_err(|_| {
        ApiError::Unavailable(api::Text::new("数据库不可用", "database unavailable"))
    })?;
    // A stopped projection (an event it cannot apply) leaves its read model behind until an
    // admin resumes it: the service answers, degraded; the projection names the event.
    let customs = customs_health(&state.customs);
    let degraded = projections.iter().any(|p| p.stopped.is_some()) || customs.status == "degraded";
    Ok(api::ok(Health {
        status: if degraded { "degraded" } else { "ok" },
        mode: if state.development {
            "development"
        } else {
            "production"
        },
        version: env!("CARGO_PKG_VERSION"),
        commit: option_env!("CLEARWAY_COMMIT").unwrap_or("unknown"),
        database: "ok",
        projections,
        customs,
    }))
}

/// A metric: name, Prometheus type, help text, and its value for one projection.
type Metric = (
    &'static str,
    &'static str,
    &'static str,
    fn(&projector::runtime::ProjectionStatus) -> f64,
);

/// Projection metrics for Prometheus
///
/// No token needed. `clearway_projection_lag_events`, `clearway_projection_lag_seconds`,
/// `clearway_projection_position` and `clearway_projection_events_processed_total`, each
/// labelled with its `projection`.
#[utoipa::path(
    get, path = "/metrics", operation_id = "metrics",
    tag = api::doc::OPERATIONS,
    responses(
        (
            status = 200,
            description = "Prometheus text exposition (version 0.0.4).",
            body = String,
            content_type = "text/plain; version=0.0.4; charset=utf-8",
        ),
    ),
)]
async fn metrics(State(state): State<HealthState>) -> Response {
    let Ok(projections) = projector::runtime::status(&state.pool).await else {
        return ApiError::Unavailable(api::Text::new("数据库不可用", "database unavailable"))
            .into_response();
    };
    let mut out = String::new();
    let gauges: [Metric; 5] = [
        (
            "clearway_projection_lag_events",
            "gauge",
            "Committed events the projection has not applied yet.",
            |p| p.lag_events as f64,
        ),
        (
            "clearway_projection_lag_seconds",
            "gauge",
            "Age of the oldest event the projection has not applied yet.",
            |p| p.lag_seconds,
        ),
        (
            "clearway_projection_position",
            "gauge",
            "Global position of the last event the projection applied.",
            |p| p.position as f64,
        ),
        (
            "clearway_projection_events_processed_total",
            "counter",
            "Events the projection has applied since it started from zero.",
            |p| p.events_processed as f64,
        ),
        (
            "clearway_projection_stopped",
            "gauge",
            "1 while the projection is stopped on an event it cannot apply (see /api/v1/health).",
            |p| f64::from(u8::from(p.stopped.is_some())),
        ),
    ];
    for (name, kind, help, value) in gauges {
        out.push_str(&format!("# HELP {name} {help}\n# TYPE {name} {kind}\n"));
        for p in &projections {
            out.push_str(&format!(
                "{name}{{projection=\"{}\"}} {}\n",
                p.name,
                value(p)
            ));
        }
    }
    if let Err(e) = customs_metrics(&state, &mut out).await {
        tracing::warn!(error = %e, "metrics: the customs channel's counters could not be read");
    }
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        out,
    )
        .into_response()
}

/// The customs channel's counters (docs/customs.md).
async fn customs_metrics(state: &HealthState, out: &mut String) -> Result<(), sqlx::Error> {
    let (waiting, written, refused): (i64, i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE status IN ('pending', 'writing')),
                count(*) FILTER (WHERE status = 'sent'),
                count(*) FILTER (WHERE status = 'refused')
           FROM customs_messages",
    )
    .fetch_one(&state.pool)
    .await?;
    let receipts: Vec<(String, i64)> = sqlx::query_as(
        "SELECT channel, count(*) FROM rm_customs_receipts GROUP BY channel ORDER BY channel",
    )
    .fetch_all(&state.pool)
    .await?;
    let anomalies: i64 =
        sqlx::query_scalar("SELECT count(*) FROM rm_customs_anomalies WHERE settled_at IS NULL")
            .fetch_one(&state.pool)
            .await?;
    let (backlog, oldest, _) = command::customs::routes::folder_state(&state.customs);
    let mut gauge = |name: &str, kind: &str, help: &str, value: f64| {
        out.push_str(&format!(
            "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n"
        ));
    };
    gauge(
        "clearway_customs_messages_waiting",
        "gauge",
        "Customs messages waiting to be written to outbox/.",
        waiting as f64,
    );
    gauge(
        "clearway_customs_messages_written_total",
        "counter",
        "Customs messages written to outbox/.",
        written as f64,
    );
    gauge(
        "clearway_customs_messages_refused_total",
        "counter",
        "Customs messages refused as not valid against their schema.",
        refused as f64,
    );
    gauge(
        "clearway_customs_anomalies_open",
        "gauge",
        "Customs anomalies not settled yet.",
        anomalies as f64,
    );
    gauge(
        "clearway_customs_inbox_backlog",
        "gauge",
        "Receipt files waiting in inbox/.",
        backlog as f64,
    );
    gauge(
        "clearway_customs_inbox_oldest_seconds",
        "gauge",
        "Age of the oldest receipt file waiting in inbox/.",
        oldest.unwrap_or(0) as f64,
    );
    out.push_str("# HELP clearway_customs_receipts_total Customs receipts recorded, by code.\n# TYPE clearway_customs_receipts_total counter\n");
    for (code, n) in receipts {
        out.push_str(&format!(
            "clearway_customs_receipts_total{{code=\"{code}\"}} {n}\n"
        ));
    }
    Ok(())
}

#[derive(Clone)]
struct ProjectionAdmin {
    pool: PgPool,
    auth: Auth,
}

impl axum::extract::FromRef<ProjectionAdmin> for Auth {
    fn from_ref(state: &ProjectionAdmin) -> Auth {
        state.auth.clone()
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Resumed {
    name: String,
    /// Where it had stopped (position, stream, event type, error, attempts); `null`: it was
    /// not stopped.
    #[schema(value_type = Option<Object>)]
    stopped: Option<projector::runtime::ProjectionStop>,
}

/// Resume a stopped projection
///
/// A projection that could not apply an event stopped there (health names the event); once
/// the cause is removed, this makes it retry that event and go on. ADMIN and SUPER_ADMIN.
#[utoipa::path(
    post, path = "/api/v1/admin/projections/{name}/resume", operation_id = "resumeProjection",
    tag = api::doc::OPERATIONS, security(("bearer" = [])),
    params(("name" = String, Path, description = "The projection's name, as health lists it.")),
    responses(
        (status = 200, description = "Resumed (or it was not stopped).", body = Resumed),
        api::doc::Errors<401, 403, 404>,
    ),
)]
async fn resume_projection(
    State(state): State<ProjectionAdmin>,
    actor: api::Actor,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Result<api::Ok<Resumed>, ApiError> {
    actor.require_admin()?;
    if !projector::all().iter().any(|p| p.name() == name) {
        return Err(ApiError::NotFound(api::Text::new(
            "没有此投影",
            "no projection of this name",
        )));
    }
    let stopped = projector::runtime::resume(&state.pool, &name)
        .await
        .map_err(ApiError::internal)?;
    if let Some(stop) = &stopped {
        tracing::info!(projection = %name, position = stop.position,
            actor = %actor.id, "projection resumed by an admin");
    }
    Ok(api::ok(Resumed { name, stopped }))
}
