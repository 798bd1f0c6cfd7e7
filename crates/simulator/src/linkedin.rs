//! The simulated LinkedIn, "Sign In with LinkedIn using OpenID Connect", served under
//! `/linkedin`: one prefix for `www.linkedin.com/oauth` (discovery, authorize, token, keys)
//! and `api.linkedin.com` (userinfo). Its dialect holds its manners (body credentials only,
//! its errors); its hooks hold PKCE as the [`LinkedinKnobs`] say, an id_token without the
//! nonce even when one was sent, and `email_verified` and `locale` as strings in the
//! id_token but a boolean and an object from userinfo.

mod knobs;

pub(crate) use knobs::set_knobs;
pub use knobs::{LinkedinKnobStore, LinkedinKnobs, LinkedinPkce};

use crate::authorize::{AuthorizeQuery, Back};
use crate::codes::Grant;
use crate::config::Provider;
use crate::dialect::ErrorSpec;
use crate::flow::{Refusal, TokenParams};
use crate::hooks::{Cx, SimHooks};
use crate::id_token::{Subject, name_claims};
use crate::paths::EndpointSet;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use serde_json::{Map, Value, json};

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

impl From<EndpointSet> for LinkedinEndpoints {
    fn from(e: EndpointSet) -> Self {
        Self {
            discovery: e.discovery.unwrap_or_default(),
            authorization: e.authorization,
            token: e.token,
            userinfo: e.userinfo.unwrap_or_default(),
            jwks: e.jwks.unwrap_or_default(),
            revocation: e.revocation.unwrap_or_default(),
            issuer: e.issuer.unwrap_or_default(),
        }
    }
}

pub struct Linkedin;

impl SimHooks for Linkedin {
    /// Only an app enforcing PKCE looks at the challenge: S256, well-formed.
    fn authorize_checks(
        &self,
        cx: &Cx<'_>,
        q: &AuthorizeQuery,
        back: &Back<'_>,
    ) -> Result<(), Refusal> {
        let enforced = cx.sim.linkedin_knobs.get().pkce == LinkedinPkce::Enforce;
        let s256 = q.code_challenge_method.as_deref() == Some("S256")
            && q.code_challenge
                .as_deref()
                .is_some_and(crate::pkce::is_s256_challenge);
        if enforced && !s256 {
            let description = cx.dialect.authorize.description.as_deref();
            let fields: Vec<_> = description
                .map(|d| ("error_description", d))
                .into_iter()
                .collect();
            return Err(back.refuse("invalid_request", &fields));
        }
        Ok(())
    }

    /// An app that is not allowed PKCE refuses any `code_verifier` (the code survives).
    fn token_checks(&self, cx: &Cx<'_>, params: &TokenParams) -> Result<(), Refusal> {
        if cx.sim.linkedin_knobs.get().pkce == LinkedinPkce::Reject
            && params.code_verifier.is_some()
        {
            let description = "Unable to retrieve access token: code_verifier is not supported for this application";
            let error = ErrorSpec::described("invalid_request", description);
            return Err(cx.dialect.envelope.refusal(&error, false));
        }
        Ok(())
    }

    /// An app enforcing PKCE needs the code's challenge and its verifier.
    fn grant_checks(
        &self,
        cx: &Cx<'_>,
        params: &TokenParams,
        grant: &Grant,
    ) -> Result<(), Refusal> {
        let verified = grant.code_challenge.is_some()
            && grant.verifier_matches(params.code_verifier.as_deref());
        if cx.sim.linkedin_knobs.get().pkce == LinkedinPkce::Enforce && !verified {
            return Err(cx
                .dialect
                .envelope
                .refusal(&cx.dialect.token.errors.bad_code, false));
        }
        Ok(())
    }

    fn userinfo(
        &self,
        _: &Cx<'_>,
        issued: &IssuedToken,
        _: Option<&str>,
    ) -> Result<Value, Refusal> {
        let subject = Subject {
            client_id: "",
            user: &issued.user,
            scopes: &issued.scopes,
            nonce: None,
        };
        let mut body = json!({ "sub": issued.user.id });
        if let Some(object) = body.as_object_mut() {
            object.extend(member_claims(&subject, false));
        }
        Ok(body)
    }

    fn issuer(&self, sim: &SimState, _: Provider) -> String {
        format!("{}/linkedin/oauth", sim.base_url)
    }

    /// The nonce is deliberately left out: LinkedIn does not echo it (a `wrong_nonce`
    /// fault still adds one, to test the check of a present one).
    fn id_token_claims(
        &self,
        sim: &SimState,
        provider: Provider,
        subject: &Subject<'_>,
        now: i64,
    ) -> Value {
        let mut claims = json!({
            "iss": self.issuer(sim, provider),
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
