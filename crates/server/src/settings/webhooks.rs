//! `[webhooks]`: where audit events are delivered (docs/configuration.md), and the bounds of
//! delivery. Absent or without `url`: no webhooks, nothing queued.

use super::ConfigErrors;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use social_login_app::{DeliveryLimits, DeliveryPace};
use social_login_domain::{AuditEventType, EventSet};
use social_login_provider_core::settings_check::NO_CONTROL;
use social_login_webhooks::WebhookSecret;
use std::ops::RangeInclusive;
use url::Url;

/// The accepted ranges of the bounds.
pub const MAX_CONCURRENT_DELIVERIES: RangeInclusive<u32> = 1..=64;
pub const MAX_ATTEMPTS: RangeInclusive<u32> = 1..=100;
pub const MAX_PENDING: RangeInclusive<u64> = 1..=10_000_000;

#[derive(derive_more::Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WebhookSettings {
    /// The receiver (http or https); `Debug` leaves out its query, which may carry a token.
    #[debug("{:?}", url.as_deref().map(super::redact::url_without_query))]
    pub url: Option<String>,
    /// `whsec_` + base64 key, shared with the receiver; never logged.
    pub secret: Option<SecretString>,
    /// Event types to deliver; all of them when absent.
    pub events: Option<Vec<String>>,
    /// Deliveries in flight at once, per instance.
    pub max_concurrent_deliveries: u32,
    /// Failed attempts before an event becomes a dead letter (3 days without delivery does
    /// too); probes of a receiver that is away do not count.
    pub max_attempts: u32,
    /// Events waiting for delivery; beyond it the oldest become dead letters.
    pub max_pending: u64,
    /// Never read from the configuration: the defaults, or the same schedule faster for
    /// tests of a whole server.
    #[serde(skip)]
    pub pace: DeliveryPace,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        let limits = DeliveryLimits::default();
        Self {
            url: None,
            secret: None,
            events: None,
            max_concurrent_deliveries: limits.max_concurrent,
            max_attempts: limits.max_attempts,
            max_pending: limits.max_pending,
            pace: limits.pace,
        }
    }
}

/// A configured receiver, checked.
#[derive(Debug, Clone)]
pub struct WebhookTarget {
    pub url: Url,
    pub secret: WebhookSecret,
    pub events: EventSet,
}

impl WebhookSettings {
    /// The receiver, if one is configured and valid (validation reports why not).
    pub fn target(&self) -> Option<WebhookTarget> {
        let url = Url::parse(self.url.as_deref()?).ok()?;
        let secret = WebhookSecret::parse(self.secret.as_ref()?.expose_secret()).ok()?;
        let events = match &self.events {
            None => EventSet::all(),
            Some(names) => names
                .iter()
                .map(|name| name.parse::<AuditEventType>())
                .collect::<Result<EventSet, _>>()
                .ok()?,
        };
        Some(WebhookTarget {
            url,
            secret,
            events,
        })
    }

    /// The bounds and the pace of delivery.
    pub fn limits(&self) -> DeliveryLimits {
        DeliveryLimits {
            max_concurrent: self.max_concurrent_deliveries,
            max_attempts: self.max_attempts,
            max_pending: self.max_pending,
            pace: self.pace,
        }
    }

    /// Every problem, each naming its field and never quoting the secret.
    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        let bounds = [
            (
                "webhooks.max_concurrent_deliveries",
                u64::from(self.max_concurrent_deliveries),
                widen(&MAX_CONCURRENT_DELIVERIES),
            ),
            (
                "webhooks.max_attempts",
                u64::from(self.max_attempts),
                widen(&MAX_ATTEMPTS),
            ),
            ("webhooks.max_pending", self.max_pending, MAX_PENDING),
        ];
        for (field, value, range) in bounds {
            if !range.contains(&value) {
                errors.push(
                    field,
                    format!("must be between {} and {}", range.start(), range.end()),
                );
            }
        }
        let Some(url) = &self.url else {
            if self.secret.is_some() || self.events.is_some() {
                errors.push(
                    "webhooks.url",
                    "required when webhooks.secret or events is set",
                );
            }
            return;
        };
        // The URL parser drops tabs and newlines without a word: refuse them before it does.
        match Url::parse(url) {
            _ if url.chars().any(char::is_control) => errors.push("webhooks.url", NO_CONTROL),
            Ok(url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => {}
            _ => errors.push("webhooks.url", "must be an http:// or https:// URL"),
        }
        match &self.secret {
            None => errors.push(
                "webhooks.secret",
                "required with webhooks.url (whsec_ followed by a base64 key of 24 to 64 bytes)",
            ),
            Some(secret) => {
                if let Err(why) = WebhookSecret::parse(secret.expose_secret()) {
                    errors.push("webhooks.secret", why.to_string());
                }
            }
        }
        if self.events.as_ref().is_some_and(Vec::is_empty) {
            // An unset template variable, most likely: nothing would ever be delivered.
            errors.push(
                "webhooks.events",
                "lists no event type (leave it out to deliver every type)",
            );
        }
        for (index, name) in self.events.iter().flatten().enumerate() {
            if name.parse::<AuditEventType>().is_err() {
                let known: Vec<&str> = AuditEventType::ALL.map(AuditEventType::as_str).into();
                errors.push(
                    format!("webhooks.events[{index}]"),
                    format!("not an event type ({})", known.join(", ")),
                );
            }
        }
    }
}

fn widen(range: &RangeInclusive<u32>) -> RangeInclusive<u64> {
    u64::from(*range.start())..=u64::from(*range.end())
}

#[cfg(test)]
mod tests {
    use crate::settings::Settings;

    const SECRET: &str = "kQ7v9Xw2Lr4Tz8Pn3Hs6Jd1Fg5Bm0Yc8uVa2NeRq4Wt7Zi";

    fn load(webhooks: &str) -> Settings {
        Settings::from_toml(&format!(
            "secret_key = \"{SECRET}\"\n[webhooks]\n{webhooks}"
        ))
        .unwrap()
    }

    #[test]
    fn the_delivery_bounds_default_to_eight_at_once_twenty_attempts_and_100000_pending() {
        let limits = load("").webhooks.limits();
        assert_eq!(
            (
                limits.max_concurrent,
                limits.max_attempts,
                limits.max_pending
            ),
            (8, 20, 100_000)
        );
        let tuned = load("max_concurrent_deliveries = 2\nmax_attempts = 5\nmax_pending = 10\n");
        tuned.validate().unwrap();
        let limits = tuned.webhooks.limits();
        assert_eq!(
            (
                limits.max_concurrent,
                limits.max_attempts,
                limits.max_pending
            ),
            (2, 5, 10)
        );
    }

    #[test]
    fn a_delivery_bound_out_of_its_range_is_named() {
        for (field, value) in [
            ("max_concurrent_deliveries", "0"),
            ("max_concurrent_deliveries", "65"),
            ("max_attempts", "0"),
            ("max_attempts", "101"),
            ("max_pending", "0"),
            ("max_pending", "10000001"),
        ] {
            let problems = load(&format!("{field} = {value}\n"))
                .validate()
                .unwrap_err()
                .to_string();
            assert!(
                problems.contains(&format!("webhooks.{field}")) && problems.contains("between"),
                "{field} = {value}: {problems}"
            );
        }
        assert!(
            Settings::from_toml(&format!(
                "secret_key = \"{SECRET}\"\n[webhooks]\nretries = 3\n"
            ))
            .is_err()
        );
    }
}
