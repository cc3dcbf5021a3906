//! Composition: pool, migrations, routers, middleware, projectors, graceful shutdown.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use api::{ApiError, Auth, AuthConfig};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use command::hasher::Hasher;
use command::http::CommandState;
use command::reference::ReferenceCache;
use events::EventStore;
use events::idempotency::IdempotencyStore;
use projector::Projection;
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::config::Config;
use crate::web::WebApp;

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Every read model ([`projector::all`], where they are registered).
pub fn projections() -> Vec<Arc<dyn Projection>> {
    projector::all()
}

pub async fn connect(config: &Config) -> anyhow::Result<PgPool> {
    anyhow::ensure!(
        !config.database_url.trim().is_empty(),
        "DATABASE_URL is not set (--database-url)"
    );
    PgPoolOptions::new()
        .max_connections(config.max_connections)
        .acquire_timeout(Duration::from_millis(config.db_acquire_timeout_ms))
        .connect(&config.database_url)
        .await
        .context("connecting to PostgreSQL (DATABASE_URL)")
}

/// Refuse to run on a database that may lose acknowledged events.
pub async fn check_durability(pool: &PgPool) -> anyhow::Result<()> {
    let report = events::store::check_durability(pool).await?;
    tracing::info!(synchronous_commit = %report.synchronous_commit, "database durability checked");
    if !report.commits_are_durable() {
        tracing::warn!("synchronous_commit is off: a crash may lose acknowledged events");
    }
    Ok(())
}

pub fn auth(config: &Config, pool: PgPool) -> anyhow::Result<Auth> {
    Ok(Auth::new(
        AuthConfig {
            secret: config.secret()?,
            issuer: "clearway".into(),
            audience: "clearway-web".into(),
            token_ttl: chrono::Duration::seconds(config.token_ttl_secs.max(60)),
            refresh_window: chrono::Duration::seconds(300),
            absolute_ttl: chrono::Duration::seconds(config.session_max_secs.max(60)),
        },
        pool,
    ))
}

async fn fallback(web: WebApp, uri: Uri) -> Response {
    let path = uri.path();
    if path.starts_with("/api/") || path.starts_with("/auth/") || path == "/api" || path == "/auth"
    {
        return ApiError::not_found().into_response();
    }
    web.serve(uri).await
}

async fn method_not_allowed() -> Response {
    ApiError::MethodNotAllowed.into_response()
}

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::internal("a request handler panicked").into_response()
}

/// The command side's state outside the server (seeding, `clearway` commands, tests and the
/// bench): the real command paths, without single sign-on or the server's workers. Like
/// [`router`], it installs the personal-data secret first, so that whatever appends through
/// it derives data subjects as the server does.
pub async fn offline_command_state(config: &Config, pool: PgPool) -> anyhow::Result<CommandState> {
    config.personal_data.install(config.development(), true)?;
    let store = EventStore::new(pool.clone());
    Ok(CommandState {
        auth: auth(config, pool.clone())?,
        reference: ReferenceCache::load(&store)
            .await
            .context("loading reference data")?,
        idempotency: IdempotencyStore::new(pool.clone()),
        hasher: Hasher::new(2)?,
        development: config.development(),
        sso: None,
        customers: command::customer_ref::cache::CustomerCache::new(pool.clone()),
        documents: config.reader.sandbox(),
        store,
        pool,
    })
}

