//! An in-memory refresh-token store that rotates by the domain's `judge`.

use async_trait::async_trait;
use social_login_domain::refresh::{
    RefreshRecord, RefreshTokenHash, RefreshVerdict, judge, token_expiry,
};
use social_login_domain::{FamilyId, UserId};
use social_login_ports::{NewRefreshToken, RefreshTokenRepository, RepositoryError, RotateError};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use time::{Duration, OffsetDateTime};

/// Tokens by hash and families by id, behind one lock, so a rotation is one atomic step.
#[derive(Default)]
pub struct InMemoryRefreshTokens {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    tokens: HashMap<RefreshTokenHash, Token>,
    families: HashMap<FamilyId, OffsetDateTime>,
    revoked: HashSet<FamilyId>,
}

struct Token {
    user_id: UserId,
    family: FamilyId,
    expires_at: OffsetDateTime,
    used: bool,
}

impl Inner {
    fn record(&self, hash: &RefreshTokenHash) -> Option<RefreshRecord> {
        let token = self.tokens.get(hash)?;
        Some(RefreshRecord {
            user_id: token.user_id,
            family: token.family,
            expires_at: token.expires_at,
            used: token.used,
            revoked: self.revoked.contains(&token.family),
            family_expires_at: *self.families.get(&token.family)?,
        })
    }
}

impl InMemoryRefreshTokens {
    pub fn stored_count(&self) -> usize {
        self.inner.lock().unwrap().tokens.len()
    }
}

#[async_trait]
impl RefreshTokenRepository for InMemoryRefreshTokens {
    async fn start_family(
        &self,
        first: NewRefreshToken,
        family_expires_at: OffsetDateTime,
    ) -> Result<(), RepositoryError> {
        let mut inner = self.inner.lock().unwrap();
        inner.families.insert(first.family, family_expires_at);
        inner.tokens.insert(
            first.hash,
            Token {
                user_id: first.user_id,
                family: first.family,
                expires_at: first.expires_at,
                used: false,
            },
        );
        Ok(())
    }

    async fn rotate_refresh(
        &self,
        presented: RefreshTokenHash,
        successor_hash: RefreshTokenHash,
        now: OffsetDateTime,
        successor_ttl: Duration,
    ) -> Result<UserId, RotateError> {
        let mut inner = self.inner.lock().unwrap();
        let record = inner.record(&presented);
        match judge(record.as_ref(), now) {
            RefreshVerdict::Rotate { user, family } => {
                if let Some(token) = inner.tokens.get_mut(&presented) {
                    token.used = true;
                }
                let family_end = record.map_or(now, |r| r.family_expires_at);
                inner.tokens.insert(
                    successor_hash,
                    Token {
                        user_id: user,
                        family,
                        expires_at: token_expiry(now, successor_ttl, family_end),
                        used: false,
                    },
                );
                Ok(user)
            }
            RefreshVerdict::ReuseDetected { family } => {
                inner.revoked.insert(family);
                Err(RotateError::ReuseDetected)
            }
            RefreshVerdict::Refuse => Err(RotateError::Refused),
        }
    }

    async fn revoke_refresh(&self, presented: RefreshTokenHash) -> Result<(), RepositoryError> {
        let mut inner = self.inner.lock().unwrap();
        if let Some(family) = inner.tokens.get(&presented).map(|token| token.family) {
            inner.revoked.insert(family);
        }
        Ok(())
    }

    async fn prune_expired(
        &self,
        now: OffsetDateTime,
        _limit: u64,
    ) -> Result<u64, RepositoryError> {
        let mut inner = self.inner.lock().unwrap();
        let ended: HashSet<FamilyId> = inner
            .families
            .iter()
            .filter(|(_, end)| **end < now)
            .map(|(id, _)| *id)
            .collect();
        let before = inner.tokens.len() + inner.families.len();
        inner
            .tokens
            .retain(|_, token| token.expires_at >= now && !ended.contains(&token.family));
        inner.families.retain(|id, _| !ended.contains(id));
        inner.revoked.retain(|id| !ended.contains(id));
        Ok((before - inner.tokens.len() - inner.families.len()) as u64)
    }
}
