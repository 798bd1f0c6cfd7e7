//! `GET /discord/oauth2/authorize`: checks the request the way Discord does (exact
//! redirect URI, PKCE `S256` only), auto-approves as the chosen identity and redirects
//! back with a code.

use super::split_scopes;
use crate::authorize_query::AuthorizeQuery;
use crate::browser::{page, redirect_to};
use crate::codes::Grant;
use crate::config::Provider;
use crate::lock::locked;
use crate::pkce::is_s256_challenge;
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
    let record = query.record(Provider::Discord, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };

    // Without a known client and callback there is no trusted place to redirect to.
    let Some(client) = query
        .client_id
        .as_deref()
        .and_then(|id| sim.client(Provider::Discord, id))
    else {
        let response = page(StatusCode::BAD_REQUEST, "Invalid OAuth2 application");
        return sim.finish(record, "unknown_client", response);
    };
    // Discord compares the redirect URI exactly; without one it uses the registered one.
    let redirect = match query.redirect_uri.as_deref() {
        Some(raw) => client.redirect_uris.iter().find(|r| *r == raw),
        None => client.redirect_uris.first(),
    }
    .and_then(|raw| Url::parse(raw).ok());
    let Some(redirect) = redirect else {
        let response = page(StatusCode::BAD_REQUEST, "Invalid OAuth2 redirect_uri");
        return sim.finish(record, "invalid_redirect_uri", response);
    };
    let state = query.state.as_deref();
    let refuse = |error: &str, description: &str| {
        let mut params = vec![("error", error), ("error_description", description)];
        params.extend(state.map(|s| ("state", s)));
        redirect_to(&redirect, &params)
    };
    if query.response_type.as_deref() != Some("code") {
        let outcome = "unsupported_response_type";
        let response = refuse(outcome, "Unsupported \"response_type\"");
        return sim.finish(record, outcome, response);
    }
    let scopes = split_scopes(query.scope.as_deref());
    if scopes.is_empty() {
        let response = refuse("invalid_scope", "The requested scope is invalid");
        return sim.finish(record, "invalid_scope", response);
    }
    if let Err(description) = pkce_request_ok(&query) {
        let response = refuse("invalid_request", description);
        return sim.finish(record, "invalid_request", response);
    }
    if query.sim_deny.is_some() {
        let response = refuse(
            "access_denied",
            "The resource owner or authorization server denied the request",
        );
        return sim.finish(record, "access_denied", response);
    }

    let hint = query.sim_user.as_deref().or(query.login_hint.as_deref());
    let Some(user) = locked(&sim.directory).choose(hint) else {
        let response = page(StatusCode::BAD_REQUEST, "no such simulated user");
        return sim.finish(record, "unknown_user", response);
    };
    let code = sim.codes.issue(Grant {
        provider: Provider::Discord,
        client_id: client.client_id.clone(),
        redirect_uri: redirect.to_string(),
        code_challenge: query.code_challenge.clone(),
        code_challenge_method: query.code_challenge_method.clone(),
        scopes,
        nonce: None,
        user,
    });
    let mut params = vec![("code", code.as_str())];
    params.extend(state.map(|s| ("state", s)));
    sim.finish(record, "ok", redirect_to(&redirect, &params))
}

/// Discord supports `S256` only; an absent method would mean `plain`, which it refuses.
/// `Err` is Discord's `error_description`.
fn pkce_request_ok(query: &AuthorizeQuery) -> Result<(), &'static str> {
    match (
        query.code_challenge.as_deref(),
        query.code_challenge_method.as_deref(),
    ) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err("Missing \"code_challenge\""),
        (Some(_), method) if method != Some("S256") => Err("Unsupported \"code_challenge_method\""),
        (Some(challenge), _) if !is_s256_challenge(challenge) => Err("Invalid \"code_challenge\""),
        (Some(_), _) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    fn query(challenge: Option<&str>, method: Option<&str>) -> AuthorizeQuery {
        AuthorizeQuery {
            code_challenge: challenge.map(Into::into),
            code_challenge_method: method.map(Into::into),
            ..AuthorizeQuery::default()
        }
    }

    #[test]
    fn s256_or_no_challenge_is_accepted() {
        assert_eq!(
            pkce_request_ok(&query(Some(CHALLENGE), Some("S256"))),
            Ok(())
        );
        assert_eq!(pkce_request_ok(&query(None, None)), Ok(()));
    }

    #[test]
    fn plain_or_a_missing_method_is_refused_as_unsupported() {
        let unsupported = Err("Unsupported \"code_challenge_method\"");
        assert_eq!(
            pkce_request_ok(&query(Some(CHALLENGE), Some("plain"))),
            unsupported
        );
        assert_eq!(pkce_request_ok(&query(Some(CHALLENGE), None)), unsupported);
        assert!(pkce_request_ok(&query(Some("short"), Some("S256"))).is_err());
        assert!(pkce_request_ok(&query(None, Some("S256"))).is_err());
    }
}
