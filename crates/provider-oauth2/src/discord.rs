//! Discord (PROVIDERS.md §6): OAuth 2.0 with PKCE S256, then `GET /users/@me`.
//!
//! Discord has no id_token: the identity comes from the REST API with the access token.
//! Its quirks: the token endpoint reads form bodies only (the oauth2 bridge sends one),
//! a `code_verifier` without a challenge is refused (the flow sends both or neither), and
//! the avatar is a hash to turn into a CDN URL ([`avatar`]).

mod api;
mod avatar;
mod identity;
#[cfg(test)]
mod properties;
mod revoke;

pub use revoke::DISCORD_REVOCATION_URL;

use async_trait::async_trait;
use social_login_domain::ProviderKey;
use social_login_ports::{
    AuthorizationRequest, CallbackInput, IdentityProvider, ProviderError, ProviderGrant,
    ProviderLogin, Revoked,
};
use social_login_provider_core::{
    ClientAuth, CodeFlow, FlowDefaults, ProviderConfigError, ProviderSettings, RevocationEndpoint,
    SettingsProblem, SettingsRules, check_settings, fetch_json, resolve_endpoint,
};
use url::Url;

/// discord.com endpoints and the scopes that give the profile and the email.
pub const DISCORD_DEFAULTS: FlowDefaults = FlowDefaults {
    authorization: "https://discord.com/oauth2/authorize",
    token: "https://discord.com/api/oauth2/token",
    scopes: &["identify", "email"],
    // Discord takes Basic or the body; the body avoids Basic's form-encoding ambiguity.
    client_auth: ClientAuth::RequestBody,
};
pub const DISCORD_USER_URL: &str = "https://discord.com/api/users/@me";

/// The Discord adapter.
#[derive(Debug, Clone)]
pub struct DiscordProvider {
    flow: CodeFlow,
    user_url: Url,
    revocation: RevocationEndpoint,
}

impl DiscordProvider {
    /// Every problem of `settings` for this adapter, for `check-config`.
    pub fn check_settings(settings: &ProviderSettings) -> Vec<SettingsProblem> {
        check_settings(settings, SettingsRules::STANDARD)
    }

    /// Builds the adapter on the shared client; fails naming the first invalid field.
    pub fn new(
        settings: ProviderSettings,
        http: reqwest::Client,
    ) -> Result<Self, ProviderConfigError> {
        let user_url = resolve_endpoint(
            "endpoints.userinfo",
            settings.endpoints.userinfo.as_deref(),
            DISCORD_USER_URL,
        )?;
        let revocation = RevocationEndpoint::new(&settings, DISCORD_REVOCATION_URL, &http)?;
        Ok(Self {
            flow: CodeFlow::new(&settings, &DISCORD_DEFAULTS, http)?,
            user_url,
            revocation,
        })
    }
}

#[async_trait]
impl IdentityProvider for DiscordProvider {
    fn key(&self) -> ProviderKey {
        ProviderKey::DISCORD
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        self.flow.authorization_url(request, &[])
    }

    #[tracing::instrument(skip_all, fields(provider = "discord"))]
    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        let tokens = self
            .flow
            .exchange_code(&callback.code, &callback.redeemed.pkce_verifier)
            .await?;
        let request = self
            .flow
            .http()
            .get(self.user_url.clone())
            .bearer_auth(tokens.access_token.expose());
        let user: api::User = fetch_json("Discord user endpoint", request).await?;
        Ok(ProviderLogin {
            identity: identity::to_identity(user)?,
            tokens: tokens.into_provider_tokens(),
        })
    }

    #[tracing::instrument(skip_all, fields(provider = "discord"))]
    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        revoke::revoke(&self.revocation, &grant).await
    }
}
