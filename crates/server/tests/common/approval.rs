//! What the simulated provider sends the browser back with: the code and the state, read off
//! its redirect to our redirect_uri; and the user id of what a login answers. Shared by the
//! test binaries that play the browser.

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};

#[derive(Debug, Clone)]
pub struct Approval {
    pub code: String,
    pub state: String,
    /// VK ID's device, when the redirect names one: the client passes it in `post_body`.
    pub device_id: Option<String>,
}

/// The authorization URL out of our authorize endpoint's answer (200, JSON): where the
/// browser goes next.
pub async fn authorization_url(response: Response) -> String {
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    body["authorization_url"].as_str().unwrap().to_owned()
}

impl Approval {
    /// The provider's answer to an approved authorization request: a redirect to
    /// `redirect_base` carrying the code and the state.
    pub fn from_redirect(response: &Response, redirect_base: &str) -> Self {
        assert_eq!(
            response.status(),
            StatusCode::FOUND,
            "provider redirects back"
        );
        let location = response.headers()["location"].to_str().unwrap();
        assert!(
            location.starts_with(redirect_base),
            "back to our redirect_uri: {location}"
        );
        let parsed = url::Url::parse(location).unwrap();
        let optional = |name: &str| {
            parsed
                .query_pairs()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.into_owned())
        };
        let param =
            |name: &str| optional(name).unwrap_or_else(|| panic!("redirect carries {name}"));
        Self {
            code: param("code"),
            state: param("state"),
            device_id: optional("device_id"),
        }
    }

    /// The JSON body of a callback or connect.
    pub fn body(&self) -> Value {
        match &self.device_id {
            Some(device) => json!({
                "code": self.code,
                "state": self.state,
                "post_body": {"device_id": device},
            }),
            None => json!({"code": self.code, "state": self.state}),
        }
    }
}

/// The user's id in a login or registration result.
pub fn user_id(login: &Value) -> String {
    login["user"]["id"].as_str().unwrap().to_owned()
}
