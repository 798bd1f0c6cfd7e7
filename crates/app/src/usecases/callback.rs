//! POST callback (spec 4.2): log an existing user in, or register a new one.

use super::check_code;
use crate::{AppError, AuthService, LoginResult};
use social_login_domain::linking::{EmailOwner, LoginDecision, decide_login};
use social_login_domain::state::Flow;
use social_login_domain::{
    LinkedAccountId, NewLinkedAccount, NewUser, PersonName, SealedToken, SecretText, User, UserId,
};
use social_login_ports::{
    AddLinkError, CallbackInput, CreateUserError, ProviderLogin, RepositoryError,
};
use tracing::instrument;

/// A race with a concurrent login of the same new account or email is settled by deciding
/// again: the second pass sees what the other request stored.
const ATTEMPTS: usize = 3;

impl AuthService {
    #[instrument(skip_all, fields(provider = provider_key))]
    pub async fn callback(
        &self,
        provider_key: &str,
        code: &str,
        state: &str,
        posted_name: Option<PersonName>,
    ) -> Result<LoginResult, AppError> {
        let provider = self.provider(provider_key)?.clone();
        check_code(code)?;
        let redeemed = self
            .redeem_state(provider.key(), state, Flow::Login)
            .await?;
        let login = provider
            .complete(CallbackInput {
                code: SecretText::new(code),
                redeemed,
                posted_name,
            })
            .await?;
        let sealed = self.seal(&login.tokens)?;
        for _ in 0..ATTEMPTS {
            match self.sign_in_or_register(&login, &sealed).await {
                Ok((user, is_new_user)) => return self.start_session(user, is_new_user).await,
                Err(Step::Retry) => continue,
                Err(Step::Fail(error)) => return Err(error),
            }
        }
        Err(AppError::Unavailable(
            "login raced with concurrent updates".into(),
        ))
    }

    /// One pass of the login decision (CONTRACT §4). Returns the user and whether it is new.
    async fn sign_in_or_register(
        &self,
        login: &ProviderLogin,
        (access, refresh): &(SealedToken, Option<SealedToken>),
    ) -> Result<(User, bool), Step> {
        let identity = &login.identity;
        let users = &self.ports.users;
        let now = self.ports.clock.now();
        let mut existing = users
            .find_link(identity.provider, &identity.subject)
            .await?;
        let email_owner = match (&existing, &identity.email) {
            (None, Some(email)) => users.find_user_by_email(email).await?,
            _ => None,
        };
        if existing.is_none() && email_owner.is_some() {
            // The two reads are separate snapshots: a concurrent first login of this very
            // account may have committed its user and link between them. A user is always
            // committed with its first link, so looking again now sees that link if so.
            existing = users
                .find_link(identity.provider, &identity.subject)
                .await?;
        }
        let owner_links = match &email_owner {
            Some(owner) => users.list_links(owner.id).await?,
            None => Vec::new(),
        };
        let decision = decide_login(
            identity,
            existing.as_ref(),
            email_owner.as_ref().map(|user| EmailOwner {
                user,
                links: &owner_links,
            }),
            self.policy.auto_link_by_email,
        )
        .map_err(|_| Step::Fail(AppError::EmailAlreadyRegistered))?;
        let new_link = |user_id: UserId| NewLinkedAccount {
            id: LinkedAccountId::new(),
            user_id,
            provider: identity.provider,
            subject: identity.subject.clone(),
            email: identity.email.clone(),
            access_token: access.clone(),
            refresh_token: refresh.clone(),
            created_at: now,
        };
        match (decision, existing) {
            (LoginDecision::SignIn { user }, Some(link)) => {
                // Provider tokens are replaced on every login, so the stored ones stay live.
                let updated = users
                    .update_link_tokens(
                        link.id,
                        identity.email.clone(),
                        access.clone(),
                        refresh.clone(),
                        now,
                    )
                    .await?;
                if !updated {
                    // Disconnected meanwhile: decide again from what is stored now.
                    return Err(Step::Retry);
                }
                Ok((self.existing_user(user).await?, false))
            }
            (LoginDecision::LinkThenSignIn { user }, _) => {
                users
                    .add_link(new_link(user))
                    .await
                    .map_err(|error| match error {
                        AddLinkError::ProviderAlreadyLinked | AddLinkError::UserNotFound => {
                            Step::Retry
                        }
                        AddLinkError::Repository(error) => error.into(),
                    })?;
                Ok((self.existing_user(user).await?, false))
            }
            (LoginDecision::Register, _) => {
                let user = NewUser {
                    id: UserId::new(),
                    email: identity.email.clone(),
                    full_name: identity.full_name.clone(),
                    avatar_url: identity.avatar_url.clone(),
                    email_verified: identity.verified_email().is_some(),
                    password_hash: None,
                    created_at: now,
                };
                let link = new_link(user.id);
                let user =
                    users
                        .create_user(user, Some(link))
                        .await
                        .map_err(|error| match error {
                            CreateUserError::ProviderAccountTaken | CreateUserError::EmailTaken => {
                                Step::Retry
                            }
                            CreateUserError::Repository(error) => error.into(),
                        })?;
                Ok((user, true))
            }
            (LoginDecision::SignIn { .. }, None) => Err(Step::Fail(AppError::Internal(
                "sign-in decided without a link".into(),
            ))),
        }
    }

    pub(crate) async fn existing_user(&self, id: UserId) -> Result<User, AppError> {
        self.ports
            .users
            .find_user(id)
            .await?
            .ok_or_else(|| AppError::Internal("linked user vanished".into()))
    }
}

/// The outcome of a failed pass: decide again, or give up with an error.
enum Step {
    Retry,
    Fail(AppError),
}

impl From<AppError> for Step {
    fn from(error: AppError) -> Self {
        Step::Fail(error)
    }
}

impl From<RepositoryError> for Step {
    fn from(error: RepositoryError) -> Self {
        Step::Fail(error.into())
    }
}
