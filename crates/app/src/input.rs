//! Typed input of the use cases: what a handler parses raw text into, in the order the
//! errors are reported (docs/api.md#errors: 404 before 422 before 400).

use crate::{AppError, AuthService};
use social_login_domain::state::StateMismatch;
use social_login_domain::{
    AuthorizationCode, InvalidCode, MalformedState, ProviderKey, StateToken,
};
use social_login_ports::PostBody;

/// What the provider sent the browser back with, for callback and connect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderReturn {
    pub provider: ProviderKey,
    pub code: AuthorizationCode,
    pub state: StateToken,
    /// The first form_post body as the client received it (Apple), untouched.
    pub post_body: Option<PostBody>,
}

impl From<InvalidCode> for AppError {
    fn from(invalid: InvalidCode) -> Self {
        Self::Validation(invalid.to_string())
    }
}

impl From<MalformedState> for AppError {
    /// A value this service could not have issued: a state mismatch like any unknown one.
    fn from(_: MalformedState) -> Self {
        Self::StateMismatch(StateMismatch::Unknown)
    }
}

impl AuthService {
    /// The key of a provider this service has enabled; any other text is
    /// `OAuthProviderNotConfigured` (docs/api.md#provider-keys).
    pub fn enabled_provider(&self, raw: &str) -> Result<ProviderKey, AppError> {
        let key: ProviderKey = raw.parse().map_err(|_| AppError::ProviderNotConfigured)?;
        self.ports
            .providers
            .get(key)
            .map(|_| key)
            .ok_or(AppError::ProviderNotConfigured)
    }

    /// Parses a callback's or connect's raw input: an unknown or disabled provider first
    /// (404), then a malformed code (422, before the state is spent), then a malformed
    /// state (400).
    pub fn provider_return(
        &self,
        provider: &str,
        code: &str,
        state: &str,
        post_body: Option<PostBody>,
    ) -> Result<ProviderReturn, AppError> {
        Ok(ProviderReturn {
            provider: self.enabled_provider(provider)?,
            code: AuthorizationCode::parse(code)?,
            state: StateToken::parse(state)?,
            post_body,
        })
    }
}
