//! The API's token check: the access token a request presents, in a Bearer header or the
//! query, must be a live one of this provider (the same store the user endpoints read, so
//! revocation, grant revocation and expiry end it here too).

use super::answers::refusal;
use crate::config::Provider;
use crate::flow::{Refusal, bearer};
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};

/// The query parameters a token may come in (Yandex's `oauth_token`).
const QUERY_NAMES: [&str; 2] = ["access_token", "oauth_token"];

/// What the presented token grants, or the 401 that answers instead.
pub fn holder(sim: &SimState, provider: Provider, parts: &Parts) -> Result<IssuedToken, Refusal> {
    presented(parts)
        .and_then(|token| sim.tokens.get(token.trim()))
        .filter(|issued| issued.provider == provider)
        .ok_or_else(invalid_token)
}

/// The Bearer token of the `Authorization` header, else the query's.
fn presented(parts: &Parts) -> Option<String> {
    if let Some(token) = bearer(&parts.headers, &["Bearer"]) {
        return Some(token.to_owned());
    }
    let query = parts.uri.query().unwrap_or_default();
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(name, _)| QUERY_NAMES.contains(&name.as_ref()))
        .map(|(_, token)| token.into_owned())
}

fn invalid_token() -> Refusal {
    let mut refusal = refusal(
        StatusCode::UNAUTHORIZED,
        "invalid_token",
        "The access token is missing, unknown, expired or revoked",
    );
    let challenge = HeaderValue::from_static(r#"Bearer error="invalid_token""#);
    refusal
        .response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, challenge);
    refusal
}
