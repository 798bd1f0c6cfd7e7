//! The plaintext inside a sealed link token: the offer as JSON (its sealed provider tokens
//! are text already), decoded strictly: a field that does not parse opens nothing.

use serde::{Deserialize, Serialize};
use social_login_domain::SealedTokens;
use social_login_domain::link_offer::LinkOffer;
use social_login_domain::{Email, ProviderSubject, Scopes, SealedToken, StateId, UserId};
use time::OffsetDateTime;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Offer {
    id: String,
    user: uuid::Uuid,
    provider: String,
    subject: String,
    email: Option<String>,
    access_token: String,
    refresh_token: Option<String>,
    scopes: String,
    access_expires_at: Option<i64>,
    client_id: Option<String>,
    expires_at: i64,
}

pub(super) fn encode(offer: &LinkOffer) -> Option<Vec<u8>> {
    let tokens = &offer.tokens;
    serde_json::to_vec(&Offer {
        id: offer.id.to_hex(),
        user: offer.user.as_uuid(),
        provider: offer.provider.as_str().to_owned(),
        subject: offer.subject.as_str().to_owned(),
        email: offer.email.as_ref().map(|email| email.as_str().to_owned()),
        access_token: tokens.access_token.as_str().to_owned(),
        refresh_token: tokens.refresh_token.as_ref().map(|t| t.as_str().to_owned()),
        scopes: tokens.scopes.as_str().to_owned(),
        access_expires_at: tokens.access_expires_at.map(OffsetDateTime::unix_timestamp),
        client_id: tokens.client_id.clone(),
        expires_at: offer.expires_at.unix_timestamp(),
    })
    .ok()
}

pub(super) fn decode(bytes: &[u8]) -> Option<LinkOffer> {
    let offer: Offer = serde_json::from_slice(bytes).ok()?;
    let id: [u8; 16] = hex::decode(&offer.id).ok()?.try_into().ok()?;
    let time = |seconds| OffsetDateTime::from_unix_timestamp(seconds).ok();
    Some(LinkOffer {
        id: StateId::from_bytes(id),
        user: UserId::from_uuid(offer.user),
        provider: offer.provider.parse().ok()?,
        subject: ProviderSubject::parse(offer.subject).ok()?,
        email: match offer.email {
            Some(email) => Some(Email::parse(&email).ok()?),
            None => None,
        },
        tokens: SealedTokens {
            access_token: SealedToken::new(offer.access_token),
            refresh_token: offer.refresh_token.map(SealedToken::new),
            scopes: Scopes::from_stored(offer.scopes),
            access_expires_at: match offer.access_expires_at {
                Some(seconds) => Some(time(seconds)?),
                None => None,
            },
            client_id: offer.client_id,
        },
        expires_at: time(offer.expires_at)?,
    })
}