/// The whole HTTP application.
pub async fn router(config: &Config, pool: PgPool) -> anyhow::Result<Router> {
    config.personal_data.install(config.development(), true)?;
    let store = EventStore::new(pool.clone());
    let auth = auth(config, pool.clone())?;
    let reference = ReferenceCache::load(&store)
        .await
        .context("loading reference data")?;
    spawn_reference_refresh(reference.clone(), store.clone());
    let command_state = CommandState {
        pool: pool.clone(),
        store,
        idempotency: IdempotencyStore::new(pool.clone()),
        auth: auth.clone(),
        hasher: Hasher::new(2)?,
        reference,
        development: config.development(),
        sso: config.oidc.sso()?,
        customers: command::customer_ref::cache::CustomerCache::new(pool.clone()),
        documents: config.reader.sandbox(),
    };
    // Uploaded files are read by a worker of this process, never by the request.
    command::upload::worker::spawn(command_state.clone(), config.job_retry());
    let mut identity = config.identity.build()?;
    identity.link = config.notify.link_limits(identity.trusted_proxies);
    // Clearance exception notices are delivered by a worker of this process too.
    if config.notify.worker {
        command::clearance_exception::outbox::spawn(
            command_state.clone(),
            command::clearance_exception::outbox::Outbox {
                retry: config.job_retry(),
                ..config.notify.outbox(&identity)
            },
        );
    }
    // The customer's opt-in e-mail on customs' release or rejection (docs/notifications.md).
    if config.notify.worker {
        let outbox = config.notify.outbox(&identity);
        command::customs::notices::spawn(
            command_state.clone(),
            command::customs::notices::Notices {
                mailer: outbox.mailer,
                public_url: outbox.public_url,
                retry_base: outbox.retry_base,
                max_attempts: outbox.max_attempts,
            },
        );
    }
    // The customs channel's writer (docs/customs.md), when the exchange folder is set.
    if let Some(folder) = config.customs.folder() {
        if let Err(e) = folder.ensure() {
            tracing::warn!(error = %e, folder = %folder.root.display(), "customs: the exchange folder cannot be made; will retry");
        }
        command::customs::outbox::spawn(command_state.clone(), folder.clone());
        command::customs::inbox::spawn(
            command_state.clone(),
            command::customs::inbox::Inbox::new(folder),
        );
    }
    // Reads (and their minPosition waits, against the replica's copy of the checkpoints) go
    // to the replica when there is one; everything that writes stays on the primary.
    let read_pool = match config.read_database_url.as_deref().map(str::trim) {
        Some(url) if !url.is_empty() => PgPoolOptions::new()
            .max_connections(config.max_connections)
            .acquire_timeout(Duration::from_millis(config.db_acquire_timeout_ms))
            .connect(url)
            .await
            .context("connecting to the read replica (CLEARWAY_READ_DATABASE_URL)")?,
        _ => pool.clone(),
    };
    let query_state = query::QueryState {
        pool: read_pool,
        auth,
        customs_channel: config.customs.customs_dir.is_some(),
        tax_difference_share: config.tax_difference_share,
    };
    let web = WebApp::new(config.web_dir.clone());
    web.log_availability();
    let seal_key = config.audit.signing_key(config.development())?;
    let audit_key = seal_key.public();
    let audit = crate::audit::api::routes(pool.clone(), query_state.auth.clone(), audit_key)
        .merge(crate::audit::export::routes(
            pool.clone(),
            query_state.auth.clone(),
            seal_key,
            config.audit.policy(),
        ))
        .merge(crate::audit::verification::routes(
            pool.clone(),
            query_state.auth.clone(),
            audit_key,
        ));
    let operations = crate::operations::routes(
        pool,
        query_state.auth.clone(),
        config.development(),
        config.customs.channel(),
    );
    let customs = command::customs::routes::router(command_state.clone(), config.customs.channel());
    // The annotated routes, mounted with their documentation.
    let (documented, generated) = query::documented(query_state)
        .merge(operations)
        .merge(audit)
        .merge(command::routes(command_state, identity))
        .merge(customs)
        .split_for_parts();
    let app = Router::new()
        .merge(documented)
        .merge(crate::openapi::router(generated))
        .fallback(move |uri: Uri| {
            let web = web.clone();
            async move { fallback(web, uri).await }
        })
        .method_not_allowed_fallback(method_not_allowed);
    // Outermost: every answer carries the policy, those of the timeout and panic layers too.
    let headers = crate::security_headers::SecurityHeaders {
        trust_forwarded_proto: config.identity.trusted_proxies() > 0,
    };
    Ok(with_middleware(app)
        .layer(axum::Extension(api::reads::ReadWait(
            Duration::from_millis(config.read_wait_ms),
        )))
        .layer(axum::middleware::from_fn_with_state(
            headers,
            crate::security_headers::apply,
        )))
}

/// How long a request may take before it is answered 503 (in the envelope). Long enough for
/// the largest export; a configuration field would belong in `config.rs` (not changed here).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

fn with_middleware(app: Router) -> Router {
    with_middleware_timing_out(app, REQUEST_TIMEOUT)
}

fn with_middleware_timing_out(app: Router, timeout: Duration) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    app.layer(DefaultBodyLimit::max(4 * 1024 * 1024))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            timeout,
        ))
        // Inside the request context, where the token check has named the session.
        .layer(axum::middleware::from_fn(remember_session_writes))
        // Inside the language context, so the envelope speaks the caller's language.
        .layer(axum::middleware::from_fn(api::envelope_every_error))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(axum::middleware::from_fn(api::context::request_context))
        .layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static("x-content-type-options"),
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static("x-frame-options"),
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static("referrer-policy"),
            HeaderValue::from_static("same-origin"),
        ))
        // Spreadsheets and archives are zip files already: compressing them again only costs.
        .layer(CompressionLayer::new().compress_when(
            DefaultPredicate::new()
                .and(NotForContentType::const_new("application/vnd.openxmlformats"))
                .and(NotForContentType::const_new("application/zip"))
                .and(NotForContentType::const_new("application/octet-stream")),
        ))
        .layer(TraceLayer::new_for_http().make_span_with(|req: &axum::http::Request<_>| {
            let id = req
                .headers()
                .get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("-");
            tracing::info_span!("request", method = %req.method(), path = %req.uri().path(), request_id = %id)
        }))
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(SetRequestIdLayer::new(request_id, MakeRequestUuid))
}

