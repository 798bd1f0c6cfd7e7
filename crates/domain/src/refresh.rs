//! Refresh-token rotation with reuse detection (OAuth 2.0 Security BCP §4.14).
//!
//! Every refresh token is used once and replaced by a new one of the same family. If a
//! token that was already replaced comes back, someone holds a copy: the whole family is
//! revoked, so the thief and the victim both have to log in again. A family also has an
//! absolute end, so rotating forever does not keep a session alive forever.

use crate::{FamilyId, UserId};
use time::{Duration, OffsetDateTime};

/// The SHA-256 digest of a refresh token. Only the digest is stored: a database leak does
/// not hand out live sessions. A fast hash is right here because the tokens are 256-bit
/// random values, not guessable passwords.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RefreshTokenHash(pub [u8; 32]);

redacted_debug!(RefreshTokenHash);

/// A stored refresh token, known only by the hash of its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshRecord {
    pub user_id: UserId,
    pub family: FamilyId,
    pub expires_at: OffsetDateTime,
    /// Set when the token was rotated (exchanged for a new one).
    pub used: bool,
    /// Set when its family was revoked (logout, reuse detected).
    pub revoked: bool,
    /// The end of its family: no token of the family works past it, however often rotated.
    pub family_expires_at: OffsetDateTime,
    /// When the login that started its family happened; every rotation keeps it.
    pub auth_time: OffsetDateTime,
}

/// What to do with a presented refresh token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefreshVerdict {
    /// Valid: mark it used and issue its successor in the same family. `auth_time` is the
    /// family's: a refresh is not a login.
    Rotate {
        user: UserId,
        family: FamilyId,
        auth_time: OffsetDateTime,
    },
    /// Already used: revoke the whole family and refuse.
    ReuseDetected { family: FamilyId },
    /// Unknown, expired or revoked: refuse.
    Refuse,
    /// A token of a user an operator locked: refuse, whatever the token's state.
    UserLocked,
}

pub fn judge(record: Option<&RefreshRecord>, now: OffsetDateTime) -> RefreshVerdict {
    match record {
        None => RefreshVerdict::Refuse,
        Some(r) if r.revoked => RefreshVerdict::Refuse,
        Some(r) if r.used => RefreshVerdict::ReuseDetected { family: r.family },
        Some(r) if now >= r.expires_at || now >= r.family_expires_at => RefreshVerdict::Refuse,
        Some(r) => RefreshVerdict::Rotate {
            user: r.user_id,
            family: r.family,
            auth_time: r.auth_time,
        },
    }
}

/// [`judge`] for a token whose user an operator may have locked. A locked user's token is
/// refused as `UserLocked` whatever its state: a locked account neither goes on with a
/// session nor, by replaying a used token, ends one (the operator's lock already did).
pub fn judge_for_user(
    record: Option<&RefreshRecord>,
    user_locked: bool,
    now: OffsetDateTime,
) -> RefreshVerdict {
    match record {
        Some(_) if user_locked => RefreshVerdict::UserLocked,
        record => judge(record, now),
    }
}

/// When a token issued at `now` expires: `ttl` later, but never after its family ends.
pub fn token_expiry(
    now: OffsetDateTime,
    ttl: Duration,
    family_expires_at: OffsetDateTime,
) -> OffsetDateTime {
    (now + ttl).min(family_expires_at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> RefreshRecord {
        RefreshRecord {
            user_id: UserId::new(),
            family: FamilyId::new(),
            expires_at: OffsetDateTime::UNIX_EPOCH + Duration::days(30),
            used: false,
            revoked: false,
            family_expires_at: OffsetDateTime::UNIX_EPOCH + Duration::days(90),
            auth_time: OffsetDateTime::UNIX_EPOCH - Duration::days(2),
        }
    }

    #[test]
    fn a_token_of_a_family_past_its_end_is_refused_even_if_the_token_is_fresh() {
        let r = RefreshRecord {
            expires_at: OffsetDateTime::UNIX_EPOCH + Duration::days(100),
            ..record()
        };
        assert_eq!(judge(Some(&r), r.family_expires_at), RefreshVerdict::Refuse);
        assert!(matches!(
            judge(Some(&r), r.family_expires_at - Duration::seconds(1)),
            RefreshVerdict::Rotate { .. }
        ));
    }

    #[test]
    fn a_new_token_never_outlives_its_family() {
        let now = OffsetDateTime::UNIX_EPOCH;
        let end = now + Duration::days(10);
        assert_eq!(token_expiry(now, Duration::days(30), end), end);
        assert_eq!(
            token_expiry(now, Duration::days(3), end),
            now + Duration::days(3)
        );
    }

    #[test]
    fn a_fresh_token_rotates_within_its_family_keeping_the_logins_time() {
        let r = record();
        assert_eq!(
            judge(Some(&r), OffsetDateTime::UNIX_EPOCH),
            RefreshVerdict::Rotate {
                user: r.user_id,
                family: r.family,
                auth_time: r.auth_time,
            }
        );
    }

    #[test]
    fn a_used_token_coming_back_revokes_its_family() {
        let r = RefreshRecord {
            used: true,
            ..record()
        };
        assert_eq!(
            judge(Some(&r), OffsetDateTime::UNIX_EPOCH),
            RefreshVerdict::ReuseDetected { family: r.family }
        );
    }

    #[test]
    fn unknown_expired_and_revoked_tokens_are_refused() {
        assert_eq!(
            judge(None, OffsetDateTime::UNIX_EPOCH),
            RefreshVerdict::Refuse
        );
        let r = record();
        assert_eq!(judge(Some(&r), r.expires_at), RefreshVerdict::Refuse);
        let revoked = RefreshRecord {
            revoked: true,
            used: true,
            ..record()
        };
        assert_eq!(
            judge(Some(&revoked), OffsetDateTime::UNIX_EPOCH),
            RefreshVerdict::Refuse
        );
    }

    #[test]
    fn a_locked_users_token_is_refused_as_locked_whatever_its_state_and_an_unknown_one_as_unknown()
    {
        let now = OffsetDateTime::UNIX_EPOCH;
        for r in [
            record(),
            RefreshRecord {
                used: true,
                ..record()
            },
        ] {
            assert_eq!(
                judge_for_user(Some(&r), true, now),
                RefreshVerdict::UserLocked
            );
            assert_eq!(judge_for_user(Some(&r), false, now), judge(Some(&r), now));
        }
        assert_eq!(judge_for_user(None, true, now), RefreshVerdict::Refuse);
    }
}
