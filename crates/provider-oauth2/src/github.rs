//! GitHub (PROVIDERS.md §2): OAuth 2.0 with PKCE S256, then `GET /user` and `GET /user/emails`.
//!
//! GitHub has no id_token: the identity comes from the REST API with the access token.
//! Its quirks are handled in the shared plumbing (errors as HTTP 200, a `User-Agent` on
//! every call) and in [`identity`] (which email to trust).

mod api;
mod identity;
#[cfg(test)]
mod properties;
mod revoke;

pub use revoke::GITHUB_REVOCATION_URL;

use async_trait::async_trait;
use reqwest::StatusCode;
use reqwest::header::ACCEPT;
use social_login_domain::{ProviderKey, SecretText};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, IdentityProvider, ProviderError, ProviderGrant,
    ProviderLogin, Revoked,
};
use social_login_provider_core::{
    ClientAuth, CodeFlow, FlowDefaults, ProviderConfigError, ProviderSettings, RevocationEndpoint,
    SettingsProblem, SettingsRules, check_settings, fetch_json, fetch_json_unless,
    resolve_endpoint,
};
use url::Url;

/// github.com endpoints and the scopes that give the profile and the email list.
pub const GITHUB_DEFAULTS: FlowDefaults = FlowDefaults {
    authorization: "https://github.com/login/oauth/authorize",
    token: "https://github.com/login/oauth/access_token",
    scopes: &["read:user", "user:email"],
    // Credentials in the body are GitHub's documented method.
    client_auth: ClientAuth::RequestBody,
};
pub const GITHUB_USER_URL: &str = "https://api.github.com/user";
pub const GITHUB_EMAILS_URL: &str = "https://api.github.com/user/emails";

/// Pins the REST API version so a GitHub default change cannot alter the answers.
const API_VERSION: (&str, &str) = ("x-github-api-version", "2022-11-28");
const API_MEDIA_TYPE: &str = "application/vnd.github+json";

/// The GitHub adapter.
#[derive(Debug, Clone)]
pub struct GithubProvider {
    flow: CodeFlow,
    user_url: Url,
    emails_url: Url,
    revocation: RevocationEndpoint,
}

impl GithubProvider {
    /// Every problem of `settings` for this adapter, for `check-config`.
    pub fn check_settings(settings: &ProviderSettings) -> Vec<SettingsProblem> {
        check_settings(
            settings,
            SettingsRules {
                client_secret: true,
                emails_endpoint: true,
            },
        )
    }

    /// Builds the adapter on the shared client; fails naming the first invalid field.
    pub fn new(
        settings: ProviderSettings,
        http: reqwest::Client,
    ) -> Result<Self, ProviderConfigError> {
        let endpoints = &settings.endpoints;
        let user_url = resolve_endpoint(
            "endpoints.userinfo",
            endpoints.userinfo.as_deref(),
            GITHUB_USER_URL,
        )?;
        let emails_url = resolve_endpoint(
            "endpoints.emails",
            endpoints.emails.as_deref(),
            GITHUB_EMAILS_URL,
        )?;
        let revocation = RevocationEndpoint::new(&settings, GITHUB_REVOCATION_URL, &http)?;
        Ok(Self {
            flow: CodeFlow::new(&settings, &GITHUB_DEFAULTS, http)?,
            user_url,
            emails_url,
            revocation,
        })
    }

    fn api_get(&self, url: &Url, token: &SecretText) -> reqwest::RequestBuilder {
        self.flow
            .http()
            .get(url.clone())
            .bearer_auth(token.expose())
            .header(ACCEPT, API_MEDIA_TYPE)
            .header(API_VERSION.0, API_VERSION.1)
    }

    async fn fetch_emails(
        &self,
        token: &SecretText,
    ) -> Result<Vec<api::EmailEntry>, ProviderError> {
        // 403/404: the token lacks `user:email` (scopes were narrowed in the config). That
        // is "no email", and CONTRACT §4 says a provider without email still signs in.
        let emails = fetch_json_unless(
            "GitHub emails endpoint",
            self.api_get(&self.emails_url, token),
            &[StatusCode::FORBIDDEN, StatusCode::NOT_FOUND],
        )
        .await?;
        Ok(emails.unwrap_or_default())
    }
}

#[async_trait]
impl IdentityProvider for GithubProvider {
    fn key(&self) -> ProviderKey {
        ProviderKey::GITHUB
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        self.flow.authorization_url(request, &[])
    }

    #[tracing::instrument(skip_all, fields(provider = "github"))]
    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        let tokens = self
            .flow
            .exchange_code(&callback.code, &callback.redeemed.pkce_verifier)
            .await?;
        let user: api::User = fetch_json(
            "GitHub profile endpoint",
            self.api_get(&self.user_url, &tokens.access_token),
        )
        .await?;
        let emails = if user.email.is_none() {
            // No public email: the list is the only source, so its failure is the login's.
            Some(self.fetch_emails(&tokens.access_token).await?)
        } else {
            // A public email exists; the list only says whether it is verified. Without
            // the list the email is kept as unverified, which never links accounts.
            match self.fetch_emails(&tokens.access_token).await {
                Ok(emails) => Some(emails),
                Err(error) => {
                    tracing::warn!(%error, "GitHub emails unavailable; public email kept as unverified");
                    None
                }
            }
        };
        let identity = identity::to_identity(user, emails.as_deref())?;
        Ok(ProviderLogin {
            identity,
            tokens: tokens.into_provider_tokens(),
        })
    }

    #[tracing::instrument(skip_all, fields(provider = "github"))]
    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        revoke::revoke(&self.revocation, &grant).await
    }
}
