//! Access tokens that verified, remembered by their SHA-256: a token is immutable, so its
//! Ed25519 signature and claims need checking once per process, not on every request (the
//! check is most of a protected request's CPU). Its expiry is still judged at every use.
//! Bounded: past [`MAX_REMEMBERED`] tokens the expired ones go, and if that frees less than
//! a quarter the memory is emptied and refills as they come: a memory full of live tokens
//! is not scanned again at every new one (under the lock every request takes).

use social_login_ports::VerifiedAccess;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// Tokens remembered at most: about 2 MiB.
pub(super) const MAX_REMEMBERED: usize = 16_384;

/// What a verified token said, and until when (Unix seconds) it is valid.
#[derive(Clone, Copy)]
pub(super) struct Verified {
    pub access: VerifiedAccess,
    pub expires_at: i64,
}

#[derive(Default)]
pub(super) struct VerifiedTokens {
    by_digest: Mutex<HashMap<[u8; 32], Verified>>,
}

impl VerifiedTokens {
    pub fn get(&self, digest: &[u8; 32]) -> Option<Verified> {
        let remembered = self
            .by_digest
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        remembered.get(digest).copied()
    }

    /// Remembers `verified` at `now` (Unix seconds).
    pub fn remember(&self, digest: [u8; 32], verified: Verified, now: i64) {
        let mut remembered = self
            .by_digest
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if remembered.len() >= MAX_REMEMBERED {
            remembered.retain(|_, known| known.expires_at > now);
            if remembered.len() > MAX_REMEMBERED / 4 * 3 {
                remembered.clear();
            }
        }
        remembered.insert(digest, verified);
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.by_digest.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use social_login_domain::UserId;
    use time::OffsetDateTime;

    fn verified() -> Verified {
        Verified {
            access: VerifiedAccess {
                user: UserId::new(),
                issued_at: OffsetDateTime::UNIX_EPOCH,
                auth_time: None,
                session: None,
            },
            expires_at: 60,
        }
    }

    /// The `n`th token's digest.
    fn digest(n: u32) -> [u8; 32] {
        let mut digest = [0u8; 32];
        digest[..4].copy_from_slice(&n.to_be_bytes());
        digest
    }

    #[test]
    fn what_it_remembers_stays_bounded() {
        let tokens = VerifiedTokens::default();
        for n in 0..=MAX_REMEMBERED as u32 {
            tokens.remember(digest(n), verified(), 0);
        }
        assert!(tokens.len() <= MAX_REMEMBERED);
        let last = digest(MAX_REMEMBERED as u32);
        assert!(tokens.get(&last).is_some(), "the newest is remembered");
    }

    #[test]
    fn when_full_the_expired_go_first_and_the_live_stay() {
        let tokens = VerifiedTokens::default();
        let live = Verified {
            expires_at: 1_000,
            ..verified()
        };
        tokens.remember(digest(0), live, 0);
        for n in 1..MAX_REMEMBERED as u32 {
            tokens.remember(digest(n), verified(), 0);
        }
        // At 100 every token but the first has expired (60).
        tokens.remember(digest(u32::MAX), verified(), 100);
        assert_eq!(tokens.len(), 2);
        assert!(tokens.get(&digest(0)).is_some(), "the live one stays");
    }

    #[test]
    fn a_memory_full_of_live_tokens_is_emptied_once_not_scanned_at_every_token() {
        let tokens = VerifiedTokens::default();
        // A tenth of them expire at 50, the rest at 60.
        for n in 0..MAX_REMEMBERED as u32 {
            let expires_at = if n < MAX_REMEMBERED as u32 / 10 {
                50
            } else {
                60
            };
            let known = Verified {
                expires_at,
                ..verified()
            };
            tokens.remember(digest(n), known, 0);
        }
        // At 55 a tenth has expired: too little room to last, so the memory starts again
        // with the new token alone rather than scan itself again at the next one.
        tokens.remember(digest(u32::MAX), verified(), 55);
        assert_eq!(tokens.len(), 1);
    }
}
