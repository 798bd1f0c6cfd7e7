//! `RefreshTokenRepository` of the in-memory store: rotation judged by the domain's `judge`.

use crate::InMemoryRepository;
use async_trait::async_trait;
use social_login_domain::FamilyId;
use social_login_ports::{
    Logout, RefreshRotation, RefreshTokenRepository, RepositoryError, RotateError, Rotated,
    SessionOpening,
};
use std::collections::HashSet;
use time::OffsetDateTime;

#[async_trait]
impl RefreshTokenRepository for InMemoryRepository {
    async fn start_family(&self, opening: SessionOpening) -> Result<(), RepositoryError> {
        self.transact(|tables| Ok(tables.apply(opening.plan())?))
    }

    async fn rotate_refresh(&self, rotation: RefreshRotation) -> Result<Rotated, RotateError> {
        let outcome = self.transact(|tables| -> Result<_, RepositoryError> {
            let record = tables.refresh_record(&rotation.presented);
            // As the database: a token of a locked user is refused whatever its state.
            let owner = record.as_ref().and_then(|r| tables.user(r.user_id));
            let plan = rotation.plan(record.as_ref(), owner.is_some_and(|owner| owner.locked));
            tables.apply(plan.writes)?;
            Ok(plan.outcome)
        })?;
        Ok(outcome?)
    }

    async fn revoke_refresh(&self, logout: Logout) -> Result<(), RepositoryError> {
        self.transact(|tables| {
            let record = tables.refresh_record(&logout.presented);
            Ok(tables.apply(logout.plan(record.as_ref()))?)
        })
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
