//! The simulated LinkedIn, "Sign In with LinkedIn using OpenID Connect" (PROVIDERS.md §5,
//! §11.6), served under `/linkedin`: one prefix for `www.linkedin.com/oauth` (discovery,
//! authorize, token, keys) and `api.linkedin.com` (userinfo). Its quirks: client
//! credentials in the body only (HTTP Basic is refused), no `nonce` in the id_token even
//! when one was sent, the id_token's `email_verified` and `locale` strings while userinfo
//! has a boolean and an object, and PKCE handled as the [`LinkedinKnobs`] say.

mod knobs;

pub(crate) use knobs::set_knobs;
pub use knobs::{LinkedinKnobStore, LinkedinKnobs, LinkedinPkce};

use crate::authorize::{AuthorizeQuery, SIMULATED};
use crate::client_auth::{authenticate, presented};
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::flow::{
    OAuthError, Refusal, TokenParams, form, has_scope, jwks, scopes, serve, serve_at,
};
use crate::id_token::{self, Subject, name_claims};
use crate::log::{ClientAuthKind, RequestRecord};
use crate::revocation::Reach;
use crate::state::SimState;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The endpoint URLs of the simulated LinkedIn, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedinEndpoints {
    pub discovery: String,
    pub authorization: String,
    pub token: String,
    pub userinfo: String,
    pub jwks: String,
    pub revocation: String,
    /// The `iss` of its id_tokens, `<base>/linkedin/oauth`.
    pub issuer: String,
}

impl LinkedinEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        Self {
            discovery: format!("{base_url}/linkedin/oauth/.well-known/openid-configuration"),
            authorization: format!("{base_url}/linkedin/oauth/v2/authorization"),
            token: format!("{base_url}/linkedin/oauth/v2/accessToken"),
            userinfo: format!("{base_url}/linkedin/v2/userinfo"),
            jwks: format!("{base_url}/linkedin/oauth/openid/jwks"),
            revocation: format!("{base_url}/linkedin/oauth/v2/revoke"),
            issuer: format!("{base_url}/linkedin/oauth"),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route(
            "/oauth/.well-known/openid-configuration",
            get(configuration),
        )
        .route("/oauth/v2/authorization", get(authorize))
        .route("/oauth/v2/accessToken", post(token))
        .route("/oauth/v2/revoke", post(revoke))
        .route(
            "/oauth/openid/jwks",
            get(
                |State(sim): State<Arc<SimState>>, headers: HeaderMap| async move {
                    jwks(&sim, P, &headers).await
                },
            ),
        )
        .route("/v2/userinfo", get(userinfo))
}

const P: Provider = Provider::Linkedin;
/// The scopes an app with "Sign In with LinkedIn using OpenID Connect" (and "Share on
/// LinkedIn") may ask for; the legacy `r_liteprofile`/`r_emailaddress` are gone.
const KNOWN_SCOPES: [&str; 4] = ["openid", "profile", "email", "w_member_social"];
const BAD_CLIENT: OAuthError = OAuthError::new(
    StatusCode::UNAUTHORIZED,
    "invalid_client",
    "Client authentication failed",
);
const BAD_CODE: OAuthError = OAuthError::bad(
    "invalid_request",
    "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired.",
);

/// The discovery document (PROVIDERS.md §5.1).
async fn configuration(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let base = format!("{}/linkedin", sim.base_url);
    let body = json!({
        "issuer": format!("{base}/oauth"),
        "authorization_endpoint": format!("{base}/oauth/v2/authorization"),
        "token_endpoint": format!("{base}/oauth/v2/accessToken"),
        "userinfo_endpoint": format!("{base}/v2/userinfo"),
        "jwks_uri": format!("{base}/oauth/openid/jwks"),
        "response_types_supported": ["code"],
        "subject_types_supported": ["pairwise"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "profile", "email"],
        "claims_supported": ["iss", "aud", "iat", "exp", "sub", "name", "given_name", "family_name", "picture", "email", "email_verified", "locale"],
    });
    serve(
        &sim,
        RequestRecord::new(P, Endpoint::Discovery, &headers),
        |_| Ok(Json(body)),
    )
    .await
}

