//! VK ID (docs/providers.md#vk-vk): OAuth 2.1 with PKCE and no client secret. The declaration
//! names its endpoints; the quirks carry the `device_id` VK returns beside the code (the
//! callback's `post_body`, `{"device_id": "..."}`) into the exchange and keep it with the
//! grant for its refreshes, send no secret, and read the user with the token in a form body
//! ([VK ID API](https://id.vk.com/about/business/go/docs/ru/vkid/latest/vk-id/connection/api-description)).

use async_trait::async_trait;
use http::header;
use serde_json::Value;
use social_login_ports::PostBody;
use social_login_provider_core::{ProviderPlan, Quirks, UserinfoCall};
use url::form_urlencoded;

/// VK ID's quirks: the app's client id, which its user call wants in the query.
#[derive(Debug, Clone)]
pub struct VkQuirks {
    client_id: String,
}

impl VkQuirks {
    pub fn new(plan: &ProviderPlan) -> Self {
        Self {
            client_id: plan.settings.client_id.clone(),
        }
    }
}

#[async_trait]
impl Quirks for VkQuirks {
    /// The `device_id` the callback's `post_body` carries.
    fn token_params(&self, post_body: Option<&PostBody>) -> Vec<(&'static str, String)> {
        device_of(post_body)
            .map(|device| vec![("device_id", device)])
            .unwrap_or_default()
    }

    /// The `device_id` again: a refresh needs it, and VK gives it with the code only.
    fn grant_context(&self, post_body: Option<&PostBody>) -> Option<String> {
        device_of(post_body)
    }

    /// The `device_id` the grant was approved on, and a fresh `state`, as VK's SDKs send a
    /// refresh.
    fn refresh_params(&self, device_id: &str) -> Vec<(&'static str, String)> {
        let state = oauth2::CsrfToken::new_random().secret().clone();
        vec![("device_id", device_id.to_owned()), ("state", state)]
    }

    /// No client secret, in the body or a header: VK ID's clients are public.
    fn token_request(&self, mut request: oauth2::HttpRequest) -> oauth2::HttpRequest {
        let kept: Vec<(String, String)> = form_urlencoded::parse(request.body())
            .into_owned()
            .filter(|(name, _)| name != "client_secret")
            .collect();
        *request.body_mut() = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(&kept)
            .finish()
            .into_bytes();
        request.headers_mut().remove(header::AUTHORIZATION);
        request
    }

    /// POST `user_info?client_id=…` with `access_token` in a form body.
    fn userinfo_request(&self, call: UserinfoCall<'_>) -> reqwest::RequestBuilder {
        let mut url = call.url.clone();
        url.query_pairs_mut()
            .append_pair("client_id", &self.client_id);
        call.http
            .reqwest()
            .post(url)
            .form(&[("access_token", call.access_token.expose())])
    }
}

/// The `device_id` in a callback's `post_body`, `{"device_id": "…"}`: printable, and at most
/// 256 characters (it is kept with the grant).
fn device_of(post_body: Option<&PostBody>) -> Option<String> {
    let body = post_body.and_then(|body| serde_json::from_str::<Value>(body.as_json()).ok())?;
    let device = body.get("device_id").and_then(Value::as_str)?;
    let printable = device.chars().all(|c| c.is_ascii_graphic());
    (printable && device.len() <= 256).then(|| device.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refresh_sends_the_kept_device_and_a_state_of_its_own() {
        let quirks = VkQuirks {
            client_id: "5123".into(),
        };
        let kept = quirks.grant_context(Some(&PostBody::new(r#"{"device_id":"dev-1"}"#)));
        assert_eq!(kept.as_deref(), Some("dev-1"));
        let params = quirks.refresh_params("dev-1");
        assert_eq!(params[0], ("device_id", "dev-1".to_owned()));
        assert_eq!(params[1].0, "state");
        assert_ne!(
            params[1].1,
            quirks.refresh_params("dev-1")[1].1,
            "a new state each time"
        );
        let odd = quirks.grant_context(Some(&PostBody::new("{\"device_id\":\"a\\u001fb\"}")));
        assert_eq!(odd, None, "only a printable device is kept");
    }

    #[test]
    fn the_device_id_of_the_callback_goes_into_the_exchange() {
        let quirks = VkQuirks {
            client_id: "5123".into(),
        };
        let body = PostBody::new(r#"{"device_id":"dev-1"}"#);
        assert_eq!(
            quirks.token_params(Some(&body)),
            [("device_id", "dev-1".to_owned())]
        );
        assert!(quirks.token_params(None).is_empty());
    }

    #[test]
    fn no_secret_is_sent() {
        let quirks = VkQuirks {
            client_id: "5123".into(),
        };
        let mut request = http::Request::new(b"code=c&client_id=5123&client_secret=s".to_vec());
        request
            .headers_mut()
            .insert(header::AUTHORIZATION, "Basic abc".parse().unwrap());
        let shaped = quirks.token_request(request);
        assert_eq!(shaped.body(), b"code=c&client_id=5123");
        assert!(!shaped.headers().contains_key(header::AUTHORIZATION));
    }
}
