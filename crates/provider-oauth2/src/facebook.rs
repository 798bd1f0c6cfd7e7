//! Facebook (PROVIDERS.md §3): OAuth 2.0 with PKCE S256, then the Graph API's `/me` with
//! the fields sign-in needs and an `appsecret_proof`.
//!
//! Facebook has no id_token in this flow: the identity comes from the Graph API. Every
//! Graph call carries `appsecret_proof` (hex HMAC-SHA256 of the access token, keyed with
//! the app secret) so an app with "Require App Secret" on works, and a stolen token alone
//! is useless to anyone without the secret.

mod api;
mod identity;
mod proof;
#[cfg(test)]
mod properties;
mod revoke;

use async_trait::async_trait;
use social_login_domain::{ProviderKey, SecretText};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, IdentityProvider, ProviderError, ProviderGrant,
    ProviderLogin, Revoked,
};
use social_login_provider_core::{
    ClientAuth, CodeFlow, FlowDefaults, ProviderConfigError, ProviderSettings, RevocationEndpoint,
    SettingsProblem, SettingsRules, check_settings, fetch_json, require_non_empty,
    resolve_endpoint,
};
use url::Url;

/// The Graph API version every default URL names.
///
/// Pinned so a change of the app's default version cannot change the answers; v24.0 is
/// what the maintained libraries pin in 2026 (better-auth, social-core; PROVIDERS.md
/// §3.1), and Meta keeps a version callable for about two years after its release.
macro_rules! graph_version {
    () => {
        "v24.0"
    };
}
pub const FACEBOOK_GRAPH_VERSION: &str = graph_version!();

/// facebook.com endpoints and the permissions that give the profile and the email.
pub const FACEBOOK_DEFAULTS: FlowDefaults = FlowDefaults {
    authorization: concat!(
        "https://www.facebook.com/",
        graph_version!(),
        "/dialog/oauth"
    ),
    token: concat!(
        "https://graph.facebook.com/",
        graph_version!(),
        "/oauth/access_token"
    ),
    scopes: &["email", "public_profile"],
    // Facebook takes the client credentials as parameters; it has no Basic.
    client_auth: ClientAuth::RequestBody,
};
pub const FACEBOOK_ME_URL: &str = concat!("https://graph.facebook.com/", graph_version!(), "/me");
/// `me` stands for the token's user, whose id the caller need not know.
pub const FACEBOOK_REVOCATION_URL: &str = concat!(
    "https://graph.facebook.com/",
    graph_version!(),
    "/me/permissions"
);

/// The `/me` fields sign-in reads.
const ME_FIELDS: &str = "id,name,email,picture";

/// The Facebook adapter.
#[derive(Debug, Clone)]
pub struct FacebookProvider {
    flow: CodeFlow,
    me_url: Url,
    app_secret: SecretText,
    revocation: RevocationEndpoint,
}

impl FacebookProvider {
    /// Every problem of `settings` for this adapter, for `check-config`.
    pub fn check_settings(settings: &ProviderSettings) -> Vec<SettingsProblem> {
        check_settings(settings, SettingsRules::STANDARD)
    }

    /// Builds the adapter on the shared client; fails naming the first invalid field.
    /// The client secret is required: every Graph call is signed with it.
    pub fn new(
        settings: ProviderSettings,
        http: reqwest::Client,
    ) -> Result<Self, ProviderConfigError> {
        require_non_empty("client_secret", settings.client_secret.expose())?;
        let me_url = resolve_endpoint(
            "endpoints.userinfo",
            settings.endpoints.userinfo.as_deref(),
            FACEBOOK_ME_URL,
        )?;
        let revocation = RevocationEndpoint::new(&settings, FACEBOOK_REVOCATION_URL, &http)?;
        Ok(Self {
            flow: CodeFlow::new(&settings, &FACEBOOK_DEFAULTS, http)?,
            me_url,
            revocation,
            app_secret: settings.client_secret,
        })
    }

    /// `/me?fields=…&appsecret_proof=…`, keeping any other parameter of a configured URL.
    fn me_url_for(&self, access_token: &SecretText) -> Url {
        let mut url = self.me_url.clone();
        let kept: Vec<(String, String)> = url
            .query_pairs()
            .filter(|(name, _)| !matches!(&**name, "fields" | "appsecret_proof" | "access_token"))
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect();
        url.query_pairs_mut()
            .clear()
            .extend_pairs(kept)
            .append_pair("fields", ME_FIELDS)
            .append_pair(
                "appsecret_proof",
                &proof::appsecret_proof(&self.app_secret, access_token),
            );
        url
    }
}

#[async_trait]
impl IdentityProvider for FacebookProvider {
    fn key(&self) -> ProviderKey {
        ProviderKey::FACEBOOK
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        self.flow.authorization_url(request, &[])
    }

    #[tracing::instrument(skip_all, fields(provider = "facebook"))]
    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        let tokens = self
            .flow
            .exchange_code(&callback.code, &callback.redeemed.pkce_verifier)
            .await?;
        // The token goes in the header, not the URL, where proxies and logs could see it.
        let request = self
            .flow
            .http()
            .get(self.me_url_for(&tokens.access_token))
            .bearer_auth(tokens.access_token.expose());
        let me: api::Me = fetch_json("Facebook profile endpoint", request).await?;
        Ok(ProviderLogin {
            identity: identity::to_identity(me)?,
            tokens: tokens.into_provider_tokens(),
        })
    }

    #[tracing::instrument(skip_all, fields(provider = "facebook"))]
    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        revoke::revoke(&self.revocation, &grant).await
    }
}
