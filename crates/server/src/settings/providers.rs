//! One `[oauth_providers.<key>]` table (docs/configuration.md): the client registration,
//! its endpoint overrides and, for a provider from configuration, what it is.

use super::generic::{ClaimsConfig, TokenEndpointAuth};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use social_login_domain::{EmailDomain, ProviderKind, SecretText, SignupPolicy};
use social_login_provider_core::spec::knobs::{
    EmailsList, IdTokenSigning, Knobs, TokenRequest, Userinfo,
};
use social_login_provider_core::{EndpointOverrides, ProviderSettings};
use std::collections::BTreeMap;

/// One provider's client registration.
///
/// `client_id`, `client_secret` and `redirect_uri` default to empty so that validation can
/// report all of them at once instead of the first missing one.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderConfig {
    /// Client identifier; for apple, the Services ID.
    #[serde(default)]
    pub client_id: String,
    /// Static client secret; ignored (may be empty) for apple, which signs a JWT instead.
    #[serde(default)]
    pub client_secret: SecretString,
    /// Callback URL registered with the provider.
    #[serde(default)]
    pub redirect_uri: String,
    /// Requested scopes; `None` means the provider's defaults.
    pub scopes: Option<Vec<String>>,
    /// `false`: the provider behaves as not configured (404).
    #[serde(default = "default_true")]
    pub enabled: bool,
    /// S256 PKCE on every flow; `false` only for a provider app that rejects `code_verifier`.
    #[serde(default = "default_true")]
    pub pkce: bool,
    /// google, microsoft and apple: the other client ids of this registration (iOS bundle
    /// id, Android client id) whose id_tokens native sign-in accepts besides `client_id`'s.
    #[serde(default)]
    pub client_ids: Vec<String>,
    /// google, microsoft and apple: whether native sign-in (`/id-token`) needs the app's
    /// nonce. `None` is "required".
    pub id_token_nonce: Option<IdTokenNonce>,
    #[serde(default)]
    pub endpoints: EndpointOverrides,
    /// A provider from configuration: `oidc` (discovery, id_tokens) or `oauth2` (explicit
    /// endpoints, userinfo only). Built-in tables have none.
    #[serde(default, deserialize_with = "super::generic::kind")]
    pub kind: Option<ProviderKind>,
    /// What sign-in buttons say; a provider from configuration only (default: its key).
    pub display_name: Option<String>,
    /// `kind = "oidc"`: where discovery starts, and the `iss` its id_tokens carry; a
    /// per-tenant preset: its tenant's issuer.
    pub issuer: Option<String>,
    /// A per-tenant preset whose endpoints are on a host of their own (Cognito's pool
    /// domain): that host.
    pub domain: Option<String>,
    /// A provider from configuration: how the client authenticates at the token endpoint
    /// (`oidc` default: what discovery lists first, else Basic; `oauth2` default: Basic).
    pub token_endpoint_auth: Option<TokenEndpointAuth>,
    /// A provider from configuration: `true` vouches for its `email_verified` claim;
    /// otherwise (the default) every email it gives counts as unverified.
    pub trust_email_verified: Option<bool>,
    /// A provider from configuration: where its documents say who signed in.
    pub claims: Option<ClaimsConfig>,
    /// `false`: an account of this provider that is not linked yet cannot create a user
    /// (403 `SignupNotAllowed`); it still signs in to an existing user by auto-link, and
    /// is still connected by a signed-in user.
    #[serde(default = "default_true")]
    pub allow_signup: bool,
    /// Non-empty: a new user through this provider needs a verified email in one of these
    /// domains (exact, ignoring case; for google the `hd` claim too), else 403
    /// `EmailDomainNotAllowed`.
    #[serde(default)]
    pub allowed_email_domains: Vec<String>,
    /// The preset this table enables under its own key (`preset = "gitlab"`: a second GitLab
    /// server); a table whose key is a preset's name enables that preset without it.
    pub preset: Option<String>,
    // The knobs (docs/configuration.md, "The knobs"): each replaces the declaration's own,
    // for a preset or a provider from configuration. Listed one by one rather than a
    // flattened `Knobs`: serde's `flatten` would turn off `deny_unknown_fields`, and a
    // misspelt knob must stay an error; `knobs()` gathers them.
    pub authorization_params: Option<BTreeMap<String, String>>,
    pub client_id_param: Option<String>,
    pub client_secret_param: Option<String>,
    pub scope_separator: Option<String>,
    pub user_agent: Option<String>,
    pub token_request: Option<TokenRequest>,
    pub userinfo: Option<Userinfo>,
    pub emails: Option<EmailsList>,
    pub id_token_signing: Option<IdTokenSigning>,
    pub relay_base_urls: Option<Vec<String>>,
    /// Scopes a client may add on connect (`authorize?purpose=connect&scopes=…`).
    #[serde(default)]
    pub connect_scopes: Vec<String>,
    /// How a login may join the user who holds its verified email; `None`: `auto` where the
    /// global `auto_link_by_email` is on, else `confirm`.
    pub linking: Option<LinkingConfig>,
}

