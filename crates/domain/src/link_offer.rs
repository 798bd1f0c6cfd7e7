//! Finishing a link after a 409 (docs/api.md#finishing-a-link): a provider login that met
//! an existing account by its verified email, and may not link by itself, is answered with
//! a link token. It holds this offer, sealed: which provider account, its tokens from that
//! very exchange, and the one user who may accept it by signing in and presenting it.

use crate::SealedTokens;
use crate::state::StateId;
use crate::{Email, ProviderKey, ProviderSubject, UserId};
use time::{Duration, OffsetDateTime};

/// How long a link token may be redeemed.
pub const LINK_OFFER_TTL: Duration = Duration::minutes(10);

/// Longest link token accepted: its sealed provider tokens make it long, but bounded.
pub const MAX_LINK_TOKEN_LEN: usize = 16 * 1024;

/// A link the provider login offered the existing user. `Debug` shows no token.
#[derive(derive_more::Debug, Clone, PartialEq, Eq)]
pub struct LinkOffer {
    /// Spent once in the state store, so the offer is redeemed once across instances.
    #[debug(skip)]
    pub id: StateId,
    /// The one user who may accept it: the owner of the email.
    pub user: UserId,
    pub provider: ProviderKey,
    #[debug(skip)]
    pub subject: ProviderSubject,
    /// The email as the provider sent it.
    #[debug(skip)]
    pub email: Option<Email>,
    /// The provider's tokens from the exchange that made the offer, sealed.
    #[debug(skip)]
    pub tokens: SealedTokens,
    pub expires_at: OffsetDateTime,
}

/// Why an opened link token is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LinkOfferRefused {
    #[error("the link token has expired")]
    Expired,
    /// Another user than the one it was offered to presents it (403).
    #[error("the link token is not for this user")]
    NotForYou,
}

impl LinkOffer {
    /// Whether `caller` may accept it at `now`: it is theirs and has not expired. (Spent
    /// tokens are refused by the state store, after these checks: a token another user
    /// presented is not used up.)
    pub fn check(&self, caller: UserId, now: OffsetDateTime) -> Result<(), LinkOfferRefused> {
        if now >= self.expires_at {
            return Err(LinkOfferRefused::Expired);
        }
        if caller != self.user {
            return Err(LinkOfferRefused::NotForYou);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(user: UserId, expires_at: OffsetDateTime) -> LinkOffer {
        LinkOffer {
            id: StateId::from_bytes([1; 16]),
            user,
            provider: ProviderKey::GOOGLE,
            subject: ProviderSubject::parse("g-1").unwrap(),
            email: None,
            tokens: SealedTokens::none(),
            expires_at,
        }
    }

    #[test]
    fn only_its_user_accepts_it_and_only_in_time() {
        let now = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
        let ada = UserId::new();
        let offered = offer(ada, now + LINK_OFFER_TTL);
        assert_eq!(offered.check(ada, now), Ok(()));
        assert_eq!(
            offered.check(UserId::new(), now),
            Err(LinkOfferRefused::NotForYou)
        );
        assert_eq!(
            offered.check(ada, now + LINK_OFFER_TTL),
            Err(LinkOfferRefused::Expired)
        );
        assert!(!format!("{offered:?}").contains("g-1"));
    }
}
