//! The simulated Discord (PROVIDERS.md §6, §11.7), served under `/discord`.
//!
//! `oauth2/authorize` imitates `discord.com/oauth2/authorize` (also under `api/`),
//! `api/oauth2/token` the token endpoint and `api/users/@me` (also `api/v10/users/@me`)
//! the current-user endpoint. Discord's profile fields beyond [`crate::SimUser`]'s come
//! from its [`DiscordSeed`].

mod seed;

pub use seed::DiscordSeed;

use crate::authorize::AuthorizeQuery;
use crate::client_auth::authenticate;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::flow::{OAuthError, Refusal, TokenParams, form, scopes, serve, serve_at};
use crate::pkce::{is_s256_challenge, is_valid_verifier};
use crate::random;
use crate::revocation::Reach;
use crate::state::SimState;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use std::sync::Arc;

/// The endpoint URLs of the simulated Discord, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscordEndpoints {
    pub authorization: String,
    pub token: String,
    pub user: String,
    pub revocation: String,
}

impl DiscordEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        Self {
            authorization: format!("{base_url}/discord/oauth2/authorize"),
            token: format!("{base_url}/discord/api/oauth2/token"),
            user: format!("{base_url}/discord/api/users/@me"),
            revocation: format!("{base_url}/discord/api/oauth2/token/revoke"),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/oauth2/authorize", get(authorize))
        .route("/api/oauth2/authorize", get(authorize))
        .route("/api/oauth2/token", post(token))
        .route("/api/oauth2/token/revoke", post(revoke))
        .route("/api/users/@me", get(current_user))
        .route("/api/v10/users/@me", get(current_user))
}

const P: Provider = Provider::Discord;
const UNSUPPORTED_GRANT: OAuthError =
    OAuthError::bad("unsupported_grant_type", "Unsupported grant type");
const INVALID_VERIFIER: OAuthError =
    OAuthError::bad("invalid_request", "Invalid \"code_verifier\"");
const BAD_CLIENT: OAuthError =
    OAuthError::new(StatusCode::UNAUTHORIZED, "invalid_client", "Unknown client");
const INVALID_CODE: OAuthError = OAuthError::bad("invalid_grant", "Invalid \"code\" in request.");

/// The exact redirect URI (the registered one when none is named), PKCE `S256` only.
async fn authorize(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(q): Query<AuthorizeQuery>,
) -> Response {
    serve(&sim, q.record(P, &headers), |_| {
        let (client, back) = q.client_and_back(
            &sim,
            P,
            true,
            (
                StatusCode::BAD_REQUEST,
                "Invalid OAuth2 application",
                "unknown_client",
            ),
            (
                StatusCode::BAD_REQUEST,
                "Invalid OAuth2 redirect_uri",
                "invalid_redirect_uri",
            ),
        )?;
        let refuse = |error, description| back.refuse(error, &[("error_description", description)]);
        if q.response_type.as_deref() != Some("code") {
            return Err(refuse(
                "unsupported_response_type",
                "Unsupported \"response_type\"",
            ));
        }
        let granted = scopes(q.scope.as_deref(), &[' ']);
        if granted.is_empty() {
            return Err(refuse("invalid_scope", "The requested scope is invalid"));
        }
        let pkce = match (
            q.code_challenge.as_deref(),
            q.code_challenge_method.as_deref(),
        ) {
            (None, None) => None,
            (None, Some(_)) => Some("Missing \"code_challenge\""),
            // An absent method would mean `plain`, which Discord refuses.
            (Some(_), method) if method != Some("S256") => {
                Some("Unsupported \"code_challenge_method\"")
            }
            (Some(challenge), _) if !is_s256_challenge(challenge) => {
                Some("Invalid \"code_challenge\"")
            }
            (Some(_), _) => None,
        };
        if let Some(description) = pkce {
            return Err(refuse("invalid_request", description));
        }
        if q.sim_deny.is_some() {
            let description = "The resource owner or authorization server denied the request";
            return Err(refuse("access_denied", description));
        }
        let user = q.user(&sim, None)?;
        Ok(back.approve(&sim, P, &q, (&client.client_id, granted, user), &[]))
    })
    .await
}

