//! The PostgreSQL server the benchmarks run on: fresh databases, pools, migrations.

use std::time::Duration;

use anyhow::{Context, bail};
use sqlx::postgres::PgPoolOptions;
use sqlx::{Connection, PgConnection, PgPool};

/// Every benchmark database starts with this prefix; nothing else is ever dropped.
const PREFIX: &str = "clearway_bench";

pub struct Server {
    /// Connection string up to and including the `/` before the database name.
    head: String,
    /// `?...` after the database name, or empty.
    tail: String,
    /// The base database name (`clearway_bench`).
    base: String,
}

impl Server {
    pub fn new(url: &str) -> anyhow::Result<Self> {
        let scheme_end = url.find("://").context("DATABASE_URL has no scheme")? + 3;
        let slash = url[scheme_end..]
            .find('/')
            .map(|i| i + scheme_end)
            .context("DATABASE_URL names no database")?;
        let (path, tail) = match url[slash + 1..].find('?') {
            Some(q) => (&url[slash + 1..slash + 1 + q], &url[slash + 1 + q..]),
            None => (&url[slash + 1..], ""),
        };
        let host = &url[scheme_end..slash];
        let host_only = host.rsplit('@').next().unwrap_or(host);
        let hostname = host_only.rsplit_once(':').map_or(host_only, |(h, _)| h);
        if !matches!(hostname, "127.0.0.1" | "localhost" | "[::1]") {
            bail!("benchmarks run against a local PostgreSQL only (got host {hostname})");
        }
        let base = if path.is_empty() { PREFIX } else { path };
        if !base.starts_with(PREFIX) {
            bail!("the benchmark database must be named {PREFIX}* (got {base})");
        }
        Ok(Self {
            head: url[..=slash].to_string(),
            tail: tail.to_string(),
            base: base.to_string(),
        })
    }

    pub fn url(&self, database: &str) -> String {
        format!("{}{}{}", self.head, database, self.tail)
    }

    pub fn name(&self, bench: &str) -> String {
        format!("{}_{bench}", self.base)
    }

    async fn admin(&self) -> anyhow::Result<PgConnection> {
        PgConnection::connect(&self.url("postgres"))
            .await
            .context("connecting to database postgres (to create benchmark databases)")
    }

    /// Drops and creates `<base>_<bench>`, migrates it, and answers a pool on it.
    pub async fn fresh(&self, bench: &str, max_connections: u32) -> anyhow::Result<PgPool> {
        let name = self.name(bench);
        let mut admin = self.admin().await?;
        sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
            .execute(&mut admin)
            .await
            .with_context(|| format!("dropping {name}"))?;
        sqlx::query(&format!("CREATE DATABASE \"{name}\""))
            .execute(&mut admin)
            .await
            .with_context(|| format!("creating {name}"))?;
        admin.close().await?;
        let pool = self.pool(bench, max_connections).await?;
        clearway::startup::MIGRATOR
            .run(&pool)
            .await
            .context("migrating")?;
        Ok(pool)
    }

    pub async fn pool(&self, bench: &str, max_connections: u32) -> anyhow::Result<PgPool> {
        let name = self.name(bench);
        PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(30))
            .connect(&self.url(&name))
            .await
            .with_context(|| format!("connecting to {name}"))
    }

    pub async fn drop_all(&self) -> anyhow::Result<()> {
        let mut admin = self.admin().await?;
        let names: Vec<String> =
            sqlx::query_scalar("SELECT datname FROM pg_database WHERE datname LIKE $1")
                .bind(format!("{}\\_%", self.base))
                .fetch_all(&mut admin)
                .await?;
        for name in names.iter().filter(|n| n.starts_with(PREFIX)) {
            sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                .execute(&mut admin)
                .await?;
            println!("dropped {name}");
        }
        Ok(())
    }

    pub async fn settings(&self) -> anyhow::Result<Vec<(String, String)>> {
        let mut admin = self.admin().await?;
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT name, setting || COALESCE(unit, '') FROM pg_settings WHERE name IN \
             ('server_version', 'shared_buffers', 'synchronous_commit', 'fsync', 'work_mem', \
              'max_wal_size', 'jit') ORDER BY name",
        )
        .fetch_all(&mut admin)
        .await?;
        Ok(rows)
    }
}

/// Escapes a value for COPY ... FROM STDIN in text format.
pub fn copy_text(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

/// One COPY field: the value or `\N`, then a tab (or newline when `last`).
pub fn copy_field(out: &mut String, value: Option<&str>, last: bool) {
    match value {
        Some(v) => copy_text(out, v),
        None => out.push_str("\\N"),
    }
    out.push(if last { '\n' } else { '\t' });
}

/// Drops `table`'s indexes that back no constraint and answers their definitions, so a bulk
/// load does not maintain them row by row; [`create_indexes`] puts them back as they were.
pub async fn drop_plain_indexes(pool: &PgPool, table: &str) -> anyhow::Result<Vec<String>> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i \
         WHERE i.indrelid = $1::regclass \
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)",
    )
    .bind(table)
    .fetch_all(pool)
    .await?;
    for (name, _) in &rows {
        sqlx::query(&format!("DROP INDEX {name}"))
            .execute(pool)
            .await?;
    }
    Ok(rows.into_iter().map(|(_, def)| def).collect())
}

/// Runs the index definitions, two at a time.
pub async fn create_indexes(pool: &PgPool, definitions: Vec<String>) -> anyhow::Result<()> {
    for pair in definitions.chunks(2) {
        let mut tasks = Vec::new();
        for def in pair {
            let (pool, def) = (pool.clone(), def.clone());
            tasks.push(tokio::spawn(async move {
                sqlx::query(&def).execute(&pool).await
            }));
        }
        for t in tasks {
            t.await??;
        }
    }
    Ok(())
}
