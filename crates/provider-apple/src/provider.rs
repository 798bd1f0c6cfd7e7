//! The Apple adapter: authorization URL with `response_mode=form_post`, PKCE S256 and a
//! nonce; code exchange with a client secret minted for it; identity from the id_token.

use crate::client_secret::ClientSecretSigner;
use crate::identity;
use crate::post_body;
use async_trait::async_trait;
use social_login_domain::{ProviderKey, SecretText};
use social_login_id_token::{IdTokenVerifier, IssuerPolicy, KeySetCache};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, Clock, IdentityProvider, ProviderError, ProviderLogin,
    SystemClock,
};
use social_login_provider_core::{
    ClientAuth, CodeFlow, FlowDefaults, ProviderConfigError, ProviderSettings, require_non_empty,
    resolve_endpoint,
};
use std::sync::Arc;

/// Apple's endpoints (PROVIDERS.md §8.1) and the scopes for a sign-in with name and email.
pub const APPLE_DEFAULTS: FlowDefaults = FlowDefaults {
    authorization: "https://appleid.apple.com/auth/authorize",
    token: "https://appleid.apple.com/auth/token",
    scopes: &["name", "email"],
    // Apple supports `client_secret_post` only.
    client_auth: ClientAuth::RequestBody,
};
pub const APPLE_JWKS_URL: &str = "https://appleid.apple.com/auth/keys";
/// Hard-coded rather than discovered: in June 2025 Apple's discovery document briefly
/// named another issuer while its tokens kept this one (PROVIDERS.md §8.1).
pub const APPLE_ISSUER: &str = "https://appleid.apple.com";

/// The Sign in with Apple adapter (spec 4.7).
#[derive(Debug, Clone)]
pub struct AppleProvider {
    flow: CodeFlow,
    secret: ClientSecretSigner,
    verifier: IdTokenVerifier,
}

impl AppleProvider {
    /// Builds the adapter on the shared client; fails naming the first invalid setting.
    /// `settings.client_secret` is ignored (spec 4.7.1): the secret is signed per exchange
    /// with `private_key_pem` (Apple's `.p8`), `team_id` and `key_id`. `endpoints.issuer`
    /// and `endpoints.jwks` replace Apple's when set.
    pub fn new(
        settings: ProviderSettings,
        team_id: String,
        key_id: String,
        private_key_pem: SecretText,
        http: reqwest::Client,
    ) -> Result<Self, ProviderConfigError> {
        Self::with_clock(
            settings,
            team_id,
            key_id,
            private_key_pem,
            http,
            Arc::new(SystemClock),
        )
    }

    /// Like [`Self::new`], reading the time from `clock`: the client secret's `iat`/`exp`,
    /// the id_token checks and the key-set cache's timing.
    pub fn with_clock(
        mut settings: ProviderSettings,
        team_id: String,
        key_id: String,
        private_key_pem: SecretText,
        http: reqwest::Client,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, ProviderConfigError> {
        settings.client_secret = SecretText::new("");
        let jwks_url = resolve_endpoint(
            "endpoints.jwks",
            settings.endpoints.jwks.as_deref(),
            APPLE_JWKS_URL,
        )?;
        let issuer = match settings.endpoints.issuer.as_deref() {
            Some(issuer) => {
                require_non_empty("endpoints.issuer", issuer)?;
                issuer.trim()
            }
            None => APPLE_ISSUER,
        };
        let flow = CodeFlow::new(&settings, &APPLE_DEFAULTS, http)?;
        let secret = ClientSecretSigner::new(
            &team_id,
            &key_id,
            &private_key_pem,
            &settings.client_id,
            clock.clone(),
        )?;
        let keys = KeySetCache::shared(&jwks_url, flow.http());
        let verifier = IdTokenVerifier::new(
            keys,
            IssuerPolicy::one_of([issuer]),
            settings.client_id.clone(),
            clock,
        );
        Ok(Self {
            flow,
            secret,
            verifier,
        })
    }
}

#[async_trait]
impl IdentityProvider for AppleProvider {
    fn key(&self) -> ProviderKey {
        ProviderKey::Apple
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        // form_post is mandatory once a scope is asked for (PROVIDERS.md §8.2).
        self.flow.authorization_url(
            request,
            &[
                ("response_mode", "form_post"),
                ("nonce", request.nonce.expose()),
            ],
        )
    }

    #[tracing::instrument(skip_all, fields(provider = "apple"))]
    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        let client_secret = self.secret.sign()?;
        let tokens = self
            .flow
            .exchange_code_with_secret(
                &callback.code,
                &callback.redeemed.pkce_verifier,
                &client_secret,
            )
            .await?;
        let id_token = tokens
            .id_token
            .as_ref()
            .ok_or_else(|| ProviderError::UserInfo("token endpoint answered no id_token".into()))?;
        let claims = self
            .verifier
            .verify(id_token, &callback.redeemed.nonce)
            .await?;
        let name = post_body::name_in(callback.post_body.as_ref());
        let identity = identity::to_identity(claims, name.as_ref())?;
        Ok(ProviderLogin {
            identity,
            tokens: tokens.into_provider_tokens(),
        })
    }
}
