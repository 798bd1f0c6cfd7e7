//! The simulated Facebook (PROVIDERS.md §3, §11.4), served under `/facebook`.
//!
//! `{version}/dialog/oauth` imitates `www.facebook.com`; `graph/…` imitates
//! `graph.facebook.com`: the token endpoint (GET and POST) and `/me`. Any Graph version
//! segment (`v24.0`) is accepted and recorded as the request's `api_version`. The app is
//! simulated with "Require App Secret" on: `/me` needs a correct `appsecret_proof`.

mod graph;

use crate::authorize::AuthorizeQuery;
use crate::client_auth::{PresentedClient, authenticate};
use crate::codes::RedeemError;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::flow::{Refusal, TokenParams, form, scopes, serve};
use crate::log::{ClientAuthKind, RequestRecord};
use crate::state::SimState;
use axum::body::Bytes;
use axum::extract::{Path, Query, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{delete, get};
use axum::{Json, Router};
use graph::GraphError;
use serde_json::json;
use std::sync::Arc;

/// The Graph API version the endpoint URLs below name.
pub const FACEBOOK_SIM_VERSION: &str = "v24.0";

/// The endpoint URLs of the simulated Facebook, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FacebookEndpoints {
    pub authorization: String,
    pub token: String,
    pub me: String,
    /// `DELETE /me/permissions`: de-authorizes the app.
    pub revocation: String,
}

impl FacebookEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        let version = FACEBOOK_SIM_VERSION;
        Self {
            authorization: format!("{base_url}/facebook/{version}/dialog/oauth"),
            token: format!("{base_url}/facebook/graph/{version}/oauth/access_token"),
            me: format!("{base_url}/facebook/graph/{version}/me"),
            revocation: format!("{base_url}/facebook/graph/{version}/me/permissions"),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/{version}/dialog/oauth", get(dialog))
        .route(
            "/graph/{version}/oauth/access_token",
            get(access_token).post(access_token),
        )
        .route("/graph/{version}/me", get(graph::me_versioned))
        .route("/graph/me", get(graph::me_unversioned))
        .route("/graph/{version}/me/permissions", delete(graph::revoke))
}

const P: Provider = Provider::Facebook;
const BAD_APP: GraphError =
    GraphError::oauth(101, "Error validating application. Invalid application ID.");
const BAD_SECRET: GraphError = GraphError::oauth(1, "Error validating client secret.");
const BAD_CODE: GraphError = GraphError::oauth(100, "Invalid verification code format.");
const USED_OR_UNKNOWN_CODE: GraphError =
    GraphError::oauth(100, "This authorization code has been used.").with_subcode(36009);
const EXPIRED_CODE: GraphError =
    GraphError::oauth(100, "This authorization code has expired.").with_subcode(36007);
const REDIRECT_MISMATCH: GraphError = GraphError::oauth(
    100,
    "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request",
)
.with_subcode(36008);
const MISSING_REDIRECT: GraphError = GraphError::oauth(191, "Missing redirect_uri parameter.");
// The wording of the PKCE failures is not documented [M].
const MISSING_VERIFIER: GraphError = GraphError::oauth(100, "Missing code_verifier parameter.");
const BAD_VERIFIER: GraphError = GraphError::oauth(100, "Invalid code_verifier.");
const UNKNOWN_PATH: GraphError = GraphError::oauth(2500, "Unknown path components");

/// A Graph version segment: `v` then `major.minor` digits (`v24.0`).
fn is_version(segment: &str) -> bool {
    let Some((major, minor)) = segment
        .strip_prefix('v')
        .and_then(|rest| rest.split_once('.'))
    else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
    digits(major) && digits(minor)
}

