//! Microsoft identity platform through the `common` endpoint (PROVIDERS.md §4): OIDC code
//! flow with PKCE S256 and a nonce; the identity comes from the verified id_token alone
//! (Microsoft recommends it over userinfo, and Graph would need another scope and call).

mod identity;
#[cfg(test)]
mod properties;
mod tenant;

pub use tenant::{PERSONAL_ACCOUNT_TENANT, TENANT_PLACEHOLDER, tenant_issuer_policy};

use crate::oidc_flow::OidcFlow;
use async_trait::async_trait;
use social_login_domain::ProviderKey;
use social_login_id_token::IdTokenVerifier;
use social_login_id_token::KeySetCache;
use social_login_ports::{
    AuthorizationRequest, CallbackInput, Clock, IdTokenInput, IdentityProvider, PresentedIdToken,
    ProviderError, ProviderLogin, SystemClock,
};
use social_login_provider_core::{
    ClientAuth, CodeFlow, FlowDefaults, ProviderConfigError, ProviderSettings, SettingsProblem,
    SettingsRules, check_settings, require_non_empty, resolve_endpoint,
};
use std::sync::Arc;

/// The `common` endpoints (work, school and personal accounts) and the sign-in scopes.
pub const MICROSOFT_DEFAULTS: FlowDefaults = FlowDefaults {
    authorization: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    token: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
    scopes: &["openid", "email", "profile"],
    // Microsoft takes `client_secret_post` and `client_secret_basic`; the body is enough.
    client_auth: ClientAuth::RequestBody,
};
/// The key set of every tenant. Its entries carry no `alg`; RS256 is assumed (§4.1).
pub const MICROSOFT_JWKS_URL: &str = "https://login.microsoftonline.com/common/discovery/v2.0/keys";
/// The issuer of `common`'s discovery document: a template filled with the token's `tid`.
pub const MICROSOFT_ISSUER_TEMPLATE: &str = "https://login.microsoftonline.com/{tenantid}/v2.0";

/// The Microsoft adapter.
#[derive(Debug, Clone)]
pub struct MicrosoftProvider {
    oidc: OidcFlow,
}

impl MicrosoftProvider {
    /// Every problem of `settings` for this adapter, for `check-config`. Microsoft has no
    /// revocation endpoint (PROVIDERS.md §4.7): one configured would never be called.
    pub fn check_settings(settings: &ProviderSettings) -> Vec<SettingsProblem> {
        let mut problems = check_settings(settings, SettingsRules::STANDARD);
        if settings.endpoints.revocation.is_some() {
            problems.push(SettingsProblem::provider(
                "endpoints.revocation",
                "microsoft has no revocation endpoint",
            ));
        }
        problems
    }

    /// Builds the adapter on the shared client; fails naming the first invalid field.
    /// `endpoints.issuer`, when set, replaces the issuer template; it may contain
    /// `{tenantid}`, filled with each token's own `tid` (without it, one tenant only).
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
        let jwks_url = resolve_endpoint(
            "endpoints.jwks",
            endpoints.jwks.as_deref(),
            MICROSOFT_JWKS_URL,
        )?;
        let template = match endpoints.issuer.as_deref() {
            Some(issuer) => {
                require_non_empty("endpoints.issuer", issuer)?;
                issuer.trim()
            }
            None => MICROSOFT_ISSUER_TEMPLATE,
        };
        let flow = CodeFlow::new(&settings, &MICROSOFT_DEFAULTS, http)?;
        let keys = KeySetCache::shared(&jwks_url, flow.http());
        let issuer = tenant_issuer_policy(template);
        let verifier = IdTokenVerifier::new(keys, issuer, settings.client_id.clone(), clock);
        Ok(Self {
            oidc: OidcFlow::new(flow, verifier),
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
impl IdentityProvider for MicrosoftProvider {
    fn key(&self) -> ProviderKey {
        ProviderKey::MICROSOFT
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        self.oidc.authorization_url(request)
    }

    #[tracing::instrument(skip_all, fields(provider = "microsoft"))]
    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        // Everything needed is in the id_token: no Graph call.
        let (tokens, claims) = self.oidc.sign_in(&callback).await?;
        Ok(ProviderLogin {
            identity: identity::to_identity(claims)?,
            tokens: tokens.into_provider_tokens(),
        })
    }

    #[tracing::instrument(skip_all, fields(provider = "microsoft"))]
    async fn sign_in_with_id_token(
        &self,
        input: IdTokenInput,
    ) -> Result<PresentedIdToken, ProviderError> {
        let presented = self.oidc.verify_presented(&input).await?;
        Ok(PresentedIdToken {
            identity: identity::to_identity(presented.claims)?,
            usable_until: presented.usable_until,
        })
    }
}
