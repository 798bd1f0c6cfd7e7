//! Builders for the values the contract stores: fixed instants, users, links, sessions.

use super::Repository;
use social_login_domain::SealedTokens;
use social_login_domain::refresh::{PresentedRefresh, RefreshTokenHash};
use social_login_domain::{
    AuditContext, AuditEventType, Email, FamilyId, LinkedAccount, LinkedAccountId, LoginMethod,
    NewLinkedAccount, PasswordHash, ProviderIdentity, ProviderKey, ProviderSubject, SealedToken,
    SignupPolicy, User, UserId,
};
use social_login_ports::{AccountLink, AddLinkError, UserCreation};
use social_login_ports::{
    LinkRemoval, Logout, ProviderSignIn, RefreshRotation, RemoveLinkError, RepoResult, RotateError,
    Rotated, SealedGrant, SessionOpening, SessionStart, UserDeletion,
};
use time::{Duration, OffsetDateTime};

/// A fixed instant in whole seconds, so it survives PostgreSQL's microsecond precision.
pub fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_750_000_000).expect("valid timestamp")
}

pub fn email(raw: &str) -> Email {
    Email::parse(raw).expect("valid email")
}

pub fn new_user(email_address: Option<&str>, with_password: bool) -> User {
    User {
        id: UserId::new(),
        email: email_address.map(email),
        full_name: Some("Ada Lovelace".to_owned()),
        avatar_url: Some("https://example.com/ada.png".to_owned()),
        email_verified: email_address.is_some(),
        password_hash: with_password.then(|| PasswordHash::new("$argon2id$v=19$test")),
        created_at: now(),
        locked: false,
    }
}

pub fn new_link(user: UserId, provider: ProviderKey, subject: &str) -> NewLinkedAccount {
    NewLinkedAccount {
        id: LinkedAccountId::new(),
        user_id: user,
        provider,
        subject: ProviderSubject::parse(subject).expect("valid subject"),
        email: Some(email("Ada@Example.com")),
        tokens: SealedTokens {
            access_token: SealedToken::new("k1:sealed-access"),
            refresh_token: Some(SealedToken::new("k1:sealed-refresh")),
            ..SealedTokens::none()
        },
        created_at: now(),
    }
}

/// The creation of `user` with its first link, if any, recording with `audit`.
pub fn creation(
    user: User,
    first_link: Option<NewLinkedAccount>,
    audit: AuditContext,
) -> UserCreation {
    UserCreation {
        user,
        first_link,
        first_session: None,
        audit,
    }
}

/// Stores `user` with its first link, if any, as a registration or a first login does;
/// returns the stored user.
pub async fn store_user(
    repo: &dyn Repository,
    user: &User,
    first_link: Option<NewLinkedAccount>,
) -> User {
    repo.create_user(creation(user.clone(), first_link, crate::audit_now()))
        .await
        .unwrap()
}

/// Stores a user of `email_address` (with a password or not) whose first link is
/// `provider`'s account `subject`; returns the user.
pub async fn store_user_with_link(
    repo: &dyn Repository,
    email_address: &str,
    with_password: bool,
    (provider, subject): (ProviderKey, &str),
) -> User {
    let user = new_user(Some(email_address), with_password);
    let link = new_link(user.id, provider, subject);
    store_user(repo, &user, Some(link)).await;
    user
}

/// Links `link` to its user, as connecting a provider account does.
pub async fn add_link(
    repo: &dyn Repository,
    link: NewLinkedAccount,
) -> Result<LinkedAccount, AddLinkError> {
    repo.add_link(AccountLink {
        link,
        audit: crate::audit_now(),
    })
    .await
}

/// Removes `user`'s link of `provider`, every built-in provider usable, as a disconnect does.
pub async fn remove_link(
    repo: &dyn Repository,
    user: UserId,
    provider: ProviderKey,
) -> Result<SealedGrant, RemoveLinkError> {
    repo.remove_link(LinkRemoval {
        user,
        provider,
        usable: ProviderKey::BUILT_IN.to_vec(),
        audit: crate::audit_now(),
    })
    .await
}

pub fn token_hash(byte: u8) -> RefreshTokenHash {
    RefreshTokenHash([byte; 32])
}

