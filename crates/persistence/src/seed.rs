//! Bulk seeding for benchmarks and load tests: many provider users, each with its link, in
//! large batches (a million rows in seconds, not the minutes one login at a time takes).

use crate::SeaOrmRepository;
use crate::entity::{linked_account, user};
use crate::error::repository_error;
use crate::mapping::{link_to_row, user_to_row};
use sea_orm::EntityTrait;
use social_login_domain::SealedTokens;
use social_login_domain::{
    Email, LinkedAccountId, NewLinkedAccount, ProviderKey, ProviderSubject, SealedToken, User,
    UserId,
};
use social_login_ports::RepoResult;
use time::OffsetDateTime;

/// Rows per INSERT: well below SQLite's 32,766 bound variables at nine columns a row.
const BATCH: u64 = 1_000;

/// Stores `count` users of `provider`, the n-th with subject `{subject_prefix}{n}`, email
/// `{subject_prefix}{n}@seed.example` (verified), and a link holding placeholder sealed
/// tokens. Each batch is one transaction.
pub async fn seed_provider_users(
    repo: &SeaOrmRepository,
    provider: ProviderKey,
    subject_prefix: &str,
    count: u64,
) -> RepoResult<()> {
    let now = OffsetDateTime::now_utc();
    let mut start = 0;
    while start < count {
        let end = (start + BATCH).min(count);
        let (users, links): (Vec<_>, Vec<_>) = (start..end)
            .map(|n| seeded(provider, subject_prefix, n, now))
            .unzip();
        let txn = repo.begin_write().await?;
        user::Entity::insert_many(users.iter().map(user_to_row))
            .exec_without_returning(&*txn)
            .await
            .map_err(repository_error)?;
        linked_account::Entity::insert_many(links.iter().map(link_to_row))
            .exec_without_returning(&*txn)
            .await
            .map_err(repository_error)?;
        txn.commit().await.map_err(repository_error)?;
        start = end;
    }
    Ok(())
}

fn seeded(
    provider: ProviderKey,
    prefix: &str,
    n: u64,
    now: OffsetDateTime,
) -> (User, NewLinkedAccount) {
    let subject = format!("{prefix}{n}");
    let email = Email::parse(&format!("{subject}@seed.example")).ok();
    let user = User {
        id: UserId::new(),
        email: email.clone(),
        full_name: Some(format!("Seeded user {n}")),
        avatar_url: None,
        email_verified: true,
        password_hash: None,
        created_at: now,
        locked: false,
    };
    let link = NewLinkedAccount {
        id: LinkedAccountId::new(),
        user_id: user.id,
        provider,
        // Digits and a short prefix: always a valid subject.
        subject: ProviderSubject::parse(subject).expect("a seeded subject is valid"),
        email,
        tokens: SealedTokens {
            access_token: SealedToken::new("seed.placeholder"),
            ..SealedTokens::none()
        },
        created_at: now,
    };
    (user, link)
}

/// Stores `count` audit events (`user.login`) of one new user, a millisecond apart ending
/// now, in batches: what the audit trail's stream is measured on. The user's id.
pub async fn seed_events(repo: &SeaOrmRepository, count: u64) -> RepoResult<UserId> {
    use crate::entity::audit_event;
    use social_login_domain::{AuditEvent, AuditEventId, AuditEventType, Origin};
    let now = OffsetDateTime::now_utc();
    let (owner, _) = seeded(ProviderKey::GITHUB, "events-owner", 0, now);
    user::Entity::insert(user_to_row(&owner))
        .exec_without_returning(repo.connection())
        .await
        .map_err(repository_error)?;
    let origin = Origin::new(None, Some("seed"), None);
    let mut start = 0;
    while start < count {
        let end = (start + BATCH).min(count);
        let events = (start..end).map(|n| {
            let at = now - time::Duration::milliseconds(i64::try_from(count - n).unwrap_or(0));
            let random = n.to_be_bytes();
            AuditEvent {
                id: AuditEventId::at(at, random),
                kind: AuditEventType::UserLogin,
                user_id: owner.id,
                provider: Some(ProviderKey::GITHUB),
                origin: origin.clone(),
                created_at: at,
            }
        });
        let rows: Vec<audit_event::ActiveModel> =
            events.map(|event| crate::audit::to_row(&event)).collect();
        audit_event::Entity::insert_many(rows)
            .exec_without_returning(repo.connection())
            .await
            .map_err(repository_error)?;
        start = end;
    }
    Ok(owner.id)
}
