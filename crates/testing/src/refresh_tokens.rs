//! `RefreshTokenRepository` of the in-memory store: rotation judged by the domain's `judge`.

use crate::InMemoryRepository;
use crate::repository::Token;
use async_trait::async_trait;
use social_login_domain::refresh::{RefreshTokenHash, RefreshVerdict, judge, token_expiry};
use social_login_domain::{AuditContext, AuditEventType, FamilyId, UserId};
use social_login_ports::{
    RefreshTokenRepository, RepositoryError, RotateError, Rotated, SessionStart,
};
use std::collections::HashSet;
use time::{Duration, OffsetDateTime};

#[async_trait]
impl RefreshTokenRepository for InMemoryRepository {
    async fn start_family(
        &self,
        user: UserId,
        session: SessionStart,
        now: OffsetDateTime,
        audit: AuditContext,
    ) -> Result<(), RepositoryError> {
        let mut committed = self.lock();
        let mut tables = committed.clone();
        tables.start_family(user, &session, now)?;
        let event = audit.event(0, AuditEventType::UserLogin, user, None);
        tables.record(event, audit.outbox)?;
        *committed = tables;
        Ok(())
    }

    async fn rotate_refresh(
        &self,
        presented: RefreshTokenHash,
        successor_hash: RefreshTokenHash,
        now: OffsetDateTime,
        successor_ttl: Duration,
        audit: AuditContext,
    ) -> Result<Rotated, RotateError> {
        let mut tables = self.lock();
        let record = tables.refresh_record(&presented);
        // As the database: a token of a locked user is refused whatever its state.
        let owner = record.as_ref().and_then(|r| tables.user(r.user_id));
        if owner.is_some_and(|owner| owner.locked) {
            return Err(RotateError::UserLocked);
        }
        match judge(record.as_ref(), now) {
            RefreshVerdict::Rotate {
                user,
                family,
                auth_time,
            } => {
                if tables.tokens.contains_key(&successor_hash) {
                    return Err(RepositoryError::Internal("duplicate key".into()).into());
                }
                if let Some(token) = tables.tokens.get_mut(&presented) {
                    token.used = true;
                }
                let family_end = record.map_or(now, |r| r.family_expires_at);
                tables.tokens.insert(
                    successor_hash,
                    Token {
                        user_id: user,
                        family,
                        expires_at: token_expiry(now, successor_ttl, family_end),
                        used: false,
                    },
                );
                Ok(Rotated { user, auth_time })
            }
            RefreshVerdict::ReuseDetected { family } => {
                let user = record.map(|r| r.user_id).unwrap_or_default();
                let event = audit.event(0, AuditEventType::SessionRefreshReuseDetected, user, None);
                tables.record(event, audit.outbox)?;
                tables.revoked.insert(family);
                Err(RotateError::ReuseDetected)
            }
            RefreshVerdict::Refuse => Err(RotateError::Refused),
        }
    }

    async fn revoke_refresh(
        &self,
        presented: RefreshTokenHash,
        audit: AuditContext,
    ) -> Result<(), RepositoryError> {
        let mut tables = self.lock();
        let Some(token) = tables.tokens.get(&presented).cloned() else {
            return Ok(());
        };
        if !tables.revoked.contains(&token.family) {
            let event = audit.event(0, AuditEventType::SessionLogout, token.user_id, None);
            tables.record(event, audit.outbox)?;
            tables.revoked.insert(token.family);
        }
        Ok(())
    }

    async fn prune_expired(
        &self,
        now: OffsetDateTime,
        _limit: u64,
    ) -> Result<u64, RepositoryError> {
        let mut tables = self.lock();
        let ended: HashSet<FamilyId> = tables
            .families
            .iter()
            .filter(|(_, family)| family.ends_at < now)
            .map(|(id, _)| *id)
            .collect();
        let before = tables.tokens.len() + tables.families.len();
        tables
            .tokens
            .retain(|_, token| token.expires_at >= now && !ended.contains(&token.family));
        tables.families.retain(|id, _| !ended.contains(id));
        tables.revoked.retain(|id| !ended.contains(id));
        Ok((before - tables.tokens.len() - tables.families.len()) as u64)
    }
}