/// Read your own writes: whatever a request appended, through any command path, becomes its
/// session's floor for the queries it sends next (`api::reads`). Only an answered success
/// counts: a failed command's transaction may have rolled its append back.
async fn remember_session_writes(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let (response, written) = events::store::written::track(next.run(request)).await;
    if let Some(position) = written
        && response.status().is_success()
    {
        api::reads::record_written(position);
    }
    response
}

/// Other processes (`seed`, `import-reference`) may load new reference versions: pick them up
/// (read again only when a reference stream has grown).
fn spawn_reference_refresh(cache: ReferenceCache, store: EventStore) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(30));
        tick.tick().await;
        loop {
            tick.tick().await;
            if let Err(e) = cache.refresh(&store).await {
                tracing::warn!(error = %e, "reference data reload failed");
            }
        }
    });
}

/// A bound, not yet running server; `port()` is known before it runs (tests bind port 0).
pub struct Application {
    listener: TcpListener,
    router: Router,
    pool: PgPool,
    with_projectors: bool,
    /// Signs the audit chain's seals beside the projectors.
    sealer: (
        projector::audit_chain::seal::SealKey,
        projector::audit_chain::seal::SealPolicy,
    ),
}

impl Application {
    pub async fn build(
        config: &Config,
        pool: PgPool,
        with_projectors: bool,
    ) -> anyhow::Result<Self> {
        // Before anything else: production without the seal key refuses to start.
        let seal_key = config.audit.signing_key(config.development())?;
        let router = router(config, pool.clone()).await?;
        let listener = TcpListener::bind(&config.addr)
            .await
            .with_context(|| format!("binding {}", config.addr))?;
        Ok(Self {
            listener,
            router,
            pool,
            with_projectors,
            sealer: (seal_key, config.audit.policy()),
        })
    }

    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    /// Serve until `shutdown` turns true, then drain requests and stop the projectors.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) -> anyhow::Result<()> {
        crate::housekeeping::spawn(
            self.pool.clone(),
            crate::housekeeping::Retention::default(),
            Duration::from_secs(3600),
            shutdown.clone(),
        );
        let projector_task = self.with_projectors.then(|| {
            let runtime =
                projector::runtime::ProjectorRuntime::new(self.pool.clone(), projector::all());
            tokio::spawn(runtime.run(shutdown.clone()))
        });
        if self.with_projectors {
            let (key, policy) = self.sealer;
            tokio::spawn(projector::audit_chain::seal::run_sealer(
                self.pool.clone(),
                key,
                policy,
                Duration::from_secs(1),
                shutdown.clone(),
            ));
        }
        let service = self
            .router
            .into_make_service_with_connect_info::<SocketAddr>();
        axum::serve(self.listener, service)
            .with_graceful_shutdown(async move {
                let _ = shutdown.wait_for(|stop| *stop).await;
            })
            .await?;
        if let Some(task) = projector_task {
            let _ = task.await;
        }
        Ok(())
    }
}

/// A shutdown signal that turns true on Ctrl-C or SIGTERM.
pub fn shutdown_signal() -> watch::Receiver<bool> {
    let (tx, rx) = watch::channel(false);
    tokio::spawn(async move {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        let term = async {
            if let Ok(mut s) =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            {
                s.recv().await;
            }
        };
        #[cfg(not(unix))]
        let term = std::future::pending::<()>();
        tokio::select! {
            _ = ctrl_c => {},
            _ = term => {},
        }
        tracing::info!("shutting down");
        let _ = tx.send(true);
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{Body, to_bytes};
    use axum::http::Request;
    use axum::routing::get;
    use tower::ServiceExt;

    async fn get_json(app: Router, path: &str) -> (StatusCode, serde_json::Value) {
        let response = app
            .oneshot(Request::get(path).body(Body::empty()).expect("request"))
            .await
            .expect("answer");
        let status = response.status();
        let bytes = to_bytes(response.into_body(), 1 << 20).await.expect("body");
        (status, serde_json::from_slice(&bytes).expect("an envelope"))
    }

    #[tokio::test]
    async fn a_request_that_takes_too_long_is_answered_503_in_the_envelope() {
        let slow = Router::new().route(
            "/api/v1/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(5)).await;
                "late"
            }),
        );
        let app = with_middleware_timing_out(slow, Duration::from_millis(50));
        let (status, v) = get_json(app, "/api/v1/slow").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(v["code"], 503);
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    }

    #[tokio::test]
    async fn a_path_that_is_not_utf8_is_answered_400_in_the_envelope_naming_the_path() {
        let app = with_middleware(Router::new().route(
            "/api/v1/things/{id}",
            get(|axum::extract::Path(id): axum::extract::Path<String>| async move { id }),
        ));
        let (status, v) = get_json(app, "/api/v1/things/%FF").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(v["code"], 400);
        assert_eq!(v["data"][0]["field"], "path");
    }
}
