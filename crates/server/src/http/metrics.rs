//! Prometheus metrics: one recorder per process, and a middleware that counts requests.

use axum::extract::{MatchedPath, Request};
use axum::http::Method;
use axum::response::Response;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use std::collections::HashMap;
use std::sync::{OnceLock, PoisonError, RwLock};
use std::time::{Duration, Instant};

/// How often the recorder's pending histogram samples are folded into their summaries: the
/// recorder keeps every sample until then, so without it memory grows with each request
/// while nothing scrapes `/metrics` (`build_recorder` spawns no upkeep, unlike the crate's
/// `install`). The crate's own upkeep interval.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);
/// The name of the thread that runs it (at most 15 bytes, Linux's limit).
const UPKEEP_THREAD: &str = "metrics-upkeep";

/// The process-wide recorder's handle. The global recorder can be set once per process,
/// so every app built in it (tests build many) shares this one, and one upkeep thread.
pub fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new().build_recorder();
            let handle = recorder.handle();
            // Fails only if another recorder is installed; then ours just stays empty.
            let _ = metrics::set_global_recorder(recorder);
            spawn_upkeep(handle.clone());
            handle
        })
        .clone()
}

/// Runs the recorder's upkeep every [`UPKEEP_EVERY`] for the life of the process, on a thread
/// of its own: the handle is made once per process, not per runtime.
fn spawn_upkeep(handle: PrometheusHandle) {
    let upkeep = move || {
        loop {
            std::thread::sleep(UPKEEP_EVERY);
            handle.run_upkeep();
        }
    };
    let thread = std::thread::Builder::new().name(UPKEEP_THREAD.to_owned());
    if let Err(error) = thread.spawn(upkeep) {
        tracing::error!(%error, "the metrics upkeep thread did not start");
    }
}

/// Counts requests and their duration by method, route template and status.
///
/// Every label value comes from a fixed set, whatever the client sends: each distinct label
/// set is a series the recorder keeps forever, so a value a client can choose is unbounded
/// memory. Hence the route template (never the raw path) and the method only when it is a
/// standard one (hyper accepts any token as an extension method). The status is the
/// service's own choice.
pub async fn record<F>(request: Request, next: impl FnOnce(Request) -> F) -> Response
where
    F: Future<Output = Response>,
{
    let matched = request.extensions().get::<MatchedPath>().cloned();
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next(request).await;
    let route = matched.as_ref().map_or(UNMATCHED, MatchedPath::as_str);
    let series = series(method, route, response.status().as_u16());
    series.requests.increment(1);
    series.duration.record(started.elapsed().as_secs_f64());
    response
}

/// The handles of one label set (method, route, status).
#[derive(Clone)]
struct Series {
    requests: metrics::Counter,
    duration: metrics::Histogram,
}

/// Registered handles by route, then by method and status. Registering builds a key and
/// its labels on the heap (a score of allocations a request); a handle, once registered,
/// is the same series every time, so each label set registers once per process. The set is
/// as bounded as the recorder's series (see [`record`]). The recorder is the process-wide
/// one, installed before any router exists ([`metrics_handle`]) and never replaced, and it
/// keeps every series (no idle timeout), so a kept handle never goes stale.
type Registered = RwLock<HashMap<String, HashMap<(&'static str, u16), Series>>>;

fn series(method: &'static str, route: &str, status: u16) -> Series {
    static REGISTERED: OnceLock<Registered> = OnceLock::new();
    let registered = REGISTERED.get_or_init(Registered::default);
    let known = registered
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(route)
        .and_then(|by_route| by_route.get(&(method, status)))
        .cloned();
    if let Some(series) = known {
        return series;
    }
    let labels = [
        ("method", method.to_owned()),
        ("route", route.to_owned()),
        ("status", status.to_string()),
    ];
    let series = Series {
        requests: metrics::counter!("http_requests_total", &labels),
        duration: metrics::histogram!("http_request_duration_seconds", &labels),
    };
    registered
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(route.to_owned())
        .or_default()
        .insert((method, status), series.clone());
    series
}

/// The `route` of a request no route matched (404, whatever the path).
const UNMATCHED: &str = "unmatched";

/// The `method` label: the standard method's name, else `other`.
pub(super) fn method_label(method: &Method) -> &'static str {
    const STANDARD: [Method; 9] = [
        Method::GET,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::PATCH,
        Method::HEAD,
        Method::OPTIONS,
        Method::CONNECT,
        Method::TRACE,
    ];
    STANDARD
        .iter()
        .find(|standard| *standard == method)
        .map_or("other", Method::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of this process's threads (Linux: `/proc`).
    #[cfg(target_os = "linux")]
    fn thread_names() -> Vec<String> {
        let tasks = std::fs::read_dir("/proc/self/task").unwrap();
        tasks
            .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
            .map(|name| name.trim_end().to_owned())
            .collect()
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn one_thread_keeps_the_recorders_histograms_drained_however_many_apps_take_the_handle() {
        for _ in 0..3 {
            metrics_handle();
        }
        // A new thread names itself once it runs: wait (boundedly) until it has.
        let upkeep_threads = || {
            let names = thread_names();
            names.iter().filter(|name| *name == UPKEEP_THREAD).count()
        };
        for _ in 0..200 {
            if upkeep_threads() > 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(upkeep_threads(), 1);
    }

    #[test]
    fn standard_methods_keep_their_name() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::DELETE), "DELETE");
    }

    #[test]
    fn any_other_method_is_other() {
        for name in ["MADEUP", "get", "PROPFIND", "X-1234"] {
            let method = Method::from_bytes(name.as_bytes()).unwrap();
            assert_eq!(method_label(&method), "other", "{name}");
        }
    }
}