/// When the login behind every session the fixtures start happened: an hour before [`now`],
/// so an adapter that hands back the family's creation time or the rotation's instant instead
/// is caught.
pub fn login_time() -> OffsetDateTime {
    now() - Duration::hours(1)
}

/// A session of `hash` as a password login at [`login_time`] starts it: the first token
/// valid for a day from [`now`] (never past `family_end`), the family ending at `family_end`.
pub fn session(hash: RefreshTokenHash, family_end: OffsetDateTime) -> SessionStart {
    SessionStart {
        hash,
        family: FamilyId::new(),
        token_expires_at: Ord::min(now() + Duration::days(1), family_end),
        family_expires_at: family_end,
        auth_time: login_time(),
        began_with: LoginMethod::Password,
    }
}

/// Starts a family for `user` whose first token is `hash`, valid for a day from [`now`];
/// the family ends 30 days from [`now`]. A password login starts it.
pub async fn store_token(repo: &dyn Repository, user: UserId, hash: RefreshTokenHash) -> FamilyId {
    start_family_ending(repo, user, hash, now() + Duration::days(30)).await
}

/// Like [`store_token`], for a session that `began_with` started.
pub async fn store_session_begun_with(
    repo: &dyn Repository,
    user: UserId,
    hash: RefreshTokenHash,
    began_with: LoginMethod,
) -> FamilyId {
    let session = SessionStart {
        began_with,
        ..session(hash, now() + Duration::days(30))
    };
    start_session(repo, user, session, crate::audit_now()).await
}

/// Like [`store_token`], with the family ending at `family_end`.
pub async fn start_family_ending(
    repo: &dyn Repository,
    user: UserId,
    hash: RefreshTokenHash,
    family_end: time::OffsetDateTime,
) -> FamilyId {
    let session = session(hash, family_end);
    start_session(repo, user, session, crate::audit_now()).await
}

/// Starts `session` for `user` at [`now`], recorded with `audit`; its family.
pub async fn start_session(
    repo: &dyn Repository,
    user: UserId,
    session: SessionStart,
    audit: AuditContext,
) -> FamilyId {
    start_session_at(repo, user, session, audit, now()).await
}

/// [`start_session`] at `at`.
pub async fn start_session_at(
    repo: &dyn Repository,
    user: UserId,
    session: SessionStart,
    audit: AuditContext,
    at: OffsetDateTime,
) -> FamilyId {
    let family = session.family;
    let opening = SessionOpening {
        user,
        session,
        now: at,
        audit,
    };
    repo.start_family(opening)
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
        hosted_domain: None,
    }
}

/// A GitHub account with no email: registers, never matches anyone.
pub fn user_less_identity() -> ProviderIdentity {
    provider_identity(ProviderKey::GITHUB, "no-email", None, false)
}

/// A [`sign_in`] of `provider`'s account `subject` with `email_address`, `verified` or not.
pub fn login_of(
    provider: ProviderKey,
    subject: &str,
    email_address: Option<&str>,
    verified: bool,
) -> ProviderSignIn {
    sign_in(provider_identity(
        provider,
        subject,
        email_address,
        verified,
    ))
}

/// A login of `identity` with sealed tokens named `k1:access`/`k1:refresh`, a fresh session,
/// auto-linking off.
pub fn sign_in(identity: ProviderIdentity) -> ProviderSignIn {
    let began_with = LoginMethod::Provider(identity.provider);
    ProviderSignIn {
        identity,
        tokens: SealedTokens {
            access_token: SealedToken::new("k1:access"),
            refresh_token: Some(SealedToken::new("k1:refresh")),
            scopes: social_login_domain::Scopes::default(),
            access_expires_at: None,
            client_id: None,
        },
        linking: social_login_domain::linking::Linking::Confirm,
        signup: SignupPolicy::default(),
        new_user_id: UserId::new(),
        new_link_id: LinkedAccountId::new(),
        session: SessionStart {
            began_with,
            ..session(random_hash(), now() + Duration::days(30))
        },
        now: now(),
        audit: crate::audit_now(),
    }
}

