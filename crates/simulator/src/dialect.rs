//! The dialects: how each simulated provider answers, as data (`dialects.toml`), parsed once
//! and read by the common engine. What data cannot say is in the provider's hooks.

mod aadsts;
mod answers;
mod authorize;
mod documents;
mod load;
mod token;

pub use answers::{ApiError, Envelope, ErrorSpec, Page, graph_refusal};
pub use authorize::{
    AuthorizeRules, Described, Descriptions, MethodAlone, PkceRule, RedirectRule, ResponseTypeRule,
    WithoutMethod,
};
pub use documents::{EmailsRules, IdTokenRules, Signing, TokenIn, UserinfoMethod, UserinfoRules};
pub use token::{
    AuthMethod, BasicHeader, BodyRule, ClientAuthRule, IdTokenWhen, RevokeRules, TokenRules,
    VerifierErrors,
};

use crate::paths::EndpointSet;
use serde::Deserialize;
use serde::de::{self, Deserializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::LazyLock;
use std::time::Duration;

/// Everything the engine needs to know of one provider's manners.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dialect {
    /// Where the real provider serves each endpoint, its host dropped.
    pub paths: EndpointSet,
    /// Its name and colours on the sign-in page.
    pub brand: Option<Brand>,
    pub envelope: Envelope,
    #[serde(default)]
    pub code_lifetime: CodeLifetime,
    /// The scopes of an id_token minted for native sign-in.
    #[serde(default = "openid_email_profile")]
    pub mint_scopes: Vec<String>,
    #[serde(default)]
    pub aliases: Aliases,
    pub authorize: AuthorizeRules,
    pub token: TokenRules,
    pub revoke: Option<RevokeRules>,
    pub userinfo: Option<UserinfoRules>,
    /// A second call for the addresses (Bitbucket's); GitHub's is its hooks'.
    pub emails: Option<EmailsRules>,
    #[serde(default)]
    pub id_token: IdTokenRules,
    pub discovery: Option<DiscoveryRules>,
}

/// A provider's name and colours: background, text, and a button's edge (the background
/// when absent).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Brand {
    pub name: String,
    pub background: String,
    pub text: String,
    pub edge: Option<String>,
}

/// How long a provider's authorization codes stay redeemable.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeLifetime {
    /// [`crate::SimulatorConfig::code_ttl`].
    #[default]
    Configured,
    /// [`crate::SimulatorConfig::twitter_code_ttl`]: X's own 30 seconds.
    Twitter,
    /// The provider's own lifetime, or the configured one if shorter (zero tests expiry).
    AtMost(u64),
}

impl CodeLifetime {
    pub fn of(self, config: &crate::SimulatorConfig) -> Duration {
        match self {
            Self::Configured => config.code_ttl,
            Self::Twitter => config.twitter_code_ttl,
            Self::AtMost(seconds) => config.code_ttl.min(Duration::from_secs(seconds)),
        }
    }
}

/// More paths a real provider answers an endpoint at.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Aliases {
    pub authorize: Vec<String>,
    pub userinfo: Vec<String>,
}

/// What an OIDC discovery document holds besides the issuer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscoveryRules {
    /// The endpoints it names.
    pub lists: Vec<Listed>,
    /// The rest of the document, JSON text (it has `null`s TOML cannot write).
    #[serde(deserialize_with = "json_object")]
    pub document: Map<String, Value>,
}

/// An endpoint a discovery document names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Listed {
    Authorization,
    Token,
    Userinfo,
    Jwks,
    Revocation,
}

fn openid_email_profile() -> Vec<String> {
    ["openid", "email", "profile"].map(str::to_owned).into()
}

fn json_object<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Map<String, Value>, D::Error> {
    let text = String::deserialize(deserializer)?;
    serde_json::from_str(&text).map_err(de::Error::custom)
}

static DIALECTS: LazyLock<BTreeMap<String, Dialect>> = LazyLock::new(|| {
    // A unit test parses the file and checks every provider has a dialect: this cannot fire
    // in a tested build.
    load::dialects(include_str!("dialects.toml")).expect("dialects.toml is valid")
});

/// The dialect called `name` (a simulated provider's prefix).
pub fn of(name: &str) -> &'static Dialect {
    DIALECTS
        .get(name)
        .expect("every simulated provider has a dialect")
}

/// The name of the dialect called `name`, for as long as the program runs.
pub fn name_of(name: &str) -> Option<&'static str> {
    DIALECTS.get_key_value(name).map(|(key, _)| key.as_str())
}

/// Every dialect's name.
pub fn names() -> impl Iterator<Item = &'static str> {
    DIALECTS.keys().map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Provider;

    #[test]
    fn every_provider_has_a_dialect_and_every_endpoint_a_discovery_lists_is_served() {
        for provider in Provider::ALL {
            assert!(DIALECTS.contains_key(provider.prefix()), "{provider:?}");
        }
        for (name, dialect) in DIALECTS.iter() {
            let paths = &dialect.paths;
            let listed = dialect.discovery.iter().flat_map(|d| &d.lists);
            for endpoint in listed {
                let served = match endpoint {
                    Listed::Authorization | Listed::Token => true,
                    Listed::Userinfo => paths.userinfo.is_some(),
                    Listed::Jwks => paths.jwks.is_some(),
                    Listed::Revocation => paths.revocation.is_some(),
                };
                assert!(served, "{name}: {endpoint:?}");
            }
        }
    }

    #[test]
    fn a_revocation_without_client_authentication_refuses_unknown_tokens() {
        // Without a client, only a live token says whose it is.
        for (name, dialect) in DIALECTS.iter() {
            if let Some(revoke) = dialect.revoke.as_ref().filter(|r| !r.client_auth) {
                assert!(revoke.unknown_token.is_some(), "{name}");
            }
        }
    }

    #[test]
    fn only_the_grants_the_engine_serves_are_declared() {
        for (name, dialect) in DIALECTS.iter() {
            let served = ["authorization_code", "refresh_token"];
            assert!(
                dialect
                    .token
                    .grant_types
                    .iter()
                    .all(|g| served.contains(&g.as_str())),
                "{name}"
            );
        }
    }
}
