//! The service under test: a real `social-login serve` process, optionally pinned to one
//! core, and how long it took to be ready.

use social_login_test_support::{Launch, ServiceProcess};
use std::ops::Deref;
use std::path::Path;
use std::time::{Duration, Instant};

pub struct Service {
    process: ServiceProcess,
    /// From spawn to the first 200 of `/readyz`.
    pub ready_after: Duration,
}

impl Service {
    /// Starts `binary serve --config config`, pinned to `cpu` when given, and waits until it
    /// answers `/readyz`.
    pub async fn start(binary: &Path, config: &Path, cpu: Option<usize>) -> Result<Self, String> {
        if !binary.exists() {
            return Err(format!(
                "{} does not exist: cargo build --release -p social-login first",
                binary.display()
            ));
        }
        let started = Instant::now();
        let launch = Launch {
            log_filter: "warn,social_login::server=info",
            cpu,
        };
        let process = ServiceProcess::start(binary, config, &launch);
        let http = reqwest::Client::new();
        while !http
            .get(process.url("/readyz"))
            .send()
            .await
            .is_ok_and(|response| response.status().is_success())
        {
            if started.elapsed() > Duration::from_secs(60) {
                return Err("the service was not ready within 60 s".into());
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        Ok(Self {
            process,
            ready_after: started.elapsed(),
        })
    }

    /// Resident memory in MiB.
    pub fn rss_mib(&self) -> f64 {
        self.process.rss_kib() as f64 / 1024.0
    }
}

impl Deref for Service {
    type Target = ServiceProcess;

    fn deref(&self) -> &ServiceProcess {
        &self.process
    }
}

/// The highest resident memory of any instance since it started, in MiB.
pub fn peak_rss_mib(services: &[Service]) -> f64 {
    services
        .iter()
        .map(|service| service.peak_rss_kib() as f64 / 1024.0)
        .fold(0.0, f64::max)
}

/// Heap allocations of every instance together, when they count them.
pub async fn allocations(flows: &crate::flows::Flows, services: &[Service]) -> Option<u64> {
    tokio::time::sleep(crate::allocations::SETTLE).await;
    let mut total = 0;
    for service in services {
        total += crate::allocations::read(&flows.http, &service.url("/metrics")).await?;
    }
    Some(total)
}

/// CPU time of every instance together.
pub fn cpu_time(services: &[Service]) -> Duration {
    services.iter().map(|service| service.cpu_time()).sum()
}
