//! `[webhooks]`: where audit events are delivered (CONTRACT §6). Absent or without `url`:
//! no webhooks, nothing queued.

use super::ConfigErrors;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use social_login_domain::{AuditEventType, EventSet};
use social_login_webhooks::WebhookSecret;
use url::Url;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WebhookSettings {
    /// The receiver (http or https).
    pub url: Option<String>,
    /// `whsec_` + base64 key, shared with the receiver; never logged.
    pub secret: Option<SecretString>,
    /// Event types to deliver; all of them when absent.
    pub events: Option<Vec<String>>,
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

    /// Every problem, each naming its field and never quoting the secret.
    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        let Some(url) = &self.url else {
            if self.secret.is_some() || self.events.is_some() {
                errors.push(
                    "webhooks.url",
                    "required when webhooks.secret or events is set",
                );
            }
            return;
        };
        match Url::parse(url) {
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
        for (index, name) in self.events.iter().flatten().enumerate() {
            if name.parse::<AuditEventType>().is_err() {
                errors.push(
                    format!("webhooks.events[{index}]"),
                    "not an event type (user.registered, user.login, account.linked, \
                     account.unlinked, session.logout, session.refresh_reuse_detected, \
                     user.deleted, provider.revocation_failed)",
                );
            }
        }
    }
}
