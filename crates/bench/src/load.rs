//! Driving operations at a fixed concurrency, bounded in count and time, and what came of it.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What one run measured, from the client side.
pub struct Outcome {
    pub completed: usize,
    pub failed: usize,
    pub elapsed: Duration,
    /// Sorted latencies of the completed operations.
    pub latencies: Vec<Duration>,
}

impl Outcome {
    pub fn ops_per_second(&self) -> f64 {
        self.completed as f64 / self.elapsed.as_secs_f64().max(f64::EPSILON)
    }

    /// The latency below which `fraction` of the operations completed.
    pub fn percentile(&self, fraction: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let rank = ((self.latencies.len() as f64 - 1.0) * fraction).round() as usize;
        self.latencies[rank.min(self.latencies.len() - 1)]
    }
}

/// Runs `operation(i)` for i in 0..count with `concurrency` in flight, stopping early at
/// `deadline`. An operation returns whether it succeeded.
pub async fn drive<F, Fut>(
    concurrency: usize,
    count: usize,
    deadline: Duration,
    operation: F,
) -> Outcome
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = bool> + Send,
{
    let operation = Arc::new(operation);
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let workers: Vec<_> = (0..concurrency.max(1))
        .map(|_| {
            let (operation, next) = (operation.clone(), next.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut failed = 0;
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count || started.elapsed() >= deadline {
                        break;
                    }
                    let began = Instant::now();
                    if operation(index).await {
                        latencies.push(began.elapsed());
                    } else {
                        failed += 1;
                    }
                }
                (latencies, failed)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut failed = 0;
    for worker in workers {
        let (mine, my_failures) = worker.await.expect("a load worker panicked");
        latencies.extend(mine);
        failed += my_failures;
    }
    let elapsed = started.elapsed();
    latencies.sort_unstable();
    Outcome {
        completed: latencies.len(),
        failed,
        elapsed,
        latencies,
    }
}
