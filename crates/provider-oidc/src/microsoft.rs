//! Microsoft identity platform through the `common` endpoint (docs/providers.md#microsoft-common):
//! the declaration reads the id_token alone (Microsoft recommends it over userinfo, and Graph
//! would need another scope and call); the quirks check the issuer against the token's own
//! tenant ([`tenant`]) and decide what the email is worth.
//!
//! Subject: `"{tid}:{sub}"`. `sub` is pairwise (one value per app and user) and always
//! present, while `oid` needs the `profile` scope; the tenant in front keeps a subject
//! meaningful with `common`, where every tenant issues tokens.
//!
//! Email (the nOAuth class of account takeover): any tenant administrator can put any
//! address in `email`, so it is verified only when Microsoft says so: `xms_edov` true, or
//! the personal-account tenant, whose addresses Microsoft owns or has confirmed. Without an
//! `email`, a `preferred_username` shaped like an address is kept, never verified: it is a
//! mutable UPN, not a mailbox anyone confirmed.

mod tenant;

pub use tenant::{PERSONAL_ACCOUNT_TENANT, TENANT_PLACEHOLDER};

use async_trait::async_trait;
use serde_json::{Map, Value};
use social_login_domain::{Email, ProviderIdentity, ProviderSubject};
use social_login_ports::ProviderError;
use social_login_provider_core::{Finish, ProviderPlan, Quirks};

/// Microsoft's quirks: the issuer template (the declaration's, or `endpoints.issuer`).
#[derive(Debug, Clone)]
pub struct MicrosoftQuirks {
    issuer_template: String,
}

impl MicrosoftQuirks {
    pub fn new(plan: &ProviderPlan) -> Self {
        let mut issuers = plan.spec.id_token.iter().flat_map(|rules| &rules.issuers);
        Self {
            issuer_template: issuers.next().cloned().unwrap_or_default(),
        }
    }
}

#[async_trait]
impl Quirks for MicrosoftQuirks {
    /// Always this rule, never a plain issuer list: `common`'s issuer is a template.
    fn issuer(&self, iss: &str, claims: &Map<String, Value>) -> Option<bool> {
        Some(tenant::issuer_matches(&self.issuer_template, iss, claims))
    }

    async fn finish(&self, finish: &mut Finish<'_>) -> Result<(), ProviderError> {
        let claims = finish.cx.first().ok_or_else(no_tenant)?;
        tenant_scoped(claims, &mut finish.identity)
    }
}

/// The subject scoped by the token's tenant, and the email as Microsoft vouches for it.
fn tenant_scoped(
    claims: &Map<String, Value>,
    identity: &mut ProviderIdentity,
) -> Result<(), ProviderError> {
    let tid = tenant::tenant_id(claims).ok_or_else(no_tenant)?;
    let scoped = format!("{tid}:{}", identity.subject.as_str());
    identity.subject = ProviderSubject::parse(scoped)
        .map_err(|_| ProviderError::UserInfo("id_token subject is not usable".into()))?;
    if identity.email.is_some() {
        identity.email_verified =
            tid == PERSONAL_ACCOUNT_TENANT || domain_verified(claims.get("xms_edov"));
    } else {
        let username = claims.get("preferred_username").and_then(Value::as_str);
        identity.email = username.and_then(|raw| Email::parse(raw).ok());
        identity.email_verified = false;
    }
    Ok(())
}

fn no_tenant() -> ProviderError {
    ProviderError::UserInfo("id_token has no tenant id (tid)".into())
}

/// `xms_edov` ("email domain owner verified") as Microsoft sends it: `true`, `"1"` or
/// `"true"`. Anything else, absence included, is not a verification.
fn domain_verified(claim: Option<&Value>) -> bool {
    match claim {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(text)) => text == "1" || text.eq_ignore_ascii_case("true"),
        _ => false,
    }
}

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;
