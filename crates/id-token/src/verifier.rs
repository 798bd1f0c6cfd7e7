//! The id_token verifier the OIDC adapters and Apple share: a small layer on `jsonwebtoken`
//! with a cached key set (docs/architecture.md explains why not `openidconnect`).
//!
//! Order of the checks: the header's algorithm against the allow-list (before any key
//! lookup), the key by `kid`, the signature, then issuer, audience, times and nonce. Every
//! failure is `ProviderError::UserInfo` naming the failed check; the token never appears.

mod checks;
mod for_plan;
mod header;
mod issuer;
#[cfg(test)]
mod nonce_properties;
#[cfg(test)]
mod properties;

pub use checks::CLOCK_LEEWAY_SECS;
pub use for_plan::oidc_engine;
pub use header::{CompactJwsError, TokenHeader, header_bytes, read_header};
pub use issuer::{IssuerPolicy, IssuerRule};

use crate::claims::IdTokenClaims;
use crate::jwks::{KeySetCache, TokenOrigin};
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey, Validation};
use serde_json::{Map, Value};
use social_login_domain::SecretText;
use social_login_ports::{Clock, ProviderError};
use std::fmt;
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// Whether the provider echoes the nonce of the authorization request in its id_token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoncePolicy {
    /// The id_token must carry the nonce (Google, Microsoft, Apple).
    Required,
    /// The provider does not echo it (LinkedIn, docs/providers.md#linkedin): a token without a nonce
    /// is accepted, but a nonce that is present must still be ours.
    CheckedIfPresent,
}

/// Where a verifier finds the key of a token.
#[derive(Clone)]
enum Keys {
    /// The provider's published key set.
    Published(Arc<KeySetCache>),
    /// The client secret, for a provider that signs HS256 with it (LINE), opted into per
    /// provider; no other verifier ever accepts an HMAC algorithm.
    ClientSecret(DecodingKey),
}

/// Verifies one provider's id_tokens for one client.
#[derive(Clone)]
pub struct IdTokenVerifier {
    keys: Keys,
    issuer: IssuerPolicy,
    client_id: String,
    /// Other client ids of the same registration (iOS bundle id, Android client id),
    /// accepted only for tokens an app presents ([`IdTokenVerifier::verify_presented`]).
    other_client_ids: Vec<String>,
    algorithms: Vec<Algorithm>,
    nonce: NoncePolicy,
    clock: Arc<dyn Clock>,
}

/// How the `nonce` claim is checked.
enum NonceCheck<'a> {
    /// Equal to the nonce stored with the state (the code flow), as the policy says.
    Stored(&'a SecretText),
    /// A token an app presented: see [`checks::check_presented_nonce`].
    Presented(Option<&'a SecretText>),
}

/// The claims of an id_token an app presented, when it was issued (its `iat`), and until when
/// the token would verify: its `exp` plus [`CLOCK_LEEWAY_SECS`], which is how long it must be
/// remembered as used.
#[derive(Debug, Clone)]
pub struct PresentedClaims {
    pub claims: IdTokenClaims,
    pub issued_at: OffsetDateTime,
    pub usable_until: OffsetDateTime,
}

/// Longest an id_token an app presents may still live: providers issue them for an hour or
/// less, and a used token is remembered until it expires, so a longer one is refused rather
/// than held for days.
pub const MAX_PRESENTED_LIFETIME: Duration = Duration::hours(24);

impl fmt::Debug for IdTokenVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys: &dyn fmt::Debug = match &self.keys {
            Keys::Published(cache) => cache,
            Keys::ClientSecret(_) => &"the client secret",
        };
        f.debug_struct("IdTokenVerifier")
            .field("keys", keys)
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field("other_client_ids", &self.other_client_ids)
            .field("algorithms", &self.algorithms)
            .field("nonce", &self.nonce)
            .finish_non_exhaustive()
    }
}

