//! `GET /linkedin/oauth/v2/authorization`: checks the request the way LinkedIn does,
//! auto-approves as the chosen identity and redirects back with a code. `code_challenge`
//! and `nonce` are recorded; only [`LinkedinPkce::Enforce`] looks at the challenge.

use super::knobs::LinkedinPkce;
use super::split_scopes;
use crate::authorize_query::AuthorizeQuery;
use crate::browser::{page, redirect_error, redirect_to};
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

/// The scopes an app with "Sign In with LinkedIn using OpenID Connect" (and "Share on
/// LinkedIn") may ask for; the legacy `r_liteprofile`/`r_emailaddress` are gone.
const KNOWN_SCOPES: [&str; 4] = ["openid", "profile", "email", "w_member_social"];

pub async fn authorize(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(query): Query<AuthorizeQuery>,
) -> Response {
    let record = query.record(Provider::Linkedin, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };

    // LinkedIn shows an error page (never a redirect) for an unknown app or callback.
    let Some(client) = query
        .client_id
        .as_deref()
        .and_then(|id| sim.client(Provider::Linkedin, id))
    else {
        let response = page(StatusCode::BAD_REQUEST, "invalid_client_id");
        return sim.finish(record, "invalid_client_id", response);
    };
    // The redirect URI is required and compared exactly with a registered one.
    let Some((registered, redirect)) = query
        .redirect_uri
        .as_deref()
        .filter(|raw| client.redirect_uris.iter().any(|r| r == raw))
        .and_then(|raw| Some((raw.to_owned(), Url::parse(raw).ok()?)))
    else {
        let response = page(
            StatusCode::BAD_REQUEST,
            "The redirect_uri does not match the registered value",
        );
        return sim.finish(record, "redirect_uri_mismatch", response);
    };
    let state = query.state.as_deref();
    let refuse = |error: &str| redirect_error(&redirect, error, state);
    if query.response_type.as_deref() != Some("code") {
        let outcome = "unsupported_response_type";
        return sim.finish(record, outcome, refuse(outcome));
    }
    let scopes = split_scopes(query.scope.as_deref());
    if scopes.is_empty() || scopes.iter().any(|s| !KNOWN_SCOPES.contains(&s.as_str())) {
        let outcome = "unauthorized_scope_error";
        return sim.finish(record, outcome, refuse(outcome));
    }
    if sim.linkedin_knobs.get().pkce == LinkedinPkce::Enforce && !s256_requested(&query) {
        return sim.finish(record, "invalid_request", refuse("invalid_request"));
    }
    if query.sim_deny.is_some() {
        let outcome = "user_cancelled_authorize";
        return sim.finish(record, outcome, refuse(outcome));
    }

    let hint = query.sim_user.as_deref().or(query.login_hint.as_deref());
    let Some(user) = locked(&sim.directory).choose(hint) else {
        let response = page(StatusCode::BAD_REQUEST, "no such simulated user");
        return sim.finish(record, "unknown_user", response);
    };
    let code = sim.codes.issue(Grant {
        provider: Provider::Linkedin,
        client_id: client.client_id.clone(),
        redirect_uri: registered,
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

/// A native app's PKCE: S256 only.
fn s256_requested(query: &AuthorizeQuery) -> bool {
    query.code_challenge_method.as_deref() == Some("S256")
        && query
            .code_challenge
            .as_deref()
            .is_some_and(is_s256_challenge)
}
