//! The state value that ties an authorization request to its callback (docs/api.md#state-values).
//!
//! Life cycle: issued by authorize → consumed by exactly one callback or connect → or expired
//! after its time to live. Every failed check is the one error `OAuthStateMismatch`; the
//! variants only say why, for logs and tests.
//!
//! The value the client carries is the whole state, sealed (see the `StateSealer` port):
//! issuing writes nothing anywhere, and only the [`StateId`] of a *spent* value is kept, until
//! the value would have expired anyway. "Deleted on read" (docs/api.md#state-values) becomes "its id is
//! recorded as spent by one atomic insert-if-absent": a second use finds the id and fails.

use crate::{ProviderKey, Scopes, SecretText, UserId};
use std::fmt;
use time::{Duration, OffsetDateTime};

/// Default time to live of a state value (docs/configuration.md).
pub const DEFAULT_STATE_TTL: Duration = Duration::minutes(10);

/// The most characters a state value may have: a sealed state is about 220.
pub const MAX_STATE_TOKEN_LEN: usize = 512;

/// The opaque value sent to the provider as `state` and back to us on the callback.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct StateToken(String);

/// The random identity of one issued state value: what the store records once it is spent.
/// 128 random bits, so ids of different values never meet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId([u8; 16]);

impl StateId {
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        Self(bytes)
    }

    pub fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// 32 lowercase hex characters, e.g. for a store key.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|byte| format!("{byte:02x}")).collect()
    }
}

// Not a secret on its own (it cannot be turned back into a state value), but short is enough.
impl fmt::Debug for StateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StateId({}…)", &self.to_hex()[..8])
    }
}

/// The text cannot be a state value we issued.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed state value")]
pub struct MalformedState;

impl StateToken {
    /// Accepts only what we could have issued: 16 to [`MAX_STATE_TOKEN_LEN`] URL-safe
    /// characters. Anything else is rejected before it is opened.
    pub fn parse(raw: &str) -> Result<Self, MalformedState> {
        Self::well_formed(raw)
            .then(|| Self(raw.to_owned()))
            .ok_or(MalformedState)
    }

    /// [`parse`](Self::parse) of a value already owned (a sealer's fresh output): kept, not
    /// copied.
    pub fn parse_owned(raw: String) -> Result<Self, MalformedState> {
        if Self::well_formed(&raw) {
            Ok(Self(raw))
        } else {
            Err(MalformedState)
        }
    }

    fn well_formed(raw: &str) -> bool {
        (16..=MAX_STATE_TOKEN_LEN).contains(&raw.len())
            && raw
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

// A state value is a bearer of intent (CSRF token): keep it out of logs.
redacted_debug!(StateToken);

/// What an authorization request was started for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Log in or register; started without a valid bearer token.
    Login,
    /// Link a provider account to this already authenticated user.
    Connect { user: UserId },
}

/// The flow that is redeeming a state value: the callback (login) or connect by a caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Login,
    Connect { caller: UserId },
}

/// Why a state value was refused. All of them are `OAuthStateMismatch` to the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StateMismatch {
    #[error("state value is unknown or was already used")]
    Unknown,
    #[error("state value has expired")]
    Expired,
    #[error("state value was minted for another provider")]
    OtherProvider,
    #[error("state value was minted for the other flow")]
    WrongPurpose,
    #[error("state value is bound to a different user")]
    OtherUser,
    #[error("state value is bound to another client")]
    OtherClient,
}

/// What ties a flow to the client that started it: the first 128 bits of the SHA-256 of the
/// `binding` secret the client sent to authorize (the app hashes; the domain compares). Only
/// the client holds the secret, so a code and state that leak with the redirect are of no
/// use without it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct StateBinding([u8; 16]);

impl StateBinding {
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        Self(bytes)
    }

    pub fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// What a state value keeps of a SHA-256 digest: its first 128 bits.
    pub fn of_digest(digest: &[u8; 32]) -> Self {
        let mut bytes = [0; 16];
        bytes.copy_from_slice(&digest[..16]);
        Self(bytes)
    }

    /// Equal, compared in time that does not depend on where the two differ.
    fn same_as(&self, other: &Self) -> bool {
        crate::secret::same_bytes(&self.0, &other.0)
    }
}

redacted_debug!(StateBinding);