/// `linking` (docs/configuration.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkingConfig {
    /// Link at once when both sides verified the address.
    Auto,
    /// 409 with a link token the holder of the email redeems after signing in.
    Confirm,
    /// 409, nothing offered.
    Never,
}

impl From<LinkingConfig> for social_login_domain::linking::Linking {
    fn from(config: LinkingConfig) -> Self {
        match config {
            LinkingConfig::Auto => Self::Auto,
            LinkingConfig::Confirm => Self::Confirm,
            LinkingConfig::Never => Self::Never,
        }
    }
}

/// `id_token_nonce`: whether a native sign-in must carry the app's nonce.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IdTokenNonce {
    /// Without a nonce, 422: the token is bound to the app's sign-in (the default).
    #[default]
    Required,
    /// For apps whose provider SDK cannot pass a nonce: a request may leave it out, but a
    /// token that carries one still needs it.
    Optional,
}

impl ProviderConfig {
    /// An enabled provider with PKCE, default scopes and public endpoints.
    pub fn new(
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
        redirect_uri: impl Into<String>,
    ) -> Self {
        Self {
            client_id: client_id.into(),
            client_secret: SecretString::from(client_secret.into()),
            redirect_uri: redirect_uri.into(),
            scopes: None,
            enabled: true,
            pkce: true,
            client_ids: Vec::new(),
            id_token_nonce: None,
            endpoints: EndpointOverrides::default(),
            kind: None,
            display_name: None,
            issuer: None,
            domain: None,
            token_endpoint_auth: None,
            trust_email_verified: None,
            claims: None,
            allow_signup: true,
            allowed_email_domains: Vec::new(),
            preset: None,
            authorization_params: None,
            client_id_param: None,
            client_secret_param: None,
            scope_separator: None,
            user_agent: None,
            token_request: None,
            userinfo: None,
            emails: None,
            id_token_signing: None,
            relay_base_urls: None,
            connect_scopes: Vec::new(),
            linking: None,
        }
    }

    /// The knobs this table sets.
    pub fn knobs(&self) -> Knobs {
        Knobs {
            authorization_params: self.authorization_params.clone(),
            client_id_param: self.client_id_param.clone(),
            client_secret_param: self.client_secret_param.clone(),
            scope_separator: self.scope_separator.clone(),
            user_agent: self.user_agent.clone(),
            token_request: self.token_request.clone(),
            userinfo: self.userinfo.clone(),
            emails: self.emails.clone(),
            id_token_signing: self.id_token_signing,
            relay_base_urls: self.relay_base_urls.clone(),
        }
    }

    /// Whether any knob is set.
    pub fn sets_a_knob(&self) -> bool {
        self.knobs() != Knobs::default()
    }

    /// A provider from configuration of `kind`, enabled, with its defaults: the endpoints,
    /// issuer and claims still to be filled in.
    pub fn generic(
        kind: ProviderKind,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
        redirect_uri: impl Into<String>,
    ) -> Self {
        Self {
            kind: Some(kind),
            ..Self::new(client_id, client_secret, redirect_uri)
        }
    }

    /// Whether the provider's `email_verified` claim is believed (never for a provider from
    /// configuration nobody vouched for).
    pub fn trusts_email_verified(&self) -> bool {
        self.trust_email_verified.unwrap_or(false)
    }
}

impl ProviderConfig {
    /// Who may sign up through this provider; `checks_hosted_domain` when its declaration
    /// names the organisation that manages an account (Google's `hd`). A domain that does
    /// not parse is left out: validation has refused it before anything starts.
    pub fn signup_policy(&self, checks_hosted_domain: bool) -> SignupPolicy {
        SignupPolicy {
            allow_signup: self.allow_signup,
            allowed_email_domains: self
                .allowed_email_domains
                .iter()
                .filter_map(|domain| EmailDomain::parse(domain).ok())
                .collect(),
            checks_hosted_domain,
        }
    }

    /// This table as the adapters take it: plain values and the endpoint overrides (Apple's
    /// signing key, a setting of the service, is added by [`Settings::adapter_settings`]).
    pub fn adapter_settings(&self) -> ProviderSettings {
        ProviderSettings {
            client_id: self.client_id.clone(),
            client_secret: SecretText::new(self.client_secret.expose_secret()),
            redirect_uri: self.redirect_uri.clone(),
            scopes: self.scopes.clone(),
            pkce: self.pkce,
            client_ids: self.client_ids.clone(),
            signing: None,
            endpoints: EndpointOverrides {
                emails: self.emails_endpoint().cloned(),
                ..self.endpoints.clone()
            },
        }
    }

    /// The emails endpoint: `endpoints.emails`, else [`Self::emails_url`].
    pub fn emails_endpoint(&self) -> Option<&String> {
        self.endpoints.emails.as_ref().or(self.emails_url())
    }

    /// The `[emails]` table's own `url`.
    pub fn emails_url(&self) -> Option<&String> {
        self.emails.as_ref().and_then(|emails| emails.url.as_ref())
    }
}

fn default_true() -> bool {
    true
}
