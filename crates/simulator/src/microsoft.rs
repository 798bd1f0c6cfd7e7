//! The simulated Microsoft identity platform, served under `/microsoft/{tenant}/...` where
//! `{tenant}` is `common`, `organizations`, `consumers` or a tenant GUID, as on
//! `login.microsoftonline.com`. Its manners (AADSTS envelopes) are its dialect's; its hooks
//! hold the tenants: `common`'s discovery names the literal issuer template
//! `<base>/microsoft/{tenantid}/v2.0`, key-set entries have no `alg`, each id_token's `iss`
//! is its own tenant's, and a tenant path admits only its own people. People are
//! [`crate::SimUser`]s with a [`MicrosoftAccount`].

pub(crate) mod account;
mod claims;

pub use account::{MICROSOFT_CONSUMER_TENANT, MicrosoftAccount};

use crate::claims::Subject;
use crate::codes::Grant;
use crate::dialect::{Envelope, ErrorSpec};
use crate::faults::Endpoint;
use crate::flow::{Refusal, TokenParams};
use crate::hooks::{Checked, Cx, SimHooks};
use crate::paths::EndpointSet;
use crate::state::SimState;
use crate::users::SimUser;
use axum::http::StatusCode;
use serde_json::{Value, json};

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

impl From<EndpointSet> for MicrosoftEndpoints {
    fn from(e: EndpointSet) -> Self {
        Self {
            discovery: e.discovery.unwrap_or_default(),
            authorization: e.authorization,
            token: e.token,
            jwks: e.jwks.unwrap_or_default(),
            issuer: e.issuer.unwrap_or_default(),
        }
    }
}

impl MicrosoftEndpoints {
    /// The `iss` of the id_tokens of tenant `tid`.
    pub fn issuer_of(&self, tid: &str) -> String {
        self.issuer.replace("{tenantid}", tid)
    }
}

const TEMPLATE: &str = "{tenantid}";

pub struct Microsoft;

impl SimHooks for Microsoft {
    /// A segment Microsoft answers "tenant not found" to: a page at authorize, the AADSTS
    /// envelope elsewhere.
    fn check_path(&self, cx: &Cx<'_>, endpoint: Endpoint) -> Checked {
        if tenant_of(cx).is_some() {
            return Ok(());
        }
        let error = match endpoint {
            Endpoint::Authorize => {
                let message = "AADSTS90002: Tenant not found.";
                return Err(Refusal::page(
                    StatusCode::BAD_REQUEST,
                    message,
                    "tenant_not_found",
                ));
            }
            Endpoint::Token => "invalid_request",
            _ => "invalid_tenant",
        };
        let error = ErrorSpec::numbered(400, error, 90002, "Tenant not found.");
        Err(Envelope::Aadsts.refusal(&error, true))
    }

    /// A personal account at `/organizations` (or a stranger at a tenant path) cannot sign in.
    fn admit(&self, cx: &Cx<'_>, user: &SimUser) -> Checked {
        if admits(cx, user) {
            return Ok(());
        }
        let message = "AADSTS50020: User account does not exist in tenant.";
        Err(Refusal::page(
            StatusCode::BAD_REQUEST,
            message,
            "user_not_in_tenant",
        ))
    }

    /// Nor can their code be redeemed there.
    fn grant_checks(&self, cx: &Cx<'_>, _: &TokenParams, grant: &Grant) -> Checked {
        if admits(cx, &grant.user) {
            return Ok(());
        }
        let error = ErrorSpec::numbered(
            400,
            "invalid_grant",
            50020,
            "User account does not exist in tenant.",
        );
        Err(Envelope::Aadsts.refusal(&error, true))
    }

    /// The issuer template; each token's own is its tenant's.
    fn issuer(&self, cx: &Cx<'_>) -> String {
        issuer_of(cx.sim, TEMPLATE)
    }

    /// For `common` and `organizations` the literal template (not a valid issuer: clients
    /// must fill it from each token), for `consumers` the consumer tenant's, for a tenant
    /// GUID that tenant's.
    fn announced_issuer(&self, cx: &Cx<'_>) -> String {
        match tenant_of(cx) {
            Some(TenantPath::Consumers) => issuer_of(cx.sim, MICROSOFT_CONSUMER_TENANT),
            Some(TenantPath::Tenant(tid)) => issuer_of(cx.sim, &tid),
            _ => issuer_of(cx.sim, TEMPLATE),
        }
    }

    /// The signing keys the way Entra lists them: without `alg` (clients must assume
    /// RS256) but with the issuer template.
    fn key_set(&self, cx: &Cx<'_>, jwks: &mut Value) {
        let template = issuer_of(cx.sim, TEMPLATE);
        for key in jwks["keys"].as_array_mut().into_iter().flatten() {
            if let Some(object) = key.as_object_mut() {
                object.remove("alg");
                object.insert("issuer".into(), json!(template));
            }
        }
    }

    fn id_token_claims(&self, cx: &Cx<'_>, subject: &Subject<'_>, now: i64) -> Value {
        claims::id_token_claims(subject, now, |tid| issuer_of(cx.sim, tid))
    }
}

/// The tenant path of the request; `None` when Microsoft would not know it.
fn tenant_of(cx: &Cx<'_>) -> Option<TenantPath> {
    TenantPath::parse(cx.params.get("tenant")?)
}

fn admits(cx: &Cx<'_>, user: &SimUser) -> bool {
    tenant_of(cx).is_some_and(|tenant| tenant.admits(&user.microsoft_account()))
}

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

/// `8-4-4-4-12` hexadecimal digits.
fn is_guid(text: &str) -> bool {
    // Of the forms uuid parses, only the hyphenated one is 36 characters long.
    text.len() == 36 && uuid::Uuid::try_parse(text).is_ok()
}

/// The id_token issuer of tenant `tid` on this simulator.
fn issuer_of(sim: &SimState, tid: &str) -> String {
    format!("{}/microsoft/{tid}/v2.0", sim.base_url)
}
