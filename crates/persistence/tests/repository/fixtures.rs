//! Builders for the values the tests store.

use sea_orm::ConnectionTrait;
use sea_orm::sea_query::{Alias, Expr, ExprTrait, Query};
use social_login_domain::refresh::RefreshTokenHash;
use social_login_domain::{
    Email, FamilyId, LinkedAccountId, NewLinkedAccount, NewUser, PasswordHash, ProviderIdentity,
    ProviderKey, ProviderSubject, SealedToken, UserId,
};
use social_login_persistence::SeaOrmRepository;
use social_login_ports::{NewRefreshToken, ProviderSignIn, RefreshTokenRepository, SessionStart};
use time::{Duration, OffsetDateTime};

/// A fixed instant in whole seconds, so it survives PostgreSQL's microsecond precision.
pub fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_750_000_000).expect("valid timestamp")
}

pub fn email(raw: &str) -> Email {
    Email::parse(raw).expect("valid email")
}

pub fn new_user(email_address: Option<&str>, with_password: bool) -> NewUser {
    NewUser {
        id: UserId::new(),
        email: email_address.map(email),
        full_name: Some("Ada Lovelace".to_owned()),
        avatar_url: Some("https://example.com/ada.png".to_owned()),
        email_verified: email_address.is_some(),
        password_hash: with_password.then(|| PasswordHash::new("$argon2id$v=19$test")),
        created_at: now(),
    }
}

pub fn new_link(user: UserId, provider: ProviderKey, subject: &str) -> NewLinkedAccount {
    NewLinkedAccount {
        id: LinkedAccountId::new(),
        user_id: user,
        provider,
        subject: ProviderSubject::parse(subject).expect("valid subject"),
        email: Some(email("Ada@Example.com")),
        access_token: SealedToken::new("k1:sealed-access"),
        refresh_token: Some(SealedToken::new("k1:sealed-refresh")),
        created_at: now(),
    }
}

pub fn token_hash(byte: u8) -> RefreshTokenHash {
    RefreshTokenHash([byte; 32])
}

/// Starts a family for `user` whose first token is `hash`, valid for a day from [`now`];
/// the family ends 30 days from [`now`].
pub async fn store_token(
    repo: &SeaOrmRepository,
    user: UserId,
    hash: RefreshTokenHash,
) -> FamilyId {
    start_family_ending(repo, user, hash, now() + Duration::days(30)).await
}

/// Like [`store_token`], with the family ending at `family_end`.
pub async fn start_family_ending(
    repo: &SeaOrmRepository,
    user: UserId,
    hash: RefreshTokenHash,
    family_end: time::OffsetDateTime,
) -> FamilyId {
    let family = FamilyId::new();
    let first = NewRefreshToken {
        hash,
        user_id: user,
        family,
        created_at: now(),
        expires_at: Ord::min(now() + Duration::days(1), family_end),
    };
    repo.start_family(first, family_end, social_login_testing::audit_now())
        .await
        .expect("start a refresh family");
    family
}

/// A refresh token hash nobody else uses.
pub fn random_hash() -> RefreshTokenHash {
    let mut bytes = [0u8; 32];
    bytes[..16].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
    bytes[16..].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
    RefreshTokenHash(bytes)
}

/// The stored (email, access_token, refresh_token) of a link, read around the ports.
pub async fn stored_link_columns(
    repo: &SeaOrmRepository,
    link: LinkedAccountId,
) -> (Option<String>, String, Option<String>) {
    let select = Query::select()
        .columns([
            Alias::new("email"),
            Alias::new("access_token"),
            Alias::new("refresh_token"),
        ])
        .from(Alias::new("linked_accounts"))
        .and_where(Expr::col(Alias::new("id")).eq(link.as_uuid()))
        .to_owned();
    let row = repo
        .connection()
        .query_one(&select)
        .await
        .expect("select link")
        .expect("link exists");
    (
        row.try_get("", "email").expect("email"),
        row.try_get("", "access_token").expect("access_token"),
        row.try_get("", "refresh_token").expect("refresh_token"),
    )
}

/// Deletes a user row directly: the ports have no such operation.
pub async fn delete_user_row(repo: &SeaOrmRepository, user: UserId) {
    let delete = Query::delete()
        .from_table(Alias::new("users"))
        .and_where(Expr::col(Alias::new("id")).eq(user.as_uuid()))
        .to_owned();
    repo.connection()
        .execute(&delete)
        .await
        .expect("delete user");
}

/// What `provider` asserts about account `subject`.
pub fn provider_identity(
    provider: ProviderKey,
    subject: &str,
    email_address: Option<&str>,
    verified: bool,
) -> ProviderIdentity {
    ProviderIdentity {
        provider,
        subject: ProviderSubject::parse(subject).expect("valid subject"),
        email: email_address.map(email),
        email_verified: verified,
        full_name: Some("Ada Lovelace".to_owned()),
        avatar_url: None,
    }
}

/// A GitHub account with no email: registers, never matches anyone.
pub fn user_less_identity() -> ProviderIdentity {
    provider_identity(ProviderKey::Github, "no-email", None, false)
}

/// A login of `identity` with sealed tokens named `k1:access`/`k1:refresh`, a fresh session,
/// auto-linking off.
pub fn sign_in(identity: ProviderIdentity) -> ProviderSignIn {
    ProviderSignIn {
        identity,
        access_token: SealedToken::new("k1:access"),
        refresh_token: Some(SealedToken::new("k1:refresh")),
        auto_link_by_email: false,
        new_user_id: UserId::new(),
        new_link_id: LinkedAccountId::new(),
        session: SessionStart {
            hash: random_hash(),
            family: FamilyId::new(),
            token_expires_at: now() + Duration::days(1),
            family_expires_at: now() + Duration::days(30),
        },
        now: now(),
        audit: social_login_testing::audit_now(),
    }
}
