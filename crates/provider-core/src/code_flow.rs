//! The authorization code flow through oauth2 5: the authorization URL and the code exchange.

use crate::failure::code_exchange_failure;
use crate::plan::ProviderPlan;
use crate::token_http::{TokenHttp, TokenHttpError};
use crate::token_set::{IdTokenField, TokenSet};
use oauth2::basic::{
    BasicErrorResponse, BasicRevocationErrorResponse, BasicTokenIntrospectionResponse,
    BasicTokenType,
};
use oauth2::{
    AsyncHttpClient, AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken,
    EndpointNotSet, EndpointSet, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope,
    StandardRevocableToken, StandardTokenResponse, TokenResponse, TokenUrl,
};
use social_login_domain::SecretText;
use social_login_ports::{AuthorizationRequest, ProviderError};
use social_login_provider_spec::TokenAuth;
use std::fmt;
use url::Url;

/// What a flow is made of.
struct Parts<'a> {
    client_id: &'a str,
    client_secret: &'a SecretText,
    authorization: Url,
    token: Url,
    redirect: Url,
    basic: bool,
    scopes: Vec<String>,
    pkce: bool,
}

type TokenAnswer = StandardTokenResponse<IdTokenField, BasicTokenType>;

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
    /// The flow of a resolved plan (its URLs are already checked).
    pub fn from_plan(plan: &ProviderPlan, http: reqwest::Client) -> Self {
        Self::build(
            Parts {
                client_id: &plan.settings.client_id,
                client_secret: &plan.settings.client_secret,
                authorization: plan.urls.authorization.clone(),
                token: plan.urls.token.clone(),
                redirect: plan.urls.redirect.clone(),
                basic: plan.spec.token_auth == TokenAuth::ClientSecretBasic,
                scopes: plan.spec.scopes.clone(),
                pkce: plan.pkce,
            },
            http,
        )
    }

    fn build(parts: Parts<'_>, http: reqwest::Client) -> Self {
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
        Self {
            client,
            scopes: parts.scopes,
            pkce: parts.pkce,
            http: TokenHttp(http),
        }
    }

    /// The shared HTTP client, for the adapter's own profile calls.
    pub fn http(&self) -> &reqwest::Client {
        &self.http.0
    }

    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// The URL to send the browser to: client_id, redirect_uri, response_type=code, scope,
    /// state, the S256 challenge of the stored verifier (unless PKCE is off), plus `extra`
    /// provider parameters (nonce, prompt...).
    pub fn authorization_url(
        &self,
        request: &AuthorizationRequest,
        extra: &[(&str, &str)],
    ) -> String {
        let state = request.state.as_str().to_owned();
        let mut builder = self
            .client
            .authorize_url(move || CsrfToken::new(state))
            .add_scopes(self.scopes.iter().cloned().map(Scope::new));
        if self.pkce {
            let verifier = PkceCodeVerifier::new(request.pkce_verifier.expose().to_owned());
            builder =
                builder.set_pkce_challenge(PkceCodeChallenge::from_code_verifier_sha256(&verifier));
        }
        for (name, value) in extra {
            builder = builder.add_extra_param(*name, *value);
        }
        builder.url().0.into()
    }

    /// Exchanges `code` (with the PKCE verifier, unless PKCE is off) for tokens.
    pub async fn exchange_code(
        &self,
        code: &SecretText,
        pkce_verifier: &SecretText,
    ) -> Result<TokenSet, ProviderError> {
        self.exchange(&self.client, &self.http, code, pkce_verifier)
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
        self.exchange(&client, &self.http, code, pkce_verifier)
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
        Self::request(&client, &self.http, code, None).await
    }

    /// The exchange through `http`: [`TokenHttp`] in production, a canned answer in tests.
    async fn exchange<H>(
        &self,
        client: &OAuthClient,
        http: &H,
        code: &SecretText,
        pkce_verifier: &SecretText,
    ) -> Result<TokenSet, ProviderError>
    where
        H: for<'c> AsyncHttpClient<'c, Error = TokenHttpError>,
    {
        let verifier = self.pkce.then_some(pkce_verifier);
        Self::request(client, http, code, verifier).await
    }

    /// One code exchange with `client`, with the PKCE verifier when there is one.
    async fn request<H>(
        client: &OAuthClient,
        http: &H,
        code: &SecretText,
        pkce_verifier: Option<&SecretText>,
    ) -> Result<TokenSet, ProviderError>
    where
        H: for<'c> AsyncHttpClient<'c, Error = TokenHttpError>,
    {
        let mut request = client.exchange_code(AuthorizationCode::new(code.expose().to_owned()));
        if let Some(verifier) = pkce_verifier {
            request =
                request.set_pkce_verifier(PkceCodeVerifier::new(verifier.expose().to_owned()));
        }
        let answer = request
            .request_async(http)
            .await
            .map_err(code_exchange_failure)?;
        if answer.access_token().secret().is_empty() {
            return Err(ProviderError::CodeExchange(
                "token endpoint answered an empty access token".into(),
            ));
        }
        Ok(TokenSet {
            access_token: SecretText::new(answer.access_token().secret().clone()),
            refresh_token: answer
                .refresh_token()
                .map(|token| SecretText::new(token.secret().clone())),
            id_token: answer.extra_fields().id_token(),
        })
    }
}

