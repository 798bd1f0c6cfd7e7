//! `GET /google/o/oauth2/v2/auth`: checks the request the way Google does, auto-approves as
//! the chosen identity and redirects back with a code.

use super::split_scopes;
use crate::authorize_query::AuthorizeQuery;
use crate::browser::{page, redirect_error, redirect_to};
use crate::codes::Grant;
use crate::config::Provider;
use crate::lock::locked;
use crate::pkce::{is_s256_challenge, is_valid_verifier};
use crate::state::SimState;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use std::sync::Arc;
use url::Url;

pub async fn authorize(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(query): Query<AuthorizeQuery>,
) -> Response {
    let record = query.record(Provider::Google, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };

    // Google shows an error page (never a redirect) for an unknown client or callback.
    let Some(client) = query
        .client_id
        .as_deref()
        .and_then(|id| sim.client(Provider::Google, id))
    else {
        let response = page(StatusCode::UNAUTHORIZED, "Error 401: invalid_client");
        return sim.finish(record, "invalid_client", response);
    };
    // Google compares the redirect URI exactly with a registered one; it is required.
    let redirect = query
        .redirect_uri
        .as_deref()
        .filter(|raw| client.redirect_uris.iter().any(|r| r == raw))
        .and_then(|raw| Url::parse(raw).ok());
    let Some(redirect) = redirect else {
        let response = page(StatusCode::BAD_REQUEST, "Error 400: redirect_uri_mismatch");
        return sim.finish(record, "redirect_uri_mismatch", response);
    };
    let state = query.state.as_deref();
    let refuse = |error: &str| redirect_error(&redirect, error, state);
    if query.response_type.as_deref() != Some("code") {
        let outcome = "unsupported_response_type";
        return sim.finish(record, outcome, refuse(outcome));
    }
    let scopes = split_scopes(query.scope.as_deref());
    if scopes.is_empty() || !pkce_request_ok(&query) {
        return sim.finish(record, "invalid_request", refuse("invalid_request"));
    }
    if query.sim_deny.is_some() {
        return sim.finish(record, "access_denied", refuse("access_denied"));
    }

    let hint = query.sim_user.as_deref().or(query.login_hint.as_deref());
    let Some(user) = locked(&sim.directory).choose(hint) else {
        let response = page(StatusCode::BAD_REQUEST, "no such simulated user");
        return sim.finish(record, "unknown_user", response);
    };
    let code = sim.codes.issue(Grant {
        provider: Provider::Google,
        client_id: client.client_id.clone(),
        redirect_uri: redirect.to_string(),
        code_challenge: query.code_challenge.clone(),
        code_challenge_method: query.code_challenge_method.clone(),
        scopes,
        nonce: query.nonce.clone(),
        user,
    });
    let mut params = vec![("code", code.as_str())];
    params.extend(state.map(|s| ("state", s)));
    sim.finish(record, "ok", redirect_to(&redirect, &params))
}

/// Google supports `S256` and `plain` (the default when no method is named); a challenge
/// is optional.
fn pkce_request_ok(query: &AuthorizeQuery) -> bool {
    let Some(challenge) = query.code_challenge.as_deref() else {
        return query.code_challenge_method.is_none();
    };
    match query.code_challenge_method.as_deref() {
        Some("S256") => is_s256_challenge(challenge),
        Some("plain") | None => is_valid_verifier(challenge),
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(challenge: Option<&str>, method: Option<&str>) -> AuthorizeQuery {
        AuthorizeQuery {
            code_challenge: challenge.map(Into::into),
            code_challenge_method: method.map(Into::into),
            ..AuthorizeQuery::default()
        }
    }

    #[test]
    fn s256_plain_and_no_challenge_are_accepted() {
        let s256 = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(pkce_request_ok(&query(Some(s256), Some("S256"))));
        let plain = "a-plain-verifier-that-is-long-enough-0123456789";
        assert!(pkce_request_ok(&query(Some(plain), Some("plain"))));
        assert!(pkce_request_ok(&query(Some(plain), None)));
        assert!(pkce_request_ok(&query(None, None)));
    }

    #[test]
    fn unknown_methods_and_malformed_challenges_are_refused() {
        assert!(!pkce_request_ok(&query(Some("short"), Some("S256"))));
        assert!(!pkce_request_ok(&query(Some("short"), Some("plain"))));
        let s256 = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(!pkce_request_ok(&query(Some(s256), Some("S512"))));
        assert!(!pkce_request_ok(&query(None, Some("S256"))));
    }
}
