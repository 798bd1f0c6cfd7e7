//! The simulated GitHub (PROVIDERS.md §2, §11.3), served under `/github`:
//! `login/oauth/*` imitates `github.com`, `api/*` imitates `api.github.com`.

mod redirect;

use crate::authorize::{AuthorizeQuery, Back, SIMULATED};
use crate::client_auth::authenticate;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::flow::{Refusal, TokenParams, scopes, serve};
use crate::log::RequestRecord;
use crate::revocation::Reach;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use url::Url;

/// The endpoint URLs of the simulated GitHub, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GithubEndpoints {
    pub authorization: String,
    pub token: String,
    pub user: String,
    pub emails: String,
    /// `DELETE /applications/{client_id}/grant`: revokes the whole authorization.
    pub revocation: String,
}

impl GithubEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        Self {
            revocation: format!("{base_url}/github/api/applications/{{client_id}}/grant"),
            authorization: format!("{base_url}/github/login/oauth/authorize"),
            token: format!("{base_url}/github/login/oauth/access_token"),
            user: format!("{base_url}/github/api/user"),
            emails: format!("{base_url}/github/api/user/emails"),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/login/oauth/authorize", get(authorize))
        .route("/login/oauth/access_token", post(access_token))
        .route("/api/user", get(user))
        .route("/api/user/emails", get(emails))
        .route(
            "/api/applications/{client_id}/token",
            delete(revoke::<false>),
        )
        .route(
            "/api/applications/{client_id}/grant",
            delete(revoke::<true>),
        )
}

const P: Provider = Provider::Github;
const DOCS: &str = "https://docs.github.com/rest";
const ERROR_URI: &str = "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";

async fn authorize(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(q): Query<AuthorizeQuery>,
) -> Response {
    serve(&sim, q.record(P, &headers), |_| {
        // Without a known client there is no trusted place to redirect to.
        let client = q.client(&sim, P).ok_or_else(|| {
            Refusal::page(StatusCode::NOT_FOUND, "unknown client_id", "unknown_client")
        })?;
        let registered: Vec<Url> = client
            .redirect_uris
            .iter()
            .filter_map(|u| Url::parse(u).ok())
            .collect();
        let default = registered.first().cloned().ok_or_else(|| {
            Refusal::page(
                StatusCode::BAD_REQUEST,
                "client has no callback URL",
                "no_callback",
            )
        })?;
        let fallback = Back::new((default.to_string(), default.clone()), &q);
        let back = match q.redirect_uri.as_deref() {
            None => fallback,
            Some(raw) => match Url::parse(raw) {
                Ok(url) if registered.iter().any(|r| redirect::github_allows(r, &url)) => {
                    Back::new((raw.to_owned(), url), &q)
                }
                // GitHub reports the mismatch to the registered callback, never the given one.
                _ => return Err(fallback.refuse("redirect_uri_mismatch", SIMULATED)),
            },
        };
        // GitHub supports S256 only; an absent method would mean `plain`.
        if q.code_challenge.is_some() && !q.challenge_ok(false) {
            return Err(back.refuse("invalid_request", SIMULATED));
        }
        if q.sim_deny.is_some() {
            return Err(back.refuse("access_denied", SIMULATED));
        }
        let user = q.user(&sim, q.login.as_deref())?;
        // Space-delimited scopes are documented; commas are accepted too.
        let granted = scopes(q.scope.as_deref(), &[' ', ',']);
        Ok(back.approve(&sim, P, &q, (&client.client_id, granted, user), &[]))
    })
    .await
}

/// `POST /login/oauth/access_token`: errors as HTTP 200 with an `error` member, JSON only
/// when asked for; the body form-encoded or JSON.
async fn access_token(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let json = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("application/json"));
    let record = RequestRecord::new(P, Endpoint::Token, &headers);
    serve(&sim, record, |record| {
        let is_json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("application/json"));
        let params: TokenParams = if is_json {
            serde_json::from_slice(&body).ok()
        } else {
            serde_urlencoded::from_bytes(&body).ok()
        }
        .ok_or_else(|| {
            Refusal::new(
                "malformed_body",
                (StatusCode::BAD_REQUEST, "malformed request body"),
            )
        })?;
        let client = params.note(record, &headers);
        match exchange(&sim, client, &params) {
            Ok(pairs) => Ok(answer(json, &pairs)),
            Err(error) => {
                let pairs = [
                    ("error", error),
                    ("error_description", describe(error)),
                    ("error_uri", ERROR_URI),
                ];
                Err(Refusal::new(error, answer(json, &pairs)))
            }
        }
    })
    .await
}

