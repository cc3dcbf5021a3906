//! One measured phase of a benchmark: `clients` concurrent loops of an operation for a
//! warm-up and a measured window, their count, errors and latencies.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::stats::Latencies;

/// What one phase measured.
pub struct Phase {
    pub ops: u64,
    pub errors: u64,
    pub first_error: Option<String>,
    pub seconds: f64,
    pub latencies: Latencies,
}

impl Phase {
    pub fn empty() -> Self {
        Self {
            ops: 0,
            errors: 0,
            first_error: None,
            seconds: 0.0,
            latencies: Latencies::default(),
        }
    }

    /// Adds another phase's counts (rounds of the same figure).
    pub fn add(&mut self, p: Phase) {
        self.ops += p.ops;
        self.errors += p.errors;
        self.seconds += p.seconds;
        if self.first_error.is_none() {
            self.first_error = p.first_error;
        }
        self.latencies.extend(p.latencies);
    }

    pub fn rate(&self) -> f64 {
        self.ops as f64 / self.seconds.max(1e-9)
    }
}

/// Runs `clients` copies of `op` for warm-up + measured time; only the measured window counts.
pub async fn timed<S, F, Fut>(states: Vec<S>, warmup: Duration, measure: Duration, op: F) -> Phase
where
    S: Send + Sync + 'static,
    F: Fn(Arc<S>, u64) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<(), String>> + Send,
{
    let op = Arc::new(op);
    let start = Instant::now();
    let measure_from = start + warmup;
    let until = measure_from + measure;
    let mut tasks = Vec::new();
    for (client, state) in states.into_iter().enumerate() {
        let op = op.clone();
        let state = Arc::new(state);
        tasks.push(tokio::spawn(async move {
            let mut lat = Latencies::default();
            let (mut ops, mut errors, mut first_error) = (0u64, 0u64, None);
            // Bounded by time, and by count as a safety net.
            for i in 0..50_000_000u64 {
                let t0 = Instant::now();
                if t0 >= until {
                    break;
                }
                let seq = (client as u64) << 40 | i;
                let result = op(state.clone(), seq).await;
                let t1 = Instant::now();
                if t0 >= measure_from && t1 <= until {
                    match result {
                        Ok(()) => {
                            ops += 1;
                            lat.push(t1 - t0);
                        }
                        Err(e) => {
                            errors += 1;
                            first_error.get_or_insert(e);
                        }
                    }
                } else if let Err(e) = result {
                    errors += 1;
                    first_error.get_or_insert(e);
                }
            }
            (ops, errors, first_error, lat)
        }));
    }
    let mut phase = Phase {
        ops: 0,
        errors: 0,
        first_error: None,
        seconds: measure.as_secs_f64(),
        latencies: Latencies::default(),
    };
    for t in tasks {
        if let Ok((ops, errors, first_error, lat)) = t.await {
            phase.ops += ops;
            phase.errors += errors;
            if phase.first_error.is_none() {
                phase.first_error = first_error;
            }
            phase.latencies.extend(lat);
        }
    }
    phase
}

pub fn print_phase(name: &str, p: &Phase) {
    println!(
        "{name:<34} {:>8.0} /s   {}",
        p.rate(),
        p.latencies.summary()
    );
    if p.errors > 0 {
        println!(
            "  {} errors; first: {}",
            p.errors,
            p.first_error.as_deref().unwrap_or("?")
        );
    }
}
