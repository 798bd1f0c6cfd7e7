//! Answers to a browser at an authorize endpoint: redirects back to the client, error pages.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use url::Url;

/// A 302 to `redirect` carrying an OAuth `error` (and the client's `state`).
pub fn redirect_error(redirect: &Url, error: &str, state: Option<&str>) -> Response {
    let mut params = vec![
        ("error", error),
        ("error_description", "simulated authorization error"),
    ];
    params.extend(state.map(|s| ("state", s)));
    redirect_to(redirect, &params)
}

/// A 302 to `base` with `params` appended to whatever query it already has.
pub fn redirect_to(base: &Url, params: &[(&str, &str)]) -> Response {
    let mut url = base.clone();
    url.query_pairs_mut().extend_pairs(params);
    (StatusCode::FOUND, [(header::LOCATION, url.to_string())]).into_response()
}

/// An error page: what a provider shows when it has no trusted place to redirect to.
pub fn page(status: StatusCode, message: &'static str) -> Response {
    (status, message).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_keep_the_existing_query() {
        let base = Url::parse("http://127.0.0.1:9/cb?x=1").unwrap();
        let response = redirect_to(&base, &[("code", "abc"), ("state", "s t")]);
        assert_eq!(response.status(), StatusCode::FOUND);
        let location = response.headers()[header::LOCATION].to_str().unwrap();
        assert_eq!(location, "http://127.0.0.1:9/cb?x=1&code=abc&state=s+t");
    }
}
