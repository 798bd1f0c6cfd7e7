//! GET authorize (spec 4.1): issue a state value and return the provider URL.

use crate::random::random_url_token;
use crate::{AppError, AuthService};
use social_login_domain::{OAuthState, Purpose, SecretText, StateToken};
use social_login_ports::AuthorizationRequest;
use tracing::instrument;

impl AuthService {
    /// Starts a login flow, or a connect flow when `bearer` is a valid access token. An
    /// invalid token is not an error here: the request becomes a login (spec 4.1).
    #[instrument(skip_all, fields(provider = provider_key))]
    pub async fn authorize(
        &self,
        provider_key: &str,
        bearer: Option<&str>,
    ) -> Result<String, AppError> {
        let provider = self.provider(provider_key)?;
        let purpose = match bearer.and_then(|token| self.authenticate(token)) {
            Some(user) => Purpose::Connect { user },
            None => Purpose::Login,
        };
        let now = self.ports.clock.now();
        let state = OAuthState::issue(
            // 43 URL-safe characters always parse: a failure here is a bug, not input.
            StateToken::parse(&random_url_token()).expect("random_url_token is a valid state"),
            provider.key(),
            purpose,
            SecretText::new(random_url_token()),
            SecretText::new(random_url_token()),
            now,
            self.policy.state_ttl,
        );
        let request = AuthorizationRequest {
            state: state.token.clone(),
            pkce_verifier: state.pkce_verifier.clone(),
            nonce: state.nonce.clone(),
        };
        self.ports.states.put(state).await?;
        Ok(provider.authorization_url(&request))
    }
}
