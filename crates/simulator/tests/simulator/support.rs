//! What every provider's tests need: a client like a real one, the RFC 7636 PKCE pair,
//! redirect parsing, JSON answers, unverified JWT claims.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;
use std::collections::HashMap;
use std::time::Duration;

// RFC 7636 appendix B.
pub const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
pub const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

/// A client that does not follow redirects and identifies itself, like a real one.
pub fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent("simulator-tests")
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

pub fn location(response: &reqwest::Response) -> url::Url {
    let location = response.headers()["location"].to_str().unwrap();
    url::Url::parse(location).unwrap()
}

/// The query of a redirect (status 302).
pub fn redirect_query(response: &reqwest::Response) -> HashMap<String, String> {
    assert_eq!(response.status(), 302, "expected a redirect");
    location(response).query_pairs().into_owned().collect()
}

/// Sends a request and returns its status and JSON body (`null` when not JSON).
pub async fn status_and_json(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.unwrap();
    (
        response.status().as_u16(),
        response.json().await.unwrap_or_default(),
    )
}

/// POSTs a form (with HTTP Basic when given) and returns the status and JSON body.
pub async fn post_form(
    url: &str,
    form: &[(&str, &str)],
    basic: Option<(&str, &str)>,
) -> (u16, Value) {
    let mut request = http().post(url).form(form);
    if let Some((id, secret)) = basic {
        request = request.basic_auth(id, Some(secret));
    }
    status_and_json(request).await
}

/// GETs `url` with a Bearer token and returns the status and JSON body.
pub async fn get_bearer(url: &str, token: &str) -> (u16, Value) {
    status_and_json(http().get(url).bearer_auth(token)).await
}

/// The claims of a JWT, unchecked (the adapters' tests check signatures).
pub fn claims_of(jwt: &str) -> Value {
    let payload = jwt.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}
