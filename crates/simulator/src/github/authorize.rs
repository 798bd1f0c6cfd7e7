//! `GET /github/login/oauth/authorize`: checks the request, auto-approves as the chosen
//! identity and redirects back with a code.

use super::redirect::github_allows;
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

pub async fn authorize(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(query): Query<AuthorizeQuery>,
) -> Response {
    let record = query.record(Provider::Github, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };

    // Without a known client there is no trusted place to redirect to: show an error page.
    let Some(client) = query
        .client_id
        .as_deref()
        .and_then(|id| sim.client(Provider::Github, id))
    else {
        return sim.finish(
            record,
            "unknown_client",
            page(StatusCode::NOT_FOUND, "unknown client_id"),
        );
    };
    let registered: Vec<Url> = client
        .redirect_uris
        .iter()
        .filter_map(|u| Url::parse(u).ok())
        .collect();
    let Some(default_redirect) = registered.first().cloned() else {
        return sim.finish(
            record,
            "no_callback",
            page(StatusCode::BAD_REQUEST, "client has no callback URL"),
        );
    };
    let state = query.state.as_deref();
    let redirect = match query.redirect_uri.as_deref() {
        None => default_redirect.clone(),
        Some(raw) => match Url::parse(raw) {
            Ok(url) if registered.iter().any(|r| github_allows(r, &url)) => url,
            // GitHub reports the mismatch to the registered callback, never to the given one.
            _ => {
                let response = redirect_error(&default_redirect, "redirect_uri_mismatch", state);
                return sim.finish(record, "redirect_uri_mismatch", response);
            }
        },
    };
    if let Some(challenge) = &query.code_challenge {
        // GitHub supports S256 only; an absent method would mean `plain`.
        let s256 = query.code_challenge_method.as_deref() == Some("S256");
        if !s256 || !is_s256_challenge(challenge) {
            return sim.finish(
                record,
                "invalid_request",
                redirect_error(&redirect, "invalid_request", state),
            );
        }
    }
    if query.sim_deny.is_some() {
        return sim.finish(
            record,
            "access_denied",
            redirect_error(&redirect, "access_denied", state),
        );
    }

    let hint = query
        .sim_user
        .as_deref()
        .or(query.login_hint.as_deref())
        .or(query.login.as_deref());
    let Some(user) = locked(&sim.directory).choose(hint) else {
        return sim.finish(
            record,
            "unknown_user",
            page(StatusCode::BAD_REQUEST, "no such simulated user"),
        );
    };
    let code = sim.codes.issue(Grant {
        provider: Provider::Github,
        client_id: client.client_id.clone(),
        redirect_uri: redirect.to_string(),
        code_challenge: query.code_challenge.clone(),
        code_challenge_method: query.code_challenge_method.clone(),
        scopes: split_scopes(query.scope.as_deref()),
        nonce: query.nonce.clone(),
        user,
    });
    let mut params = vec![("code", code.as_str())];
    params.extend(state.map(|s| ("state", s)));
    sim.finish(record, "ok", redirect_to(&redirect, &params))
}

/// GitHub documents space-delimited scopes; commas are accepted too.
fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .unwrap_or_default()
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_split_on_spaces_and_commas() {
        assert_eq!(
            split_scopes(Some("read:user user:email")),
            vec!["read:user", "user:email"]
        );
        assert_eq!(
            split_scopes(Some("read:user,user:email")),
            vec!["read:user", "user:email"]
        );
        assert!(split_scopes(None).is_empty());
    }
}
