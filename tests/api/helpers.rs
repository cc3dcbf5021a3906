//! `spawn_app`: migrate a fresh database, seed it, start the server on port 0.
//!
//! The seed (reference tables and demo data through the real command paths, then every
//! projection caught up) is made once per test process and per seed-relevant configuration
//! in a template database, and copied into each test's database ([`template`]).

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
    if template::copy_seeded(pool, cfg, tariff).await {
        return;
    }
    seed_slowly(pool, cfg, tariff).await;
}

/// The seed through the real command paths, as `clearway seed` runs it (the template of
/// [`template`] is made this way once, and every database where a copy cannot be made).
async fn seed_slowly(pool: &PgPool, cfg: &Config, tariff: bool) {
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

/// Closes `conn` as a killed process's would go, and waits until the server has ended its
/// session (and so released its locks and rolled back its open transaction): a restarted
/// worker finds the orphaned claim only then, and the client's close returns before.
pub async fn close_as_killed(mut conn: sqlx::pool::PoolConnection<sqlx::Postgres>, pool: &PgPool) {
    use sqlx::Connection as _;
    let pid: i32 = sqlx::query_scalar("SELECT pg_backend_pid()")
        .fetch_one(&mut *conn)
        .await
        .expect("backend pid");
    conn.detach().close().await.expect("killed");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while sqlx::query_scalar::<_, i64>("SELECT count(*) FROM pg_stat_activity WHERE pid = $1")
        .bind(pid)
        .fetch_one(pool)
        .await
        .expect("sessions")
        > 0
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the killed session never ended"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Seeded databases to copy from. Seeding through the command paths (password hashes,
/// sealed personal data, some 1,500 events) and projecting it took about 2 s of every API
/// test; a copy of the same rows takes a fraction of that. The copy is of every table as it
/// stands once the projections have caught up (events, read models, checkpoints, sequences),
/// so a server started on it finds nothing left to do, as it does after `clearway seed`.
///
/// A template is made per test process (named after its pid; those of processes gone are
/// dropped) and per fingerprint of what the seed depends on: the mode, the personal-data and
/// audit settings, the tariff. The copy needs a superuser (triggers and foreign keys are off
/// while it runs); without one every test seeds as before.
mod template {
    use std::collections::HashMap;
    use std::hash::{Hash, Hasher};
    use std::sync::{Arc, Mutex};

    use clearway::config::Config;
    use futures::TryStreamExt as _;
    use sqlx::postgres::{PgConnectOptions, PgPool};
    use sqlx::{ConnectOptions as _, Connection as _, PgConnection};
    use tokio::sync::OnceCell;

    type Cells = Mutex<HashMap<u64, Arc<OnceCell<Option<String>>>>>;
    static TEMPLATES: std::sync::OnceLock<Cells> = std::sync::OnceLock::new();

    const PREFIX: &str = "clearway_api_seed_";

    fn fingerprint(cfg: &Config, tariff: bool) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format!("{:?}", cfg.mode).hash(&mut h);
        format!("{:?}", cfg.personal_data).hash(&mut h);
        format!("{:?}", cfg.audit).hash(&mut h);
        tariff.hash(&mut h);
        h.finish()
    }

    /// Copies the seeded template into `pool`'s (freshly migrated) database; `false` when no
    /// template can be had here, and the caller seeds as before.
    pub async fn copy_seeded(pool: &PgPool, cfg: &Config, tariff: bool) -> bool {
        let key = fingerprint(cfg, tariff);
        let cell = {
            let cells = TEMPLATES.get_or_init(Default::default);
            let mut cells = cells.lock().expect("templates");
            cells.entry(key).or_default().clone()
        };
        let options = (*pool.connect_options()).clone();
        let name = cell
            .get_or_init(|| async { make(&options, cfg, tariff, key).await })
            .await;
        let Some(name) = name else {
            return false;
        };
        copy(&options.clone().database(name), pool)
            .await
            .expect("copying the seeded template");
        true
    }

    async fn make(
        options: &PgConnectOptions,
        cfg: &Config,
        tariff: bool,
        key: u64,
    ) -> Option<String> {
        let mut admin = options.clone().database("postgres").connect().await.ok()?;
        let superuser: bool =
            sqlx::query_scalar("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                .fetch_one(&mut admin)
                .await
                .ok()?;
        if !superuser {
            return None;
        }
        drop_stale(&mut admin).await;
        let name = format!("{PREFIX}{}_{key:016x}", std::process::id());
        sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
            .execute(&mut admin)
            .await
            .expect("dropping an old template");
        sqlx::query(&format!("CREATE DATABASE {name} TEMPLATE template0"))
            .execute(&mut admin)
            .await
            .expect("creating the template");
        let template = PgPool::connect_with(options.clone().database(&name))
            .await
            .expect("connecting to the template");
        clearway::startup::MIGRATOR
            .run(&template)
            .await
            .expect("migrating the template");
        super::seed_slowly(&template, cfg, tariff).await;
        projector::runtime::run_once_until_caught_up(&template, &projector::all())
            .await
            .expect("projecting the template's seed");
        template.close().await;
        Some(name)
    }

    /// Drops the templates of test processes that are gone.
    async fn drop_stale(admin: &mut PgConnection) {
        let names: Vec<String> =
            sqlx::query_scalar("SELECT datname FROM pg_database WHERE datname LIKE $1")
                .bind(format!("{PREFIX}%"))
                .fetch_all(&mut *admin)
                .await
                .unwrap_or_default();
        for name in names {
            let pid = name[PREFIX.len()..].split('_').next().unwrap_or("");
            let alive = !pid.is_empty() && std::path::Path::new(&format!("/proc/{pid}")).exists();
            if !alive {
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&mut *admin)
                    .await;
            }
        }
    }

    /// Every table's rows and every sequence's place, from the template into `pool`'s
    /// database, in one transaction with triggers and foreign keys off.
    async fn copy(from: &PgConnectOptions, pool: &PgPool) -> Result<(), sqlx::Error> {
        let mut source = from.connect().await?;
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT quote_ident(c.relname) FROM pg_class c
               JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> '_sqlx_migrations'
              ORDER BY c.relname",
        )
        .fetch_all(&mut source)
        .await?;
        let sequences: Vec<(String, i64, bool)> = {
            let names: Vec<String> = sqlx::query_scalar(
                "SELECT quote_ident(sequencename) FROM pg_sequences WHERE schemaname = 'public'",
            )
            .fetch_all(&mut source)
            .await?;
            let mut places = Vec::new();
            for name in names {
                let (last, called): (i64, bool) =
                    sqlx::query_as(&format!("SELECT last_value, is_called FROM {name}"))
                        .fetch_one(&mut source)
                        .await?;
                places.push((name, last, called));
            }
            places
        };
        let mut target = pool.acquire().await?;
        let mut tx = target.begin().await?;
        sqlx::query("SET LOCAL session_replication_role = replica")
            .execute(&mut *tx)
            .await?;
        if !tables.is_empty() {
            sqlx::query(&format!("TRUNCATE {}", tables.join(", ")))
                .execute(&mut *tx)
                .await?;
        }
        for table in &tables {
            let bytes: Vec<u8> = source
                .copy_out_raw(&format!("COPY {table} TO STDOUT (FORMAT binary)"))
                .await?
                .try_fold(Vec::new(), |mut all, chunk| async move {
                    all.extend_from_slice(&chunk);
                    Ok(all)
                })
                .await?;
            let mut into = tx
                .copy_in_raw(&format!("COPY {table} FROM STDIN (FORMAT binary)"))
                .await?;
            into.send(bytes).await?;
            into.finish().await?;
        }
        for (name, last, called) in &sequences {
            sqlx::query("SELECT setval($1::regclass, $2, $3)")
                .bind(name)
                .bind(last)
                .bind(called)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        source.close().await?;
        Ok(())
    }
}
