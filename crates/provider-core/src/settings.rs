//! What an adapter is configured with: plain values, already split out of the service settings.

use serde::Deserialize;
use social_login_domain::SecretText;
use social_login_provider_spec::Endpoints;

/// One provider's configuration, as the composition root hands it to an adapter.
///
/// `Debug` is derived on purpose: `client_secret` is a [`SecretText`], which prints
/// `[redacted]`, so the derived output is safe for logs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderSettings {
    pub client_id: String,
    pub client_secret: SecretText,
    pub redirect_uri: String,
    /// `None` means the declaration's scopes.
    pub scopes: Option<Vec<String>>,
    /// Send a PKCE S256 challenge (default true; off only for an app that rejects it).
    pub pkce: bool,
    /// The registration's other client ids (iOS bundle id, Android client id): audiences
    /// accepted for id_tokens an app presents, besides `client_id`.
    pub client_ids: Vec<String>,
    pub endpoints: EndpointOverrides,
    /// Apple only: the team key its client secrets are signed with.
    pub signing: Option<SigningKey>,
}

/// A team's signing key (Apple's `apple_team_id`, `apple_key_id` and `.p8` key, settings of
/// the service rather than of the provider's table). `Debug` shows no key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigningKey {
    pub team_id: String,
    pub key_id: String,
    pub private_key_pem: SecretText,
}

/// Replacements for the provider's public endpoints (enterprise or sovereign hosts, local
/// identity providers in tests), as a provider's `endpoints` table of the configuration
/// spells them. Each `None` keeps the provider's default; fields a provider has no use for
/// are ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EndpointOverrides {
    pub authorization: Option<String>,
    pub token: Option<String>,
    pub userinfo: Option<String>,
    /// The separate emails endpoint (GitHub's; any provider with an `[emails]` list).
    pub emails: Option<String>,
    /// OIDC providers and apple: the id_token key set.
    pub jwks: Option<String>,
    /// Where a refresh goes, for a provider whose refresh endpoint is not its token
    /// endpoint (wechat).
    pub refresh: Option<String>,
    /// Expected id_token issuer; for microsoft it may contain `{tenantid}`.
    pub issuer: Option<String>,
    /// Where a link's grant is revoked (not microsoft, which has no such endpoint); for
    /// github `{client_id}` in the path is filled in.
    pub revocation: Option<String>,
    /// google only, for its signals rather than the adapter: the key set of Cross-Account
    /// Protection's Security Event Tokens (default Google's, the `jwks_uri` of its RISC
    /// configuration).
    pub risc_jwks: Option<String>,
    /// google only: their issuer (default `https://accounts.google.com/`).
    pub risc_issuer: Option<String>,
}

impl EndpointOverrides {
    /// These as the endpoints of a provider from configuration's own table (an unset
    /// authorization or token URL is empty: discovery may fill it in).
    pub fn as_endpoints(&self) -> Endpoints {
        Endpoints {
            authorization: self.authorization.clone().unwrap_or_default(),
            token: self.token.clone().unwrap_or_default(),
            userinfo: self.userinfo.clone(),
            emails: self.emails.clone(),
            jwks: self.jwks.clone(),
            refresh: self.refresh.clone(),
        }
    }

    /// `(field name, value)` of every endpoint override of the flow that is set (not the
    /// signal fields `risc_jwks` and `risc_issuer`, which only signals read).
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("authorization", &self.authorization),
            ("token", &self.token),
            ("userinfo", &self.userinfo),
            ("emails", &self.emails),
            ("jwks", &self.jwks),
            ("refresh", &self.refresh),
            ("issuer", &self.issuer),
            ("revocation", &self.revocation),
        ]
        .into_iter()
        .filter_map(|(name, value)| value.as_deref().map(|value| (name, value)))
    }
}

/// The settings the unit tests start from: a client `client-1` whose secret is `s3cret`.
#[cfg(test)]
pub(crate) fn test_settings() -> ProviderSettings {
    ProviderSettings {
        client_id: "client-1".into(),
        client_secret: SecretText::new("s3cret"),
        redirect_uri: "https://app.example.com/cb".into(),
        scopes: None,
        pkce: true,
        client_ids: Vec::new(),
        endpoints: EndpointOverrides::default(),
        signing: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_never_shows_the_client_secret() {
        let printed = format!("{:?}", test_settings());
        assert!(!printed.contains("s3cret"), "{printed}");
        assert!(printed.contains("client-1"));
    }
}
