//! `GET /microsoft/{tenant}/oauth2/v2.0/authorize`: checks the request the way the
//! Microsoft identity platform does, auto-approves as the chosen identity (if the tenant
//! path admits them) and redirects back with a code.

use super::{TenantPath, split_scopes};
use crate::authorize_query::AuthorizeQuery;
use crate::browser::{page, redirect_error, redirect_to};
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

pub async fn authorize(
    State(sim): State<Arc<SimState>>,
    Path(tenant): Path<String>,
    headers: HeaderMap,
    Query(query): Query<AuthorizeQuery>,
) -> Response {
    let record = query.record(Provider::Microsoft, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    let Some(tenant) = TenantPath::parse(&tenant) else {
        let response = page(StatusCode::BAD_REQUEST, "AADSTS90002: Tenant not found.");
        return sim.finish(record, "tenant_not_found", response);
    };
    // Microsoft shows an error page (never a redirect) for an unknown app or reply URL.
    let Some(client) = query
        .client_id
        .as_deref()
        .and_then(|id| sim.client(Provider::Microsoft, id))
    else {
        let response = page(
            StatusCode::BAD_REQUEST,
            "AADSTS700016: Application with identifier was not found in the directory.",
        );
        return sim.finish(record, "unauthorized_client", response);
    };
    // The reply URL must be registered exactly; without one, the first registered is used.
    let registered = match query.redirect_uri.as_deref() {
        Some(raw) => client.redirect_uris.iter().find(|r| *r == raw),
        None => client.redirect_uris.first(),
    };
    let Some((registered, redirect)) =
        registered.and_then(|raw| Some((raw.clone(), Url::parse(raw).ok()?)))
    else {
        let response = page(
            StatusCode::BAD_REQUEST,
            "AADSTS50011: The redirect URI specified in the request does not match the redirect URIs configured for the application.",
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
    // A personal account at `/organizations` (or a stranger at a tenant path) cannot sign in.
    if !tenant.admits(&user.microsoft_account()) {
        let response = page(
            StatusCode::BAD_REQUEST,
            "AADSTS50020: User account does not exist in tenant.",
        );
        return sim.finish(record, "user_not_in_tenant", response);
    }
    let code = sim.codes.issue(Grant {
        provider: Provider::Microsoft,
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

/// `S256` and `plain` (the default when no method is named); a challenge is optional.
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