/// An error page for an unknown app or callback; `code_challenge` and `nonce` are
/// recorded, only [`LinkedinPkce::Enforce`] looks at the challenge.
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
                "invalid_client_id",
                "invalid_client_id",
            ),
            (
                StatusCode::BAD_REQUEST,
                "The redirect_uri does not match the registered value",
                "redirect_uri_mismatch",
            ),
        )?;
        if q.response_type.as_deref() != Some("code") {
            return Err(back.refuse("unsupported_response_type", SIMULATED));
        }
        let granted = scopes(q.scope.as_deref(), &[' ']);
        if granted.is_empty() || granted.iter().any(|s| !KNOWN_SCOPES.contains(&s.as_str())) {
            return Err(back.refuse("unauthorized_scope_error", SIMULATED));
        }
        // A native app's PKCE: S256 only.
        let s256 = q.code_challenge.is_some() && q.challenge_ok(false);
        if sim.linkedin_knobs.get().pkce == LinkedinPkce::Enforce && !s256 {
            return Err(back.refuse("invalid_request", SIMULATED));
        }
        if q.sim_deny.is_some() {
            return Err(back.refuse("user_cancelled_authorize", SIMULATED));
        }
        let user = q.user(&sim, None)?;
        Ok(back.approve(&sim, P, &q, (&client.client_id, granted, user), &[]))
    })
    .await
}

/// The code exchange: client credentials in the form body only (HTTP Basic alone is
/// `401 invalid_client`), a bad code `400 invalid_request`, PKCE per [`LinkedinPkce`],
/// an `id_token` iff `openid`.
async fn token(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    serve_at(&sim, (P, Endpoint::Token), &headers, |record| {
        let missing = "A required parameter is missing or the body is not a form";
        let params: TokenParams = form(&headers, &body).ok_or(OAuthError::bad("invalid_request", missing))?;
        // Only the body counts; the Authorization header is read for the log alone.
        let client = params.note(record, &HeaderMap::new());
        if let Some(basic) = presented(&headers, None, None).filter(|_| client.is_none()) {
            record.client_id = Some(basic.client_id);
            record.client_auth = Some(ClientAuthKind::Basic);
        }
        match params.grant_type.as_deref() {
            Some("authorization_code") => {}
            Some(_) => {
                return Err(OAuthError::bad("unsupported_grant_type", "Grant type is not supported").into());
            }
            None => {
                let description = "A required parameter \"grant_type\" is missing";
                return Err(OAuthError::bad("invalid_request", description).into());
            }
        }
        let client = client.and_then(|c| authenticate(&sim.clients, P, &c)).ok_or(BAD_CLIENT)?;
        let pkce = sim.linkedin_knobs.get().pkce;
        if pkce == LinkedinPkce::Reject && params.code_verifier.is_some() {
            let description = "Unable to retrieve access token: code_verifier is not supported for this application";
            return Err(OAuthError::bad("invalid_request", description).into());
        }
        let code = params.code.as_deref().ok_or(BAD_CODE)?;
        let grant = sim.redeem(P, code, &client.client_id).map_err(|_| BAD_CODE)?;
        let verified = grant.code_challenge.is_some() && grant.verifier_matches(params.code_verifier.as_deref());
        if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str())
            || (pkce == LinkedinPkce::Enforce && !verified)
        {
            return Err(BAD_CODE.into());
        }
        let mut body = json!({
            "access_token": sim.tokens.issue("AQV", grant.token()),
            // Sixty days; refresh tokens are for approved partners only.
            "expires_in": 5_184_000,
            // LinkedIn lists the granted scopes comma-separated.
            "scope": grant.scopes.join(","),
            "token_type": "Bearer",
        });
        if has_scope(&grant.scopes, "openid") {
            body["id_token"] = json!(id_token::issue(&sim, P, &grant.subject(), None));
        }
        Ok(Json(body))
    })
    .await
}

