//! POST connect (spec 4.3): link a provider account to the calling user.

use super::check_code;
use crate::{AppError, AuthService};
use social_login_domain::linking::check_connect;
use social_login_domain::state::Flow;
use social_login_domain::{LinkedAccount, LinkedAccountId, NewLinkedAccount, SecretText, UserId};
use social_login_ports::{AddLinkError, CallbackInput, PostBody};
use tracing::instrument;

impl AuthService {
    #[instrument(skip_all, fields(provider = provider_key))]
    pub async fn connect(
        &self,
        caller: UserId,
        provider_key: &str,
        code: &str,
        state: &str,
        post_body: Option<PostBody>,
    ) -> Result<LinkedAccount, AppError> {
        let provider = self.provider(provider_key)?.clone();
        check_code(code)?;
        let redeemed = self
            .redeem_state(provider.key(), state, Flow::Connect { caller })
            .await?;
        let login = provider
            .complete(CallbackInput {
                code: SecretText::new(code),
                redeemed,
                post_body,
            })
            .await?;
        let identity = &login.identity;
        let users = &self.ports.users;
        let existing = users
            .find_link(identity.provider, &identity.subject)
            .await?;
        let caller_links = users.list_links(caller).await?;
        check_connect(&caller_links, identity, existing.as_ref())
            .map_err(|_| AppError::ProviderAlreadyLinked)?;
        let (access_token, refresh_token) = self.seal(&login.tokens)?;
        let link = NewLinkedAccount {
            id: LinkedAccountId::new(),
            user_id: caller,
            provider: identity.provider,
            subject: identity.subject.clone(),
            email: identity.email.clone(),
            access_token,
            refresh_token,
            created_at: self.ports.clock.now(),
        };
        // The unique constraints settle a race with a concurrent connect or login.
        users.add_link(link).await.map_err(|error| match error {
            AddLinkError::ProviderAlreadyLinked => AppError::ProviderAlreadyLinked,
            AddLinkError::UserNotFound => AppError::Unauthorized,
            AddLinkError::Repository(error) => error.into(),
        })
    }
}
