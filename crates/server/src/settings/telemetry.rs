//! `[telemetry]`: traces exported over OTLP/HTTP (docs/configuration.md#telemetry).

use super::ConfigErrors;
use super::proxies::{check_proxy_networks, checked_proxy_networks};
use super::redact::redact_url_password;
use super::validate::check_url;
use ipnet::IpNet;
use serde::Deserialize;

/// `[telemetry]`. Off unless `otlp_endpoint` is set.
#[derive(derive_more::Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TelemetrySettings {
    /// The collector's OTLP/HTTP base URL (`http://collector:4318`); traces go to
    /// `{otlp_endpoint}/v1/traces`. Unset: no span is made.
    #[debug("{:?}", otlp_endpoint.as_deref().map(redact_url_password))]
    pub otlp_endpoint: Option<String>,
    /// `service.name` of the exported resource.
    pub service_name: String,
    /// The share of new traces kept (a trace begun by a trusted caller keeps its decision).
    pub sample_ratio: f64,
    /// The peers (IP addresses or CIDRs) whose W3C `traceparent` continues their trace;
    /// anyone else's starts a new one, so a stranger cannot join or flood a trace.
    pub traceparent_from: Vec<String>,
}

impl Default for TelemetrySettings {
    fn default() -> Self {
        Self {
            otlp_endpoint: None,
            service_name: "social-login".to_owned(),
            sample_ratio: 1.0,
            traceparent_from: Vec::new(),
        }
    }
}

impl TelemetrySettings {
    /// The `traceparent_from` networks, in order (validated settings).
    pub fn traceparent_networks(&self) -> impl Iterator<Item = IpNet> + '_ {
        checked_proxy_networks(&self.traceparent_from)
    }

    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        if let Some(endpoint) = &self.otlp_endpoint {
            check_url(
                errors,
                "telemetry.otlp_endpoint",
                endpoint,
                &["http", "https"],
            );
        }
        if self.service_name.trim().is_empty() || self.service_name.len() > 128 {
            errors.push("telemetry.service_name", "must be 1 to 128 characters");
        }
        if !(0.0..=1.0).contains(&self.sample_ratio) {
            errors.push("telemetry.sample_ratio", "must be between 0 and 1");
        }
        check_proxy_networks(errors, "telemetry.traceparent_from", &self.traceparent_from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(settings: &TelemetrySettings) -> Vec<String> {
        let mut errors = ConfigErrors::default();
        settings.check(&mut errors);
        match errors.into_result() {
            Ok(()) => Vec::new(),
            Err(errors) => errors.problems().iter().map(|p| p.field.clone()).collect(),
        }
    }

    #[test]
    fn off_by_default_and_valid() {
        let settings = TelemetrySettings::default();
        assert_eq!(settings.otlp_endpoint, None);
        assert!(problems(&settings).is_empty());
    }

    #[test]
    fn each_bad_field_is_named() {
        let settings = TelemetrySettings {
            otlp_endpoint: Some("grpc://collector:4317".into()),
            service_name: " ".into(),
            sample_ratio: 1.5,
            traceparent_from: vec!["10.0.0.0/8".into(), "ten".into()],
        };
        assert_eq!(
            problems(&settings),
            [
                "telemetry.otlp_endpoint",
                "telemetry.service_name",
                "telemetry.sample_ratio",
                "telemetry.traceparent_from[1]",
            ]
        );
    }

    #[test]
    fn the_endpoints_password_never_shows_in_debug() {
        let settings = TelemetrySettings {
            otlp_endpoint: Some("https://otel:hunter2-secret@collector:4318".into()),
            ..TelemetrySettings::default()
        };
        let shown = format!("{settings:?}");
        assert!(!shown.contains("hunter2-secret"), "{shown}");
        assert!(shown.contains("collector:4318"), "{shown}");
    }
}
