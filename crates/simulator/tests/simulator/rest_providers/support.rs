//! What every provider's simulator test needs: a client like a real one, redirect parsing.

pub use crate::support::{CHALLENGE, VERIFIER, get_bearer, http, post_form};
use std::collections::HashMap;

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
