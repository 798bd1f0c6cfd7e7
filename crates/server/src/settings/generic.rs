//! The fields only a provider from configuration has (docs/configuration.md, "Providers
//! from configuration"): its kind, token endpoint authentication and claim pointers, and
//! the declaration a table of such a provider makes (docs/providers.md).

use super::ProviderConfig;
use serde::{Deserialize, Deserializer, de};
use social_login_domain::{ProviderKey, ProviderKind};
use social_login_provider_core::spec::{Claims, EmailVerified, GenericProvider, TokenAuth};

/// `kind = "oidc" | "oauth2"`; any other word is named by validation's wording.
pub(super) fn kind<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<ProviderKind>, D::Error> {
    let raw = String::deserialize(deserializer)?;
    raw.parse().map(Some).map_err(de::Error::custom)
}

/// The scopes a provider of `kind = "oidc"` asks for unless configured (`oauth2` has no
/// default: its scopes are the provider's own words).
pub const DEFAULT_OIDC_SCOPES: [&str; 3] = ["openid", "email", "profile"];

/// How the client authenticates at a provider's token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenEndpointAuth {
    /// HTTP Basic with the client id and secret (RFC 6749 §2.3.1).
    ClientSecretBasic,
    /// `client_id` and `client_secret` in the form body.
    ClientSecretPost,
}

impl From<TokenEndpointAuth> for TokenAuth {
    fn from(auth: TokenEndpointAuth) -> Self {
        match auth {
            TokenEndpointAuth::ClientSecretBasic => Self::ClientSecretBasic,
            TokenEndpointAuth::ClientSecretPost => Self::ClientSecretPost,
        }
    }
}

/// JSON Pointers (RFC 6901) into the provider's documents: the id_token claims merged with
/// the userinfo answer (`oauth2` kind: the userinfo answer only); `token:` ones into the token
/// answer. For a provider from configuration each unset one is the OpenID Connect claim of
/// the same meaning; for a preset each set one replaces the preset's.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClaimsConfig {
    pub subject: Option<String>,
    pub email: Option<String>,
    /// A pointer, or a list of pointers that must all hold (`true`, `"true"` or 1); for a
    /// provider from configuration, read only when `trust_email_verified = true`.
    pub email_verified: Option<EmailVerified>,
    pub name: Option<String>,
    pub avatar_url: Option<String>,
}

impl ClaimsConfig {
    pub const DEFAULT_SUBJECT: &str = "/sub";
    pub const DEFAULT_EMAIL: &str = "/email";
    pub const DEFAULT_EMAIL_VERIFIED: &str = "/email_verified";
    pub const DEFAULT_NAME: &str = "/name";
    pub const DEFAULT_AVATAR_URL: &str = "/picture";

    /// Each text pointer with its field name, the defaults filled in.
    pub fn pointers(&self) -> [(&'static str, &str); 4] {
        fn or<'a>(set: &'a Option<String>, default: &'static str) -> &'a str {
            set.as_deref().unwrap_or(default)
        }
        [
            ("subject", or(&self.subject, Self::DEFAULT_SUBJECT)),
            ("email", or(&self.email, Self::DEFAULT_EMAIL)),
            ("name", or(&self.name, Self::DEFAULT_NAME)),
            ("avatar_url", or(&self.avatar_url, Self::DEFAULT_AVATAR_URL)),
        ]
    }
}

impl ClaimsConfig {
    /// The pointers as a declaration reads them: `email_verified` only when the operator
    /// vouches for it (`trust`), else every email is unverified.
    pub fn declared(&self, trust: bool) -> Claims {
        let [subject, email, name, avatar_url] =
            self.pointers().map(|(_, pointer)| pointer.to_owned());
        let default_flag = || EmailVerified::AllOf(vec![Self::DEFAULT_EMAIL_VERIFIED.into()]);
        Claims {
            subject,
            email: Some(email),
            email_verified: match trust {
                true => self.email_verified.clone().unwrap_or_else(default_flag),
                false => EmailVerified::Never,
            },
            name: vec![name],
            avatar_url: Some(avatar_url),
            hosted_domain: None,
        }
    }

    /// A preset's `claims` with each pointer set here in its place. An email pointer of the
    /// operator's own takes the preset's flag away: the flag speaks of the preset's email
    /// claim only, so the address read elsewhere is unverified unless `email_verified` is
    /// set here too.
    pub fn over(&self, claims: &mut Claims) {
        if let Some(subject) = &self.subject {
            claims.subject.clone_from(subject);
        }
        if let Some(email) = &self.email {
            claims.email = Some(email.clone());
            claims.email_verified = EmailVerified::Never;
        }
        if let Some(flags) = &self.email_verified {
            claims.email_verified = flags.clone();
        }
        if let Some(name) = &self.name {
            claims.name = vec![name.clone()];
        }
        if let Some(avatar_url) = &self.avatar_url {
            claims.avatar_url = Some(avatar_url.clone());
        }
    }
}

impl ProviderConfig {
    /// What this table declares about a provider from configuration; `None` for a built-in
    /// provider's table, or one without a kind (validation names it). The display name
    /// defaults to the key, the `oidc` scopes to [`DEFAULT_OIDC_SCOPES`].
    pub fn generic_provider(&self, key: ProviderKey) -> Option<GenericProvider> {
        let kind = self.kind.filter(|_| !key.is_built_in())?;
        let scopes = match (&self.scopes, kind) {
            (Some(scopes), _) => scopes.clone(),
            (None, ProviderKind::Oidc) => DEFAULT_OIDC_SCOPES.map(str::to_owned).to_vec(),
            (None, ProviderKind::OAuth2) => Vec::new(),
        };
        let table = self.adapter_settings().endpoints;
        Some(GenericProvider {
            key,
            display_name: self.display_name.clone().unwrap_or_else(|| key.to_string()),
            kind,
            issuer: self.issuer.clone(),
            scopes,
            token_auth: self.token_endpoint_auth.map(TokenAuth::from),
            claims: self
                .claims
                .clone()
                .unwrap_or_default()
                .declared(self.trusts_email_verified()),
            endpoints: table.as_endpoints(),
            revocation: table.revocation,
            knobs: self.knobs(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_pointers_are_the_openid_connect_claims() {
        let claims = ClaimsConfig {
            subject: Some("/data/id".into()),
            ..ClaimsConfig::default()
        };
        assert_eq!(
            claims.pointers(),
            [
                ("subject", "/data/id"),
                ("email", "/email"),
                ("name", "/name"),
                ("avatar_url", "/picture"),
            ]
        );
        assert_eq!(
            claims.declared(true).email_verified,
            EmailVerified::AllOf(vec!["/email_verified".into()])
        );
        assert_eq!(claims.declared(false).email_verified, EmailVerified::Never);
    }
}
