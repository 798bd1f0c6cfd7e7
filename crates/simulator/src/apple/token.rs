//! `POST /apple/auth/token` and `/auth/revoke` (PROVIDERS.md §8.4, §8.6): form bodies only,
//! the ES256 client secret, single-use 5-minute codes, PKCE once a challenge was sent, the
//! refresh grant without rotation, errors as HTTP 400 `{"error": …}`.

use super::P;
use super::client_secret::authenticate;
use crate::faults::Endpoint;
use crate::flow::{OAuthError, TokenParams, form, serve_at};
use crate::id_token::{self, Subject};
use crate::revocation::{Reach, TokenKind};
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};
use std::sync::Arc;

const INVALID_REQUEST: OAuthError = OAuthError::bare("invalid_request");
const INVALID_GRANT: OAuthError = OAuthError::bare("invalid_grant");

pub async fn token(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    serve_at(&sim, (P, Endpoint::Token), &headers, |record| {
        let params: TokenParams = form(&headers, &body).ok_or(INVALID_REQUEST)?;
        record.code_verifier_present = params.code_verifier.is_some();
        record.redirect_uri.clone_from(&params.redirect_uri);
        let grant_type = params.grant_type.as_deref().ok_or(INVALID_REQUEST)?;
        if !matches!(grant_type, "authorization_code" | "refresh_token") {
            return Err(OAuthError::bare("unsupported_grant_type").into());
        }
        let client = authenticate(&sim, &headers, &params, record)?;
        if grant_type == "refresh_token" {
            let token = params.refresh_token.as_deref().ok_or(INVALID_REQUEST)?;
            let issued = sim.apple.refresh_tokens.get(token);
            let issued = issued
                .filter(|i| i.client_id == client.client_id)
                .ok_or(INVALID_GRANT)?;
            // Apple's refresh grant sends no new refresh token (no rotation).
            return Ok(Json(tokens(&sim, &issued, None, false)));
        }
        let code = params.code.as_deref().ok_or(INVALID_REQUEST)?;
        let grant = sim
            .redeem(P, code, &client.client_id)
            .map_err(|_| INVALID_GRANT)?;
        if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str())
            || !grant.verifier_matches(params.code_verifier.as_deref())
        {
            return Err(INVALID_GRANT.into());
        }
        Ok(Json(tokens(
            &sim,
            &grant.token(),
            grant.nonce.as_deref(),
            true,
        )))
    })
    .await
}

/// The token response: a new access token and id_token, and a refresh token when asked.
fn tokens(sim: &SimState, issued: &IssuedToken, nonce: Option<&str>, refresh: bool) -> Value {
    let access_token = sim.tokens.issue("a", issued.clone());
    let subject = Subject {
        client_id: &issued.client_id,
        user: &issued.user,
        scopes: &issued.scopes,
        nonce,
    };
    let mut body = json!({
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": 3600,
        "id_token": id_token::issue(sim, P, &subject, None),
    });
    if refresh {
        body["refresh_token"] = json!(sim.apple.refresh_tokens.issue("r", issued.clone()));
    }
    body
}

/// Invalidates a refresh or access token. Revoking a refresh token also forgets the
/// user's consent, so the next authorization is a first one again and posts `user`
/// (Apple TN3194).
pub async fn revoke(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    serve_at(&sim, (P, Endpoint::Revoke), &headers, |record| {
        let params: TokenParams = form(&headers, &body).ok_or(INVALID_REQUEST)?;
        let client = authenticate(&sim, &headers, &params, record)?;
        let token = params.token.as_deref().ok_or(INVALID_REQUEST)?;
        // RFC 7009 §2.2: an unknown token (or another client's) is answered 200 all the same.
        let hint = params.token_type_hint.as_deref();
        let revoked = sim.revoke((P, &client.client_id), token, hint, Reach::Token);
        if let Some((TokenKind::Refresh, issued)) = revoked {
            sim.apple
                .forget_authorization(&client.client_id, &issued.user.id);
        }
        Ok(StatusCode::OK)
    })
    .await
}
