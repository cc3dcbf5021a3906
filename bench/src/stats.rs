//! Latency percentiles, process memory, and the machine description printed first.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::db::Server;

/// Latencies in microseconds; percentiles by nearest rank over the sorted samples.
#[derive(Default, Clone)]
pub struct Latencies {
    micros: Vec<u64>,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Summary {
    pub n: usize,
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: f64,
    pub mean: f64,
}

impl Latencies {
    pub fn push(&mut self, d: Duration) {
        self.micros
            .push(u64::try_from(d.as_micros()).unwrap_or(u64::MAX));
    }

    pub fn extend(&mut self, other: Latencies) {
        self.micros.extend(other.micros);
    }

    pub fn len(&self) -> usize {
        self.micros.len()
    }

    /// In milliseconds.
    pub fn summary(&self) -> Summary {
        let mut v = self.micros.clone();
        v.sort_unstable();
        let n = v.len();
        if n == 0 {
            return Summary::default();
        }
        let rank = |p: f64| {
            let idx = ((p * n as f64).ceil() as usize).clamp(1, n) - 1;
            v[idx] as f64 / 1000.0
        };
        Summary {
            n,
            p50: rank(0.50),
            p95: rank(0.95),
            p99: rank(0.99),
            max: v[n - 1] as f64 / 1000.0,
            mean: v.iter().sum::<u64>() as f64 / n as f64 / 1000.0,
        }
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "n={:<6} mean {:>7.2} p50 {:>7.2} p95 {:>7.2} p99 {:>7.2} max {:>7.2} ms",
            self.n, self.mean, self.p50, self.p95, self.p99, self.max
        )
    }
}

/// A field of /proc/<pid>/status in KiB (VmRSS, VmHWM); `None` for pid: this process.
pub fn proc_status_kib(pid: Option<u32>, field: &str) -> Option<u64> {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/status"),
        None => "/proc/self/status".to_string(),
    };
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

pub fn rss_mib(pid: Option<u32>) -> f64 {
    proc_status_kib(pid, "VmRSS").unwrap_or(0) as f64 / 1024.0
}

/// Resets VmHWM to the current RSS (Linux: write 5 to /proc/<pid>/clear_refs).
pub fn reset_hwm(pid: Option<u32>) -> bool {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/clear_refs"),
        None => "/proc/self/clear_refs".to_string(),
    };
    std::fs::write(path, "5").is_ok()
}

pub fn hwm_mib(pid: Option<u32>) -> f64 {
    proc_status_kib(pid, "VmHWM").unwrap_or(0) as f64 / 1024.0
}

/// Samples the VmRSS of a process every 5 ms on its own thread and keeps the maximum.
pub struct RssSampler {
    stop: Arc<AtomicBool>,
    peak_kib: Arc<AtomicU64>,
    samples: Arc<AtomicU64>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl RssSampler {
    pub fn start(pid: Option<u32>) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let peak_kib = Arc::new(AtomicU64::new(proc_status_kib(pid, "VmRSS").unwrap_or(0)));
        let samples = Arc::new(AtomicU64::new(0));
        let handle = {
            let (stop, peak_kib, samples) = (stop.clone(), peak_kib.clone(), samples.clone());
            std::thread::spawn(move || {
                // Bounded: at most 30 minutes of samples.
                for _ in 0..(30 * 60 * 200) {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if let Some(kib) = proc_status_kib(pid, "VmRSS") {
                        peak_kib.fetch_max(kib, Ordering::Relaxed);
                        samples.fetch_add(1, Ordering::Relaxed);
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            })
        };
        Self {
            stop,
            peak_kib,
            samples,
            handle: Some(handle),
        }
    }

    /// Stops sampling; answers (peak RSS in MiB, number of samples).
    pub fn finish(mut self) -> (f64, u64) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
        (
            self.peak_kib.load(Ordering::Relaxed) as f64 / 1024.0,
            self.samples.load(Ordering::Relaxed),
        )
    }
}

/// The 1-, 5- and 15-minute load averages (other work on the machine shows here).
pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "?".into())
}

pub fn header(title: &str) {
    println!(
        "\n=== {title} {}",
        "=".repeat(70usize.saturating_sub(title.len()))
    );
    println!("load average at start: {}", loadavg());
}

fn first_line(path: &str, prefix: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()?
        .lines()
        .find(|l| l.starts_with(prefix))
        .map(|l| l.split_once(':').map_or(l, |(_, v)| v).trim().to_string())
}

/// Date, machine, build and database settings: what docs/benchmarks.md records.
pub async fn print_machine(server: &Server) {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = first_line("/proc/cpuinfo", "model name").unwrap_or_else(|| "?".into());
    let mem = first_line("/proc/meminfo", "MemTotal").unwrap_or_else(|| "?".into());
    println!(
        "clearway-bench {} ({} build) at {}",
        env!("CARGO_PKG_VERSION"),
        if cfg!(debug_assertions) {
            "DEBUG"
        } else {
            "release"
        },
        chrono::Utc::now().format("%Y-%m-%d %H:%M:%S UTC")
    );
    println!("machine: {cpus} CPUs ({model}), memory {mem}");
    match server.settings().await {
        Ok(settings) => {
            let line: Vec<String> = settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
            println!("postgres: {}", line.join(" "));
        }
        Err(e) => println!("postgres: settings unavailable ({e})"),
    }
}

/// A ratio as a percentage, guarding against an empty denominator.
pub fn percent(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        100.0 * part / whole
    } else {
        0.0
    }
}

pub fn verdict(ok: bool) -> &'static str {
    if ok { "MET" } else { "NOT MET" }
}

static RECORDS: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// Keeps a headline figure for the closing summary.
pub fn record(key: &str, value: impl std::fmt::Display) {
    if let Ok(mut r) = RECORDS.lock() {
        r.push((key.to_string(), value.to_string()));
    }
}

/// Prints every recorded headline figure, one `key value` per line.
pub fn print_records() {
    if let Ok(r) = RECORDS.lock()
        && !r.is_empty()
    {
        header("summary");
        for (k, v) in r.iter() {
            println!("{k:<40} {v}");
        }
    }
}
