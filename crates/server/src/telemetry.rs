//! Logging: JSON lines on stdout, level from `RUST_LOG` (default `info`).

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; later calls (tests) are no-ops.
pub fn init_logging() {
    init_logging_at("info");
}

/// Like [`init_logging`], with another default level when `RUST_LOG` is unset.
pub fn init_logging_at(default_level: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_level));
    let _ = tracing_subscriber::fmt()
        .json()
        .with_current_span(true)
        .with_span_list(false)
        .with_env_filter(filter)
        .try_init();
}
