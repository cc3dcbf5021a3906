//! The `clearway` binary started exactly as `scripts/run.sh` starts it (`clearway migrate`,
//! `clearway seed`, then `clearway serve`, in the project folder, development mode, info logs),
//! with no allocator variable in its environment: whatever keeps its memory flat must be in
//! the binary, so the Dockerfile's start behaves the same.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, bail};
use tokio::process::{Child, Command};

pub struct ServeProcess {
    pub base: String,
    pub pid: u32,
    child: Child,
}

/// `target/release/clearway` beside this benchmark binary (scripts/bench.sh builds both).
fn binary() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let path = exe
        .parent()
        .context("the benchmark binary has no folder")?
        .join("clearway");
    if !path.is_file() {
        bail!(
            "{} is missing: build it first (cargo build --release --bin clearway; scripts/bench.sh does)",
            path.display()
        );
    }
    Ok(path)
}

fn command(bin: &PathBuf, database_url: &str, addr: &str) -> Command {
    let mut c = Command::new(bin);
    c.current_dir(crate::ROOT)
        .env("DATABASE_URL", database_url)
        .env("CLEARWAY_MODE", "development")
        .env("CLEARWAY_ADDR", addr)
        .env("RUST_LOG", "info")
        .env_remove("MALLOC_MMAP_THRESHOLD_")
        .env_remove("MALLOC_TRIM_THRESHOLD_")
        .env_remove("MALLOC_ARENA_MAX")
        .env_remove("CLEARWAY_WEB_DIR")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    c
}

impl ServeProcess {
    pub async fn start(database_url: &str) -> anyhow::Result<Self> {
        let bin = binary()?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let addr = format!("127.0.0.1:{port}");
        for step in ["migrate", "seed"] {
            let status = command(&bin, database_url, &addr)
                .arg(step)
                .status()
                .await
                .with_context(|| format!("clearway {step}"))?;
            if !status.success() {
                bail!("clearway {step} failed: {status}");
            }
        }
        let mut child = command(&bin, database_url, &addr)
            .arg("serve")
            .spawn()
            .context("starting clearway serve")?;
        let pid = child.id().context("clearway serve has no process id")?;
        let base = format!("http://{addr}");
        let client = reqwest::Client::builder().no_proxy().build()?;
        for _ in 0..600 {
            if let Some(status) = child.try_wait()? {
                bail!("clearway serve ended before it answered: {status}");
            }
            // Any answer means it listens (health may say 503 while projectors catch up).
            if client
                .get(format!("{base}/api/v1/health"))
                .send()
                .await
                .is_ok()
            {
                return Ok(Self { base, pid, child });
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!("clearway serve did not answer its health check within 60 s")
    }

    /// SIGTERM (graceful shutdown) through `kill`; killed after 15 s.
    pub async fn stop(mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.pid.to_string()])
            .status()
            .await;
        if tokio::time::timeout(Duration::from_secs(15), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }

    pub async fn login(&self, client: &reqwest::Client, username: &str) -> anyhow::Result<String> {
        crate::server::login(client, &self.base, username).await
    }
}
