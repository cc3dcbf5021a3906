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
        tax_difference_share: query::declaration_taxes::DEFAULT_DIFFERENCE_SHARE,
        addr: "127.0.0.1:0".into(),
        mode,
        jwt_secret: Some("test-secret-test-secret-test-secret-0123".into()),
        token_ttl_secs: 1800,
        session_max_secs: 8 * 3600,
        web_dir: None,
        max_connections: 10,
        db_acquire_timeout_ms: 5000,
        job_max_attempts: 3,
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
        // Uploaded documents are read by the server's own binary in child processes.
        reader: clearway::config::ReaderConfig {
            reader_bin: Some(env!("CARGO_BIN_EXE_clearway").into()),
            ..Default::default()
        },
        // The customs channel off: the customs tests turn it on with a folder of their own.
        customs: Default::default(),
    }
}

/// The command side's state on `pool`, for seeding through the real command paths.
pub async fn command_state(pool: &PgPool, cfg: &Config) -> command::http::CommandState {
    clearway::startup::offline_command_state(cfg, pool.clone())
        .await
        .expect("command state")
}

/// Seed reference tables and demo data through the real command paths. The tariff (12,030
/// lines in one 10 MB event, some 10 s of setup per test in a debug build) is loaded by the
/// tests that need it ([`spawn_with_tariff`]), or by every test when `CLEARWAY_TEST_TARIFF`
/// is set (a full check that every fixture's goods code is a line of the tariff).
pub async fn seed(pool: &PgPool, cfg: &Config) {
    seed_with(
        pool,
        cfg,
        std::env::var_os("CLEARWAY_TEST_TARIFF").is_some(),
    )
    .await
}

pub async fn seed_with(pool: &PgPool, cfg: &Config, tariff: bool) {
    let state = command_state(pool, cfg).await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/reference");
    clearway::seed::seed_reference_with(&state, &dir, tariff)
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
            .wait_for_projections(&names, head, std::time::Duration::from_secs(180))
            .await
            .expect("projection checkpoints"),
        "the projections did not catch up with the seed within 180 s"
    );
    TestApp {
        base,
        client: Client::new(),
        pool,
        _shutdown: tx,
    }
}

/// [`spawn`] with the 2026 tariff loaded (`seeds/cn_tariff_2026.csv`).
pub async fn spawn_with_tariff(pool: PgPool) -> TestApp {
    let cfg = config(&pool, Mode::Development);
    seed_with(&pool, &cfg, true).await;
    start(pool, cfg).await
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

/// The test database's URL: a server process of its own connects to the same database.
pub async fn database_url(pool: &PgPool) -> String {
    let name: String = sqlx::query_scalar("SELECT current_database()")
        .fetch_one(pool)
        .await
        .expect("database name");
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let (server, _) = base.rsplit_once('/').expect("a database URL");
    format!("{server}/{name}")
}

/// A free port on the loopback interface, as `127.0.0.1:<port>`.
pub fn free_addr() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("port")
        .local_addr()
        .expect("addr")
        .port();
    format!("127.0.0.1:{port}")
}

/// The real `clearway serve` binary in a process of its own on the (seeded) database at
/// `url`, with the secrets of `config`, listening on `addr`; ready when health answers.
/// Its memory is its own (an in-process server shares the test binary's with other tests).
pub async fn serve_process(url: &str, addr: &str) -> tokio::process::Child {
    serve_process_with(url, addr, &[]).await
}

/// [`serve_process`] with more environment (`CLEARWAY_CUSTOMS_DIR`, ...).
pub async fn serve_process_with(
    url: &str,
    addr: &str,
    extra: &[(&str, &str)],
) -> tokio::process::Child {
    let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_clearway"))
        .arg("serve")
        .envs(extra.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("DATABASE_URL", url)
        .env("CLEARWAY_MODE", "development")
        .env("CLEARWAY_ADDR", addr)
        .env(
            "CLEARWAY_JWT_SECRET",
            "test-secret-test-secret-test-secret-0123",
        )
        .env(
            "CLEARWAY_PII_SECRET",
            "test-personal-data-secret-0123456789abcdef",
        )
        .env("CLEARWAY_AUDIT_SIGNING_KEY", "42".repeat(32))
        .env("CLEARWAY_NOTIFY_WORKER", "false")
        .env("CLEARWAY_READ_WAIT_MS", "30000")
        .env("CLEARWAY_DB_MAX_CONNECTIONS", "10")
        .env("RUST_LOG", "warn")
        .env_remove("CLEARWAY_WEB_DIR")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("clearway serve");
    let client = Client::new();
    for _ in 0..1200 {
        if client
            .get(format!("http://{addr}/api/v1/health"))
            .send()
            .await
            .is_ok()
        {
            return child;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("clearway serve did not start");
}

impl TestApp {
    /// A client of a server running elsewhere (a `serve_process`).
    pub fn at(addr: &str, pool: PgPool) -> TestApp {
        let (tx, _) = tokio::sync::watch::channel(false);
        TestApp {
            base: format!("http://{addr}"),
            client: Client::new(),
            pool,
            _shutdown: tx,
        }
    }
}

/// A valid courier `1Z` number made from `body` (its first 15 capitals and digits, padded
/// with 0) and its check digit: fixtures take it instead of inventing numbers.
pub fn ups(body: &str) -> String {
    command::rules::tracking::make_ups(body)
}
