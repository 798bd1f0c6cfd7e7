//! POST connect (docs/api.md#connect): link a provider account to the calling user, whose session's
//! login must be recent: a stolen bearer token must not become a permanent login by linking
//! the thief's own provider account.

use crate::{AppError, AppResult, AuthService, ProviderReturn};
use social_login_domain::SealedTokens;
use social_login_domain::linking::{ConnectDecision, decide_connect};
use social_login_domain::state::Flow;
use social_login_domain::{
    LinkedAccount, NewLinkedAccount, Origin, ProviderAccount, ProviderIdentity, UserId,
};
use social_login_ports::VerifiedAccess;
use social_login_ports::{AccountLink, LinkRenewal};
use tracing::instrument;

impl AuthService {
    #[instrument(skip_all, fields(provider = %ret.provider))]
    pub async fn connect(
        &self,
        caller: VerifiedAccess,
        ret: ProviderReturn,
        origin: &Origin,
    ) -> AppResult<Connected> {
        // Before the state is spent: a refused connect changes nothing.
        self.require_recent_login(&caller).await?;
        let user = caller.user;
        let login = self
            .complete_return(ret, Flow::Connect { caller: user })
            .await?;
        let tokens = self.seal(&login.tokens, None)?;
        self.link_identity(user, &login.identity, tokens, origin)
            .await
    }

    /// Connect's rules about the provider `account` for `caller`, from what is stored now:
    /// `Some` of the caller's own link of this very account (connected again: its tokens are
    /// renewed), `None` for a new link, or 409.
    pub(crate) async fn decide_connect(
        &self,
        caller: UserId,
        account: &ProviderAccount,
    ) -> AppResult<Option<LinkedAccount>> {
        let users = &self.ports.users;
        let existing = users.find_link(account).await?;
        let caller_links = users.list_links(caller).await?;
        let decision = decide_connect(caller, &caller_links, account, existing.as_ref())
            .map_err(|_| AppError::ProviderAlreadyLinked)?;
        Ok(match decision {
            ConnectDecision::Renew(_) => existing,
            ConnectDecision::Link => None,
        })
    }

    /// Links a verified provider identity to `caller` under the connect rules, storing the
    /// sealed provider tokens; the caller's own link of this account gets the new tokens
    /// instead. Shared by connect and the native id_token connect.
    pub(crate) async fn link_identity(
        &self,
        caller: UserId,
        identity: &ProviderIdentity,
        tokens: SealedTokens,
        origin: &Origin,
    ) -> AppResult<Connected> {
        let own = self.decide_connect(caller, &identity.account()).await?;
        let users = &self.ports.users;
        let now = self.ports.clock.now();
        let audit = self.audit(origin, now);
        if let Some(own) = own {
            let renewal = LinkRenewal {
                user: caller,
                provider: identity.provider,
                link: own.id,
                email: identity.email.clone(),
                tokens,
                at: now,
                audit,
            };
            if !users.renew_link(renewal.clone()).await? {
                return Err(AppError::AccountNotFound);
            }
            return Ok(Connected {
                link: renewal.renewed(own),
                renewed: true,
            });
        }
        let link = NewLinkedAccount {
            id: self.new_link_id(now),
            user_id: caller,
            provider: identity.provider,
            subject: identity.subject.clone(),
            email: identity.email.clone(),
            tokens,
            created_at: now,
        };
        // The unique constraints settle a race with a concurrent connect or login.
        let link = users.add_link(AccountLink { link, audit }).await?;
        Ok(Connected {
            link,
            renewed: false,
        })
    }
}

/// What a connect did: the link, and whether it was the caller's already (its tokens
/// renewed: 200) rather than new (201).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connected {
    pub link: LinkedAccount,
    pub renewed: bool,
}
