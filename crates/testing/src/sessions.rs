//! Session tokens that are readable in test output and checked against the clock.

use social_login_domain::refresh::RefreshTokenHash;
use social_login_domain::{FamilyId, SecretText, UserId};
use social_login_ports::{
    AccessToken, IssuedRefreshToken, SessionTokenError, SessionTokens, VerifiedAccess,
};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

pub const ACCESS_TTL: Duration = Duration::minutes(15);
pub const REFRESH_TTL: Duration = Duration::days(30);

/// Access tokens are `access:<user uuid>:<session uuid>:<auth_time unix seconds>:<expiry unix
/// seconds>`
/// (unsigned: only the use cases' handling of them is under test); refresh tokens are random.
pub struct FakeSessions;

impl SessionTokens for FakeSessions {
    fn issue_access(
        &self,
        user: UserId,
        session: FamilyId,
        auth_time: OffsetDateTime,
        now: OffsetDateTime,
    ) -> Result<AccessToken, SessionTokenError> {
        let expires_at = now + ACCESS_TTL;
        Ok(AccessToken {
            value: SecretText::new(format!(
                "access:{user}:{session}:{}:{}",
                auth_time.unix_timestamp(),
                expires_at.unix_timestamp()
            )),
            expires_at,
        })
    }

    fn verify_access(&self, token: &str, now: OffsetDateTime) -> Option<VerifiedAccess> {
        let mut parts = token.strip_prefix("access:")?.split(':');
        let user: UserId = parts.next()?.parse().ok()?;
        let session: FamilyId = parts.next()?.parse().ok()?;
        let seconds =
            |part: Option<&str>| OffsetDateTime::from_unix_timestamp(part?.parse().ok()?).ok();
        let auth_time = seconds(parts.next())?;
        let expires_at = seconds(parts.next())?;
        if parts.next().is_some() {
            return None;
        }
        (now < expires_at).then_some(VerifiedAccess {
            user,
            issued_at: expires_at - ACCESS_TTL,
            auth_time: Some(auth_time),
            session: Some(session),
        })
    }

    fn new_refresh(&self) -> IssuedRefreshToken {
        let value = format!("refresh:{}", Uuid::new_v4().simple());
        IssuedRefreshToken {
            hash: self.hash_refresh(&value),
            value: SecretText::new(value),
        }
    }

    /// Folds the text into 32 bytes. Not a cryptographic hash, and need not be: it only
    /// has to differ from the value and map distinct test tokens to distinct digests.
    fn hash_refresh(&self, presented: &str) -> RefreshTokenHash {
        let mut digest = [0u8; 32];
        for (i, byte) in presented.bytes().enumerate() {
            let slot = &mut digest[i % 32];
            *slot = slot.wrapping_mul(31).wrapping_add(byte);
        }
        RefreshTokenHash(digest)
    }

    fn refresh_ttl(&self) -> Duration {
        REFRESH_TTL
    }
}
