//! `RefreshTokenRepository` of the in-memory store: rotation judged by the domain's `judge`.

use crate::InMemoryRepository;
use crate::repository::Token;
use async_trait::async_trait;
use social_login_domain::FamilyId;
use social_login_ports::{
    Logout, RefreshRotation, RefreshTokenRepository, RepositoryError, RotateError, Rotated,
    RotationStep, SessionOpening,
};
use std::collections::HashSet;
use time::OffsetDateTime;

#[async_trait]
impl RefreshTokenRepository for InMemoryRepository {
    async fn start_family(&self, opening: SessionOpening) -> Result<(), RepositoryError> {
        self.transact(|tables| {
            tables.start_family(opening.user, &opening.session, opening.now)?;
            tables.record(opening.event(), opening.audit.outbox)
        })
    }

    async fn rotate_refresh(&self, rotation: RefreshRotation) -> Result<Rotated, RotateError> {
        let mut tables = self.lock();
        let record = tables.refresh_record(&rotation.presented);
        // As the database: a token of a locked user is refused whatever its state.
        let owner = record.as_ref().and_then(|r| tables.user(r.user_id));
        let step = rotation.decide(record.as_ref(), owner.is_some_and(|owner| owner.locked));
        match &step {
            RotationStep::Rotate { successor, .. } => {
                if tables.tokens.contains_key(&successor.hash) {
                    return Err(RepositoryError::Internal("duplicate key".into()).into());
                }
                if let Some(token) = tables.tokens.get_mut(&rotation.presented) {
                    token.used = true;
                }
                tables
                    .tokens
                    .insert(successor.hash, Token::unused(successor));
            }
            RotationStep::RevokeFamily { family, event } => {
                tables.record(event.clone(), rotation.audit.outbox)?;
                tables.revoked.insert(*family);
            }
            RotationStep::Refuse(_) => {}
        }
        step.outcome()
    }

    async fn revoke_refresh(&self, logout: Logout) -> Result<(), RepositoryError> {
        let mut tables = self.lock();
        let Some(token) = tables.tokens.get(&logout.presented).cloned() else {
            return Ok(());
        };
        if !tables.revoked.contains(&token.family) {
            tables.record(logout.event(token.user_id), logout.audit.outbox)?;
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
