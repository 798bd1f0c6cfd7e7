//! The webhook sender: each audit event POSTed as JSON to the configured receiver, with the
//! Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
//!
//! A 2xx answer is a delivery. No answer (a timeout, a refused connection), 429 or any 5xx
//! says the receiver is unavailable; any other status is a refusal of this event. Both
//! are failures the delivery loop retries. Redirects are not followed: a receiver that moved
//! must be reconfigured, not chased.

mod signature;

pub use signature::{SecretError, WebhookSecret};

use async_trait::async_trait;
use social_login_domain::AuditEvent;
use social_login_ports::{DeliveryError, WebhookSender};
use std::time::Duration;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use url::Url;

/// One attempt may take this long, connect included.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);

/// POSTs events to one receiver. `Debug` shows the receiver's origin and path only: its
/// URL may carry a token in its query.
#[derive(Clone)]
pub struct HttpWebhookSender {
    client: reqwest::Client,
    url: Url,
    secret: WebhookSecret,
}

impl std::fmt::Debug for HttpWebhookSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = format!(
            "{}{}",
            self.url.origin().ascii_serialization(),
            self.url.path()
        );
        f.debug_struct("HttpWebhookSender")
            .field("url", &shown)
            .finish_non_exhaustive()
    }
}

impl HttpWebhookSender {
    pub fn new(url: Url, secret: WebhookSecret) -> Result<Self, reqwest::Error> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(DELIVERY_TIMEOUT)
            .timeout(DELIVERY_TIMEOUT)
            .user_agent(concat!(
                "social-login/",
                env!("CARGO_PKG_VERSION"),
                " webhooks"
            ))
            .build()?;
        Ok(Self {
            client,
            url,
            secret,
        })
    }
}

#[async_trait]
impl WebhookSender for HttpWebhookSender {
    async fn send(&self, event: &AuditEvent, now: OffsetDateTime) -> Result<(), DeliveryError> {
        let id = event.id.to_string();
        let timestamp = now.unix_timestamp();
        let body = payload(event);
        let signature = self.secret.sign(&id, timestamp, &body);
        let answer = self
            .client
            .post(self.url.clone())
            .header("content-type", "application/json")
            .header("webhook-id", &id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(body)
            .send()
            .await
            // Without the URL: it may carry a token in its query.
            .map_err(|error| DeliveryError::Unavailable(describe(&error.without_url())))?;
        judge(answer.status())
    }
}

/// What a status says: delivered, the receiver unavailable, or this event refused.
fn judge(status: reqwest::StatusCode) -> Result<(), DeliveryError> {
    match status.as_u16() {
        200..=299 => Ok(()),
        // A 500 is as much an outage as a 503: a receiver whose database is down answers
        // it to every event alike.
        code @ (429 | 500..=599) => Err(DeliveryError::Unavailable(format!(
            "receiver answered {code}"
        ))),
        code => Err(DeliveryError::Refused(code)),
    }
}

fn describe(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        "receiver timed out".to_owned()
    } else if error.is_connect() {
        "could not connect to the receiver".to_owned()
    } else {
        format!("request failed: {error}")
    }
}

/// The JSON body of a delivery: `{"type", "timestamp", "data"}` (docs/api.md#webhooks). An event
/// holds no token or password, so none can be sent.
pub fn payload(event: &AuditEvent) -> String {
    let mut data = serde_json::Map::new();
    data.insert("id".into(), event.id.to_string().into());
    data.insert("user_id".into(), event.user_id.to_string().into());
    let optional = [
        ("provider", event.provider.map(|p| p.as_str().to_owned())),
        ("ip", event.origin.ip.map(|ip| ip.to_string())),
        ("user_agent", event.origin.user_agent().map(str::to_owned)),
        ("request_id", event.origin.request_id().map(str::to_owned)),
        ("via", event.origin.how().map(|via| via.as_str().to_owned())),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            data.insert(key.into(), value.into());
        }
    }
    // What support did with an admin key: which key, by its id (never the key).
    if let Some(key) = event.origin.admin() {
        data.insert("actor".into(), "admin".into());
        data.insert("key_id".into(), key.to_string().into());
    }
    serde_json::json!({
        "type": event.kind.as_str(),
        "timestamp": event.created_at.format(&Rfc3339).unwrap_or_default(),
        "data": data,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::StatusCode;
    use social_login_domain::{AdminKeyId, AuditEventId, AuditEventType, Origin, UserId};

    fn event(origin: Origin) -> AuditEvent {
        AuditEvent {
            id: AuditEventId::new(),
            kind: AuditEventType::UserLocked,
            user_id: UserId::new(),
            provider: None,
            origin,
            created_at: OffsetDateTime::UNIX_EPOCH,
        }
    }

    #[test]
    fn debug_shows_the_receiver_without_its_query_or_the_secret() {
        let url = Url::parse("https://hooks.example/in?token=hook-token-value").unwrap();
        let secret = WebhookSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        let shown = format!("{:?}", HttpWebhookSender::new(url, secret).unwrap());
        assert!(shown.contains("https://hooks.example/in"), "{shown}");
        assert!(
            !shown.contains("hook-token-value") && !shown.contains("MfKQ9r8G"),
            "{shown}"
        );
    }

    #[test]
    fn what_support_did_names_the_admin_and_its_key_id_and_nothing_else_does() {
        let key = AdminKeyId::of_digest(&[0xab; 32]);
        let by_admin: serde_json::Value =
            serde_json::from_str(&payload(&event(Origin::default().by_admin(key)))).unwrap();
        assert_eq!(by_admin["type"], "user.locked");
        assert_eq!(by_admin["data"]["actor"], "admin");
        assert_eq!(by_admin["data"]["key_id"], "abababab");
        let by_user: serde_json::Value =
            serde_json::from_str(&payload(&event(Origin::default()))).unwrap();
        assert!(by_user["data"].get("actor").is_none());
        assert!(by_user["data"].get("key_id").is_none());
        assert!(by_user["data"].get("via").is_none());
        let via = Origin::default().via(social_login_domain::Via::LinkToken);
        let confirmed: serde_json::Value = serde_json::from_str(&payload(&event(via))).unwrap();
        assert_eq!(confirmed["data"]["via"], "link_token");
    }

    #[test]
    fn a_2xx_is_delivered_a_busy_or_failing_receiver_is_unavailable_and_the_rest_refuse() {
        assert_eq!(judge(StatusCode::NO_CONTENT), Ok(()));
        for busy in [429, 500, 501, 502, 503, 504, 599] {
            let status = StatusCode::from_u16(busy).unwrap();
            assert!(matches!(judge(status), Err(DeliveryError::Unavailable(_))));
        }
        for refused in [301, 400, 403, 404, 413, 422] {
            let status = StatusCode::from_u16(refused).unwrap();
            assert_eq!(judge(status), Err(DeliveryError::Refused(refused)));
        }
    }
}
