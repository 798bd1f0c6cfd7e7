//! `GET /apple/auth/authorize`: checks the request the way Apple does, auto-approves as the
//! chosen identity and answers through the requested `response_mode` — with scopes, only
//! `form_post`, an auto-submitting page that carries `user` on a first authorization.

use super::form_post;
use super::id_token::{self, Subject};
use super::split_scopes;
use crate::authorize_query::AuthorizeQuery;
use crate::browser::{page, redirect_to};
use crate::codes::Grant;
use crate::config::Provider;
use crate::lock::locked;
use crate::pkce::is_s256_challenge;
use crate::state::SimState;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use url::{Host, Url};

/// How the answer travels back to the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Query,
    Fragment,
    FormPost,
}

pub async fn authorize(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(query): Query<AuthorizeQuery>,
) -> Response {
    let record = query.record(Provider::Apple, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };

    // Apple shows an error page, never a redirect, for an unknown client or callback.
    let Some(client) = query
        .client_id
        .as_deref()
        .and_then(|id| sim.client(Provider::Apple, id))
    else {
        return sim.finish(record, "invalid_client", bad_request("invalid_client"));
    };
    let strict = sim.apple.knobs().strict_redirect_uris;
    let redirect = query
        .redirect_uri
        .as_deref()
        .filter(|raw| client.redirect_uris.iter().any(|r| r == raw))
        .and_then(|raw| Url::parse(raw).ok())
        .filter(|url| !strict || apple_accepts_redirect(url));
    let Some(redirect) = redirect else {
        let response = bad_request("invalid_request: Invalid web redirect url.");
        return sim.finish(record, "invalid_redirect_uri", response);
    };
    let scopes = split_scopes(query.scope.as_deref());
    let mode = match query.response_mode.as_deref() {
        None | Some("query") => Mode::Query,
        Some("fragment") => Mode::Fragment,
        Some("form_post") => Mode::FormPost,
        Some(_) => return sim.finish(record, "invalid_request", bad_request("invalid_request")),
    };
    // Apple never puts the name or the email in a URL (PROVIDERS.md §8.2).
    if !scopes.is_empty() && mode != Mode::FormPost {
        let response = bad_request(
            "invalid_request: response_mode must be form_post when name or email scope is requested.",
        );
        return sim.finish(record, "invalid_request", response);
    }
    let state = query.state.as_deref();
    let refuse = |error: &str| deliver(mode, &redirect, &error_fields(error, state));
    let Some(with_id_token) = response_type(query.response_type.as_deref()) else {
        let outcome = "unsupported_response_type";
        return sim.finish(record, outcome, refuse(outcome));
    };
    if with_id_token && mode == Mode::Query {
        return sim.finish(record, "invalid_request", bad_request("invalid_request"));
    }
    if !scopes
        .iter()
        .all(|s| matches!(s.as_str(), "openid" | "name" | "email"))
    {
        return sim.finish(record, "invalid_scope", refuse("invalid_scope"));
    }
    if !pkce_request_ok(&query) {
        return sim.finish(record, "invalid_request", refuse("invalid_request"));
    }
    if query.sim_deny.is_some() {
        let outcome = "user_cancelled_authorize";
        return sim.finish(record, outcome, refuse(outcome));
    }

    let hint = query.sim_user.as_deref().or(query.login_hint.as_deref());
    let Some(user) = locked(&sim.directory).choose(hint) else {
        return sim.finish(
            record,
            "unknown_user",
            bad_request("no such simulated user"),
        );
    };
    let knobs = sim.apple.knobs();
    let subject = Subject {
        client_id: &client.client_id,
        user: &user,
        scopes: &scopes,
        nonce: query.nonce.as_deref(),
    };
    let posted_user = sim
        .apple
        .first_authorization(&client.client_id, &user.id)
        .then(|| id_token::first_login_user(&subject, knobs))
        .flatten();
    let id_token = with_id_token.then(|| id_token::issue(&sim, &subject));
    let code = sim.apple.codes.issue(Grant {
        provider: Provider::Apple,
        client_id: client.client_id.clone(),
        redirect_uri: redirect.to_string(),
        code_challenge: query.code_challenge.clone(),
        code_challenge_method: query.code_challenge_method.clone(),
        scopes: scopes.clone(),
        nonce: query.nonce.clone(),
        user: user.clone(),
    });
    let mut fields = vec![("code", code.as_str())];
    fields.extend(state.map(|s| ("state", s)));
    fields.extend(id_token.as_deref().map(|t| ("id_token", t)));
    fields.extend(posted_user.as_deref().map(|u| ("user", u)));
    sim.finish(record, "ok", deliver(mode, &redirect, &fields))
}

