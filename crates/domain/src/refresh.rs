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

/// What a refresh token says of itself, under the service's MAC: the session (family) it
/// was issued in and until when it is valid. Its row goes when it is rotated, so a spent
/// token proves with this that it is a spent token of that family, not junk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefreshIssue {
    pub family: FamilyId,
    pub expires_at: OffsetDateTime,
}

/// A presented refresh token as the service reads it: the hash its row is stored under,
/// and what it proves ([`RefreshIssue`]) when its MAC holds. A token of the earlier format
/// (random bytes alone) proves nothing: its row is kept, marked used, until it expires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PresentedRefresh {
    pub hash: RefreshTokenHash,
    pub issued_in: Option<RefreshIssue>,
}

impl From<RefreshTokenHash> for PresentedRefresh {
    /// A token that proves nothing of itself (the earlier format, or a forgery).
    fn from(hash: RefreshTokenHash) -> Self {
        Self {
            hash,
            issued_in: None,
        }
    }
}

/// A session's refresh-token family as its store keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefreshFamily {
    pub id: FamilyId,
    pub user_id: UserId,
    pub revoked: bool,
    pub expires_at: OffsetDateTime,
    pub auth_time: OffsetDateTime,
}

impl RefreshFamily {
    /// Whether this is a live session of `user` at `now`: neither revoked nor past its end.
    pub fn is_live_session_of(&self, user: UserId, now: OffsetDateTime) -> bool {
        self.user_id == user && !self.revoked && self.expires_at > now
    }
}

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

impl RefreshRecord {
    /// A stored token of `family`.
    pub fn stored(expires_at: OffsetDateTime, used: bool, family: &RefreshFamily) -> Self {
        Self {
            user_id: family.user_id,
            family: family.id,
            expires_at,
            used,
            revoked: family.revoked,
            family_expires_at: family.expires_at,
            auth_time: family.auth_time,
        }
    }

    /// The presented token whose row is gone, read from the family it proves: a token of
    /// the current format loses its row when rotated, so it is a used one. `None` when the
    /// token proves nothing or another family.
    pub fn row_gone(presented: &PresentedRefresh, family: &RefreshFamily) -> Option<Self> {
        let issue = presented
            .issued_in
            .filter(|issue| issue.family == family.id)?;
        Some(Self::stored(issue.expires_at, true, family))
    }
}

/// Judges a presented token. Expiry comes before use: the row of an expired token may
/// have been pruned, so a used token past its expiry proves no copy and is just refused.
pub fn judge(record: Option<&RefreshRecord>, now: OffsetDateTime) -> RefreshVerdict {
    match record {
        None => RefreshVerdict::Refuse,
        Some(r) if r.revoked => RefreshVerdict::Refuse,
        Some(r) if now >= r.expires_at || now >= r.family_expires_at => RefreshVerdict::Refuse,
        Some(r) if r.used => RefreshVerdict::ReuseDetected { family: r.family },
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

    fn family_of(r: &RefreshRecord) -> RefreshFamily {
        RefreshFamily {
            id: r.family,
            user_id: r.user_id,
            revoked: r.revoked,
            expires_at: r.family_expires_at,
            auth_time: r.auth_time,
        }
    }

    #[test]
    fn a_token_whose_row_went_is_a_used_one_of_the_family_it_proves_and_no_other() {
        let r = record();
        let family = family_of(&r);
        let issue = RefreshIssue {
            family: r.family,
            expires_at: r.expires_at,
        };
        let presented = PresentedRefresh {
            hash: RefreshTokenHash([3; 32]),
            issued_in: Some(issue),
        };
        assert_eq!(
            RefreshRecord::row_gone(&presented, &family),
            Some(RefreshRecord {
                used: true,
                ..r.clone()
            })
        );
        let other = RefreshFamily {
            id: FamilyId::new(),
            ..family
        };
        assert_eq!(RefreshRecord::row_gone(&presented, &other), None);
        let unproven = PresentedRefresh::from(RefreshTokenHash([3; 32]));
        assert_eq!(RefreshRecord::row_gone(&unproven, &family), None);
    }

    #[test]
    fn a_used_token_past_its_expiry_is_refused_without_revoking_its_family() {
        let r = RefreshRecord {
            used: true,
            ..record()
        };
        assert_eq!(judge(Some(&r), r.expires_at), RefreshVerdict::Refuse);
        assert_eq!(
            judge(Some(&r), r.expires_at - Duration::seconds(1)),
            RefreshVerdict::ReuseDetected { family: r.family }
        );
    }
}