/// An issued state value: everything the callback needs, sealed into the value itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthState {
    pub id: StateId,
    pub provider: ProviderKey,
    pub purpose: Purpose,
    /// PKCE code verifier (RFC 7636); only its S256 challenge leaves the service.
    pub pkce_verifier: SecretText,
    /// OIDC nonce, echoed in the id_token by providers that support it.
    pub nonce: SecretText,
    pub expires_at: OffsetDateTime,
    /// Scopes a connect asked for beyond the provider's (`scopes=` on authorize); empty
    /// for every login.
    pub extra_scopes: Scopes,
    /// The client's binding, when it sent one to authorize: the flow finishes only with it.
    pub binding: Option<StateBinding>,
}

/// What a consumed state value hands on to the code exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedeemedState {
    pub provider: ProviderKey,
    pub purpose: Purpose,
    pub pkce_verifier: SecretText,
    pub nonce: SecretText,
    /// What the authorization asked for beyond the provider's scopes.
    pub extra_scopes: Scopes,
}

impl OAuthState {
    /// (none) → issued: a fresh state value living `ttl` from `now`.
    pub fn issue(
        id: StateId,
        provider: ProviderKey,
        purpose: Purpose,
        pkce_verifier: SecretText,
        nonce: SecretText,
        now: OffsetDateTime,
        ttl: Duration,
    ) -> Self {
        Self {
            id,
            provider,
            purpose,
            pkce_verifier,
            nonce,
            expires_at: now + ttl,
            extra_scopes: Scopes::default(),
            binding: None,
        }
    }

    /// This state, finished only by the client that holds `binding`'s secret.
    pub fn bound_to(self, binding: Option<StateBinding>) -> Self {
        Self { binding, ..self }
    }

    /// Whether the client finishing the flow presented the binding it started it with: both
    /// none, or the same. Checked before the value is spent, so a stranger who got hold of
    /// the value cannot use it up either.
    pub fn check_binding(&self, presented: Option<StateBinding>) -> Result<(), StateMismatch> {
        match (&self.binding, presented) {
            (None, None) => Ok(()),
            (Some(bound), Some(presented)) if bound.same_as(&presented) => Ok(()),
            _ => Err(StateMismatch::OtherClient),
        }
    }

    /// This state, asking for `scopes` beyond the provider's.
    pub fn with_extra_scopes(self, scopes: Scopes) -> Self {
        Self {
            extra_scopes: scopes,
            ..self
        }
    }

    pub fn is_expired(&self, now: OffsetDateTime) -> bool {
        now >= self.expires_at
    }

    /// issued → consumed, when every condition of docs/api.md#state-values holds. The caller has already
    /// recorded the value as spent, so a refused value is spent as well: a second try with
    /// the same value is `Unknown`.
    pub fn redeem(
        self,
        provider: ProviderKey,
        flow: Flow,
        now: OffsetDateTime,
    ) -> Result<RedeemedState, StateMismatch> {
        if self.is_expired(now) {
            return Err(StateMismatch::Expired);
        }
        if self.provider != provider {
            return Err(StateMismatch::OtherProvider);
        }
        match (self.purpose, flow) {
            (Purpose::Login, Flow::Login) => {}
            (Purpose::Connect { user }, Flow::Connect { caller }) if user == caller => {}
            (Purpose::Connect { .. }, Flow::Connect { .. }) => {
                return Err(StateMismatch::OtherUser);
            }
            _ => return Err(StateMismatch::WrongPurpose),
        }
        Ok(RedeemedState {
            provider: self.provider,
            purpose: self.purpose,
            pkce_verifier: self.pkce_verifier,
            nonce: self.nonce,
            extra_scopes: self.extra_scopes,
        })
    }
}

/// Whether this use of a state value was the first: what the state store answers when asked
/// to record a value's id as spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spend {
    /// Nobody had used it: this use may go on.
    First,
    /// Used before (a replay, or a concurrent use that won): refused as `Unknown`.
    Again,
}

/// Redeems an opened state value after the store answered `spend` for it.
pub fn redeem_spent(
    state: OAuthState,
    spend: Spend,
    provider: ProviderKey,
    flow: Flow,
    now: OffsetDateTime,
) -> Result<RedeemedState, StateMismatch> {
    match spend {
        Spend::First => state.redeem(provider, flow, now),
        Spend::Again => Err(StateMismatch::Unknown),
    }
}

#[cfg(test)]
mod tests;
