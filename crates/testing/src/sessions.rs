//! Session tokens that are readable in test output and checked against the clock.

use social_login_domain::refresh::{PresentedRefresh, RefreshIssue, RefreshTokenHash};
use social_login_domain::{FamilyId, SecretText, UserId};
use social_login_ports::{
    AccessIssue, AccessToken, IssuedRefreshToken, SessionTokenError, SessionTokens, VerifiedAccess,
};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

pub const ACCESS_TTL: Duration = Duration::minutes(15);
pub const REFRESH_TTL: Duration = Duration::days(30);

/// Access tokens are `access:<user uuid>:<session uuid>:<auth_time unix seconds>:<expiry unix
/// seconds>`
/// (unsigned: only the use cases' handling of them is under test); refresh tokens are
/// `refresh:<random>:<session uuid>:<expiry unix seconds>`.
pub struct FakeSessions;

impl SessionTokens for FakeSessions {
    fn issue_access(
        &self,
        issue: AccessIssue,
        now: OffsetDateTime,
    ) -> Result<AccessToken, SessionTokenError> {
        let AccessIssue {
            user,
            session,
            auth_time,
        } = issue;
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
        let secret = Uuid::new_v4().simple().to_string();
        IssuedRefreshToken {
            hash: fold(&secret),
            secret: SecretText::new(secret),
        }
    }

    fn refresh_value(&self, issued: &IssuedRefreshToken, issue: RefreshIssue) -> SecretText {
        SecretText::new(format!(
            "refresh:{}:{}:{}",
            issued.secret.expose(),
            issue.family,
            issue.expires_at.unix_timestamp()
        ))
    }

    /// `refresh:<secret>:<session>:<expiry>` proves its session (unsigned, as the access
    /// tokens); anything else proves nothing and is folded whole.
    fn read_refresh(&self, presented: &str) -> PresentedRefresh {
        let read = || {
            let mut parts = presented.strip_prefix("refresh:")?.split(':');
            let secret = parts.next()?;
            let family: FamilyId = parts.next()?.parse().ok()?;
            let expiry = parts.next()?.parse().ok()?;
            let expires_at = OffsetDateTime::from_unix_timestamp(expiry).ok()?;
            let issued_in = Some(RefreshIssue { family, expires_at });
            parts.next().is_none().then(|| PresentedRefresh {
                hash: fold(secret),
                issued_in,
            })
        };
        read().unwrap_or_else(|| fold(presented).into())
    }

    fn refresh_ttl(&self) -> Duration {
        REFRESH_TTL
    }
}

/// Folds the text into 32 bytes. Not a cryptographic hash, and need not be: it only has to
/// differ from the value and map distinct test tokens to distinct digests.
fn fold(text: &str) -> RefreshTokenHash {
    let mut digest = [0u8; 32];
    for (i, byte) in text.bytes().enumerate() {
        let slot = &mut digest[i % 32];
        *slot = slot.wrapping_mul(31).wrapping_add(byte);
    }
    RefreshTokenHash(digest)
}
