//! Two PostgreSQL clusters of the test's own under a temporary folder: a primary (initdb,
//! `wal_level = replica`, replication allowed from 127.0.0.1) and a streaming replica made
//! from it with `pg_basebackup -R`, each on a free loopback port. initdb and pg_ctl refuse
//! to run as root, so as root they run as the `postgres` user (`runuser -u postgres --`).
//! Both are stopped and their folder removed when the value is dropped.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The folder holding `pg_basebackup` (None: not installed, the test is skipped).
pub fn bindir() -> Option<PathBuf> {
    let has = |dir: &Path| dir.join("pg_basebackup").is_file() && dir.join("initdb").is_file();
    // Debian keeps initdb and pg_ctl out of PATH, in /usr/lib/postgresql/<version>/bin.
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if out.status.success() && has(&dir) {
            return Some(dir);
        }
    }
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    if let Some(dir) = on_path.into_iter().find(|d| has(d)) {
        return Some(dir);
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|dirs| dirs.flatten().map(|d| d.path().join("bin")).collect())
        .unwrap_or_default();
    versions.sort();
    versions.into_iter().rev().find(|d| has(d))
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

pub struct Clusters {
    bin: PathBuf,
    dir: PathBuf,
    root: bool,
    pub primary_port: u16,
    pub replica_port: u16,
    started: Vec<PathBuf>,
}

impl Clusters {
    /// Runs a PostgreSQL program as the user that may run it; panics with its output on failure.
    fn run(&self, program: &str, args: &[&str]) -> Output {
        let path = self.bin.join(program);
        let mut command = if self.root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        let out = command
            .args(args)
            .current_dir(&self.dir)
            .output()
            .unwrap_or_else(|e| panic!("running {program}: {e}"));
        assert!(
            out.status.success(),
            "{program} {args:?} failed: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    fn append_conf(&self, cluster: &str, lines: &str) {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(self.dir.join(cluster).join("postgresql.conf"))
            .expect("postgresql.conf");
        f.write_all(lines.as_bytes())
            .expect("writing postgresql.conf");
    }

    fn start(&mut self, cluster: &str) {
        let data = self.path(cluster);
        let log = self.path(&format!("{cluster}.log"));
        self.run(
            "pg_ctl",
            &["-D", &data, "-l", &log, "-w", "-t", "60", "start"],
        );
        self.started.push(self.dir.join(cluster));
    }

    /// A primary cluster on a free port, started, replication allowed from 127.0.0.1.
    pub fn primary(bin: PathBuf) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        let dir =
            std::env::temp_dir().join(format!("clearway-replica-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary folder");
        let root = is_root();
        if root {
            let ok = Command::new("chown")
                .args(["postgres:postgres", &dir.display().to_string()])
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "chown of {} to postgres failed", dir.display());
        }
        let mut clusters = Self {
            bin,
            dir,
            root,
            primary_port: free_port(),
            replica_port: free_port(),
            started: Vec::new(),
        };
        let data = clusters.path("primary");
        // --auth=trust also allows replication connections from 127.0.0.1 (initdb's pg_hba).
        clusters.run(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        clusters.append_conf(
            "primary",
            &format!(
                "\nport = {}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{}'\n\
                 wal_level = replica\nmax_wal_senders = 4\nfsync = off\nshared_buffers = 32MB\n",
                clusters.primary_port,
                clusters.dir.display()
            ),
        );
        clusters.start("primary");
        clusters
    }

    /// The replica: `pg_basebackup -R` of the primary, on its own port, started.
    pub fn add_replica(&mut self) {
        let data = self.path("replica");
        let port = self.primary_port.to_string();
        self.run(
            "pg_basebackup",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                "postgres",
                "-D",
                &data,
                "-R",
                "-X",
                "stream",
                "--no-sync",
            ],
        );
        self.append_conf(
            "replica",
            &format!("\nport = {}\nhot_standby = on\n", self.replica_port),
        );
        self.start("replica");
    }

    pub fn url(port: u16, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{port}/{database}")
    }
}

/// Restarting the primary (tests/db_restart; the replica test does not restart it).
#[allow(dead_code)]
impl Clusters {
    /// Appends `lines` to the primary's postgresql.conf (read at its next start).
    pub fn configure_primary(&self, lines: &str) {
        self.append_conf("primary", lines);
    }

    /// Stops the primary with `mode` (`fast`: ends sessions and checkpoints; `immediate`:
    /// ends every process at once, crash recovery at the next start), waiting until it is down.
    pub fn stop_primary(&self, mode: &str) {
        let data = self.path("primary");
        self.run(
            "pg_ctl",
            &["-D", &data, "-m", mode, "-w", "-t", "60", "stop"],
        );
    }

    /// Starts the stopped primary again (same folder and port), waiting until it accepts
    /// connections.
    pub fn start_primary(&self) {
        let data = self.path("primary");
        let log = self.path("primary.log");
        self.run(
            "pg_ctl",
            &["-D", &data, "-l", &log, "-w", "-t", "60", "start"],
        );
    }
}

impl Drop for Clusters {
    fn drop(&mut self) {
        for data in std::mem::take(&mut self.started).into_iter().rev() {
            let data = data.display().to_string();
            let path = self.bin.join("pg_ctl");
            let mut command = if self.root {
                let mut c = Command::new("runuser");
                c.args(["-u", "postgres", "--"]).arg(&path);
                c
            } else {
                Command::new(&path)
            };
            let _ = command
                .args(["-D", &data, "-m", "immediate", "-w", "stop"])
                .output();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
