//! The authorization code flow through oauth2 5: the authorization URL and the code exchange.

use crate::failure::code_exchange_failure;
use crate::http_client::ProviderHttp;
use crate::plan::{Endpoint, ProviderPlan};
use crate::quirks::{NoQuirks, Quirks};
use crate::token_answer::TokenAnswer;
use crate::token_http::{TokenHttp, TokenHttpError, TokenShape};
use crate::token_set::TokenSet;
use oauth2::basic::{
    BasicErrorResponse, BasicRevocationErrorResponse, BasicTokenIntrospectionResponse,
};
use oauth2::{
    AsyncHttpClient, AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, EndpointNotSet,
    EndpointSet, PkceCodeVerifier, RedirectUrl, RefreshToken, StandardRevocableToken,
    TokenResponse, TokenUrl,
};
use refresh_failure::refresh_failure;
use social_login_domain::SecretText;
use social_login_ports::{ProviderError, RefreshFailure};
use social_login_provider_spec::TokenAuth;
use std::fmt;
use std::sync::Arc;
use url::Url;

/// What a flow is made of.
struct Parts<'a> {
    client_id: &'a str,
    client_secret: &'a SecretText,
    authorization: Url,
    token: Url,
    /// Where a refresh goes, where it is not `token`.
    refresh: Option<Url>,
    redirect: Url,
    basic: bool,
    scopes: Vec<String>,
    pkce: bool,
    shape: TokenShape,
}

/// oauth2's typestate client with an authorization and a token URL set.
type OAuthClient<HasAuthUrl = EndpointSet, HasTokenUrl = EndpointSet> = oauth2::Client<
    BasicErrorResponse,
    TokenAnswer,
    BasicTokenIntrospectionResponse,
    StandardRevocableToken,
    BasicRevocationErrorResponse,
    HasAuthUrl,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    HasTokenUrl,
>;

/// One provider's authorization code flow with PKCE S256, built once at start-up.
#[derive(Clone)]
pub struct CodeFlow {
    client: OAuthClient,
    /// The client for refreshes: `client` at the provider's refresh endpoint, where it has
    /// one apart from its token endpoint.
    refresher: OAuthClient,
    scopes: Vec<String>,
    pkce: bool,
    http: TokenHttp,
}

impl fmt::Debug for CodeFlow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CodeFlow")
            .field("authorization", &self.client.auth_uri().as_str())
            .field("token", &self.client.token_uri().as_str())
            .field("scopes", &self.scopes)
            .field("pkce", &self.pkce)
            .finish_non_exhaustive()
    }
}

impl CodeFlow {
    /// The flow of a resolved plan (its URLs and knobs are already checked).
    pub fn from_plan(plan: &ProviderPlan, http: ProviderHttp) -> Self {
        Self::build(
            Parts {
                client_id: &plan.settings.client_id,
                client_secret: &plan.settings.client_secret,
                authorization: plan.urls.authorization.clone(),
                token: plan.urls.token.clone(),
                refresh: plan.urls.get(Endpoint::Refresh).cloned(),
                redirect: plan.urls.redirect.clone(),
                basic: plan.spec.token_auth == TokenAuth::ClientSecretBasic,
                scopes: plan.spec.scopes.clone(),
                pkce: plan.pkce,
                shape: plan.token_shape.clone(),
            },
            http,
        )
    }

    fn build(parts: Parts<'_>, http: ProviderHttp) -> Self {
        // Basic without a secret (a public client) sends the client_id in the body: oauth2
        // does so by itself.
        let auth_type = match parts.basic {
            true => AuthType::BasicAuth,
            false => AuthType::RequestBody,
        };
        let mut client = OAuthClient::<EndpointNotSet, EndpointNotSet>::new(ClientId::new(
            parts.client_id.to_owned(),
        ))
        .set_auth_uri(AuthUrl::from_url(parts.authorization))
        .set_token_uri(TokenUrl::from_url(parts.token))
        .set_redirect_uri(RedirectUrl::from_url(parts.redirect))
        .set_auth_type(auth_type);
        // Apple's secret is minted per exchange; an empty static secret is never sent.
        if !parts.client_secret.expose().is_empty() {
            client = client
                .set_client_secret(ClientSecret::new(parts.client_secret.expose().to_owned()));
        }
        let refresher = match parts.refresh {
            Some(url) => client.clone().set_token_uri(TokenUrl::from_url(url)),
            None => client.clone(),
        };
        Self {
            client,
            refresher,
            scopes: parts.scopes,
            pkce: parts.pkce,
            http: TokenHttp {
                http,
                shape: Arc::new(parts.shape),
                quirks: Arc::new(NoQuirks),
            },
        }
    }

    /// This flow, its token requests and answers passing through `quirks`.
    pub fn with_quirks(mut self, quirks: Arc<dyn Quirks>) -> Self {
        self.http.quirks = quirks;
        self
    }

