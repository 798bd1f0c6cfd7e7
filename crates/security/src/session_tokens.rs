//! `JwtSessionTokens`: EdDSA (Ed25519) access tokens and opaque rotating refresh tokens.

mod refresh_token;
mod signing_key;
mod verified;

use crate::random::random_url_token;
use jsonwebtoken::{Algorithm, Validation};
use refresh_token::RefreshTokenFormat;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use signing_key::SigningKey;
use social_login_domain::SecretText;
use social_login_domain::refresh::{PresentedRefresh, RefreshIssue};
use social_login_ports::{
    AccessIssue, AccessToken, IssuedRefreshToken, SessionTokenError, SessionTokens, VerifiedAccess,
};
use std::fmt;
use time::{Duration, OffsetDateTime};

pub use signing_key::PublicJwk;

/// The default `iss` of the access tokens (`[tokens] issuer`).
pub const ISSUER: &str = "social-login";
/// The `token_use` claim: an access token is never accepted where another kind is expected.
const TOKEN_USE_ACCESS: &str = "access";
const JTI_BYTES: usize = 16;
/// Far above any token we issue (~400 bytes); bounds the work spent on junk input.
const MAX_TOKEN_LEN: usize = 4096;

#[derive(Debug, Serialize, Deserialize)]
struct AccessClaims {
    sub: String,
    iat: i64,
    exp: i64,
    iss: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    aud: Option<String>,
    /// When the session's login happened (OpenID Connect's `auth_time`, seconds). Optional
    /// when read: tokens issued before it existed stay valid until they expire.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    auth_time: Option<i64>,
    /// The session it was issued in (its refresh-token family's id), as OpenID Connect
    /// names a session. Optional when read, as `auth_time`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sid: Option<String>,
    token_use: String,
    jti: String,
}

/// Issues and checks the service's own session tokens.
///
/// Access tokens are JWTs signed with EdDSA (Ed25519). Each key pair is derived from a
/// secret key, so another service verifies them with the public keys alone
/// ([`Self::public_keys`], the JWKS) and never needs `secret_key`. The header `kid` is the
/// key's RFC 7638 thumbprint; tokens signed under a previous secret key keep verifying until
/// they expire, as long as that key stays configured. Refresh tokens are 32 random bytes
/// with their family and expiry under a MAC (`refresh_token`); only the SHA-256 of the
/// random bytes is stored.
pub struct JwtSessionTokens {
    /// The current key (signs and verifies) first, then the previous ones (only verify).
    keys: Vec<SigningKey>,
    issuer: String,
    audience: Option<String>,
    validation: Validation,
    access_ttl: Duration,
    refresh_ttl: Duration,
    refresh_tokens: RefreshTokenFormat,
    /// Tokens that verified already, by their SHA-256.
    verified: verified::VerifiedTokens,
}

impl JwtSessionTokens {
    /// Derives the signing keys of `current` (signs and verifies) and `previous` (only
    /// verifies). The issuer is [`ISSUER`] and there is no audience until set.
    pub fn new(
        current: &SecretText,
        previous: &[SecretText],
        access_ttl: Duration,
        refresh_ttl: Duration,
    ) -> Self {
        let keys = std::iter::once(current)
            .chain(previous)
            .map(SigningKey::derive)
            .collect();
        Self {
            keys,
            issuer: ISSUER.to_owned(),
            audience: None,
            validation: validation(ISSUER, None),
            access_ttl,
            refresh_ttl,
            refresh_tokens: RefreshTokenFormat::new(current, previous),
            verified: verified::VerifiedTokens::default(),
        }
    }

