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
mod authorize;
mod id_token;
mod metadata;
mod token;

pub use account::{MICROSOFT_CONSUMER_TENANT, MicrosoftAccount};

use crate::state::SimState;
use axum::Router;
use axum::routing::{get, post};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

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
            issuer: format!("{base_url}/microsoft/{{tenantid}}/v2.0"),
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
        .route("/{tenant}/oauth2/v2.0/authorize", get(authorize::authorize))
        .route("/{tenant}/oauth2/v2.0/token", post(token::token))
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

/// Microsoft's scopes are space-delimited.
fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORK: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";

    #[test]
    fn each_tenant_path_admits_its_own_accounts() {
        let personal = MicrosoftAccount::personal();
        let work = MicrosoftAccount::work(WORK, "ada@contoso.com");
        let common = TenantPath::parse("common").unwrap();
        assert!(common.admits(&personal) && common.admits(&work));
        let organizations = TenantPath::parse("organizations").unwrap();
        assert!(!organizations.admits(&personal) && organizations.admits(&work));
        let consumers = TenantPath::parse("consumers").unwrap();
        assert!(consumers.admits(&personal) && !consumers.admits(&work));
        let tenant = TenantPath::parse(&WORK.to_uppercase()).unwrap();
        assert!(!tenant.admits(&personal) && tenant.admits(&work));
        assert_eq!(TenantPath::parse("contoso"), None);
        assert_eq!(TenantPath::parse("{tenantid}"), None);
    }

    #[test]
    fn the_endpoints_name_the_issuer_template() {
        let endpoints = MicrosoftEndpoints::under("http://127.0.0.1:9", "common");
        assert_eq!(
            endpoints.issuer,
            "http://127.0.0.1:9/microsoft/{tenantid}/v2.0"
        );
        assert_eq!(
            endpoints.issuer_of(WORK),
            issuer_of("http://127.0.0.1:9", WORK)
        );
        assert_eq!(
            endpoints.token,
            "http://127.0.0.1:9/microsoft/common/oauth2/v2.0/token"
        );
    }
}
