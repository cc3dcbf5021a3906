//! `spawn_app`: migrate a fresh database, seed it, start the server on port 0.

use clearway::config::{Config, Mode};
use clearway::startup::Application;
use reqwest::{Client, Response};
use serde_json::{Value, json};
use sqlx::PgPool;

pub struct TestApp {
    pub base: String,
    pub client: Client,
    pub pool: PgPool,
    _shutdown: tokio::sync::watch::Sender<bool>,
}

pub fn config(pool: &PgPool, mode: Mode) -> Config {
    let _ = pool;
    Config {
        database_url: String::new(),
        read_database_url: None,
        addr: "127.0.0.1:0".into(),
        mode,
        jwt_secret: Some("test-secret-test-secret-test-secret-0123".into()),
        token_ttl_secs: 1800,
        session_max_secs: 8 * 3600,
        web_dir: None,
        max_connections: 10,
        // Read-your-writes waits long enough for a loaded CI machine (the server's 2 s
        // default answers the read model as it is after that, which a test would misread).
        read_wait_ms: 30_000,
        log_json: false,
        identity: Default::default(),
        oidc: Default::default(),
        // Without the notice worker: a test's exception streams hold only its own events
        // (the notice tests turn it on).
        notify: clearway::config::NotifyConfig {
            worker: false,
            ..Default::default()
        },
        audit: clearway::audit::AuditConfig {
            audit_signing_key: Some("42".repeat(32)),
            ..Default::default()
        },
        personal_data: clearway::personal_data::PersonalDataConfig {
            pii_secret: Some("test-personal-data-secret-0123456789abcdef".into()),
            ..Default::default()
        },
    }
}

/// The command side's state on `pool`, for seeding through the real command paths.
pub async fn command_state(pool: &PgPool, cfg: &Config) -> command::http::CommandState {
    clearway::startup::offline_command_state(cfg, pool.clone())
        .await
        .expect("command state")
}

/// Seed reference tables and demo data through the real command paths.
pub async fn seed(pool: &PgPool, cfg: &Config) {
    let state = command_state(pool, cfg).await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/reference");
    clearway::seed::seed_reference(&state, &dir)
        .await
        .expect("reference seed");
    clearway::seed::seed_demo(&state).await.expect("demo seed");
}

pub async fn spawn_with(pool: PgPool, cfg: Config) -> TestApp {
    seed(&pool, &cfg).await;
    start(pool, cfg).await
}

/// Start the server on an already seeded database.
pub async fn start(pool: PgPool, cfg: Config) -> TestApp {
    let app = Application::build(&cfg, pool.clone(), true)
        .await
        .expect("build");
    let base = format!("http://127.0.0.1:{}", app.port());
    let (tx, rx) = tokio::sync::watch::channel(false);
    tokio::spawn(app.run(rx));
    // Ready means caught up: the seed's events (roles and their permission sets among them:
    // permissions fail closed while a role has no row) are in the read models before the
    // first request, as `clearway seed` leaves them before `clearway serve` starts.
    let store = events::EventStore::new(pool.clone());
    let head = store.head_position().await.expect("head position");
    let projections = projector::all();
    let names: Vec<&str> = projections.iter().map(|p| p.name()).collect();
    assert!(
        store
            .wait_for_projections(&names, head, std::time::Duration::from_secs(60))
            .await
            .expect("projection checkpoints"),
        "the projections did not catch up with the seed within 60 s"
    );
    TestApp {
        base,
        client: Client::new(),
        pool,
        _shutdown: tx,
    }
}

pub async fn spawn(pool: PgPool) -> TestApp {
    let cfg = config(&pool, Mode::Development);
    spawn_with(pool, cfg).await
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn login(&self, username: &str) -> String {
        let r: Value = self
            .client
            .post(self.url("/auth/login"))
            .form(&[
                ("username", username),
                ("password", clearway::seed::DEMO_PASSWORD),
            ])
            .send()
            .await
            .expect("login")
            .json()
            .await
            .expect("json");
        assert_eq!(r["code"], 200, "login of {username}: {r}");
        r["data"].as_str().expect("token").to_string()
    }

    pub async fn get(&self, token: &str, path: &str) -> Response {
        self.client
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .expect("get")
    }

    pub async fn post(&self, token: &str, path: &str, body: Value) -> Response {
        self.client
            .post(self.url(path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .expect("post")
    }

    pub async fn put(&self, token: &str, path: &str, body: Value) -> Response {
        self.client
            .put(self.url(path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .expect("put")
    }

    /// A minimal draft of type `OC`; answers its id.
    pub async fn draft(&self, token: &str, tracking: &str) -> String {
        let r = body(
            self.post(
                token,
                "/api/v1/declarations",
                json!({"declarationType": "OC", "trackingNumber": tracking}),
            )
            .await,
        )
        .await;
        assert_eq!(r["code"], 200, "{r}");
        r["data"]["id"].as_str().expect("id").to_string()
    }

    /// A complete class C export that passes submit validation.
    pub async fn full_draft(&self, token: &str, tracking: &str) -> String {
        let mut data =
            serde_json::to_value(clearway::seed::demo_c_export(tracking, "PVG", "SHA01"))
                .expect("json");
        data["declarationType"] = json!("OC");
        let r = body(self.post(token, "/api/v1/declarations", data).await).await;
        assert_eq!(r["code"], 200, "{r}");
        r["data"]["id"].as_str().expect("id").to_string()
    }
}

/// Status and JSON body of an answer.
pub async fn body(r: Response) -> Value {
    let status = r.status().as_u16();
    let mut v: Value = r.json().await.expect("a JSON envelope");
    v["_status"] = json!(status);
    v
}

/// Asserts the envelope's shape: every answer carries the five keys.
pub fn assert_envelope(v: &Value) {
    for key in ["code", "message", "data", "refreshed", "accessToken"] {
        assert!(v.get(key).is_some(), "envelope lacks {key}: {v}");
    }
}