    /// The `iss` of issued tokens, and the only one accepted.
    #[must_use]
    pub fn with_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = issuer.into();
        self.validation = validation(&self.issuer, self.audience.as_deref());
        self
    }

    /// The `aud` of issued tokens, and then required. Without one, a token that carries any
    /// `aud` is refused: it was not issued by this configuration.
    #[must_use]
    pub fn with_audience(mut self, audience: Option<String>) -> Self {
        self.audience = audience;
        self.validation = validation(&self.issuer, self.audience.as_deref());
        self
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// Every public key that may have signed a still-valid access token: the current one
    /// first, then each previous secret key's, without duplicates. What the JWKS publishes.
    pub fn public_keys(&self) -> Vec<PublicJwk> {
        let mut keys: Vec<PublicJwk> = Vec::with_capacity(self.keys.len());
        for key in &self.keys {
            if !keys.iter().any(|known| known.kid() == key.jwk.kid()) {
                keys.push(key.jwk.clone());
            }
        }
        keys
    }

    /// The signature and claims of `token` checked (`exp` aside: it is judged at each use),
    /// and what they say.
    fn verify_once(&self, token: &str) -> Option<verified::Verified> {
        let claims = self.decode(token)?;
        // The library checked `iss` and `aud`; checked again so no setting of it can skip them.
        let access = claims.token_use == TOKEN_USE_ACCESS
            && claims.iss == self.issuer
            && claims.aud == self.audience;
        if !access {
            return None;
        }
        let auth_time = match claims.auth_time {
            Some(at) => Some(OffsetDateTime::from_unix_timestamp(at).ok()?),
            None => None,
        };
        let session = match &claims.sid {
            Some(sid) => Some(sid.parse().ok()?),
            None => None,
        };
        Some(verified::Verified {
            access: VerifiedAccess {
                user: claims.sub.parse().ok()?,
                issued_at: OffsetDateTime::from_unix_timestamp(claims.iat).ok()?,
                auth_time,
                session,
            },
            expires_at: claims.exp,
        })
    }

    fn decode(&self, token: &str) -> Option<AccessClaims> {
        if token.len() > MAX_TOKEN_LEN {
            return None;
        }
        let kid = jsonwebtoken::decode_header(token).ok()?.kid?;
        let key = self.keys.iter().find(|key| key.jwk.kid() == kid)?;
        jsonwebtoken::decode::<AccessClaims>(token, &key.decoding, &self.validation)
            .ok()
            .map(|data| data.claims)
    }
}

/// EdDSA only: `none`, HMAC (the classic "sign HS256 with the public key" confusion) and
/// every other algorithm are refused before any crypto.
fn validation(issuer: &str, audience: Option<&str>) -> Validation {
    let mut validation = Validation::new(Algorithm::EdDSA);
    // jsonwebtoken checks `exp` against the system clock; we check it against the caller's
    // `now` instead, so the clock stays a port and tests need no sleeping.
    validation.validate_exp = false;
    validation.leeway = 0;
    validation.set_issuer(&[issuer]);
    match audience {
        Some(audience) => {
            validation.set_audience(&[audience]);
            validation.set_required_spec_claims(&["exp", "iss", "sub", "aud"]);
        }
        None => validation.set_required_spec_claims(&["exp", "iss", "sub"]),
    }
    validation
}

impl fmt::Debug for JwtSessionTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JwtSessionTokens")
            .field(
                "kids",
                &self
                    .keys
                    .iter()
                    .map(|key| key.jwk.kid())
                    .collect::<Vec<_>>(),
            )
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("access_ttl", &self.access_ttl)
            .field("refresh_ttl", &self.refresh_ttl)
            .finish_non_exhaustive()
    }
}

impl SessionTokens for JwtSessionTokens {
    fn issue_access(
        &self,
        issue: AccessIssue,
        now: OffsetDateTime,
    ) -> Result<AccessToken, SessionTokenError> {
        let key = &self.keys[0];
        let expires_at = now + self.access_ttl;
        let claims = AccessClaims {
            sub: issue.user.to_string(),
            iat: now.unix_timestamp(),
            exp: expires_at.unix_timestamp(),
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
            auth_time: Some(issue.auth_time.unix_timestamp()),
            sid: Some(issue.session.to_string()),
            token_use: TOKEN_USE_ACCESS.to_owned(),
            jti: random_url_token(JTI_BYTES),
        };
        let value = key
            .sign(&claims)
            .map_err(|e| SessionTokenError(format!("signing the access token failed: {e}")))?;
        // Whole seconds, exactly what the token says, so clients and server agree.
        let expires_at = OffsetDateTime::from_unix_timestamp(claims.exp)
            .map_err(|_| SessionTokenError("access token expiry out of range".into()))?;
        Ok(AccessToken {
            value: SecretText::new(value),
            expires_at,
        })
    }

    fn verify_access(&self, token: &str, now: OffsetDateTime) -> Option<VerifiedAccess> {
        if token.len() > MAX_TOKEN_LEN {
            return None;
        }
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let remembered = self.verified.get(&digest);
        let verified = match remembered {
            Some(verified) => verified,
            None => {
                let verified = self.verify_once(token)?;
                self.verified
                    .remember(digest, verified, now.unix_timestamp());
                verified
            }
        };
        (now.unix_timestamp() < verified.expires_at).then_some(verified.access)
    }

    /// # Panics
    /// If the operating system cannot provide randomness; the port leaves no error to
    /// return and there is no safe fallback for a session secret.
    fn new_refresh(&self) -> IssuedRefreshToken {
        RefreshTokenFormat::new_secret()
    }

    fn refresh_value(&self, issued: &IssuedRefreshToken, issue: RefreshIssue) -> SecretText {
        self.refresh_tokens.value(issued, issue)
    }

    fn read_refresh(&self, presented: &str) -> PresentedRefresh {
        self.refresh_tokens.read(presented)
    }

    fn refresh_ttl(&self) -> Duration {
        self.refresh_ttl
    }
}

#[cfg(test)]
mod tests;
