//! The simulated Microsoft identity platform (PROVIDERS.md §4, §11.5), served under
//! `/microsoft/{tenant}/...` where `{tenant}` is `common`, `organizations`, `consumers` or a
//! tenant GUID, as on `login.microsoftonline.com`.
//!
//! Its quirks are the point: `common`'s discovery names the literal issuer template
//! `<base>/microsoft/{tenantid}/v2.0`, key-set entries have no `alg`, each id_token's `iss`
//! is its own tenant's, and an email is only vouched for through `xms_edov`. Errors carry
//! the AADSTS envelope. People are [`crate::SimUser`]s with a [`MicrosoftAccount`].

mod aadsts;
mod account;
mod metadata;

pub use account::{MICROSOFT_CONSUMER_TENANT, MicrosoftAccount};
pub(crate) use metadata::id_token_claims;

use crate::authorize::{AuthorizeQuery, SIMULATED};
use crate::client_auth::authenticate;
use crate::codes::RedeemError;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::flow::{Refusal, TokenParams, form, has_scope, scopes, serve, serve_at};
use crate::id_token;
use crate::random;
use crate::state::SimState;
use aadsts::Aadsts;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use std::sync::Arc;

/// The endpoint URLs of the simulated Microsoft under one tenant path (`common` by
/// default), to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MicrosoftEndpoints {
    pub discovery: String,
    pub authorization: String,
    pub token: String,
    pub jwks: String,
    /// The issuer template, `<base>/microsoft/{tenantid}/v2.0`: what `endpoints.issuer`
    /// is set to. Each id_token's `iss` is this with its own `tid`.
    pub issuer: String,
}

impl MicrosoftEndpoints {
    pub(crate) fn under(base_url: &str, tenant: &str) -> Self {
        let root = format!("{base_url}/microsoft/{tenant}");
        Self {
            discovery: format!("{root}/v2.0/.well-known/openid-configuration"),
            authorization: format!("{root}/oauth2/v2.0/authorize"),
            token: format!("{root}/oauth2/v2.0/token"),
            jwks: format!("{root}/discovery/v2.0/keys"),
            issuer: issuer_of(base_url, "{tenantid}"),
        }
    }

    /// The `iss` of the id_tokens of tenant `tid`.
    pub fn issuer_of(&self, tid: &str) -> String {
        self.issuer.replace("{tenantid}", tid)
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route(
            "/{tenant}/v2.0/.well-known/openid-configuration",
            get(metadata::configuration),
        )
        .route("/{tenant}/discovery/v2.0/keys", get(metadata::keys))
        .route("/{tenant}/oauth2/v2.0/authorize", get(authorize))
        .route("/{tenant}/oauth2/v2.0/token", post(token))
}

const P: Provider = Provider::Microsoft;
const BAD_REQUEST: StatusCode = StatusCode::BAD_REQUEST;
const NOT_FORM: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_request",
    900144,
    "The request body must contain the following parameter: 'grant_type'.",
);
const NO_CODE: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_request",
    900144,
    "The request body must contain the following parameter: 'code'.",
);
const UNSUPPORTED_GRANT: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "unsupported_grant_type",
    70003,
    "The app requested an unsupported grant type.",
);
const TENANT_NOT_FOUND: Aadsts =
    Aadsts::new(BAD_REQUEST, "invalid_request", 90002, "Tenant not found.");
const UNKNOWN_APP: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "unauthorized_client",
    700016,
    "Application with identifier was not found in the directory.",
);
const BAD_SECRET: Aadsts = Aadsts::new(
    StatusCode::UNAUTHORIZED,
    "invalid_client",
    7000215,
    "Invalid client secret provided.",
);
const BAD_CODE: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_grant",
    70000,
    "The provided value for the 'code' parameter is not valid.",
);
const EXPIRED_CODE: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_grant",
    70008,
    "The provided authorization code or refresh token has expired.",
);
const WRONG_REDIRECT: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_grant",
    50011,
    "The redirect URI specified in the request does not match the one of the authorization request.",
);
const NOT_IN_TENANT: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_grant",
    50020,
    "User account does not exist in tenant.",
);
const PKCE_MISMATCH: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_grant",
    501481,
    "The Code_Verifier does not match the code_challenge supplied in the authorization request.",
);

/// The `{tenant}` segment of a path, and who may sign in through it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum TenantPath {
    /// Work, school and personal accounts.
    Common,
    /// Work and school accounts only.
    Organizations,
    /// Personal accounts only.
    Consumers,
    /// The members of one tenant.
    Tenant(String),
}
impl TenantPath {
    /// `None` for a segment Microsoft would answer "tenant not found" to.
    fn parse(segment: &str) -> Option<Self> {
        match segment {
            "common" => Some(Self::Common),
            "organizations" => Some(Self::Organizations),
            "consumers" => Some(Self::Consumers),
            guid if is_guid(guid) => Some(Self::Tenant(guid.to_ascii_lowercase())),
            _ => None,
        }
    }