/// The code exchange: form bodies only, client credentials as Basic or in the body,
/// Discord's strict `code_verifier` rules.
async fn token(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    serve_at(&sim, (P, Endpoint::Token), &headers, |record| {
        // Discord reads form bodies only; a JSON body has no `grant_type` it can see [M].
        let params: TokenParams = form(&headers, &body).ok_or(UNSUPPORTED_GRANT)?;
        let client = params.note(record, &headers);
        if params.grant_type.as_deref() != Some("authorization_code") {
            return Err(UNSUPPORTED_GRANT.into());
        }
        let client = client
            .and_then(|c| authenticate(&sim.clients, P, &c))
            .ok_or(BAD_CLIENT)?;
        let verifier = params.code_verifier.as_deref();
        // A verifier shorter than 43 characters is refused outright (PROVIDERS.md §6.3).
        if verifier.is_some_and(|v| !is_valid_verifier(v)) {
            return Err(INVALID_VERIFIER.into());
        }
        let code = params
            .code
            .as_deref()
            .ok_or(OAuthError::bad("invalid_request", "Missing \"code\""))?;
        let grant = sim
            .redeem(P, code, &client.client_id)
            .map_err(|_| INVALID_CODE)?;
        if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
            return Err(
                OAuthError::bad("invalid_grant", "Invalid \"redirect_uri\" in request.").into(),
            );
        }
        // A verifier without a stored challenge is refused too (next-auth issue #10352).
        match (grant.code_challenge.is_some(), verifier.is_some()) {
            (false, true) => return Err(INVALID_VERIFIER.into()),
            (true, false) => {
                return Err(OAuthError::bad("invalid_request", "Missing \"code_verifier\"").into());
            }
            _ if !grant.verifier_matches(verifier) => {
                return Err(OAuthError::bad("invalid_grant", "Invalid \"code_verifier\"").into());
            }
            _ => {}
        }
        Ok(Json(json!({
            "access_token": sim.tokens.issue("", grant.token()),
            "token_type": "Bearer",
            "expires_in": 604800,
            // Revocable, not redeemable: the simulator has no refresh grant.
            "refresh_token": sim.refresh_tokens.insert(random::base62(30), grant.token()),
            "scope": grant.scopes.join(" "),
        })))
    })
    .await
}

/// `POST /api/oauth2/token/revoke`: `token` (optional `token_type_hint`) with the client's
/// credentials, Basic or in the body; revoking either token revokes every token of that
/// authorization. `{}` for an unknown token too.
async fn revoke(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    serve_at(&sim, (P, Endpoint::Revoke), &headers, |record| {
        let missing = OAuthError::bad("invalid_request", "Missing \"token\"");
        let params: TokenParams = form(&headers, &body).ok_or(missing)?;
        let client = params.note(record, &headers);
        let client = client
            .and_then(|c| authenticate(&sim.clients, P, &c))
            .ok_or(BAD_CLIENT)?;
        let token = params.token.as_deref().ok_or(missing)?;
        let hint = params.token_type_hint.as_deref();
        sim.revoke((P, &client.client_id), token, hint, Reach::Grant);
        Ok(Json(json!({})))
    })
    .await
}

/// `GET /api/users/@me` for a Bearer token with `identify`; `email` and `verified` only
/// with the `email` scope too. The user object of PROVIDERS.md §6.5.
async fn current_user(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    serve_at(&sim, (P, Endpoint::Userinfo), &headers, |_| {
        let unauthorized = |outcome| {
            let body = json!({"message": "401: Unauthorized", "code": 0});
            Refusal::new(outcome, (StatusCode::UNAUTHORIZED, Json(body)))
        };
        let issued = sim
            .bearer_token(P, &headers)
            .ok_or_else(|| unauthorized("invalid_token"))?;
        // Discord answers a token without `identify` like a missing one.
        if !issued.has_any_scope(&["identify"]) {
            return Err(unauthorized("missing_scope"));
        }
        let user = &issued.user;
        let seed = user.discord_seed();
        let mut body = json!({
            "id": user.id,
            "username": user.login,
            "discriminator": seed.discriminator,
            "global_name": user.name,
            "avatar": seed.avatar,
            "mfa_enabled": false,
            "banner": null,
            "accent_color": null,
            "locale": "en-US",
            "flags": 0,
            "premium_type": 0,
            "public_flags": 0,
            "avatar_decoration_data": null,
        });
        if issued.has_any_scope(&["email"]) {
            body["email"] = json!(user.email);
            body["verified"] = json!(user.email_verified);
        }
        Ok(Json(body))
    })
    .await
}
