//! GET authorize (docs/api.md#authorize): issue a state value and return the provider URL.
//!
//! Nothing is stored: the state travels sealed in the value itself, so a flood of authorize
//! requests costs CPU only and can never crowd out logins in progress.

use crate::EnabledProvider;
use crate::{AppError, AuthService};
use social_login_domain::{OAuthState, Purpose, SecretText};
use social_login_ports::AuthorizationRequest;
use tracing::instrument;

impl AuthService {
    /// Starts a login flow, or a connect flow when `bearer` is a valid access token. An
    /// invalid token is not an error here: the request becomes a login (docs/api.md#authorize). A valid
    /// token whose session's login is not recent is 401 `ReauthenticationRequired` now,
    /// rather than after the user has been through the provider: connect would refuse it.
    #[instrument(skip_all, fields(provider = %provider))]
    pub async fn authorize(
        &self,
        provider: EnabledProvider,
        bearer: Option<&str>,
    ) -> Result<String, AppError> {
        let provider = provider.ready()?;
        let purpose = match bearer.and_then(|token| self.verify_bearer(token)) {
            Some(caller) => {
                self.require_recent_login(&caller)?;
                Purpose::Connect { user: caller.user }
            }
            None => Purpose::Login,
        };
        let now = self.ports.clock.now();
        let state = OAuthState::issue(
            self.random_state_id(),
            provider.key(),
            purpose,
            SecretText::new(self.random_url_token()),
            SecretText::new(self.random_url_token()),
            now,
            self.policy.state_ttl,
        );
        let request = AuthorizationRequest {
            state: self.ports.state_sealer.seal(&state)?,
            pkce_verifier: state.pkce_verifier,
            nonce: state.nonce,
        };
        Ok(provider.authorization_url(&request)?)
    }
}
