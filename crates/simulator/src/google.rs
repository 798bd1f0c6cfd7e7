//! The simulated Google, served under `/google`: one prefix stands in for
//! `accounts.google.com` (discovery, authorize), `oauth2.googleapis.com` (token),
//! `openidconnect.googleapis.com` (userinfo) and `www.googleapis.com` (certs). Its manners
//! are its dialect's; its id_tokens and userinfo are the standard ones, under its issuer.

use crate::claims::Subject;
use crate::hooks::{Cx, Document, SimHooks};
use crate::paths::EndpointSet;
use crate::tokens::IssuedToken;
use crate::users::SimUser;
use serde_json::{Value, json};

/// The endpoint URLs of the simulated Google (and LinkedIn), to put in a provider's
/// endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoogleEndpoints {
    pub discovery: String,
    pub authorization: String,
    pub token: String,
    pub userinfo: String,
    pub jwks: String,
    pub revocation: String,
    /// The `iss` its id_tokens carry (Google's: `<base>/google` unless configured).
    pub issuer: String,
}

impl From<EndpointSet> for GoogleEndpoints {
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

pub struct Google;

impl SimHooks for Google {
    /// The configured issuer ([`crate::SimulatorConfig::google_issuer`]).
    fn issuer(&self, cx: &Cx<'_>) -> String {
        cx.sim.google_issuer.clone()
    }

    fn id_token_claims(&self, cx: &Cx<'_>, subject: &Subject<'_>, now: i64) -> Value {
        let mut claims = crate::claims::standard_claims(cx.dialect, &self.issuer(cx), subject, now);
        with_hosted_domain(&mut claims, subject.user);
        claims
    }

    fn userinfo(&self, _: &Cx<'_>, issued: &IssuedToken, _: Option<&str>) -> Document {
        let claims = crate::claims::profile_claims(&issued.user, &issued.scopes);
        let mut document = crate::claims::about(&issued.user.id, claims);
        with_hosted_domain(&mut document, &issued.user);
        Ok(document)
    }
}

/// Google names the Workspace domain of an organisation's account as `hd`, in the id_token
/// and in userinfo alike; a consumer account has none.
fn with_hosted_domain(document: &mut Value, user: &SimUser) {
    if let (Some(object), Some(domain)) = (document.as_object_mut(), &user.hosted_domain) {
        object.insert("hd".into(), json!(domain));
    }
}
