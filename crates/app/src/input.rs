//! Typed input of the use cases: what a handler parses raw text into, in the order the
//! errors are reported (docs/api.md#errors: 404 before 422 before 400).

use crate::{AppError, AppResult, AuthService, EnabledProvider};
use social_login_domain::state::StateMismatch;
use social_login_domain::{
    AuthorizationCode, InvalidCode, MalformedState, ProviderKey, SecretText, StateToken,
};
use social_login_ports::PostBody;

/// What the provider sent the browser back with, for callback and connect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderReturn {
    pub provider: EnabledProvider,
    pub code: AuthorizationCode,
    pub state: StateToken,
    /// The first form_post body as the client received it (Apple), untouched.
    pub post_body: Option<PostBody>,
    /// The secret the client bound the flow to on authorize, if it did.
    pub binding: Option<SecretText>,
}

impl ProviderReturn {
    /// This return, presenting the secret its client bound the flow to (`binding`).
    pub fn with_binding(self, binding: Option<String>) -> Self {
        Self {
            binding: binding.map(SecretText::new),
            ..self
        }
    }
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
    /// The provider of a key this service has enabled; any other text is
    /// `OAuthProviderNotConfigured` (docs/api.md#provider-keys).
    pub fn enabled_provider(&self, raw: &str) -> AppResult<EnabledProvider> {
        let key: ProviderKey = raw.parse().map_err(|_| AppError::ProviderNotConfigured)?;
        self.provider_of(key)
    }

    /// The provider of `key`, if enabled; else `OAuthProviderNotConfigured`.
    pub fn provider_of(&self, key: ProviderKey) -> AppResult<EnabledProvider> {
        self.ports
            .providers
            .enabled(key)
            .ok_or(AppError::ProviderNotConfigured)
    }

    /// Parses a callback's or connect's raw input for an enabled `provider`: a malformed
    /// code (422, before the state is spent), then a malformed state (400).
    pub fn provider_return(
        &self,
        provider: EnabledProvider,
        code: &str,
        state: &str,
        post_body: Option<PostBody>,
    ) -> AppResult<ProviderReturn> {
        Ok(ProviderReturn {
            provider,
            code: AuthorizationCode::parse(code)?,
            state: StateToken::parse(state)?,
            post_body,
            binding: None,
        })
    }
}