    fn admits(&self, account: &MicrosoftAccount) -> bool {
        match self {
            Self::Common => true,
            Self::Organizations => !account.is_personal(),
            Self::Consumers => account.is_personal(),
            Self::Tenant(tid) => account.tenant_id.eq_ignore_ascii_case(tid),
        }
    }
}
fn is_guid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(group, len)| group.len() == len && group.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The id_token issuer of tenant `tid` on this simulator.
fn issuer_of(base_url: &str, tid: &str) -> String {
    format!("{base_url}/microsoft/{tid}/v2.0")
}

/// Checks the request the way the identity platform does and approves as the chosen
/// identity if the tenant path admits them. An error page (never a redirect) for an
/// unknown tenant, app or reply URL; the reply URL is the first registered when none is named.
async fn authorize(
    State(sim): State<Arc<SimState>>,
    Path(tenant): Path<String>,
    headers: HeaderMap,
    Query(q): Query<AuthorizeQuery>,
) -> Response {
    serve(&sim, q.record(P, &headers), |_| {
        let page = |message, outcome| Refusal::page(BAD_REQUEST, message, outcome);
        let tenant = TenantPath::parse(&tenant)
            .ok_or_else(|| page("AADSTS90002: Tenant not found.", "tenant_not_found"))?;
        let (client, back) = q.client_and_back(
            &sim,
            P,
            true,
            (
                BAD_REQUEST,
                "AADSTS700016: Application with identifier was not found in the directory.",
                "unauthorized_client",
            ),
            (
                BAD_REQUEST,
                "AADSTS50011: The redirect URI specified in the request does not match the redirect URIs configured for the application.",
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
        // A personal account at `/organizations` (or a stranger at a tenant path) cannot sign in.
        if !tenant.admits(&user.microsoft_account()) {
            let message = "AADSTS50020: User account does not exist in tenant.";
            return Err(page(message, "user_not_in_tenant"));
        }
        Ok(back.approve(&sim, P, &q, (&client.client_id, granted, user), &[]))
    })
    .await
}

/// The code exchange: form body only, client secret in the body or HTTP Basic, AADSTS
/// error envelopes, an `id_token` iff `openid`, a `refresh_token` iff `offline_access`.
async fn token(
    State(sim): State<Arc<SimState>>,
    Path(tenant): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    serve_at(&sim, (P, Endpoint::Token), &headers, |record| {
        let params: TokenParams = form(&headers, &body).ok_or(NOT_FORM)?;
        let client = params.note(record, &headers);
        let tenant = TenantPath::parse(&tenant).ok_or(TENANT_NOT_FOUND)?;
        match params.grant_type.as_deref() {
            Some("authorization_code") => {}
            Some(_) => return Err(UNSUPPORTED_GRANT.into()),
            None => return Err(NOT_FORM.into()),
        }
        let client = client.ok_or(UNKNOWN_APP)?;
        sim.client(P, &client.client_id).ok_or(UNKNOWN_APP)?;
        let client = authenticate(&sim.clients, P, &client).ok_or(BAD_SECRET)?;
        let code = params.code.as_deref().ok_or(NO_CODE)?;
        let grant = sim
            .redeem(P, code, &client.client_id)
            .map_err(|error| match error {
                RedeemError::Expired => EXPIRED_CODE,
                RedeemError::Unknown => BAD_CODE,
            })?;
        if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
            return Err(WRONG_REDIRECT.into());
        }
        if !tenant.admits(&grant.user.microsoft_account()) {
            return Err(NOT_IN_TENANT.into());
        }
        if !grant.verifier_matches(params.code_verifier.as_deref()) {
            return Err(PKCE_MISMATCH.into());
        }
        // Graph access tokens are opaque to the app (personal accounts' start `EwA`).
        let mut body = json!({
            "token_type": "Bearer",
            "scope": grant.scopes.join(" "),
            "expires_in": 3599,
            "ext_expires_in": 3599,
            "access_token": sim.tokens.issue("EwA", grant.token()),
        });
        if has_scope(&grant.scopes, "offline_access") {
            // Shape only: the simulator does not serve the refresh grant.
            body["refresh_token"] = json!(format!("M.C5_{}", random::base62(80)));
        }
        if has_scope(&grant.scopes, "openid") {
            body["id_token"] = json!(id_token::issue(&sim, P, &grant.subject(), None));
        }
        Ok(Json(body))
    })
    .await
}