    /// The shared HTTP client, for the adapter's own profile calls.
    pub fn http(&self) -> &ProviderHttp {
        &self.http.http
    }

    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Exchanges `code` (with the PKCE verifier, unless PKCE is off, and the provider's
    /// `extra` parameters) for tokens.
    pub async fn exchange_code(
        &self,
        code: &SecretText,
        pkce_verifier: &SecretText,
        extra: &[(&'static str, String)],
    ) -> Result<TokenSet, ProviderError> {
        self.exchange(&self.client, &self.http, code, pkce_verifier, extra)
            .await
    }

    /// Like [`Self::exchange_code`], with a client secret minted for this one exchange
    /// (Apple's ES256 JWT) in place of the static one.
    pub async fn exchange_code_with_secret(
        &self,
        code: &SecretText,
        pkce_verifier: &SecretText,
        client_secret: &SecretText,
    ) -> Result<TokenSet, ProviderError> {
        let client = self
            .client
            .clone()
            .set_client_secret(ClientSecret::new(client_secret.expose().to_owned()));
        self.exchange(&client, &self.http, code, pkce_verifier, &[])
            .await
    }

    /// Exchanges a code an app received on the device (Sign in with Apple) as the app's own
    /// `client_id`, with a secret minted for it: no `redirect_uri` (the app had none; Apple
    /// asks for it "if applicable") and no PKCE verifier (the app's SDK kept its own).
    pub async fn exchange_app_code(
        &self,
        code: &SecretText,
        client_id: &str,
        client_secret: &SecretText,
    ) -> Result<TokenSet, ProviderError> {
        let client =
            OAuthClient::<EndpointNotSet, EndpointNotSet>::new(ClientId::new(client_id.to_owned()))
                .set_auth_uri(self.client.auth_uri().clone())
                .set_token_uri(self.client.token_uri().clone())
                .set_auth_type(AuthType::RequestBody)
                .set_client_secret(ClientSecret::new(client_secret.expose().to_owned()));
        Self::request(&client, &self.http, code, None, &[]).await
    }

    /// Trades `refresh_token` (with `extra` parameters) for new tokens at the refresh endpoint
    /// (the token endpoint unless the provider has one apart),
    /// authenticated as the code exchange is. An OAuth error answer (`invalid_grant`: revoked, expired) is a
    /// refusal; no answer, or one that does not read, is a failure.
    pub async fn refresh(
        &self,
        refresh_token: &SecretText,
        extra: &[(&'static str, String)],
    ) -> Result<TokenSet, RefreshFailure> {
        let token = RefreshToken::new(refresh_token.expose().to_owned());
        let mut request = self.refresher.exchange_refresh_token(&token);
        for (name, value) in extra {
            request = request.add_extra_param(*name, value.clone());
        }
        let answer = request
            .request_async(&self.http)
            .await
            .map_err(refresh_failure)?;
        token_set(&answer).map_err(RefreshFailure::Failed)
    }

    /// The exchange through `http`: [`TokenHttp`] in production, a canned answer in tests.
    async fn exchange<H>(
        &self,
        client: &OAuthClient,
        http: &H,
        code: &SecretText,
        pkce_verifier: &SecretText,
        extra: &[(&'static str, String)],
    ) -> Result<TokenSet, ProviderError>
    where
        H: for<'c> AsyncHttpClient<'c, Error = TokenHttpError>,
    {
        let verifier = self.pkce.then_some(pkce_verifier);
        Self::request(client, http, code, verifier, extra).await
    }

    /// One code exchange with `client`, with the PKCE verifier when there is one.
    async fn request<H>(
        client: &OAuthClient,
        http: &H,
        code: &SecretText,
        pkce_verifier: Option<&SecretText>,
        extra: &[(&'static str, String)],
    ) -> Result<TokenSet, ProviderError>
    where
        H: for<'c> AsyncHttpClient<'c, Error = TokenHttpError>,
    {
        let mut request = client.exchange_code(AuthorizationCode::new(code.expose().to_owned()));
        for (name, value) in extra {
            request = request.add_extra_param(*name, value.clone());
        }
        if let Some(verifier) = pkce_verifier {
            request =
                request.set_pkce_verifier(PkceCodeVerifier::new(verifier.expose().to_owned()));
        }
        let answer = request
            .request_async(http)
            .await
            .map_err(code_exchange_failure)?;
        token_set(&answer).map_err(ProviderError::CodeExchange)
    }
}

/// The tokens of a token endpoint's answer, and what else it said; an empty access token
/// is no answer.
fn token_set(answer: &TokenAnswer) -> Result<TokenSet, String> {
    if answer.access_token().secret().is_empty() {
        return Err("token endpoint answered an empty access token".into());
    }
    Ok(TokenSet {
        access_token: SecretText::new(answer.access_token().secret().clone()),
        refresh_token: answer
            .refresh_token()
            .map(|token| SecretText::new(token.secret().clone())),
        id_token: answer.id_token().map(SecretText::new),
        scopes: answer
            .scopes()
            .map(|scopes| scopes.iter().map(|scope| scope.to_string()).collect()),
        expires_in: answer.expires_in(),
        members: answer.members().clone(),
    })
}

mod refresh_failure;
#[cfg(test)]
mod token_answer_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::ProviderSettings;
    use social_login_domain::ProviderKey;
    use social_login_provider_spec::built_in_spec;

    fn settings() -> ProviderSettings {
        crate::settings::test_settings()
    }

    fn flow(settings: &ProviderSettings) -> CodeFlow {
        let github = built_in_spec(ProviderKey::GITHUB).unwrap();
        let plan = ProviderPlan::resolve(github, settings).unwrap();
        CodeFlow::from_plan(&plan, crate::http_client::test_client())
    }

    #[test]
    fn debug_output_shows_no_secret() {
        let printed = format!("{:?}", flow(&settings()));
        assert!(!printed.contains("s3cret"), "{printed}");
    }
}
