//! The simulated X (Twitter) (PROVIDERS.md §7, §11.8), served under `/twitter`.
//!
//! `i/oauth2/authorize` imitates `x.com`; `2/oauth2/token` and `2/users/me` imitate
//! `api.x.com`. X's codes live in their own store: they expire after 30 seconds
//! ([`crate::SimulatorConfig::twitter_code_ttl`]), not after the common code TTL.

use crate::authorize::AuthorizeQuery;
use crate::client_auth::{PresentedClient, authenticate};
use crate::config::Provider;
use crate::config::RegisteredClient;
use crate::faults::Endpoint;
use crate::flow::{OAuthError, Refusal, TokenParams, form, has_scope, scopes, serve, serve_at};
use crate::log::ClientAuthKind;
use crate::pkce::{is_s256_challenge, is_valid_verifier};
use crate::random;
use crate::revocation::Reach;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The endpoint URLs of the simulated X, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TwitterEndpoints {
    pub authorization: String,
    pub token: String,
    pub user: String,
    pub revocation: String,
}

impl TwitterEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        Self {
            authorization: format!("{base_url}/twitter/i/oauth2/authorize"),
            token: format!("{base_url}/twitter/2/oauth2/token"),
            user: format!("{base_url}/twitter/2/users/me"),
            revocation: format!("{base_url}/twitter/2/oauth2/revoke"),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/i/oauth2/authorize", get(authorize))
        .route("/2/oauth2/token", post(token))
        .route("/2/oauth2/revoke", post(revoke))
        .route("/2/users/me", get(me))
}

const P: Provider = Provider::Twitter;
/// The longest `state` X accepts (PROVIDERS.md §7.1).
const MAX_STATE_LEN: usize = 500;
// The descriptions follow X's documented style; exact wording is unverified [M].
const NO_CLIENT_AUTH: OAuthError = OAuthError::new(
    StatusCode::UNAUTHORIZED,
    "unauthorized_client",
    "Missing valid authorization header",
);
const INVALID_CODE: OAuthError = OAuthError::bad(
    "invalid_request",
    "Value passed for the authorization code was invalid.",
);

/// The exact redirect URI, a `state` of at most 500 characters, PKCE mandatory (`S256`
/// or `plain`, the method named). X shows its "Something went wrong" page rather than
/// redirecting when it cannot trust the client, the callback or the state.
async fn authorize(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(q): Query<AuthorizeQuery>,
) -> Response {
    serve(&sim, q.record(P, &headers), |_| {
        let (client, back) = q.client_and_back(
            &sim,
            P,
            false,
            (
                StatusCode::BAD_REQUEST,
                "Something went wrong: unknown client",
                "unknown_client",
            ),
            (
                StatusCode::BAD_REQUEST,
                "Something went wrong: redirect_uri",
                "invalid_redirect_uri",
            ),
        )?;
        if back
            .state
            .is_none_or(|s| s.is_empty() || s.len() > MAX_STATE_LEN)
        {
            let message = "Something went wrong: state";
            return Err(Refusal::page(
                StatusCode::BAD_REQUEST,
                message,
                "invalid_state",
            ));
        }
        let refuse = |error, description| back.refuse(error, &[("error_description", description)]);
        if q.response_type.as_deref() != Some("code") {
            return Err(refuse(
                "unsupported_response_type",
                "response_type must be code",
            ));
        }
        let granted = scopes(q.scope.as_deref(), &[' ']);
        if granted.is_empty() {
            return Err(refuse(
                "invalid_request",
                "Missing required parameter [scope].",
            ));
        }
        let Some(challenge) = q.code_challenge.as_deref() else {
            return Err(refuse(
                "invalid_request",
                "Missing required parameter [code_challenge].",
            ));
        };
        let well_formed = match q.code_challenge_method.as_deref() {
            Some("S256") => is_s256_challenge(challenge),
            Some("plain") => is_valid_verifier(challenge),
            Some(_) => return Err(refuse("invalid_request", "Invalid code_challenge_method.")),
            None => {
                return Err(refuse(
                    "invalid_request",
                    "Missing required parameter [code_challenge_method].",
                ));
            }
        };
        if !well_formed {
            return Err(refuse("invalid_request", "Invalid code_challenge."));
        }
        if q.sim_deny.is_some() {
            return Err(refuse("access_denied", "The user denied the request"));
        }
        let user = q.user(&sim, None)?;
        Ok(back.approve(&sim, P, &q, (&client.client_id, granted, user), &[]))
    })
    .await
}

/// The code exchange: form bodies only, HTTP Basic required of confidential clients,
/// `client_id` in the body for public ones, a refresh token only with `offline.access`.
async fn token(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    serve_at(&sim, (P, Endpoint::Token), &headers, |record| {
        let missing = |description| OAuthError::bad("invalid_request", description);
        let params: TokenParams = form(&headers, &body).ok_or(missing("Request body must be form-encoded."))?;
        let client = params.note(record, &headers);
        match params.grant_type.as_deref() {
            Some("authorization_code") => {}
            Some(_) => return Err(OAuthError::bad("unsupported_grant_type", "Unsupported grant type.").into()),
            None => return Err(missing("Missing required parameter [grant_type].").into()),
        }
        let registered = client_allowed(&sim, client)?;
        let code = params.code.as_deref().ok_or(missing("Missing required parameter [code]."))?;
        let grant = sim.redeem(P, code, &registered.client_id).map_err(|_| INVALID_CODE)?;
        if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
            let description = "Value passed for the redirect uri did not match the uri of the authorization code.";
            return Err(missing(description).into());
        }
        let verifier = params.code_verifier.as_deref();
        let verifier = verifier.ok_or(missing("Missing required parameter [code_verifier]."))?;
        if !grant.verifier_matches(Some(verifier)) {
            let description = "Value passed for the code verifier did not match the code challenge.";
            return Err(missing(description).into());
        }
        let mut body = json!({
            "token_type": "bearer",
            "expires_in": 7200,
            "access_token": sim.tokens.issue("", grant.token()),
            "scope": grant.scopes.join(" "),
        });
        if has_scope(&grant.scopes, "offline.access") {
            body["refresh_token"] = json!(sim.refresh_tokens.insert(random::base62(40), grant.token()));
        }
        Ok(Json(body))
    })
    .await
}

