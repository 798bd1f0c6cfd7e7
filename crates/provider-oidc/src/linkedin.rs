//! LinkedIn, "Sign In with LinkedIn using OpenID Connect" (PROVIDERS.md §5): code flow with
//! client credentials in the POST body only; the identity comes from the verified id_token
//! and the userinfo endpoint.
//!
//! Two LinkedIn quirks shape this adapter. Its id_tokens carry no `nonce` (§5.3): we still
//! send one, and check it whenever a token carries one, but its absence is not a failure.
//! And web apps have no PKCE: the challenge is sent anyway (the issue asks for S256 on
//! every flow), and an app that refuses it is configured with `pkce = false`.

mod identity;
#[cfg(test)]
mod properties;
mod revoke;

pub use revoke::LINKEDIN_REVOCATION_URL;

use crate::oidc_flow::OidcFlow;
use async_trait::async_trait;
use social_login_domain::ProviderKey;
use social_login_id_token::KeySetCache;
use social_login_id_token::{IdTokenVerifier, IssuerPolicy, NoncePolicy};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, Clock, IdentityProvider, ProviderError, ProviderGrant,
    ProviderLogin, Revoked, SystemClock,
};
use social_login_provider_core::{
    ClientAuth, CodeFlow, FlowDefaults, ProviderConfigError, ProviderSettings, RevocationEndpoint,
    SettingsProblem, SettingsRules, check_settings, require_non_empty, resolve_endpoint,
};
use std::sync::Arc;
use url::Url;

/// LinkedIn's endpoints (§5.1) and the OIDC sign-in scopes.
pub const LINKEDIN_DEFAULTS: FlowDefaults = FlowDefaults {
    authorization: "https://www.linkedin.com/oauth/v2/authorization",
    token: "https://www.linkedin.com/oauth/v2/accessToken",
    scopes: &["openid", "email", "profile"],
    // `client_secret_post` only: LinkedIn does not support HTTP Basic (§5.4).
    client_auth: ClientAuth::RequestBody,
};
pub const LINKEDIN_USERINFO_URL: &str = "https://api.linkedin.com/v2/userinfo";
pub const LINKEDIN_JWKS_URL: &str = "https://www.linkedin.com/oauth/openid/jwks";
pub const LINKEDIN_ISSUER: &str = "https://www.linkedin.com/oauth";

/// The LinkedIn adapter.
#[derive(Debug, Clone)]
pub struct LinkedinProvider {
    oidc: OidcFlow,
    userinfo_url: Url,
    revocation: RevocationEndpoint,
}

impl LinkedinProvider {
    /// Every problem of `settings` for this adapter, for `check-config`.
    pub fn check_settings(settings: &ProviderSettings) -> Vec<SettingsProblem> {
        check_settings(settings, SettingsRules::STANDARD)
    }

    /// Builds the adapter on the shared client; fails naming the first invalid field.
    /// `endpoints.issuer`, when set, replaces LinkedIn's issuer.
    pub fn new(
        settings: ProviderSettings,
        http: reqwest::Client,
    ) -> Result<Self, ProviderConfigError> {
        Self::with_clock(settings, http, Arc::new(SystemClock))
    }

    /// Like [`Self::new`], reading the time from `clock` (id_token times and the key-set
    /// cache's timing).
    pub fn with_clock(
        settings: ProviderSettings,
        http: reqwest::Client,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, ProviderConfigError> {
        let endpoints = &settings.endpoints;
        let userinfo_url = resolve_endpoint(
            "endpoints.userinfo",
            endpoints.userinfo.as_deref(),
            LINKEDIN_USERINFO_URL,
        )?;
        let jwks_url = resolve_endpoint(
            "endpoints.jwks",
            endpoints.jwks.as_deref(),
            LINKEDIN_JWKS_URL,
        )?;
        let issuer = match endpoints.issuer.as_deref() {
            Some(issuer) => {
                require_non_empty("endpoints.issuer", issuer)?;
                issuer.trim()
            }
            None => LINKEDIN_ISSUER,
        };
        let revocation = RevocationEndpoint::new(&settings, LINKEDIN_REVOCATION_URL, &http)?;
        let flow = CodeFlow::new(&settings, &LINKEDIN_DEFAULTS, http)?;
        let keys = KeySetCache::shared(&jwks_url, flow.http());
        let verifier = IdTokenVerifier::new(
            keys,
            IssuerPolicy::one_of([issuer]),
            settings.client_id.clone(),
            clock,
        )
        .with_nonce_policy(NoncePolicy::CheckedIfPresent);
        Ok(Self {
            oidc: OidcFlow::new(flow, verifier),
            userinfo_url,
            revocation,
        })
    }
}

#[async_trait]
impl IdentityProvider for LinkedinProvider {
    fn key(&self) -> ProviderKey {
        ProviderKey::LINKEDIN
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        self.oidc.authorization_url(request)
    }

    #[tracing::instrument(skip_all, fields(provider = "linkedin"))]
    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        let (tokens, claims) = self.oidc.sign_in(&callback).await?;
        let userinfo: identity::UserInfo = self
            .oidc
            .userinfo("LinkedIn userinfo endpoint", &self.userinfo_url, &tokens)
            .await?;
        Ok(ProviderLogin {
            identity: identity::to_identity(claims, userinfo)?,
            tokens: tokens.into_provider_tokens(),
        })
    }
    #[tracing::instrument(skip_all, fields(provider = "linkedin"))]
    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        revoke::revoke(&self.revocation, &grant).await
    }
}
