//! `JwtSessionTokens`: HS256 access tokens and opaque rotating refresh tokens.

use crate::keys::{KeyRing, Purpose};
use crate::random::try_random_url_token;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use social_login_domain::{SecretText, UserId, refresh::RefreshTokenHash};
use social_login_ports::{AccessToken, IssuedRefreshToken, SessionTokenError, SessionTokens};
use std::fmt;
use time::{Duration, OffsetDateTime};

/// The `iss` of every access token this service issues.
pub const ISSUER: &str = "social-login";
/// The `token_use` claim: an access token is never accepted where another kind is expected.
const TOKEN_USE_ACCESS: &str = "access";
/// Refresh tokens carry 256 bits of entropy, so a fast hash of them is safe to store.
const REFRESH_TOKEN_BYTES: usize = 32;
const JTI_BYTES: usize = 16;
/// Far above any token we issue (~400 bytes); bounds the work spent on junk input.
const MAX_TOKEN_LEN: usize = 4096;

#[derive(Debug, Serialize, Deserialize)]
struct AccessClaims {
    sub: String,
    iat: i64,
    exp: i64,
    iss: String,
    token_use: String,
    jti: String,
}

struct SigningKey {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

/// Issues and checks the service's own session tokens.
///
/// Access tokens are JWTs signed with HS256 under a key derived from `secret_key`, with the
/// key id in the header `kid`, so tokens signed before a rotation keep working until they
/// expire. Refresh tokens are 32 random bytes; only their SHA-256 is stored.
pub struct JwtSessionTokens {
    keys: KeyRing<SigningKey>,
    validation: Validation,
    access_ttl: Duration,
    refresh_ttl: Duration,
}

impl JwtSessionTokens {
    /// Derives the signing keys of `current` (signs and verifies) and `previous` (only
    /// verifies).
    pub fn new(
        current: &SecretText,
        previous: &[SecretText],
        access_ttl: Duration,
        refresh_ttl: Duration,
    ) -> Self {
        let keys = KeyRing::derive(current, previous, Purpose::AccessToken, |key| SigningKey {
            encoding: EncodingKey::from_secret(key),
            decoding: DecodingKey::from_secret(key),
        });
        // HS256 only: `none`, other HMAC sizes and public-key algorithms (the classic
        // "verify an HMAC with the public key" confusion) are refused before any crypto.
        let mut validation = Validation::new(Algorithm::HS256);
        // jsonwebtoken checks `exp` against the system clock; we check it against the
        // caller's `now` instead, so the clock stays a port and tests need no sleeping.
        validation.validate_exp = false;
        validation.leeway = 0;
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        Self {
            keys,
            validation,
            access_ttl,
            refresh_ttl,
        }
    }

    fn decode(&self, token: &str) -> Option<AccessClaims> {
        if token.len() > MAX_TOKEN_LEN {
            return None;
        }
        let kid = jsonwebtoken::decode_header(token).ok()?.kid?;
        self.keys.find(&kid).find_map(|key| {
            jsonwebtoken::decode::<AccessClaims>(token, &key.decoding, &self.validation)
                .ok()
                .map(|data| data.claims)
        })
    }
}

impl fmt::Debug for JwtSessionTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JwtSessionTokens")
            .field("key_ids", &self.keys.ids())
            .field("access_ttl", &self.access_ttl)
            .field("refresh_ttl", &self.refresh_ttl)
            .finish_non_exhaustive()
    }
}

impl SessionTokens for JwtSessionTokens {
    fn issue_access(
        &self,
        user: UserId,
        now: OffsetDateTime,
    ) -> Result<AccessToken, SessionTokenError> {
        let (kid, key) = self.keys.current();
        let expires_at = now + self.access_ttl;
        let claims = AccessClaims {
            sub: user.to_string(),
            iat: now.unix_timestamp(),
            exp: expires_at.unix_timestamp(),
            iss: ISSUER.to_owned(),
            token_use: TOKEN_USE_ACCESS.to_owned(),
            jti: try_random_url_token(JTI_BYTES)
                .map_err(|_| SessionTokenError("no randomness for the token id".into()))?,
        };
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(kid.to_string());
        let value = jsonwebtoken::encode(&header, &claims, &key.encoding)
            .map_err(|e| SessionTokenError(format!("signing the access token failed: {e}")))?;
        // Whole seconds, exactly what the token says, so clients and server agree.
        let expires_at = OffsetDateTime::from_unix_timestamp(claims.exp)
            .map_err(|_| SessionTokenError("access token expiry out of range".into()))?;
        Ok(AccessToken {
            value: SecretText::new(value),
            expires_at,
        })
    }

    fn verify_access(&self, token: &str, now: OffsetDateTime) -> Option<UserId> {
        let claims = self.decode(token)?;
        let fresh = now.unix_timestamp() < claims.exp;
        let access = claims.token_use == TOKEN_USE_ACCESS && claims.iss == ISSUER;
        if fresh && access {
            claims.sub.parse().ok()
        } else {
            None
        }
    }

    /// # Panics
    /// If the operating system cannot provide randomness; the port leaves no error to
    /// return and there is no safe fallback for a session secret.
    fn new_refresh(&self) -> IssuedRefreshToken {
        let value = crate::random::random_url_token(REFRESH_TOKEN_BYTES);
        let hash = self.hash_refresh(&value);
        IssuedRefreshToken {
            value: SecretText::new(value),
            hash,
        }
    }

    fn hash_refresh(&self, presented: &str) -> RefreshTokenHash {
        RefreshTokenHash(Sha256::digest(presented.as_bytes()).into())
    }

    fn refresh_ttl(&self) -> Duration {
        self.refresh_ttl
    }
}

#[cfg(test)]
mod tests;