/// Confidential clients (registered with a secret) must use HTTP Basic; public clients
/// send only `client_id` in the body.
fn client_allowed(
    sim: &SimState,
    client: Option<PresentedClient>,
) -> Result<&RegisteredClient, OAuthError> {
    let client = client.ok_or(NO_CLIENT_AUTH)?;
    let registered = sim.client(P, &client.client_id).ok_or(NO_CLIENT_AUTH)?;
    let allowed = if registered.client_secret.is_empty() {
        client.kind == ClientAuthKind::None
    } else {
        client.kind == ClientAuthKind::Basic && authenticate(&sim.clients, P, &client).is_some()
    };
    allowed.then_some(registered).ok_or(NO_CLIENT_AUTH)
}

/// `POST /2/oauth2/revoke`: `token` (optional `token_type_hint`), the client as at the
/// token endpoint; `{"revoked": true}`, for an unknown token too.
async fn revoke(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    serve_at(&sim, (P, Endpoint::Revoke), &headers, |record| {
        let missing = OAuthError::bad("invalid_request", "Missing required parameter [token].");
        let params: TokenParams = form(&headers, &body).ok_or(missing)?;
        let client = client_allowed(&sim, params.note(record, &headers))?;
        let token = params.token.as_deref().ok_or(missing)?;
        let hint = params.token_type_hint.as_deref();
        sim.revoke((P, &client.client_id), token, hint, Reach::Token);
        Ok(Json(json!({"revoked": true})))
    })
    .await
}

#[derive(Debug, Default, Deserialize)]
struct MeQuery {
    #[serde(rename = "user.fields")]
    user_fields: Option<String>,
}

/// `GET /2/users/me`: the user in `{"data": …}` for a token with `tweet.read` and
/// `users.read`: `id`, `name`, `username` plus the requested `user.fields`;
/// `confirmed_email` only with `users.email` and a confirmed address (omitted otherwise).
async fn me(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(query): Query<MeQuery>,
) -> Response {
    serve_at(&sim, (P, Endpoint::Userinfo), &headers, |_| {
        let issued = sim
            .bearer_token(P, &headers)
            .ok_or_else(|| problem(StatusCode::UNAUTHORIZED, "unauthorized"))?;
        if !issued.has_any_scope(&["tweet.read"]) || !issued.has_any_scope(&["users.read"]) {
            return Err(problem(StatusCode::FORBIDDEN, "missing_scope"));
        }
        let data = user(&issued, query.user_fields.as_deref().unwrap_or_default()).ok_or_else(|| {
            let body = json!({
                "errors": [{"message": "The `user.fields` query parameter value is not one of the allowed values"}],
                "title": "Invalid Request",
                "detail": "One or more parameters to your request was invalid.",
                "type": "https://api.twitter.com/2/problems/invalid-request",
            });
            Refusal::new("invalid_request", (StatusCode::BAD_REQUEST, Json(body)))
        })?;
        Ok(Json(json!({ "data": data })))
    })
    .await
}

fn problem(status: StatusCode, outcome: &str) -> Refusal {
    let title = status.canonical_reason().unwrap_or("Error");
    let body =
        json!({"title": title, "type": "about:blank", "status": status.as_u16(), "detail": title});
    Refusal::new(outcome, (status, Json(body)))
}

/// The `user.fields` the simulator knows; anything else is refused as X refuses it.
const KNOWN_FIELDS: [&str; 9] = [
    "id",
    "name",
    "username",
    "confirmed_email",
    "created_at",
    "description",
    "profile_image_url",
    "protected",
    "verified",
];

/// The user's data; `None` when a requested field is not one X knows.
fn user(issued: &IssuedToken, fields: &str) -> Option<Value> {
    let user = &issued.user;
    let mut data = Map::new();
    data.insert("id".into(), json!(user.id));
    // Every X account has a display name; the handle stands in when none was seeded.
    data.insert(
        "name".into(),
        json!(user.name.as_deref().unwrap_or(&user.login)),
    );
    data.insert("username".into(), json!(user.login));
    for field in fields.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        if !KNOWN_FIELDS.contains(&field) {
            return None;
        }
        let value = match field {
            // Always there already.
            "id" | "name" | "username" => continue,
            "profile_image_url" => json!(user.avatar_url),
            "confirmed_email" if issued.has_any_scope(&["users.email"]) && user.email_verified => {
                json!(user.email)
            }
            "confirmed_email" => Value::Null,
            "created_at" => json!("2013-12-14T04:35:55.000Z"),
            "description" => json!(""),
            _ => json!(false),
        };
        if !value.is_null() {
            data.insert(field.to_owned(), value);
        }
    }
    Some(Value::Object(data))
}
