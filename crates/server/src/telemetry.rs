//! Logging (JSON lines on stdout, level from `RUST_LOG`, default `info`) and, with
//! `[telemetry] otlp_endpoint`, traces exported over OTLP/HTTP.
//!
//! The traced spans have a target of their own ([`TRACE_TARGET`]): the log never shows them
//! (a log line names the request's span, as before), and without an exporter no layer wants
//! them, so `tracing` does not even build them.

use crate::settings::TelemetrySettings;
use opentelemetry::KeyValue;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{Sampler, SdkTracerProvider};
use social_login_ports::TRACE_TARGET;
use tracing::Subscriber;
use tracing::level_filters::LevelFilter;
use tracing_subscriber::filter::{Targets, filter_fn};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// Installs the global subscriber once; later calls (tests) are no-ops.
pub fn init_logging() {
    init_logging_at("info");
}

/// Like [`init_logging`], with another default level when `RUST_LOG` is unset.
pub fn init_logging_at(default_level: &str) {
    let _ = tracing_subscriber::registry()
        .with(log_filter(default_level, "off"))
        .with(json_log())
        .try_init();
}

/// The log: a JSON object a line, naming the span it happened in (the request's).
fn json_log<S>() -> impl Layer<S>
where
    S: Subscriber + for<'span> LookupSpan<'span>,
{
    tracing_subscriber::fmt::layer()
        .json()
        .with_current_span(true)
        .with_span_list(false)
}

/// Logging as [`init_logging`] does, and the traces `telemetry` asks for. Keep the answer
/// until the process ends: dropping it sends the spans still waiting.
pub fn init(telemetry: &TelemetrySettings) -> Result<Tracing, TelemetryError> {
    let Some(endpoint) = &telemetry.otlp_endpoint else {
        init_logging();
        return Ok(Tracing(None));
    };
    let provider = tracer_provider(endpoint, telemetry)?;
    // The traced spans pass the one filter; then each layer takes its own: the log every
    // other span and event, the exporter those spans alone.
    let logs = json_log().with_filter(filter_fn(|metadata| metadata.target() != TRACE_TARGET));
    // No code location: the transaction spans all start in one helper, and they name
    // their caller's place themselves (`code.*`), which the layer's would duplicate.
    let traces = tracing_opentelemetry::layer()
        .with_location(false)
        .with_tracer(provider.tracer("social-login"))
        .with_filter(Targets::new().with_target(TRACE_TARGET, LevelFilter::INFO));
    let _ = tracing_subscriber::registry()
        .with(log_filter("info", "info"))
        .with(logs)
        .with(traces)
        .try_init();
    Ok(Tracing(Some(provider)))
}

/// `RUST_LOG` (else `default_level`), the traced spans at `traced` whatever it says.
fn log_filter(default_level: &str, traced: &str) -> EnvFilter {
    EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new(default_level))
        .add_directive(
            format!("{TRACE_TARGET}={traced}")
                .parse()
                .expect("the directive parses"),
        )
}

fn tracer_provider(
    endpoint: &str,
    telemetry: &TelemetrySettings,
) -> Result<SdkTracerProvider, TelemetryError> {
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_endpoint(traces_url(endpoint))
        // The timeout is OpenTelemetry's own setting: `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`,
        // else `OTEL_EXPORTER_OTLP_TIMEOUT` (default 10 s).
        .build()
        .map_err(|error| TelemetryError(error.to_string()))?;
    let resource = Resource::builder()
        .with_service_name(telemetry.service_name.clone())
        .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
        .build();
    Ok(SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_sampler(Sampler::ParentBased(Box::new(Sampler::TraceIdRatioBased(
            telemetry.sample_ratio,
        ))))
        .with_resource(resource)
        .build())
}

/// Where OTLP/HTTP takes traces under the collector's base URL.
fn traces_url(endpoint: &str) -> String {
    format!("{}/v1/traces", endpoint.trim_end_matches('/'))
}

/// The exporter could not be built.
#[derive(Debug, thiserror::Error)]
#[error("telemetry: {0}")]
pub struct TelemetryError(String);

/// The installed trace pipeline, if any; dropping it exports what is still queued.
#[must_use = "dropping it stops the traces"]
pub struct Tracing(Option<SdkTracerProvider>);

impl Drop for Tracing {
    fn drop(&mut self) {
        if let Some(provider) = self.0.take()
            && let Err(error) = provider.shutdown()
        {
            eprintln!("telemetry: the last spans were not exported: {error}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traces_go_under_the_base_url() {
        assert_eq!(
            traces_url("http://collector:4318"),
            "http://collector:4318/v1/traces"
        );
        assert_eq!(
            traces_url("https://otel.example/ingest/"),
            "https://otel.example/ingest/v1/traces"
        );
    }
}
