//! An in-memory refresh-token store that rotates by the domain's `judge`.

use async_trait::async_trait;
use social_login_domain::refresh::{RefreshRecord, RefreshTokenHash, RefreshVerdict, judge};
use social_login_domain::{FamilyId, UserId};
use social_login_ports::{NewRefreshToken, RefreshTokenRepository, RepositoryError, RotateError};
use std::collections::HashMap;
use std::sync::Mutex;
use time::OffsetDateTime;

/// Records by hash, behind one lock, so a rotation is one atomic step.
#[derive(Default)]
pub struct InMemoryRefreshTokens {
    records: Mutex<HashMap<RefreshTokenHash, RefreshRecord>>,
}

impl InMemoryRefreshTokens {
    pub fn stored_count(&self) -> usize {
        self.records.lock().unwrap().len()
    }
}

fn revoke_family(records: &mut HashMap<RefreshTokenHash, RefreshRecord>, family: FamilyId) {
    for record in records
        .values_mut()
        .filter(|record| record.family == family)
    {
        record.revoked = true;
    }
}

#[async_trait]
impl RefreshTokenRepository for InMemoryRefreshTokens {
    async fn store_refresh(&self, token: NewRefreshToken) -> Result<(), RepositoryError> {
        let record = RefreshRecord {
            user_id: token.user_id,
            family: token.family,
            expires_at: token.expires_at,
            used: false,
            revoked: false,
        };
        self.records.lock().unwrap().insert(token.hash, record);
        Ok(())
    }

    async fn rotate_refresh(
        &self,
        presented: RefreshTokenHash,
        successor_hash: RefreshTokenHash,
        now: OffsetDateTime,
        successor_expires_at: OffsetDateTime,
    ) -> Result<UserId, RotateError> {
        let mut records = self.records.lock().unwrap();
        match judge(records.get(&presented), now) {
            RefreshVerdict::Rotate { user, family } => {
                if let Some(record) = records.get_mut(&presented) {
                    record.used = true;
                }
                let successor = RefreshRecord {
                    user_id: user,
                    family,
                    expires_at: successor_expires_at,
                    used: false,
                    revoked: false,
                };
                records.insert(successor_hash, successor);
                Ok(user)
            }
            RefreshVerdict::ReuseDetected { family } => {
                revoke_family(&mut records, family);
                Err(RotateError::ReuseDetected)
            }
            RefreshVerdict::Refuse => Err(RotateError::Refused),
        }
    }

    async fn revoke_refresh(&self, presented: RefreshTokenHash) -> Result<(), RepositoryError> {
        let mut records = self.records.lock().unwrap();
        if let Some(family) = records.get(&presented).map(|record| record.family) {
            revoke_family(&mut records, family);
        }
        Ok(())
    }
}