/// `POST /oauth/v2/revoke`: `token` with the client's credentials in the form body only;
/// 200 with an empty body, for an unknown token too (LinkedIn's endpoint is unverified).
async fn revoke(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    serve_at(&sim, (P, Endpoint::Revoke), &headers, |record| {
        let missing = OAuthError::bad(
            "invalid_request",
            "A required parameter \"token\" is missing",
        );
        let params: TokenParams = form(&headers, &body).ok_or(missing)?;
        let client = params.note(record, &HeaderMap::new());
        let client = client
            .and_then(|c| authenticate(&sim.clients, P, &c))
            .ok_or(BAD_CLIENT)?;
        let token = params.token.as_deref().ok_or(missing)?;
        let hint = params.token_type_hint.as_deref();
        sim.revoke((P, &client.client_id), token, hint, Reach::Token);
        Ok(StatusCode::OK)
    })
    .await
}

/// `GET /v2/userinfo` for a Bearer token that was granted `openid`.
async fn userinfo(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    serve_at(&sim, (P, Endpoint::Userinfo), &headers, |_| {
        // LinkedIn's REST API error shape.
        let error = |status: StatusCode, code: u32, message: &str, outcome: &str| {
            let body =
                json!({"serviceErrorCode": code, "message": message, "status": status.as_u16()});
            Refusal::new(outcome, (status, Json(body)))
        };
        let issued = sim.bearer_token(P, &headers).ok_or_else(|| {
            error(
                StatusCode::UNAUTHORIZED,
                65600,
                "Invalid access token",
                "invalid_token",
            )
        })?;
        if !issued.has_any_scope(&["openid"]) {
            let message = "Not enough permissions to access: userinfo.GET.NO_VERSION";
            return Err(error(StatusCode::FORBIDDEN, 100, message, "access_denied"));
        }
        let mut body = json!({ "sub": issued.user.id });
        if let Some(object) = body.as_object_mut() {
            let subject = Subject {
                client_id: "",
                user: &issued.user,
                scopes: &issued.scopes,
                nonce: None,
            };
            object.extend(member_claims(&subject, false));
        }
        Ok(Json(body))
    })
    .await
}

/// The id_token's claims. The nonce is deliberately left out: LinkedIn does not echo it
/// (a `wrong_nonce` fault still adds one, to test the check of a present one).
pub(crate) fn id_token_claims(sim: &SimState, subject: &Subject<'_>, now: i64) -> Value {
    let mut claims = json!({
        "iss": format!("{}/linkedin/oauth", sim.base_url),
        "aud": subject.client_id,
        "iat": now,
        // LinkedIn's id_tokens live one hour.
        "exp": now + 3600,
        "sub": subject.user.id,
    });
    if let Some(object) = claims.as_object_mut() {
        object.extend(member_claims(subject, true));
    }
    claims
}

/// The claims `profile` and `email` grant, in the id_token's shape (strings) or
/// userinfo's (a boolean, a locale object). Every member is American, speaking English.
fn member_claims(subject: &Subject<'_>, id_token: bool) -> Map<String, Value> {
    let mut claims = Map::new();
    if subject.has("profile") {
        claims.extend(name_claims(subject.user));
        let locale = if id_token {
            json!("en_US")
        } else {
            json!({"country": "US", "language": "en"})
        };
        claims.insert("locale".into(), locale);
    }
    if subject.has("email")
        && let Some(email) = &subject.user.email
    {
        claims.insert("email".into(), json!(email));
        let verified = subject.user.email_verified;
        let verified = if id_token {
            json!(verified.to_string())
        } else {
            json!(verified)
        };
        claims.insert("email_verified".into(), verified);
    }
    claims
}
