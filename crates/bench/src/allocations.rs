//! Heap allocations of the service, counted.
//!
//! The service under test is a separate process, so counting in the benchmark's own
//! allocator would count the client and the simulator. Instead this binary can *be* the
//! service: `social-login-bench serve --config …` runs the real service (the same
//! `social_login::cli`) under this binary's counting allocator, and publishes the count as
//! the gauge [`GAUGE`] on its own `/metrics`, which the benchmark reads before and after
//! each run (`--count-allocations`). Counting costs a few atomic additions per allocation,
//! so CPU figures come from runs of the plain `social-login` binary.

use clap::Parser;
use social_login::cli::{Cli, run};
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};
use std::alloc::System;
use std::process::ExitCode;
use std::time::Duration;

#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The gauge on `/metrics` that holds the allocations so far (allocations and reallocations:
/// each is a call into malloc).
pub const GAUGE: &str = "bench_heap_allocations_total";
/// How often the served process copies its count into the gauge; the benchmark waits
/// [`SETTLE`] before it reads, so the gauge has caught up.
const PUBLISH_EVERY: Duration = Duration::from_millis(5);
pub const SETTLE: Duration = Duration::from_millis(25);

/// Whether the command line asks this binary to be the service (`serve …`).
pub fn is_service_command() -> bool {
    std::env::args().nth(1).as_deref() == Some("serve")
}

/// Runs the service, as `social-login serve` does, with the count published.
pub async fn serve() -> ExitCode {
    std::thread::spawn(|| {
        loop {
            let stats = INSTRUMENTED_SYSTEM.stats();
            metrics::gauge!(GAUGE).set((stats.allocations + stats.reallocations) as f64);
            std::thread::sleep(PUBLISH_EVERY);
        }
    });
    run(Cli::parse()).await
}

/// The count a service published, if it publishes one (a plain `social-login` does not).
pub async fn read(http: &reqwest::Client, metrics_url: &str) -> Option<u64> {
    let body = http.get(metrics_url).send().await.ok()?.text().await.ok()?;
    body.lines().find_map(|line| {
        let value = line.strip_prefix(GAUGE)?.trim();
        value.parse::<f64>().ok().map(|count| count as u64)
    })
}
