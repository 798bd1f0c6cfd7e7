//! What every provider's simulator test needs: a client like a real one, redirect parsing.

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

/// GETs `base` with `params`, expects a redirect, and returns the redirect's query.
pub async fn redirected(base: &str, params: &[(&str, &str)]) -> HashMap<String, String> {
    let url = url::Url::parse_with_params(base, params).unwrap();
    let response = http().get(url).send().await.unwrap();
    assert_eq!(response.status(), 302, "expected a redirect");
    let location = response.headers()["location"].to_str().unwrap();
    url::Url::parse(location)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect()
}

/// POSTs a form and returns the status and JSON body.
pub async fn post_form(
    url: &str,
    form: &[(&str, &str)],
    basic: Option<(&str, &str)>,
) -> (u16, serde_json::Value) {
    let mut request = http().post(url).form(form);
    if let Some((id, secret)) = basic {
        request = request.basic_auth(id, Some(secret));
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or_default())
}

/// GETs `url` with a Bearer token and returns the status and JSON body.
pub async fn get_bearer(url: &str, token: &str) -> (u16, serde_json::Value) {
    let response = http().get(url).bearer_auth(token).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or_default())
}
