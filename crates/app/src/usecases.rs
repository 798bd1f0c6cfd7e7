//! One module per use case; each adds methods to `AuthService`.

pub mod accounts;
pub mod authenticate;
pub mod authorize;
pub mod callback;
pub mod connect;
pub mod delete;
pub mod export;
pub mod id_token;
pub mod key_throttle;
pub mod link;
pub mod login_throttle;
pub mod providers;
pub mod register;
pub mod relay;
pub mod sessions;
pub mod signals;
pub mod tokens;

use crate::{AppError, AppResult, AuthService, ProviderReturn};
use social_login_domain::SealedTokens;
use social_login_domain::state::{self, Flow, RedeemedState, StateMismatch};
use social_login_domain::{ProviderKey, ProviderTokens, SecretText, StateToken};
use social_login_ports::{CallbackInput, ProviderLogin};

impl AuthService {
    /// Opens the presented state value, checks the client's binding, records it as spent
    /// (whatever the checks say next: a refused value is spent too) and redeems it for this
    /// provider and flow.
    pub(crate) async fn redeem_state(
        &self,
        provider: ProviderKey,
        token: &StateToken,
        flow: Flow,
        binding: Option<&SecretText>,
    ) -> AppResult<RedeemedState> {
        let opened = self
            .ports
            .state_sealer
            .open(token)
            .ok_or(AppError::StateMismatch(StateMismatch::Unknown))?;
        let now = self.ports.clock.now();
        // An expired value is refused without touching the store: it can never be
        // redeemed again, so there is nothing to remember.
        if opened.is_expired(now) {
            return Err(StateMismatch::Expired.into());
        }
        // Before the spend: a stranger without the client's secret cannot use the value up.
        opened.check_binding(binding.map(authorize::binding_of))?;
        let spend = self
            .ports
            .states
            .spend(opened.id, opened.expires_at)
            .await?;
        Ok(state::redeem_spent(opened, spend, provider, flow, now)?)
    }

    /// The provider's answer to a return: state redeemed for `flow`, code exchanged.
    pub(crate) async fn complete_return(
        &self,
        ret: ProviderReturn,
        flow: Flow,
    ) -> AppResult<ProviderLogin> {
        let provider = ret.provider.ready()?.clone();
        let redeemed = self
            .redeem_state(ret.provider.key(), &ret.state, flow, ret.binding.as_ref())
            .await?;
        Ok(provider
            .complete(CallbackInput {
                code: ret.code.into_secret(),
                redeemed,
                post_body: ret.post_body,
            })
            .await?)
    }

    /// `tokens` sealed for storage, issued to `client_id` when it is not the configured one.
    pub(crate) fn seal(
        &self,
        tokens: &ProviderTokens,
        client_id: Option<String>,
    ) -> AppResult<SealedTokens> {
        let access_token = self.ports.cipher.seal(&tokens.access_token)?;
        let refresh_token = tokens
            .refresh_token
            .as_ref()
            .map(|token| self.ports.cipher.seal(token))
            .transpose()?;
        let now = self.ports.clock.now();
        let access_expires_at = tokens
            .expires_in
            .and_then(|lifetime| time::Duration::try_from(lifetime).ok())
            .and_then(|lifetime| now.checked_add(lifetime));
        Ok(SealedTokens {
            access_token,
            refresh_token,
            scopes: tokens.scopes.clone(),
            access_expires_at,
            client_id,
        })
    }
}
