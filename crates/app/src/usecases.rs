//! One module per use case; each adds methods to `AuthService`.

pub mod accounts;
pub mod authenticate;
pub mod authorize;
pub mod callback;
pub mod connect;
pub mod register;
pub mod tokens;

use crate::{AppError, AuthService};
use social_login_domain::state::{self, Flow, RedeemedState, StateMismatch};
use social_login_domain::{ProviderKey, ProviderTokens, SealedToken, StateToken};
use social_login_ports::IdentityProvider;
use std::sync::Arc;

/// The largest authorization code we pass on; real ones are well under 1 KiB.
const MAX_CODE_LEN: usize = 2048;

impl AuthService {
    /// The adapter of an enabled provider, or `OAuthProviderNotConfigured`.
    pub(crate) fn provider(&self, key: &str) -> Result<&Arc<dyn IdentityProvider>, AppError> {
        let key: ProviderKey = key.parse().map_err(|_| AppError::ProviderNotConfigured)?;
        self.ports
            .providers
            .get(key)
            .ok_or(AppError::ProviderNotConfigured)
    }

    /// Opens the presented state value, records it as spent (whatever the checks say
    /// next: a refused value is spent too) and redeems it for this provider and flow.
    pub(crate) async fn redeem_state(
        &self,
        provider: ProviderKey,
        presented: &str,
        flow: Flow,
    ) -> Result<RedeemedState, AppError> {
        let unknown = AppError::StateMismatch(StateMismatch::Unknown);
        let token = StateToken::parse(presented).map_err(|_| unknown.clone())?;
        let opened = self.ports.state_sealer.open(&token).ok_or(unknown)?;
        let now = self.ports.clock.now();
        // An expired value is refused without touching the store: it can never be
        // redeemed again, so there is nothing to remember.
        if opened.is_expired(now) {
            return Err(StateMismatch::Expired.into());
        }
        let spend = self
            .ports
            .states
            .spend(opened.id, opened.expires_at)
            .await?;
        Ok(state::redeem_spent(opened, spend, provider, flow, now)?)
    }

    pub(crate) fn seal(
        &self,
        tokens: &ProviderTokens,
    ) -> Result<(SealedToken, Option<SealedToken>), AppError> {
        let access = self.ports.cipher.seal(&tokens.access_token)?;
        let refresh = tokens
            .refresh_token
            .as_ref()
            .map(|token| self.ports.cipher.seal(token))
            .transpose()?;
        Ok((access, refresh))
    }
}

/// Checks the authorization code before it goes anywhere.
pub(crate) fn check_code(code: &str) -> Result<(), AppError> {
    if code.is_empty() || code.len() > MAX_CODE_LEN {
        return Err(AppError::Validation(
            "code: must be 1 to 2048 characters".into(),
        ));
    }
    Ok(())
}
