//! Finishing a link after a 409 (docs/api.md#finishing-a-link): a provider login that met
//! the account holding its verified email is answered with a link token; that account's
//! user, signed in recently, presents it to link the provider account with the tokens of
//! that first exchange, with no second trip to the provider. The token is sealed, bound to
//! that user, spent once across instances (the state store), and lives ten minutes.

use crate::{AppError, AppResult, AuthService};
use social_login_domain::SealedTokens;
use social_login_domain::link_offer::{LINK_OFFER_TTL, LinkOffer, LinkOfferRefused};
use social_login_domain::{
    LinkedAccount, NewLinkedAccount, Origin, ProviderAccount, ProviderIdentity, Spend, UserId, Via,
};
use social_login_ports::{AccountLink, VerifiedAccess};
use time::OffsetDateTime;
use tracing::instrument;

impl AuthService {
    /// The 409 of a login whose email `owner` holds, carrying the link token that lets
    /// `owner` link this provider account with `tokens` (or the error of sealing it).
    pub(crate) fn offer_link(
        &self,
        owner: UserId,
        identity: &ProviderIdentity,
        tokens: SealedTokens,
        now: OffsetDateTime,
    ) -> AppError {
        let offer = LinkOffer {
            id: self.random_state_id(),
            user: owner,
            provider: identity.provider,
            subject: identity.subject.clone(),
            email: identity.email.clone(),
            tokens,
            expires_at: now + LINK_OFFER_TTL,
        };
        match self.ports.state_sealer.seal_link(&offer) {
            Ok(link_token) => AppError::LinkOffered { link_token },
            Err(error) => error.into(),
        }
    }

    /// Links the offered provider account to `caller`, whose login must be recent: 403 for
    /// another user's token, 400 for one that does not open, expired or was used, 409 when
    /// the provider account was linked meanwhile (or the caller has that provider already).
    #[instrument(skip_all)]
    pub async fn complete_link(
        &self,
        caller: VerifiedAccess,
        link_token: &str,
        origin: &Origin,
    ) -> AppResult<LinkedAccount> {
        self.require_recent_login(&caller).await?;
        let offer = self
            .ports
            .state_sealer
            .open_link(link_token)
            .ok_or(AppError::InvalidLinkToken)?;
        let now = self.ports.clock.now();
        offer
            .check(caller.user, now)
            .map_err(|refused| match refused {
                LinkOfferRefused::Expired => AppError::InvalidLinkToken,
                LinkOfferRefused::NotForYou => AppError::LinkTokenNotForYou,
            })?;
        self.enabled_provider(offer.provider.as_str())?;
        // Spent before anything is decided on it (a token refused above, another user's, is
        // not): whatever happens next, it is used.
        let spend = self.ports.states.spend(offer.id, offer.expires_at).await?;
        if spend == Spend::Again {
            return Err(AppError::InvalidLinkToken);
        }
        let account = ProviderAccount {
            provider: offer.provider,
            subject: offer.subject.clone(),
        };
        // Linked meanwhile, to this very user or another: nothing to finish.
        if self.decide_connect(caller.user, &account).await?.is_some() {
            return Err(AppError::ProviderAlreadyLinked);
        }
        let link = NewLinkedAccount {
            id: self.new_link_id(now),
            user_id: caller.user,
            provider: offer.provider,
            subject: offer.subject,
            email: offer.email,
            tokens: offer.tokens,
            created_at: now,
        };
        let audit = self.audit(&origin.clone().via(Via::LinkToken), now);
        let link = AccountLink { link, audit };
        Ok(self.ports.users.add_link(link).await?)
    }
}
