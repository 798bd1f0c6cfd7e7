//! The OIDC steps Google, Microsoft and LinkedIn share: an authorization URL carrying the
//! nonce, and a code exchange whose id_token must be present and verify.

use serde::de::DeserializeOwned;
use social_login_id_token::claims::IdTokenClaims;
use social_login_id_token::{IdTokenVerifier, PresentedClaims};
use social_login_ports::{AuthorizationRequest, CallbackInput, IdTokenInput, ProviderError};
use social_login_provider_core::{CodeFlow, TokenSet, fetch_json};
use url::Url;

/// The code flow plus the id_token verifier of one OIDC provider.
#[derive(Debug, Clone)]
pub struct OidcFlow {
    flow: CodeFlow,
    verifier: IdTokenVerifier,
}

impl OidcFlow {
    pub fn new(flow: CodeFlow, verifier: IdTokenVerifier) -> Self {
        Self { flow, verifier }
    }

    /// Accepts `client_ids` (iOS, Android...) besides the web client id as the audience of
    /// id_tokens an app presents.
    pub fn with_other_client_ids(mut self, client_ids: &[String]) -> Self {
        self.verifier = self
            .verifier
            .with_other_client_ids(client_ids.iter().cloned());
        self
    }

    /// The authorization URL with the state's nonce. A provider that does not echo it
    /// ignores it (RFC 6749 §3.1), so it costs nothing where it is not checked.
    pub fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        self.flow
            .authorization_url(request, &[("nonce", request.nonce.expose())])
    }

    /// Exchanges the code (with the PKCE verifier) and verifies the id_token, which must
    /// be there: an OIDC sign-in without one proves nothing.
    pub async fn sign_in(
        &self,
        callback: &CallbackInput,
    ) -> Result<(TokenSet, IdTokenClaims), ProviderError> {
        let tokens = self
            .flow
            .exchange_code(&callback.code, &callback.redeemed.pkce_verifier)
            .await?;
        let id_token = tokens
            .id_token
            .as_ref()
            .ok_or_else(|| ProviderError::UserInfo("token endpoint answered no id_token".into()))?;
        let claims = self
            .verifier
            .verify(id_token, &callback.redeemed.nonce)
            .await?;
        Ok((tokens, claims))
    }

    /// Verifies an id_token an app obtained natively (docs/api.md).
    pub async fn verify_presented(
        &self,
        input: &IdTokenInput,
    ) -> Result<PresentedClaims, ProviderError> {
        self.verifier
            .verify_presented(&input.id_token, input.nonce.as_ref())
            .await
    }

    /// GET `url` with the access token as Bearer: the provider's userinfo document.
    pub async fn userinfo<T: DeserializeOwned>(
        &self,
        what: &str,
        url: &Url,
        tokens: &TokenSet,
    ) -> Result<T, ProviderError> {
        let request = self
            .flow
            .http()
            .get(url.clone())
            .bearer_auth(tokens.access_token.expose());
        fetch_json(what, request).await
    }
}
