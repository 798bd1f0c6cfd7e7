//! Google (PROVIDERS.md §1): OIDC code flow with PKCE S256 and a nonce; the identity comes
//! from the verified id_token and the userinfo endpoint.

mod identity;
#[cfg(test)]
mod properties;
mod revoke;

pub use revoke::GOOGLE_REVOCATION_URL;

use crate::oidc_flow::OidcFlow;
use async_trait::async_trait;
use social_login_domain::ProviderKey;
use social_login_id_token::KeySetCache;
use social_login_id_token::{IdTokenVerifier, IssuerPolicy};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, Clock, IdTokenInput, IdentityProvider, PresentedIdToken,
    ProviderError, ProviderGrant, ProviderLogin, Revoked, SystemClock,
};
use social_login_provider_core::{
    ClientAuth, CodeFlow, FlowDefaults, ProviderConfigError, ProviderSettings, RevocationEndpoint,
    SettingsProblem, SettingsRules, check_settings, require_non_empty, resolve_endpoint,
};
use std::sync::Arc;
use url::Url;

/// Google's endpoints (discovery, §1.1) and the scopes for a sign-in with email.
pub const GOOGLE_DEFAULTS: FlowDefaults = FlowDefaults {
    authorization: "https://accounts.google.com/o/oauth2/v2/auth",
    token: "https://oauth2.googleapis.com/token",
    scopes: &["openid", "email", "profile"],
    // Google takes `client_secret_post` and `client_secret_basic`; the body is enough.
    client_auth: ClientAuth::RequestBody,
};
pub const GOOGLE_USERINFO_URL: &str = "https://openidconnect.googleapis.com/v1/userinfo";
pub const GOOGLE_JWKS_URL: &str = "https://www.googleapis.com/oauth2/v3/certs";
/// Google's id_tokens carry either spelling (PROVIDERS.md §1.5); both must be accepted.
pub const GOOGLE_ISSUERS: [&str; 2] = ["https://accounts.google.com", "accounts.google.com"];

/// The Google adapter.
#[derive(Debug, Clone)]
pub struct GoogleProvider {
    oidc: OidcFlow,
    userinfo_url: Url,
    revocation: RevocationEndpoint,
}

impl GoogleProvider {
    /// Every problem of `settings` for this adapter, for `check-config`.
    pub fn check_settings(settings: &ProviderSettings) -> Vec<SettingsProblem> {
        check_settings(settings, SettingsRules::STANDARD)
    }

    /// Builds the adapter on the shared client; fails naming the first invalid field.
    /// `endpoints.issuer`, when set, replaces Google's two issuers with that one.
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
            GOOGLE_USERINFO_URL,
        )?;
        let jwks_url =
            resolve_endpoint("endpoints.jwks", endpoints.jwks.as_deref(), GOOGLE_JWKS_URL)?;
        let issuer = match endpoints.issuer.as_deref() {
            Some(issuer) => {
                require_non_empty("endpoints.issuer", issuer)?;
                IssuerPolicy::one_of([issuer.trim()])
            }
            None => IssuerPolicy::one_of(GOOGLE_ISSUERS),
        };
        let revocation = RevocationEndpoint::new(&settings, GOOGLE_REVOCATION_URL, &http)?;
        let flow = CodeFlow::new(&settings, &GOOGLE_DEFAULTS, http)?;
        let keys = KeySetCache::shared(&jwks_url, flow.http());
        let verifier = IdTokenVerifier::new(keys, issuer, settings.client_id.clone(), clock);
        Ok(Self {
            oidc: OidcFlow::new(flow, verifier),
            userinfo_url,
            revocation,
        })
    }

    /// Accepts `client_ids` (`[oauth_providers.X] client_ids`: iOS bundle id, Android client
    /// id...) besides `client_id` as the audience of id_tokens an app presents natively.
    pub fn with_client_ids(mut self, client_ids: &[String]) -> Self {
        self.oidc = self.oidc.with_other_client_ids(client_ids);
        self
    }
}

#[async_trait]
impl IdentityProvider for GoogleProvider {
    fn key(&self) -> ProviderKey {
        ProviderKey::GOOGLE
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        self.oidc.authorization_url(request)
    }

    #[tracing::instrument(skip_all, fields(provider = "google"))]
    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        let (tokens, claims) = self.oidc.sign_in(&callback).await?;
        let userinfo: identity::UserInfo = self
            .oidc
            .userinfo("Google userinfo endpoint", &self.userinfo_url, &tokens)
            .await?;
        Ok(ProviderLogin {
            identity: identity::to_identity(claims, userinfo)?,
            tokens: tokens.into_provider_tokens(),
        })
    }

    /// Everything comes from the signed token: there is no access token for userinfo.
    #[tracing::instrument(skip_all, fields(provider = "google"))]
    async fn sign_in_with_id_token(
        &self,
        input: IdTokenInput,
    ) -> Result<PresentedIdToken, ProviderError> {
        let presented = self.oidc.verify_presented(&input).await?;
        Ok(PresentedIdToken {
            identity: identity::from_claims(presented.claims)?,
            usable_until: presented.usable_until,
        })
    }

    #[tracing::instrument(skip_all, fields(provider = "google"))]
    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        revoke::revoke(&self.revocation, &grant).await
    }
}
