//! POST callback (docs/api.md#callback): log an existing user in, or register a new one.

use crate::EnabledProvider;
use crate::{AppError, AppResult, AuthService, LoginResult, ProviderReturn};
use social_login_domain::SealedTokens;
use social_login_domain::linking::EmailAlreadyRegistered;
use social_login_domain::state::Flow;
use social_login_domain::{LoginMethod, Origin, ProviderIdentity};
use social_login_ports::{ProviderGrant, ProviderSignIn, SignInError};
use tracing::instrument;

/// A race with a concurrent login of the same new account or email is settled by deciding
/// again: the next attempt sees what the other request stored.
const ATTEMPTS: usize = 3;

impl AuthService {
    #[instrument(skip_all, fields(provider = %ret.provider))]
    pub async fn callback(&self, ret: ProviderReturn, origin: &Origin) -> AppResult<LoginResult> {
        let provider = ret.provider.clone();
        let login = self.complete_return(ret, Flow::Login).await?;
        let tokens = self.seal(&login.tokens, None)?;
        let signed_in = (self.sign_in_identity(&provider, login.identity, tokens, origin)).await;
        let exchanged = ProviderGrant::issued(login.tokens, None);
        self.revoke_if_unkept(&signed_in, &provider, exchanged)
            .await;
        signed_in
    }

    /// After a sign-in that exchanged a code for `exchanged`: a refusal that holds no link
    /// leaves the grant kept by nothing, ever, so it is revoked now (best effort).
    pub(crate) async fn revoke_if_unkept(
        &self,
        signed_in: &AppResult<LoginResult>,
        provider: &EnabledProvider,
        exchanged: ProviderGrant,
    ) {
        if let Err(refused) = signed_in
            && holds_no_link(refused)
            && let Ok(adapter) = provider.ready()
        {
            self.revoke_unkept_grant(adapter, exchanged).await;
        }
    }

    /// Logs in or registers the owner of a verified provider identity, storing the sealed
    /// provider tokens with the link (and the client they were issued to, when not the
    /// configured one). Shared by the callback and the native id_token sign-in.
    pub(crate) async fn sign_in_identity(
        &self,
        provider: &EnabledProvider,
        identity: ProviderIdentity,
        tokens: SealedTokens,
        origin: &Origin,
    ) -> AppResult<LoginResult> {
        let signup = provider.signup();
        for _ in 0..ATTEMPTS {
            let now = self.ports.clock.now();
            let began_with = LoginMethod::Provider(identity.provider);
            let (session, refresh) = self.new_session(now, began_with);
            let family = session.family;
            // Lookups, the linking decision (docs/api.md#linking-rules), the writes and the new session:
            // one transaction in the repository.
            let signed_in = self
                .ports
                .users
                .sign_in_with_provider(ProviderSignIn {
                    identity: identity.clone(),
                    tokens: tokens.clone(),
                    linking: provider.linking(self.policy.auto_link_by_email),
                    signup: signup.clone(),
                    new_user_id: self.new_user_id(now),
                    new_link_id: self.new_link_id(now),
                    session,
                    now,
                    audit: self.audit(origin, now),
                })
                .await;
            match signed_in {
                Ok(signed_in) => {
                    let issued = (family, refresh);
                    return self.login_result(signed_in.user, signed_in.is_new_user, issued, now);
                }
                Err(SignInError::Raced) => continue,
                Err(SignInError::EmailAlreadyRegistered(EmailAlreadyRegistered {
                    confirm_with: Some(owner),
                })) => return Err(self.offer_link(owner, &identity, tokens, now)),
                // Nobody to record an audit event for: the refusal is logged as every 4xx
                // is, by its code, within this span (which names the provider).
                Err(refused) => return Err(sign_in_refused(refused)),
            }
        }
        Err(sign_in_refused(SignInError::Raced))
    }
}

/// Whether a refused sign-in's provider account is linked to nobody: a sign-up refused, an
/// address another user holds with no link offered. Its fresh grant is revoked then; not
/// when the account is linked (a locked user, a disabled account) or nobody knows (an
/// outage), since at Apple, GitHub or Google a revocation ends the app's whole
/// authorization, the grant its link keeps with it. A link offered keeps it in its token.
fn holds_no_link(refused: &AppError) -> bool {
    matches!(
        refused,
        AppError::SignupNotAllowed
            | AppError::EmailDomainNotAllowed
            | AppError::EmailAlreadyRegistered
    )
}

/// What a client is told of a refused provider sign-in.
pub(crate) fn sign_in_refused(error: SignInError) -> AppError {
    match error {
        SignInError::EmailAlreadyRegistered(_) => AppError::EmailAlreadyRegistered,
        SignInError::AccountDisabled => AppError::ProviderAccountDisabled,
        SignInError::SignupRefused(refused) => refused.into(),
        SignInError::UserLocked => AppError::UserLocked,
        SignInError::Repository(error) => error.into(),
        SignInError::Raced => AppError::Unavailable("login raced with concurrent updates".into()),
    }
}
