//! `GET /twitter/i/oauth2/authorize`: checks the request the way X does (exact redirect
//! URI, a `state` of at most 500 characters, PKCE mandatory), auto-approves as the chosen
//! identity and redirects back with a code.

use super::split_scopes;
use crate::authorize_query::AuthorizeQuery;
use crate::browser::{page, redirect_to};
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

/// The longest `state` X accepts (PROVIDERS.md §7.1).
const MAX_STATE_LEN: usize = 500;

pub async fn authorize(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(query): Query<AuthorizeQuery>,
) -> Response {
    let record = query.record(Provider::Twitter, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    // X shows its "Something went wrong" page rather than redirecting when it cannot
    // trust the client, the callback or the state.
    let Some(client) = query
        .client_id
        .as_deref()
        .and_then(|id| sim.client(Provider::Twitter, id))
    else {
        let response = page(
            StatusCode::BAD_REQUEST,
            "Something went wrong: unknown client",
        );
        return sim.finish(record, "unknown_client", response);
    };
    let redirect = query
        .redirect_uri
        .as_deref()
        .filter(|raw| client.redirect_uris.iter().any(|r| r == raw))
        .and_then(|raw| Url::parse(raw).ok());
    let Some(redirect) = redirect else {
        let response = page(
            StatusCode::BAD_REQUEST,
            "Something went wrong: redirect_uri",
        );
        return sim.finish(record, "invalid_redirect_uri", response);
    };
    let Some(state) = query
        .state
        .as_deref()
        .filter(|s| !s.is_empty() && s.len() <= MAX_STATE_LEN)
    else {
        let response = page(StatusCode::BAD_REQUEST, "Something went wrong: state");
        return sim.finish(record, "invalid_state", response);
    };
    let refuse = |error: &str, description: &str| {
        let params = [
            ("error", error),
            ("error_description", description),
            ("state", state),
        ];
        redirect_to(&redirect, &params)
    };
    if query.response_type.as_deref() != Some("code") {
        let response = refuse("unsupported_response_type", "response_type must be code");
        return sim.finish(record, "unsupported_response_type", response);
    }
    let scopes = split_scopes(query.scope.as_deref());
    if scopes.is_empty() {
        let response = refuse("invalid_request", "Missing required parameter [scope].");
        return sim.finish(record, "invalid_request", response);
    }
    if let Err(description) = pkce_request_ok(&query) {
        let response = refuse("invalid_request", description);
        return sim.finish(record, "invalid_request", response);
    }
    if query.sim_deny.is_some() {
        let response = refuse("access_denied", "The user denied the request");
        return sim.finish(record, "access_denied", response);
    }
    let hint = query.sim_user.as_deref().or(query.login_hint.as_deref());
    let Some(user) = locked(&sim.directory).choose(hint) else {
        let response = page(StatusCode::BAD_REQUEST, "no such simulated user");
        return sim.finish(record, "unknown_user", response);
    };
    let code = sim.twitter_codes.issue(Grant {
        provider: Provider::Twitter,
        client_id: client.client_id.clone(),
        redirect_uri: redirect.to_string(),
        code_challenge: query.code_challenge.clone(),
        code_challenge_method: query.code_challenge_method.clone(),
        scopes,
        nonce: None,
        user,
    });
    let params = [("state", state), ("code", code.as_str())];
    sim.finish(record, "ok", redirect_to(&redirect, &params))
}

/// PKCE is mandatory at X: `S256` or `plain`, with the method named. `Err` is the
/// `error_description`.
fn pkce_request_ok(query: &AuthorizeQuery) -> Result<(), &'static str> {
    let Some(challenge) = query.code_challenge.as_deref() else {
        return Err("Missing required parameter [code_challenge].");
    };
    let well_formed = match query.code_challenge_method.as_deref() {
        Some("S256") => is_s256_challenge(challenge),
        Some("plain") => is_valid_verifier(challenge),
        Some(_) => return Err("Invalid code_challenge_method."),
        None => return Err("Missing required parameter [code_challenge_method]."),
    };
    well_formed.then_some(()).ok_or("Invalid code_challenge.")
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
    fn s256_and_plain_challenges_are_accepted() {
        assert_eq!(
            pkce_request_ok(&query(Some(CHALLENGE), Some("S256"))),
            Ok(())
        );
        let plain = "a-plain-verifier-that-is-long-enough-0123456789";
        assert_eq!(pkce_request_ok(&query(Some(plain), Some("plain"))), Ok(()));
    }

    #[test]
    fn pkce_is_mandatory_and_must_name_a_known_method() {
        assert!(pkce_request_ok(&query(None, None)).is_err());
        assert!(pkce_request_ok(&query(Some(CHALLENGE), None)).is_err());
        assert!(pkce_request_ok(&query(Some(CHALLENGE), Some("S512"))).is_err());
        assert!(pkce_request_ok(&query(Some("short"), Some("S256"))).is_err());
    }
}
