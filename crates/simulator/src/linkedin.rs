//! The simulated LinkedIn, "Sign In with LinkedIn using OpenID Connect", served under
//! `/linkedin`: one prefix for `www.linkedin.com/oauth` (discovery, authorize, token, keys)
//! and `api.linkedin.com` (userinfo). Its dialect holds its manners (body credentials only,
//! its errors); its hooks hold PKCE as the [`LinkedinKnobs`] say, an id_token without the
//! nonce even when one was sent, and `email_verified` and `locale` as strings in the
//! id_token but a boolean and an object from userinfo.

pub(crate) mod knobs;

pub use knobs::{LinkedinKnobs, LinkedinPkce};

use crate::authorize::{AuthorizeQuery, Back};
use crate::claims::{Subject, about, name_claims};
use crate::codes::Grant;
use crate::dialect::ErrorSpec;
use crate::flow::TokenParams;
use crate::hooks::{Checked, Cx, Document, SimHooks};
use crate::tokens::IssuedToken;
use serde_json::{Map, Value, json};

/// The endpoint URLs of the simulated LinkedIn: the members of Google's; its issuer is
/// `<base>/linkedin/oauth`.
pub type LinkedinEndpoints = crate::google::GoogleEndpoints;

pub struct Linkedin;

impl SimHooks for Linkedin {
    /// Only an app enforcing PKCE looks at the challenge: S256, well-formed.
    fn authorize_checks(&self, cx: &Cx<'_>, q: &AuthorizeQuery, back: &Back<'_>) -> Checked {
        let enforced = cx.sim.linkedin_knobs.get().pkce == LinkedinPkce::Enforce;
        let s256 = q.code_challenge_method.as_deref() == Some("S256")
            && q.code_challenge
                .as_deref()
                .is_some_and(crate::pkce::is_s256_challenge);
        if enforced && !s256 {
            let description = cx.dialect.authorize.description.as_deref();
            return Err(back.refuse("invalid_request", description, &[]));
        }
        Ok(())
    }

    /// An app that is not allowed PKCE refuses any `code_verifier` (the code survives).
    fn token_checks(&self, cx: &Cx<'_>, params: &TokenParams) -> Checked {
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
    fn grant_checks(&self, cx: &Cx<'_>, params: &TokenParams, grant: &Grant) -> Checked {
        let verified = grant.pkce.code_challenge.is_some()
            && grant.pkce.verifier_matches(params.code_verifier.as_deref());
        if cx.sim.linkedin_knobs.get().pkce == LinkedinPkce::Enforce && !verified {
            return Err(cx
                .dialect
                .envelope
                .refusal(&cx.dialect.token.errors.bad_code, false));
        }
        Ok(())
    }

    fn userinfo(&self, _: &Cx<'_>, issued: &IssuedToken, _: Option<&str>) -> Document {
        let subject = Subject {
            client_id: "",
            user: &issued.user,
            scopes: &issued.scopes,
            nonce: None,
        };
        Ok(about(&issued.user.id, member_claims(&subject, false)))
    }

    fn issuer(&self, cx: &Cx<'_>) -> String {
        format!("{}/linkedin/oauth", cx.sim.base_url)
    }

    /// The nonce is deliberately left out: LinkedIn does not echo it (a `wrong_nonce`
    /// fault still adds one, to test the check of a present one).
    fn id_token_claims(&self, cx: &Cx<'_>, subject: &Subject<'_>, now: i64) -> Value {
        let mut claims = member_claims(subject, true);
        claims.insert("iss".into(), json!(self.issuer(cx)));
        claims.insert("aud".into(), json!(subject.client_id));
        claims.insert("iat".into(), json!(now));
        // LinkedIn's id_tokens live one hour.
        claims.insert("exp".into(), json!(now + 3600));
        about(&subject.user.id, claims)
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