impl IdTokenVerifier {
    /// A verifier accepting RS256 only, for tokens issued to `client_id`, requiring the
    /// nonce, reading the time from `clock`.
    pub fn new(
        keys: Arc<KeySetCache>,
        issuer: IssuerPolicy,
        client_id: impl Into<String>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            keys: Keys::Published(keys),
            issuer,
            client_id: client_id.into(),
            other_client_ids: Vec::new(),
            algorithms: vec![Algorithm::RS256],
            nonce: NoncePolicy::Required,
            clock,
        }
    }

    /// A verifier of tokens signed HS256 with `client_secret` (and nothing else), for a
    /// provider that signs so (LINE): its declaration opts in with `id_token_signing =
    /// "client_secret"`.
    pub fn signed_with_client_secret(
        client_secret: &SecretText,
        issuer: IssuerPolicy,
        client_id: impl Into<String>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            keys: Keys::ClientSecret(DecodingKey::from_secret(client_secret.expose().as_bytes())),
            issuer,
            client_id: client_id.into(),
            other_client_ids: Vec::new(),
            algorithms: vec![Algorithm::HS256],
            nonce: NoncePolicy::Required,
            clock,
        }
    }

    /// Replaces the nonce policy (default [`NoncePolicy::Required`]).
    pub fn with_nonce_policy(mut self, policy: NoncePolicy) -> Self {
        self.nonce = policy;
        self
    }

    /// Adds the other client ids of this registration (`[oauth_providers.X] client_ids`):
    /// audiences accepted for tokens an app presents, never for the code flow's.
    pub fn with_other_client_ids<I, S>(mut self, client_ids: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.other_client_ids = client_ids.into_iter().map(Into::into).collect();
        self
    }

    /// Replaces the allow-list of a verifier of published keys. HMAC algorithms are
    /// dropped: with a public key set, an HS* token is the algorithm-confusion attack (the
    /// public key used as the shared secret). A client-secret verifier keeps its HS256.
    pub fn with_algorithms(mut self, algorithms: &[Algorithm]) -> Self {
        if matches!(self.keys, Keys::ClientSecret(_)) {
            return self;
        }
        self.algorithms = algorithms
            .iter()
            .copied()
            .filter(|alg| alg.family() != AlgorithmFamily::Hmac)
            .collect();
        self
    }

    pub fn algorithms(&self) -> &[Algorithm] {
        &self.algorithms
    }

    /// Verifies `id_token` and returns its claims; `nonce` is the one stored with the state.
    #[tracing::instrument(skip_all)]
    pub async fn verify(
        &self,
        id_token: &SecretText,
        nonce: &SecretText,
    ) -> Result<IdTokenClaims, ProviderError> {
        self.verify_with(id_token, &[&self.client_id], NonceCheck::Stored(nonce))
            .await
    }

    /// Verifies an id_token an app received on the device and posted to us (native sign-in).
    /// Its audience may be any client id of the registration; with `raw_nonce`, its `nonce`
    /// must be that value's hex SHA-256, and without one it must carry no `nonce` at all.
    /// It may live at most [`MAX_PRESENTED_LIFETIME`] from now.
    #[tracing::instrument(skip_all)]
    pub async fn verify_presented(
        &self,
        id_token: &SecretText,
        raw_nonce: Option<&SecretText>,
    ) -> Result<PresentedClaims, ProviderError> {
        let mut audiences = vec![self.client_id.as_str()];
        audiences.extend(self.other_client_ids.iter().map(String::as_str));
        let nonce = NonceCheck::Presented(raw_nonce);
        let claims = self.verify_with(id_token, &audiences, nonce).await?;
        let usable_until = checks::usable_until(&claims, self.clock.now(), MAX_PRESENTED_LIFETIME)?;
        let issued_at = checks::issued_at(&claims)?;
        Ok(PresentedClaims {
            claims,
            issued_at,
            usable_until,
        })
    }

    async fn verify_with(
        &self,
        id_token: &SecretText,
        audiences: &[&str],
        nonce: NonceCheck<'_>,
    ) -> Result<IdTokenClaims, ProviderError> {
        let token = id_token.expose();
        let header = read_header(token, &self.algorithms)?;
        let now = self.clock.now();
        let origin = match nonce {
            NonceCheck::Stored(_) => TokenOrigin::TokenEndpoint,
            NonceCheck::Presented(_) => TokenOrigin::Presented,
        };
        let (key, key_issuer) = match &self.keys {
            Keys::Published(cache) => {
                let kid = header.kid.as_deref();
                let found = cache.key_or_miss(kid, header.alg, now, origin).await?;
                (found.key, found.issuer)
            }
            // The header's algorithm is on the allow-list, which holds HS256 alone here.
            Keys::ClientSecret(key) => (key.clone(), None),
        };
        let claims = decode_signed(token, &key, header.alg)?;
        checks::check_issuer(&self.issuer, &claims)?;
        checks::check_key_issuer(key_issuer.as_deref(), &claims)?;
        checks::check_audience_among(audiences, &claims)?;
        checks::check_times(&claims, now.unix_timestamp())?;
        match nonce {
            NonceCheck::Stored(stored)
                if self.nonce == NoncePolicy::Required || claims.nonce.is_some() =>
            {
                checks::check_nonce(stored, &claims)?;
            }
            NonceCheck::Presented(raw) => checks::check_presented_nonce(raw, &claims)?,
            NonceCheck::Stored(_) => {}
        }
        if claims.sub.as_deref().is_none_or(str::is_empty) {
            return Err(ProviderError::UserInfo("id_token has no subject".into()));
        }
        Ok(claims)
    }
}

/// Checks the signature with `key` and decodes the claims. Only `algorithm` (already on the
/// allow-list) is accepted; jsonwebtoken's own time and audience checks are off because
/// ours use the injected clock and name the failed check.
fn decode_signed(
    token: &str,
    key: &DecodingKey,
    algorithm: Algorithm,
) -> Result<IdTokenClaims, ProviderError> {
    let mut validation = Validation::new(algorithm);
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_nbf = false;
    validation.validate_aud = false;
    jsonwebtoken::decode::<Map<String, Value>>(token, key, &validation)
        .map_err(|error| {
            let what = match error.kind() {
                ErrorKind::InvalidSignature => "signature is invalid",
                ErrorKind::Json(_) | ErrorKind::Utf8(_) | ErrorKind::Base64(_) => {
                    "claims are not readable JSON"
                }
                _ => "signature could not be checked",
            };
            ProviderError::UserInfo(format!("id_token {what}"))
        })
        .and_then(|data| {
            IdTokenClaims::from_raw(data.claims).map_err(|_| {
                ProviderError::UserInfo("id_token claims are not readable JSON".into())
            })
        })
}
