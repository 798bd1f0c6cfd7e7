//! The simulated Google (PROVIDERS.md §1, §11.2), served under `/google`. One prefix stands
//! in for `accounts.google.com` (discovery, authorize), `oauth2.googleapis.com` (token),
//! `openidconnect.googleapis.com` (userinfo) and `www.googleapis.com` (certs).

use crate::authorize::{AuthorizeQuery, SIMULATED};
use crate::client_auth::authenticate;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::flow::{
    OAuthError, Refusal, TokenParams, form, has_scope, jwks, scopes, serve, serve_at,
};
use crate::id_token::{self, Subject, name_claims};
use crate::log::RequestRecord;
use crate::revocation::Reach;
use crate::state::SimState;
use crate::users::SimUser;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The endpoint URLs of the simulated Google, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoogleEndpoints {
    pub discovery: String,
    pub authorization: String,
    pub token: String,
    pub userinfo: String,
    pub jwks: String,
    pub revocation: String,
    /// The `iss` its id_tokens carry (`<base>/google` unless configured).
    pub issuer: String,
}

impl GoogleEndpoints {
    pub(crate) fn under(base_url: &str, issuer: &str) -> Self {
        Self {
            discovery: format!("{base_url}/google/.well-known/openid-configuration"),
            authorization: format!("{base_url}/google/o/oauth2/v2/auth"),
            token: format!("{base_url}/google/token"),
            userinfo: format!("{base_url}/google/v1/userinfo"),
            jwks: format!("{base_url}/google/oauth2/v3/certs"),
            revocation: format!("{base_url}/google/revoke"),
            issuer: issuer.to_owned(),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/.well-known/openid-configuration", get(configuration))
        .route("/o/oauth2/v2/auth", get(authorize))
        .route("/token", post(token))
        .route("/revoke", post(revoke))
        .route("/v1/userinfo", get(userinfo))
        .route("/oauth2/v3/userinfo", get(userinfo))
        .route(
            "/oauth2/v3/certs",
            get(
                |State(sim): State<Arc<SimState>>, headers: HeaderMap| async move {
                    jwks(&sim, P, &headers).await
                },
            ),
        )
}

const P: Provider = Provider::Google;
const INVALID_REQUEST: OAuthError = OAuthError::bad("invalid_request", "Invalid request");
const INVALID_GRANT: OAuthError = OAuthError::bad("invalid_grant", "Bad Request");

/// The discovery document, with the field set of PROVIDERS.md §1.1.
async fn configuration(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let base = format!("{}/google", sim.base_url);
    let body = json!({
        "issuer": sim.google_issuer,
        "authorization_endpoint": format!("{base}/o/oauth2/v2/auth"),
        "token_endpoint": format!("{base}/token"),
        "userinfo_endpoint": format!("{base}/v1/userinfo"),
        "jwks_uri": format!("{base}/oauth2/v3/certs"),
        // Only what the simulator serves: the code flow, no refresh grant yet.
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "email", "profile"],
        "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
        "claims_supported": ["aud", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss", "name", "picture", "sub"],
        "code_challenge_methods_supported": ["plain", "S256"],
        "grant_types_supported": ["authorization_code"],
    });
    let record = RequestRecord::new(P, Endpoint::Discovery, &headers);
    serve(&sim, record, |_| Ok(Json(body))).await
}

async fn authorize(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(q): Query<AuthorizeQuery>,
) -> Response {
    serve(&sim, q.record(P, &headers), |_| {
        // An error page (never a redirect) for an unknown client or callback; the redirect
        // URI is required and compared exactly.
        let (client, back) = q.client_and_back(
            &sim,
            P,
            false,
            (
                StatusCode::UNAUTHORIZED,
                "Error 401: invalid_client",
                "invalid_client",
            ),
            (
                StatusCode::BAD_REQUEST,
                "Error 400: redirect_uri_mismatch",
                "redirect_uri_mismatch",
            ),
        )?;
        if q.response_type.as_deref() != Some("code") {
            return Err(back.refuse("unsupported_response_type", SIMULATED));
        }
        let granted = scopes(q.scope.as_deref(), &[' ']);
        if granted.is_empty() || !q.challenge_ok(true) {
            return Err(back.refuse("invalid_request", SIMULATED));
        }
        if q.sim_deny.is_some() {
            return Err(back.refuse("access_denied", SIMULATED));
        }
        let user = q.user(&sim, None)?;
        Ok(back.approve(&sim, P, &q, (&client.client_id, granted, user), &[]))
    })
    .await
}

/// The code exchange: form bodies only, errors 400 (`invalid_grant`...) or 401
/// (`invalid_client`), an `id_token` iff `openid`.
async fn token(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    serve_at(&sim, (P, Endpoint::Token), &headers, |record| {
        let params: TokenParams = form(&headers, &body).ok_or(INVALID_REQUEST)?;
        let client = params.note(record, &headers);
        match params.grant_type.as_deref() {
            Some("authorization_code") => {}
            Some(_) => {
                return Err(OAuthError::bad("unsupported_grant_type", "Invalid grant_type").into());
            }
            None => return Err(INVALID_REQUEST.into()),
        }
        let client = client
            .and_then(|c| authenticate(&sim.clients, P, &c))
            .ok_or(OAuthError::new(
                StatusCode::UNAUTHORIZED,
                "invalid_client",
                "Unauthorized",
            ))?;
        let code = params.code.as_deref().ok_or(INVALID_REQUEST)?;
        let grant = sim
            .redeem(P, code, &client.client_id)
            .map_err(|_| INVALID_GRANT)?;
        if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
            return Err(OAuthError::bad("redirect_uri_mismatch", "Bad Request").into());
        }
        if !grant.verifier_matches(params.code_verifier.as_deref()) {
            return Err(INVALID_GRANT.into());
        }
        let access_token = sim.tokens.issue("ya29.", grant.token());
        let mut body = json!({
            "access_token": access_token,
            "expires_in": 3599,
            "token_type": "Bearer",
            "scope": grant.scopes.join(" "),
        });
        if has_scope(&grant.scopes, "openid") {
            body["id_token"] = json!(id_token::issue(
                &sim,
                P,
                &grant.subject(),
                Some(&access_token)
            ));
        }
        Ok(Json(body))
    })
    .await
}

/// `POST /revoke` with the form `token=` (an access or refresh token), no client
/// authentication: 200, or 400 `invalid_token` for a token Google does not know.
async fn revoke(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    serve_at(&sim, (P, Endpoint::Revoke), &headers, |_| {
        let params: TokenParams = form(&headers, &body).unwrap_or_default();
        let token = params.token.as_deref().ok_or(INVALID_REQUEST)?;
        let holder = sim
            .tokens
            .get(token)
            .or_else(|| sim.refresh_tokens.get(token));
        let holder = holder.filter(|t| t.provider == P);
        let client_id = holder
            .map(|t| t.client_id)
            .ok_or(OAuthError::bad("invalid_token", "Token expired or revoked"))?;
        let hint = params.token_type_hint.as_deref();
        sim.revoke((P, &client_id), token, hint, Reach::Token);
        Ok(Json(json!({})))
    })
    .await
}

/// `GET /v1/userinfo` (and `/oauth2/v3/userinfo`): the profile for a Bearer token.
async fn userinfo(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    serve_at(&sim, (P, Endpoint::Userinfo), &headers, |_| {
        let Some(issued) = sim.bearer_token(P, &headers) else {
            let body =
                json!({"error": "invalid_request", "error_description": "Invalid Credentials"});
            let challenge = "Bearer realm=\"simulator\", error=\"invalid_token\"";
            let response = (
                StatusCode::UNAUTHORIZED,
                [(header::WWW_AUTHENTICATE, challenge)],
                Json(body),
            );
            return Err(Refusal::new("invalid_token", response.into_response()));
        };
        let mut body = json!({ "sub": issued.user.id });
        if let Some(object) = body.as_object_mut() {
            object.extend(profile_claims(&issued.user, &issued.scopes));
        }
        Ok(Json(body))
    })
    .await
}

/// The id_token's claims (PROVIDERS.md §1.5), `at_hash` aside.
pub(crate) fn id_token_claims(sim: &SimState, subject: &Subject<'_>, now: i64) -> Value {
    let mut claims = json!({
        "iss": sim.google_issuer,
        "azp": subject.client_id,
        "aud": subject.client_id,
        "sub": subject.user.id,
        "iat": now,
        // Google's id_tokens live one hour.
        "exp": now + 3600,
    });
    if let Some(nonce) = subject.nonce {
        claims["nonce"] = json!(nonce);
    }
    if let Some(object) = claims.as_object_mut() {
        object.extend(profile_claims(subject.user, subject.scopes));
    }
    claims
}

/// The claims `email` and `profile` grant, shared by the id_token and userinfo. Absent
/// values are left out, as Google does.
fn profile_claims(user: &SimUser, scopes: &[String]) -> Map<String, Value> {
    let mut claims = Map::new();
    if has_scope(scopes, "email")
        && let Some(email) = &user.email
    {
        claims.insert("email".into(), json!(email));
        claims.insert("email_verified".into(), json!(user.email_verified));
    }
    if has_scope(scopes, "profile") {
        claims.extend(name_claims(user));
    }
    claims
}