/// The login dialog: the app, the exact redirect URI (strict mode), an optional PKCE
/// challenge (`S256` or `plain`); errors go back with Facebook's extra parameters.
async fn dialog(
    State(sim): State<Arc<SimState>>,
    Path(version): Path<String>,
    headers: HeaderMap,
    Query(q): Query<AuthorizeQuery>,
) -> Response {
    let mut record = q.record(P, &headers);
    record.api_version = Some(version.clone());
    serve(&sim, record, |_| {
        if !is_version(&version) {
            let message = "Sorry, this page isn't available";
            return Err(Refusal::page(
                StatusCode::NOT_FOUND,
                message,
                "unknown_version",
            ));
        }
        let (client, back) = q.client_and_back(
            &sim,
            P,
            false,
            (StatusCode::BAD_REQUEST, "Invalid App ID", "invalid_app_id"),
            (StatusCode::BAD_REQUEST, "URL Blocked", "url_blocked"),
        )?;
        if q.response_type.as_deref().is_some_and(|t| t != "code") {
            return Err(back.refuse("unsupported_response_type", &[]));
        }
        if !q.challenge_ok(true) {
            return Err(back.refuse(
                "invalid_request",
                &[("error_description", "Invalid code_challenge")],
            ));
        }
        if q.sim_deny.is_some() {
            let extra = [
                ("error_code", "200"),
                ("error_description", "Permissions error"),
                ("error_reason", "user_denied"),
            ];
            return Err(back.refuse("access_denied", &extra));
        }
        let user = q.user(&sim, None)?;
        // Comma-separated scopes are documented, spaces work too; `public_profile` is
        // always granted, asked for or not.
        let mut granted = scopes(q.scope.as_deref(), &[' ', ',']);
        if !granted.iter().any(|s| s == "public_profile") {
            granted.push("public_profile".to_owned());
        }
        Ok(back.approve(&sim, P, &q, (&client.client_id, granted, user), &[]))
    })
    .await
}

/// The code exchange: parameters in the query or a form body (the body wins), client
/// credentials as parameters only, failures in the Graph error envelope.
async fn access_token(
    State(sim): State<Arc<SimState>>,
    Path(version): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mut record = RequestRecord::new(P, Endpoint::Token, &headers);
    record.api_version = Some(version.clone());
    serve(&sim, record, |record| {
        if !is_version(&version) {
            return Err(UNKNOWN_PATH.into());
        }
        let from_query: TokenParams =
            serde_urlencoded::from_str(query.as_deref().unwrap_or_default()).unwrap_or_default();
        let from_body: TokenParams = form(&headers, &body).unwrap_or_default();
        let params = TokenParams {
            client_id: from_body.client_id.or(from_query.client_id),
            client_secret: from_body.client_secret.or(from_query.client_secret),
            code: from_body.code.or(from_query.code),
            redirect_uri: from_body.redirect_uri.or(from_query.redirect_uri),
            code_verifier: from_body.code_verifier.or(from_query.code_verifier),
            grant_type: from_body.grant_type.or(from_query.grant_type),
            ..TokenParams::default()
        };
        // Facebook has no HTTP Basic: only the parameters count.
        params.note(record, &HeaderMap::new());
        if params
            .grant_type
            .as_deref()
            .is_some_and(|g| g != "authorization_code")
        {
            return Err(GraphError::oauth(100, "Unsupported grant_type").into());
        }
        let client_id = params.client_id.clone().ok_or(BAD_APP)?;
        if sim.client(P, &client_id).is_none() {
            return Err(BAD_APP.into());
        }
        let presented = PresentedClient {
            client_id,
            client_secret: params.client_secret.clone(),
            kind: ClientAuthKind::Body,
        };
        let client = authenticate(&sim.clients, P, &presented).ok_or(BAD_SECRET)?;
        let redirect_uri = params.redirect_uri.as_deref().ok_or(MISSING_REDIRECT)?;
        let code = params.code.as_deref().ok_or(BAD_CODE)?;
        let grant = sim
            .redeem(P, code, &client.client_id)
            .map_err(|error| match error {
                RedeemError::Unknown => USED_OR_UNKNOWN_CODE,
                RedeemError::Expired => EXPIRED_CODE,
            })?;
        if redirect_uri != grant.redirect_uri {
            return Err(REDIRECT_MISMATCH.into());
        }
        // A verifier without a stored challenge is ignored.
        if grant.code_challenge.is_some() && params.code_verifier.is_none() {
            return Err(MISSING_VERIFIER.into());
        }
        if !grant.verifier_matches(params.code_verifier.as_deref()) {
            return Err(BAD_VERIFIER.into());
        }
        let access_token = sim.tokens.issue("EAA", grant.token());
        Ok(Json(
            json!({"access_token": access_token, "token_type": "bearer", "expires_in": 5183999}),
        ))
    })
    .await
}