#[cfg(test)]
mod token_answer_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::ProviderSettings;
    use social_login_domain::{ProviderKey, StateToken};
    use social_login_provider_spec::built_in_spec;
    use std::collections::HashMap;

    // RFC 7636 appendix B: this verifier's S256 challenge is known.
    const RFC_VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const RFC_CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    fn settings() -> ProviderSettings {
        crate::settings::test_settings()
    }

    fn request() -> AuthorizationRequest {
        AuthorizationRequest {
            state: StateToken::parse("state-value-0123456789").unwrap(),
            pkce_verifier: SecretText::new(RFC_VERIFIER),
            nonce: SecretText::new("nonce-1"),
        }
    }

    fn query(url: &str) -> HashMap<String, String> {
        Url::parse(url)
            .unwrap()
            .query_pairs()
            .into_owned()
            .collect()
    }

    fn flow(settings: &ProviderSettings) -> CodeFlow {
        let github = built_in_spec(ProviderKey::GITHUB).unwrap();
        let plan = ProviderPlan::resolve(github, settings).unwrap();
        CodeFlow::from_plan(&plan, reqwest::Client::new())
    }

    #[test]
    fn the_authorization_url_carries_every_parameter_and_the_s256_challenge() {
        let url = flow(&settings()).authorization_url(&request(), &[("nonce", "nonce-1")]);
        let authorize = "https://github.com/login/oauth/authorize?";
        assert!(url.starts_with(authorize), "{url}");
        let query = query(&url);
        assert_eq!(query["client_id"], "client-1");
        assert_eq!(query["redirect_uri"], "https://app.example.com/cb");
        assert_eq!(query["response_type"], "code");
        assert_eq!(query["scope"], "read:user user:email");
        assert_eq!(query["state"], "state-value-0123456789");
        assert_eq!(query["code_challenge"], RFC_CHALLENGE);
        assert_eq!(query["code_challenge_method"], "S256");
        assert_eq!(query["nonce"], "nonce-1");
        assert!(!url.contains(RFC_VERIFIER) && !url.contains("s3cret"));
    }

    #[test]
    fn with_pkce_off_no_challenge_is_sent() {
        let mut settings = settings();
        settings.pkce = false;
        let query = query(&flow(&settings).authorization_url(&request(), &[]));
        assert!(!query.contains_key("code_challenge"));
        assert!(!query.contains_key("code_challenge_method"));
    }

    #[test]
    fn configured_scopes_and_endpoints_replace_the_declared_ones() {
        let mut settings = settings();
        settings.scopes = Some(vec!["user:email".into()]);
        let configured = "http://127.0.0.1:1/github/login/oauth/authorize";
        settings.endpoints.authorization = Some(configured.into());
        let url = flow(&settings).authorization_url(&request(), &[]);
        assert!(url.starts_with(&format!("{configured}?")), "{url}");
        assert_eq!(query(&url)["scope"], "user:email");
    }

    #[test]
    fn debug_output_shows_no_secret() {
        let printed = format!("{:?}", flow(&settings()));
        assert!(!printed.contains("s3cret"), "{printed}");
    }
}
