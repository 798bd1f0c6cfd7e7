//! `/metrics` label values come from a fixed set whatever clients send: made-up methods and
//! paths create no series, so an unauthenticated flood cannot grow the server's memory.

use crate::process::ServerProcess;
use std::collections::BTreeSet;

const MADE_UP_REQUESTS: usize = 5_000;
const WARM_UP_REQUESTS: usize = 500;
const CONCURRENCY: usize = 8;
/// Growth allowed across the made-up requests. Measured: about 0.1 MiB now; 9.4 MiB when
/// every method was a label (a series of a counter and a histogram each).
const MAX_RSS_GROWTH_KIB: u64 = 3 * 1024;

/// Sends request `i` for every `i` in `0..count` over `CONCURRENCY` tasks sharing one
/// connection pool, and returns once all are answered.
async fn send_all(base: &str, count: usize, request: fn(usize) -> (reqwest::Method, String)) {
    let client = reqwest::Client::new();
    let mut tasks = tokio::task::JoinSet::new();
    for worker in 0..CONCURRENCY {
        let client = client.clone();
        let base = base.to_owned();
        tasks.spawn(async move {
            for index in (worker..count).step_by(CONCURRENCY) {
                let (method, path) = request(index);
                let response = client
                    .request(method, format!("{base}{path}"))
                    .send()
                    .await
                    .expect("the server answers");
                assert!(
                    response.status().is_client_error(),
                    "{path}: {}",
                    response.status()
                );
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.expect("request task");
    }
}

/// Distinct values of `label` on the `http_requests_total` lines of a Prometheus text page.
fn label_values(metrics: &str, label: &str) -> BTreeSet<String> {
    let needle = format!("{label}=\"");
    metrics
        .lines()
        .filter(|line| line.starts_with("http_requests_total{"))
        .filter_map(|line| {
            let start = line.find(&needle)? + needle.len();
            let length = line[start..].find('"')?;
            Some(line[start..start + length].to_owned())
        })
        .collect()
}

#[tokio::test]
async fn made_up_methods_and_paths_add_no_metric_series_and_no_memory() {
    let server = ServerProcess::start("[rate_limit]\nenabled = false\n");
    // Known methods on a known route (405) and on unknown paths (404): the series that exist
    // anyway, and the allocator's steady state.
    send_all(server.base(), WARM_UP_REQUESTS, |index| {
        let method = if index % 2 == 0 {
            reqwest::Method::PUT
        } else {
            reqwest::Method::DELETE
        };
        (method, format!("/warm-up-{index}"))
    })
    .await;
    send_all(server.base(), WARM_UP_REQUESTS, |_| {
        (reqwest::Method::PATCH, "/healthz".to_owned())
    })
    .await;
    let before = server.rss_kib();

    send_all(server.base(), MADE_UP_REQUESTS, |index| {
        let method = reqwest::Method::from_bytes(format!("MADEUP{index}").as_bytes()).unwrap();
        let path = if index % 2 == 0 {
            "/healthz".to_owned()
        } else {
            format!("/no-such-path/{index}")
        };
        (method, path)
    })
    .await;
    let after = server.rss_kib();

    let metrics = reqwest::get(server.url("/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let growth = after.saturating_sub(before);
    let methods = label_values(&metrics, "method");
    assert!(
        methods.len() <= 10,
        "{} distinct method labels, e.g. {:?}; RSS grew by {growth} KiB",
        methods.len(),
        methods.iter().take(5).collect::<Vec<_>>()
    );
    assert!(
        methods.contains("other"),
        "made-up methods count as other: {methods:?}"
    );
    let routes = label_values(&metrics, "route");
    assert!(
        routes
            .iter()
            .all(|route| !route.contains("no-such-path") && !route.contains("warm-up")),
        "route labels are templates: {routes:?}"
    );
    assert!(routes.len() <= 20, "route labels: {routes:?}");
    let statuses = label_values(&metrics, "status");
    assert!(statuses.len() <= 5, "status labels: {statuses:?}");
    assert!(
        growth <= MAX_RSS_GROWTH_KIB,
        "RSS grew by {growth} KiB ({before} → {after}) over {MADE_UP_REQUESTS} made-up requests"
    );
}