/// GitHub's checks in order; `Err` is the OAuth error code.
fn exchange(
    sim: &SimState,
    client: Option<crate::client_auth::PresentedClient>,
    params: &TokenParams,
) -> Result<[(&'static str, String); 3], &'static str> {
    if params
        .grant_type
        .as_deref()
        .is_some_and(|g| g != "authorization_code")
    {
        return Err("unsupported_grant_type");
    }
    let client = client
        .and_then(|c| authenticate(&sim.clients, P, &c))
        .ok_or("incorrect_client_credentials")?;
    let code = params.code.as_deref().ok_or("bad_verification_code")?;
    let grant = sim
        .redeem(P, code, &client.client_id)
        .map_err(|_| "bad_verification_code")?;
    if params
        .redirect_uri
        .as_deref()
        .is_some_and(|r| r != grant.redirect_uri)
    {
        return Err("redirect_uri_mismatch");
    }
    if !grant.verifier_matches(params.code_verifier.as_deref()) {
        return Err("bad_verification_code");
    }
    let token = sim.tokens.issue("gho_", grant.token());
    Ok([
        ("access_token", token),
        ("token_type", "bearer".to_owned()),
        ("scope", grant.scopes.join(",")),
    ])
}

fn describe(error: &str) -> &'static str {
    match error {
        "incorrect_client_credentials" => {
            "The client_id and/or client_secret passed are incorrect."
        }
        "redirect_uri_mismatch" => {
            "The redirect_uri MUST match the registered callback URL for this application."
        }
        "unsupported_grant_type" => "The grant type is not supported.",
        _ => "The code passed is incorrect or expired.",
    }
}

/// HTTP 200 always; JSON if asked for, else `application/x-www-form-urlencoded`.
fn answer<V: AsRef<str>>(json: bool, pairs: &[(&str, V)]) -> Response {
    if json {
        let object: Map<String, Value> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), json!(v.as_ref())))
            .collect();
        return Json(object).into_response();
    }
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_ref())).collect();
    let body = serde_urlencoded::to_string(pairs).unwrap_or_default();
    (
        [(header::CONTENT_TYPE, "application/x-www-form-urlencoded")],
        body,
    )
        .into_response()
}

async fn user(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(P, Endpoint::Userinfo, &headers);
    serve(&sim, record, |_| {
        let user = authorized(&sim, &headers)?.user;
        let id: u64 = user.id.parse().map_err(|_| {
            let message = (
                StatusCode::INTERNAL_SERVER_ERROR,
                "seeded GitHub user id is not numeric",
            );
            Refusal::new("bad_seed", message)
        })?;
        Ok(Json(json!({
            "login": user.login,
            "id": id,
            "node_id": format!("U_sim{id}"),
            "avatar_url": user.avatar_url,
            "html_url": format!("https://github.com/{}", user.login),
            "type": "User",
            "name": user.name,
            "email": user.public_email,
            "created_at": "2011-01-25T18:44:36Z",
        })))
    })
    .await
}

async fn emails(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(P, Endpoint::Emails, &headers);
    serve(&sim, record, |_| {
        let token = authorized(&sim, &headers)?;
        // Listing emails needs `user:email` or `user`; GitHub hides the resource otherwise.
        if !token.has_any_scope(&["user:email", "user"]) {
            return Err(message(StatusCode::NOT_FOUND, "Not Found", "missing_scope"));
        }
        Ok(Json(token.user.github_emails()))
    })
    .await
}

/// `DELETE /applications/{client_id}/token` (the token) or `/grant` (every token of the
/// authorization): Basic client credentials, JSON `{"access_token"}`, 204.
async fn revoke<const GRANT: bool>(
    State(sim): State<Arc<SimState>>,
    Path(client_id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let reach = if GRANT { Reach::Grant } else { Reach::Token };
    let record = RequestRecord::new(P, Endpoint::Revoke, &headers);
    serve(&sim, record, |_| {
        let client = crate::client_auth::presented(&headers, None, None)
            .filter(|c| c.client_id == client_id)
            .and_then(|c| authenticate(&sim.clients, P, &c).cloned());
        if client.is_none() {
            return Err(message(StatusCode::NOT_FOUND, "Not Found", "bad_client"));
        }
        let body: Value = serde_json::from_slice(&body).unwrap_or_default();
        let Some(token) = body.get("access_token").and_then(Value::as_str) else {
            return Err(message(
                StatusCode::UNPROCESSABLE_ENTITY,
                "Invalid request.",
                "invalid_body",
            ));
        };
        if sim.held((P, &client_id), token).is_none() {
            return Err(message(StatusCode::NOT_FOUND, "Not Found", "unknown_token"));
        }
        sim.revoke((P, &client_id), token, None, reach);
        Ok(StatusCode::NO_CONTENT)
    })
    .await
}

/// GitHub's API gate: a User-Agent, then a live token as `Bearer` or legacy `token`.
fn authorized(sim: &SimState, headers: &HeaderMap) -> Result<IssuedToken, Refusal> {
    if !headers.contains_key(header::USER_AGENT) {
        let body = "Request forbidden by administrative rules. Please make sure your request has a User-Agent header.";
        return Err(Refusal::new(
            "missing_user_agent",
            (StatusCode::FORBIDDEN, body),
        ));
    }
    let (scheme, token) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .ok_or_else(|| {
            message(
                StatusCode::UNAUTHORIZED,
                "Requires authentication",
                "no_credentials",
            )
        })?;
    let scheme_ok = scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("token");
    sim.tokens
        .get(token.trim())
        .filter(|issued| scheme_ok && issued.provider == P)
        .ok_or_else(|| {
            message(
                StatusCode::UNAUTHORIZED,
                "Bad credentials",
                "bad_credentials",
            )
        })
}

fn message(status: StatusCode, text: &str, outcome: &str) -> Refusal {
    let body = json!({"message": text, "documentation_url": DOCS, "status": status.as_str()});
    Refusal::new(outcome, (status, Json(body)))
}
