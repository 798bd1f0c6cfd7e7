//! `GET /facebook/{version}/dialog/oauth`: the login dialog. Checks the app and the exact
//! redirect URI (strict mode), takes an optional PKCE challenge (`S256` or `plain`),
//! auto-approves as the chosen identity and redirects back with a code.

use super::{is_version, split_scopes};
use crate::authorize_query::AuthorizeQuery;
use crate::browser::{page, redirect_to};
use crate::codes::Grant;
use crate::config::Provider;
use crate::lock::locked;
use crate::pkce::{is_s256_challenge, is_valid_verifier};
use crate::state::SimState;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use std::sync::Arc;
use url::Url;

pub async fn dialog(
    State(sim): State<Arc<SimState>>,
    Path(version): Path<String>,
    headers: HeaderMap,
    Query(query): Query<AuthorizeQuery>,
) -> Response {
    let mut record = query.record(Provider::Facebook, &headers);
    record.api_version = Some(version.clone());
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    if !is_version(&version) {
        let response = page(StatusCode::NOT_FOUND, "Sorry, this page isn't available");
        return sim.finish(record, "unknown_version", response);
    }
    let Some(client) = query
        .client_id
        .as_deref()
        .and_then(|id| sim.client(Provider::Facebook, id))
    else {
        let response = page(StatusCode::BAD_REQUEST, "Invalid App ID");
        return sim.finish(record, "invalid_app_id", response);
    };
    // Strict mode: the redirect URI must be one of the app's, exactly.
    let redirect = query
        .redirect_uri
        .as_deref()
        .filter(|raw| client.redirect_uris.iter().any(|r| r == raw))
        .and_then(|raw| Url::parse(raw).ok());
    let Some(redirect) = redirect else {
        let response = page(StatusCode::BAD_REQUEST, "URL Blocked");
        return sim.finish(record, "url_blocked", response);
    };
    let state = query.state.as_deref();
    let refuse = |params: &[(&str, &str)]| {
        let mut params = params.to_vec();
        params.extend(state.map(|s| ("state", s)));
        redirect_to(&redirect, &params)
    };
    if query.response_type.as_deref().is_some_and(|t| t != "code") {
        let response = refuse(&[("error", "unsupported_response_type")]);
        return sim.finish(record, "unsupported_response_type", response);
    }
    if !pkce_request_ok(&query) {
        let response = refuse(&[
            ("error", "invalid_request"),
            ("error_description", "Invalid code_challenge"),
        ]);
        return sim.finish(record, "invalid_request", response);
    }
    if query.sim_deny.is_some() {
        let response = refuse(&[
            ("error", "access_denied"),
            ("error_code", "200"),
            ("error_description", "Permissions error"),
            ("error_reason", "user_denied"),
        ]);
        return sim.finish(record, "access_denied", response);
    }
    let hint = query.sim_user.as_deref().or(query.login_hint.as_deref());
    let Some(user) = locked(&sim.directory).choose(hint) else {
        let response = page(StatusCode::BAD_REQUEST, "no such simulated user");
        return sim.finish(record, "unknown_user", response);
    };
    let mut scopes = split_scopes(query.scope.as_deref());
    // `public_profile` is always granted, asked for or not.
    if !scopes.iter().any(|s| s == "public_profile") {
        scopes.push("public_profile".to_owned());
    }
    let code = sim.codes.issue(Grant {
        provider: Provider::Facebook,
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

/// The manual OIDC flow takes `S256` (recommended) or `plain`, the default; a challenge is
/// optional (PROVIDERS.md §3.3).
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
    fn s256_plain_or_no_challenge_is_accepted_and_anything_else_refused() {
        let s256 = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(pkce_request_ok(&query(Some(s256), Some("S256"))));
        assert!(pkce_request_ok(&query(Some(s256), None)));
        assert!(pkce_request_ok(&query(None, None)));
        assert!(!pkce_request_ok(&query(Some("short"), Some("S256"))));
        assert!(!pkce_request_ok(&query(Some(s256), Some("S512"))));
        assert!(!pkce_request_ok(&query(None, Some("S256"))));
    }
}