/// A [`login_of`] with auto-linking on: a verified email links to its verified owner.
pub fn auto_linking_login_of(
    provider: ProviderKey,
    subject: &str,
    email_address: Option<&str>,
    verified: bool,
) -> ProviderSignIn {
    ProviderSignIn {
        linking: social_login_domain::linking::Linking::Auto,
        ..login_of(provider, subject, email_address, verified)
    }
}

/// Ada's first sign-in, with Google's account g-1 vouching for ada@example.com; the user it
/// made.
pub async fn ada_on_google(repo: &dyn Repository) -> User {
    let google = login_of(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    repo.sign_in_with_provider(google).await.unwrap().user
}

/// Signs `login` in, which must succeed; the user it signed in.
pub async fn signed_in_user(repo: &dyn Repository, login: ProviderSignIn) -> UserId {
    let signed_in = repo.sign_in_with_provider(login).await;
    signed_in.expect("the login succeeds").user.id
}

/// What a refused `login` leaves behind: no user of its new id, no link of its account.
pub async fn assert_no_account_written(repo: &dyn Repository, login: &ProviderSignIn) {
    let user = repo.find_user(login.new_user_id).await.unwrap();
    assert_eq!(user, None, "no user was written");
    let link = repo.find_link(&login.identity.account()).await;
    assert_eq!(link.unwrap(), None, "no link was written");
}

/// Rotates `presented` into `successor` at `at`, the successor valid for `ttl`.
pub async fn rotation(
    repo: &dyn Repository,
    (presented, successor): (impl Into<PresentedRefresh>, RefreshTokenHash),
    at: OffsetDateTime,
    ttl: Duration,
) -> Result<Rotated, RotateError> {
    repo.rotate_refresh(RefreshRotation {
        presented: presented.into(),
        successor,
        now: at,
        successor_ttl: ttl,
        audit: crate::audit_now(),
    })
    .await
}

/// Logs the session of `presented` out, now.
pub async fn logout(
    repo: &dyn Repository,
    presented: impl Into<PresentedRefresh>,
) -> RepoResult<()> {
    logout_with(repo, presented, crate::audit_now()).await
}

/// Logs the session of `presented` out, recorded with `audit`.
pub async fn logout_with(
    repo: &dyn Repository,
    presented: impl Into<PresentedRefresh>,
    audit: AuditContext,
) -> RepoResult<()> {
    let presented = presented.into();
    repo.revoke_refresh(Logout { presented, audit }).await
}

/// Refreshes the session of `hash` once, now, its successor a fresh hash valid for a day.
pub async fn refresh(
    repo: &dyn Repository,
    hash: RefreshTokenHash,
) -> Result<Rotated, RotateError> {
    rotation(repo, (hash, random_hash()), now(), Duration::days(1)).await
}

/// The providers `user` has links of, oldest link first.
pub async fn linked_providers(repo: &dyn Repository, user: UserId) -> Vec<ProviderKey> {
    let links = repo.list_links(user).await.unwrap();
    links.iter().map(|link| link.provider).collect()
}

/// The user whose email is `raw` (in any case), if any.
pub async fn user_by_email(repo: &dyn Repository, raw: &str) -> Option<User> {
    repo.find_user_by_email(&email(raw)).await.unwrap()
}

/// The kinds of `user`'s latest hundred events, newest first.
pub async fn event_kinds(repo: &dyn Repository, user: UserId) -> Vec<AuditEventType> {
    let events = repo.list_events(user, 100).await.unwrap();
    events.iter().map(|event| event.kind).collect()
}

/// Deletes `user`, who must exist; the grants it hands back for revocation.
pub async fn delete_user(repo: &dyn Repository, user: UserId) -> Vec<SealedGrant> {
    let deleted = repo.delete_user(deletion(user)).await;
    deleted.unwrap().expect("the user existed")
}

/// The deletion of `user`, now.
pub fn deletion(user: UserId) -> UserDeletion {
    UserDeletion {
        user,
        audit: crate::audit_now(),
    }
}

/// Whether the session of `hash` can still be refreshed (rotates it once).
pub async fn refresh_works(repo: &dyn Repository, hash: RefreshTokenHash) -> bool {
    refresh(repo, hash).await.is_ok()
}
