//! The real server, started in-process on 127.0.0.1 port 0 (as tests/api/helpers.rs does),
//! with the projectors running, and clients that log in once.

use std::time::Duration;

use anyhow::{Context, bail};
use clearway::config::Config;
use clearway::startup::Application;
use serde_json::Value;
use sqlx::PgPool;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub struct Running {
    pub base: String,
    shutdown: watch::Sender<bool>,
    task: JoinHandle<anyhow::Result<()>>,
}

/// The server's configuration as `clearway serve` would parse it (defaults for everything
/// not given here), listening on 127.0.0.1 port 0 in development mode (demo logins).
pub fn config(database_url: &str) -> anyhow::Result<Config> {
    #[derive(clap::Parser)]
    struct Wrapper {
        #[command(flatten)]
        config: Config,
    }
    let parsed = <Wrapper as clap::Parser>::try_parse_from([
        "clearway",
        "--database-url",
        database_url,
        "--addr",
        "127.0.0.1:0",
        "--mode",
        "development",
        "--jwt-secret",
        "bench-secret-bench-secret-bench-secret-0123",
    ])?;
    Ok(parsed.config)
}

/// Reference tables and the demo accounts (acme, globex, operator, admin, superadmin),
/// through the real command paths, as `clearway seed` does.
pub async fn seed(pool: &PgPool, cfg: &Config) -> anyhow::Result<()> {
    let state = clearway::startup::offline_command_state(cfg, pool.clone()).await?;
    let dir = std::path::Path::new(crate::ROOT).join("seeds/reference");
    clearway::seed::seed_reference(&state, &dir).await?;
    clearway::seed::seed_demo(&state).await?;
    Ok(())
}

/// Seeds `database` and starts the server on it with its own pool (as `clearway serve`).
pub async fn start(database_url: String) -> anyhow::Result<Running> {
    start_with(database_url, true).await
}

/// [`start`], with or without the projectors.
pub async fn start_with(database_url: String, projectors: bool) -> anyhow::Result<Running> {
    let cfg = config(&database_url)?;
    let pool = clearway::startup::connect(&cfg).await?;
    seed(&pool, &cfg).await.context("seeding")?;
    let app = Application::build(&cfg, pool, projectors).await?;
    let base = format!("http://127.0.0.1:{}", app.port());
    let (tx, rx) = watch::channel(false);
    let task = tokio::spawn(app.run(rx));
    Ok(Running {
        base,
        shutdown: tx,
        task,
    })
}

/// Logs in (Argon2: do it once per client, before timing) and answers the token.
pub async fn login(client: &reqwest::Client, base: &str, username: &str) -> anyhow::Result<String> {
    let r: Value = client
        .post(format!("{base}/auth/login"))
        .form(&[
            ("username", username),
            ("password", clearway::seed::DEMO_PASSWORD),
        ])
        .send()
        .await?
        .json()
        .await?;
    if r["code"] != 200 {
        bail!("login of {username} failed: {r}");
    }
    r["data"]
        .as_str()
        .map(str::to_string)
        .context("login answered no token")
}

/// Waits (at most 60 s) until every projection has caught up with the event store.
pub async fn wait_for_projections(pool: &PgPool) -> anyhow::Result<()> {
    for _ in 0..600 {
        let behind: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM projection_checkpoints c \
             WHERE c.position < (SELECT COALESCE(max(global_position), 0) FROM events)",
        )
        .fetch_one(pool)
        .await?;
        let registered: i64 = sqlx::query_scalar("SELECT count(*) FROM projection_checkpoints")
            .fetch_one(pool)
            .await?;
        if behind == 0 && registered >= 3 {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("projections did not catch up within 60 s")
}

impl Running {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn stop(self) {
        let _ = self.shutdown.send(true);
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
    }

    /// A keep-alive client of its own (one TCP connection per benchmark client).
    pub fn client() -> anyhow::Result<reqwest::Client> {
        Ok(reqwest::Client::builder()
            .pool_max_idle_per_host(1)
            .timeout(Duration::from_secs(120))
            .no_proxy()
            .build()?)
    }

    /// Logs in (Argon2: do it once per client, before timing) and answers the token.
    pub async fn login(&self, client: &reqwest::Client, username: &str) -> anyhow::Result<String> {
        login(client, &self.base, username).await
    }

    pub async fn wait_for_projections(&self, pool: &PgPool) -> anyhow::Result<()> {
        wait_for_projections(pool).await
    }
}

/// `code` of an envelope answer, or an error naming the answer.
pub fn expect_ok(v: &Value, what: &str) -> anyhow::Result<()> {
    if v["code"] == 200 {
        Ok(())
    } else {
        bail!("{what}: {v}")
    }
}

/// The server in a child process of its own (this binary's hidden `serve` subcommand), so its
/// RSS is the server's alone: no generated data, no benchmark clients.
pub struct ChildServer {
    pub base: String,
    pub pid: u32,
    child: tokio::process::Child,
}

impl ChildServer {
    pub async fn start(database_url: &str) -> anyhow::Result<Self> {
        use tokio::io::AsyncBufReadExt;
        let exe = std::env::current_exe()?;
        let mut child = tokio::process::Command::new(exe)
            .args(["--database-url", database_url, "serve"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .context("starting the server process")?;
        let pid = child.id().context("server process has no id")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let mut lines = tokio::io::BufReader::new(stdout).lines();
        let port = tokio::time::timeout(Duration::from_secs(180), async {
            while let Some(line) = lines.next_line().await? {
                if let Some(port) = line.strip_prefix("LISTENING ") {
                    return Ok::<u16, anyhow::Error>(port.trim().parse()?);
                }
            }
            bail!("the server process ended before listening")
        })
        .await
        .context("the server process did not start within 180 s")??;
        // Keep reading whatever else it prints, so it never writes into a closed pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Ok(Self {
            base: format!("http://127.0.0.1:{port}"),
            pid,
            child,
        })
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// Closes its stdin (it then shuts down gracefully); kills it after 15 s.
    pub async fn stop(mut self) {
        drop(self.child.stdin.take());
        if tokio::time::timeout(Duration::from_secs(15), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }

    /// Logs in as `username` and answers the token (see [`Running::login`]).
    pub async fn login(&self, client: &reqwest::Client, username: &str) -> anyhow::Result<String> {
        login(client, &self.base, username).await
    }
}

/// The hidden `serve` subcommand: seed, serve on port 0, print `LISTENING <port>`, and stop
/// when stdin closes.
pub async fn serve_child(database_url: String) -> anyhow::Result<()> {
    use std::io::Write;
    use tokio::io::AsyncReadExt;
    let running = start(database_url).await?;
    let port = running.base.rsplit(':').next().unwrap_or("0").to_string();
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "LISTENING {port}")?;
        out.flush()?;
    }
    let mut stdin = tokio::io::stdin();
    let mut buf = [0u8; 64];
    while stdin.read(&mut buf).await? > 0 {}
    running.stop().await;
    Ok(())
}
