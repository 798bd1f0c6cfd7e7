//! X, formerly Twitter (PROVIDERS.md §7): OAuth 2.0 with PKCE S256 (mandatory at X) and
//! HTTP Basic client authentication, then `GET /2/users/me`.
//!
//! X has no id_token: the identity comes from the API with the access token. An email
//! exists only when the configured scopes include `users.email` (and the app has "Request
//! email from users" on): only then is `confirmed_email` asked for.

mod api;
mod identity;
#[cfg(test)]
mod properties;
mod revoke;

pub use revoke::TWITTER_REVOCATION_URL;

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

/// x.com endpoints and the scopes `/2/users/me` needs, plus a refresh token.
pub const TWITTER_DEFAULTS: FlowDefaults = FlowDefaults {
    authorization: "https://x.com/i/oauth2/authorize",
    token: "https://api.x.com/2/oauth2/token",
    scopes: &["tweet.read", "users.read", "offline.access"],
    // X refuses credentials in the body of a confidential client; a client configured
    // without a secret (public) sends its `client_id` in the body instead.
    client_auth: ClientAuth::BasicAuth,
};
pub const TWITTER_USER_URL: &str = "https://api.x.com/2/users/me";

/// The scope that lets `/2/users/me` return `confirmed_email`.
const EMAIL_SCOPE: &str = "users.email";

/// The X adapter.
#[derive(Debug, Clone)]
pub struct TwitterProvider {
    flow: CodeFlow,
    user_url: Url,
    revocation: RevocationEndpoint,
}

impl TwitterProvider {
    /// Every problem of `settings` for this adapter, for `check-config`.
    pub fn check_settings(settings: &ProviderSettings) -> Vec<SettingsProblem> {
        check_settings(settings, SettingsRules::STANDARD)
    }

    /// Builds the adapter on the shared client; fails naming the first invalid field.
    ///
    /// PKCE stays on even if the settings turn it off: X refuses every authorization
    /// request without a challenge, so `pkce = false` could only break sign-in.
    pub fn new(
        mut settings: ProviderSettings,
        http: reqwest::Client,
    ) -> Result<Self, ProviderConfigError> {
        if !settings.pkce {
            tracing::warn!(
                provider = "twitter",
                "pkce = false ignored: X requires PKCE on every authorization"
            );
            settings.pkce = true;
        }
        let mut user_url = resolve_endpoint(
            "endpoints.userinfo",
            settings.endpoints.userinfo.as_deref(),
            TWITTER_USER_URL,
        )?;
        let revocation = RevocationEndpoint::new(&settings, TWITTER_REVOCATION_URL, &http)?;
        let flow = CodeFlow::new(&settings, &TWITTER_DEFAULTS, http)?;
        let wants_email = flow.scopes().iter().any(|scope| scope == EMAIL_SCOPE);
        set_user_fields(&mut user_url, wants_email);
        Ok(Self {
            flow,
            user_url,
            revocation,
        })
    }
}

/// `user.fields=profile_image_url` (`,confirmed_email` with the email scope), replacing
/// any `user.fields` of a configured URL and keeping its other parameters.
fn set_user_fields(url: &mut Url, wants_email: bool) {
    let fields = if wants_email {
        "profile_image_url,confirmed_email"
    } else {
        "profile_image_url"
    };
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(name, _)| name != "user.fields")
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    url.query_pairs_mut()
        .clear()
        .extend_pairs(kept)
        .append_pair("user.fields", fields);
}

#[async_trait]
impl IdentityProvider for TwitterProvider {
    fn key(&self) -> ProviderKey {
        ProviderKey::TWITTER
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        self.flow.authorization_url(request, &[])
    }

    #[tracing::instrument(skip_all, fields(provider = "twitter"))]
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
        let answer: api::UsersMe = fetch_json("X user endpoint", request).await?;
        Ok(ProviderLogin {
            identity: identity::to_identity(answer)?,
            tokens: tokens.into_provider_tokens(),
        })
    }

    #[tracing::instrument(skip_all, fields(provider = "twitter"))]
    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        revoke::revoke(&self.revocation, &grant).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confirmed_email_is_asked_for_only_with_the_email_scope() {
        let mut url = Url::parse(TWITTER_USER_URL).unwrap();
        set_user_fields(&mut url, false);
        assert_eq!(
            url.as_str(),
            "https://api.x.com/2/users/me?user.fields=profile_image_url"
        );
        let mut url =
            Url::parse("https://x.example/2/users/me?user.fields=id&expansions=x").unwrap();
        set_user_fields(&mut url, true);
        assert_eq!(
            url.as_str(),
            "https://x.example/2/users/me?expansions=x&user.fields=profile_image_url%2Cconfirmed_email"
        );
    }
}