/// `code` or `code id_token` (in any order); `Some(true)` when an id_token is asked for.
fn response_type(raw: Option<&str>) -> Option<bool> {
    let mut parts: Vec<&str> = raw?.split(' ').filter(|p| !p.is_empty()).collect();
    parts.sort_unstable();
    match parts.as_slice() {
        ["code"] => Some(false),
        ["code", "id_token"] => Some(true),
        _ => None,
    }
}

/// Apple documents no PKCE, but enforces an S256 challenge once one is sent (§8.2); the
/// simulator refuses anything but a well-formed S256 challenge.
fn pkce_request_ok(query: &AuthorizeQuery) -> bool {
    match (
        &query.code_challenge,
        query.code_challenge_method.as_deref(),
    ) {
        (None, None) => true,
        (Some(challenge), Some("S256")) => is_s256_challenge(challenge),
        _ => false,
    }
}

/// Real Apple takes only `https` redirect URIs on a domain: no `localhost`, no IP address.
fn apple_accepts_redirect(url: &Url) -> bool {
    url.scheme() == "https"
        && matches!(url.host(), Some(Host::Domain(domain)) if domain != "localhost")
}

fn error_fields<'a>(error: &'a str, state: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut fields = vec![("error", error)];
    fields.extend(state.map(|s| ("state", s)));
    fields
}

fn deliver(mode: Mode, redirect: &Url, fields: &[(&str, &str)]) -> Response {
    match mode {
        Mode::FormPost => form_post::render(redirect.as_str(), fields),
        Mode::Query => redirect_to(redirect, fields),
        Mode::Fragment => {
            let mut url = redirect.clone();
            url.set_fragment(Some(
                &serde_urlencoded::to_string(fields).unwrap_or_default(),
            ));
            (StatusCode::FOUND, [(header::LOCATION, url.to_string())]).into_response()
        }
    }
}

fn bad_request(message: &'static str) -> Response {
    page(StatusCode::BAD_REQUEST, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_types_are_code_or_code_with_an_id_token() {
        assert_eq!(response_type(Some("code")), Some(false));
        assert_eq!(response_type(Some("code id_token")), Some(true));
        assert_eq!(response_type(Some("id_token code")), Some(true));
        assert_eq!(response_type(Some("token")), None);
        assert_eq!(response_type(Some("id_token")), None);
        assert_eq!(response_type(None), None);
    }

    #[test]
    fn only_an_s256_challenge_or_none_is_accepted() {
        let query = |challenge: Option<&str>, method: Option<&str>| AuthorizeQuery {
            code_challenge: challenge.map(Into::into),
            code_challenge_method: method.map(Into::into),
            ..AuthorizeQuery::default()
        };
        let s256 = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(pkce_request_ok(&query(Some(s256), Some("S256"))));
        assert!(pkce_request_ok(&query(None, None)));
        assert!(!pkce_request_ok(&query(Some(s256), Some("plain"))));
        assert!(!pkce_request_ok(&query(Some(s256), None)));
        assert!(!pkce_request_ok(&query(Some("short"), Some("S256"))));
        assert!(!pkce_request_ok(&query(None, Some("S256"))));
    }

    #[test]
    fn strict_redirects_need_https_on_a_domain() {
        let accepts = |raw: &str| apple_accepts_redirect(&Url::parse(raw).unwrap());
        assert!(accepts("https://app.example.com/auth/callback/apple"));
        assert!(!accepts("http://app.example.com/auth/callback/apple"));
        assert!(!accepts("https://localhost/cb"));
        assert!(!accepts("https://127.0.0.1/cb"));
        assert!(!accepts("https://[::1]/cb"));
    }
}
