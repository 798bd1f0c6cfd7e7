//! Provider signals: each action in one step with its events, on the link the signal names
//! and the sessions that link began, and nothing at all for an account linked to nobody.
//! Receipts, repeats and concurrent deliveries: `signal_receipts`.

use super::Repository;
use super::fixtures::store_user;
use super::fixtures::{
    add_link, delete_user, email, event_kinds, linked_providers, new_link, new_user, now,
    provider_identity, refresh_works, remove_link, sign_in, signed_in_user,
    store_session_begun_with, token_hash,
};
use crate::audit_now;
use social_login_domain::{
    AuditEventType, LinkedAccount, LoginMethod, ProviderKey, ProviderSubject, SealedToken,
    SignalId, SignalKind, SignalSource, UserId,
};
use social_login_ports::{RepoResult, SignInError, SignalCommand, SignalOutcome, SignalReceipt};
use std::sync::Arc;
use time::Duration;

/// A verified signal of `source` with id `id` about `subject`, of `kind`, happening at
/// [`now`], received a second later.
pub fn signal(source: SignalSource, id: &str, subject: &str, kind: SignalKind) -> SignalCommand {
    SignalCommand {
        receipt: SignalReceipt {
            source,
            id: SignalId::parse(id).expect("valid signal id"),
            received_at: now() + Duration::seconds(1),
            payload: None,
        },
        subject: ProviderSubject::parse(subject).expect("valid subject"),
        action: kind.action(),
        event: kind.event(),
        occurred_at: now(),
        audit: audit_now(),
    }
}

/// Apple's notification `id` of `kind` about Ada's Apple account (see [`ada`]).
fn apple_about_ada(id: &str, kind: SignalKind) -> SignalCommand {
    signal(SignalSource::AppleNotification, id, "apple-ada", kind)
}

/// Ada: an Apple link `apple-ada` and, with `password`, a password; sessions begun by
/// Apple (token 1), by her password (token 2) and by GitHub (token 3). Sessions from before
/// they recorded how they began are the migration tests' business.
pub(super) async fn ada(repo: &Arc<dyn Repository>, password: bool) -> UserId {
    let ada = new_user(Some("ada@example.com"), password);
    let apple = new_link(ada.id, ProviderKey::APPLE, "apple-ada");
    store_user(repo.as_ref(), &ada, Some(apple)).await;
    for (token, began_with) in [
        (1, LoginMethod::Provider(ProviderKey::APPLE)),
        (2, LoginMethod::Password),
        (3, LoginMethod::Provider(ProviderKey::GITHUB)),
    ] {
        store_session_begun_with(&**repo, ada.id, token_hash(token), began_with).await;
    }
    ada.id
}

/// What `apply_signal` answers when it acted on `user`'s link.
fn applied(user: UserId, user_deleted: bool) -> RepoResult<SignalOutcome> {
    Ok(SignalOutcome::Applied { user, user_deleted })
}

/// Checks whether each of Ada's sessions, by token, can still be refreshed: `(token, live,
/// which session)`.
async fn assert_sessions(repo: &Arc<dyn Repository>, expected: &[(u8, bool, &str)]) {
    for &(token, live, session) in expected {
        let works = refresh_works(&**repo, token_hash(token)).await;
        assert_eq!(works, live, "the {session} session (token {token}) live");
    }
}
pub async fn consent_revoked_ends_only_the_sessions_its_provider_began_and_forgets_its_tokens(
    repo: Arc<dyn Repository>,
) {
    let ada = ada(&repo, true).await;
    let revoked = apple_about_ada("jti-1", SignalKind::ConsentRevoked);
    assert_eq!(repo.apply_signal(revoked).await, applied(ada, false));
    let sessions = [
        (1, false, "Apple"),
        (2, true, "password"),
        (3, true, "GitHub"),
    ];
    assert_sessions(&repo, &sessions).await;
    let links = repo.list_links(ada).await.unwrap();
    assert_eq!(links.len(), 1, "the link stays");
    let grant = remove_link(&*repo, ada, ProviderKey::APPLE).await.unwrap();
    assert!(
        grant.access_token.is_none() && grant.refresh_token.is_none(),
        "tokens forgotten"
    );
    let events = repo.list_events(ada, 10).await.unwrap();
    assert_eq!(events[1].kind, AuditEventType::ProviderConsentRevoked);
    assert_eq!(events[1].provider, Some(ProviderKey::APPLE));
}

pub async fn a_signal_about_an_account_linked_to_nobody_keeps_nothing(repo: Arc<dyn Repository>) {
    let ada = ada(&repo, false).await;
    let events = repo.list_events(ada, 10).await.unwrap().len();
    let source = SignalSource::AppleNotification;
    let stranger = signal(
        source,
        "jti-stranger",
        "apple-nobody",
        SignalKind::AccountDeleted,
    );
    assert_eq!(
        repo.apply_signal(stranger).await,
        Ok(SignalOutcome::NotLinked)
    );
    let id = SignalId::parse("jti-stranger").unwrap();
    assert_eq!(
        repo.find_receipt(source, &id).await,
        Ok(None),
        "not even the receipt"
    );
    assert_eq!(
        repo.list_events(ada, 10).await.unwrap().len(),
        events,
        "no event"
    );
    assert!(refresh_works(&*repo, token_hash(1)).await);
}

pub async fn tokens_revoked_forgets_the_tokens_and_keeps_the_link_and_its_sessions(
    repo: Arc<dyn Repository>,
) {
    let ada = new_user(Some("ada@example.com"), false);
    let google = new_link(ada.id, ProviderKey::GOOGLE, "g-ada");
    store_user(repo.as_ref(), &ada, Some(google)).await;
    let began = LoginMethod::Provider(ProviderKey::GOOGLE);
    store_session_begun_with(&*repo, ada.id, token_hash(1), began).await;
    let revoked = signal(
        SignalSource::GoogleRisc,
        "set-1",
        "g-ada",
        SignalKind::TokensRevoked,
    );
    assert!(matches!(
        repo.apply_signal(revoked).await,
        Ok(SignalOutcome::Applied { .. })
    ));
    assert!(
        refresh_works(&*repo, token_hash(1)).await,
        "tokens-revoked ends no session"
    );
    let grants = delete_user(&*repo, ada.id).await;
    assert_eq!(grants.len(), 1, "the link stayed");
    assert_eq!(grants[0].access_token, SealedToken::none());
    assert_eq!(grants[0].refresh_token, None);
}

pub async fn removing_the_last_way_in_deletes_the_user_with_user_deleted(
    repo: Arc<dyn Repository>,
) {
    let ada = ada(&repo, false).await;
    let deleted = apple_about_ada("jti-del", SignalKind::AccountDeleted);
    assert_eq!(repo.apply_signal(deleted).await, applied(ada, true));
    assert_eq!(repo.find_user(ada).await.unwrap(), None);
    let sessions = [
        (1, false, "Apple"),
        (2, false, "password"),
        (3, false, "GitHub"),
    ];
    assert_sessions(&repo, &sessions).await;
    assert_eq!(
        event_kinds(&*repo, ada).await[..2],
        [
            AuditEventType::UserDeleted,
            AuditEventType::ProviderAccountDeleted
        ],
        "newest first: the signal, then the deletion it caused"
    );
}

pub async fn removing_a_link_that_is_not_the_last_keeps_the_user_and_its_other_sessions(
    repo: Arc<dyn Repository>,
) {
    let ada = ada(&repo, true).await;
    let source = SignalSource::FacebookDataDeletion;
    let facebook = new_link(ada, ProviderKey::FACEBOOK, "fb-ada");
    add_link(&*repo, facebook).await.unwrap();
    let began = LoginMethod::Provider(ProviderKey::FACEBOOK);
    store_session_begun_with(&*repo, ada, token_hash(4), began).await;
    let deletion = signal(
        source,
        "code-1",
        "fb-ada",
        SignalKind::DataDeletionRequested,
    );
    assert_eq!(repo.apply_signal(deletion).await, applied(ada, false));
    assert_eq!(linked_providers(&*repo, ada).await, [ProviderKey::APPLE]);
    let sessions = [
        (4, false, "Facebook"),
        (1, true, "Apple"),
        (2, true, "password"),
    ];
    assert_sessions(&repo, &sessions).await;
    assert_eq!(
        event_kinds(&*repo, ada).await[..2],
        [
            AuditEventType::AccountUnlinked,
            AuditEventType::ProviderDataDeletionRequested
        ]
    );
    let id = SignalId::parse("code-1").unwrap();
    assert_eq!(
        repo.find_receipt(source, &id).await,
        Ok(Some(now() + Duration::seconds(1)))
    );
}

pub async fn a_link_its_provider_removes_takes_the_profile_the_user_registered_with_through_it(
    repo: Arc<dyn Repository>,
) {
    // Ada registered through Apple, Grace through GitHub; each connected the other later.
    let registered = |address: &str, provider, subject: &str| {
        let user = new_user(Some(address), false);
        let link = new_link(user.id, provider, subject);
        (user, link)
    };
    let connected_later = |user, provider, subject: &str| {
        let mut link = new_link(user, provider, subject);
        link.created_at += Duration::minutes(1);
        link
    };
    let (ada, apple) = registered("ada@example.com", ProviderKey::APPLE, "apple-ada");
    store_user(repo.as_ref(), &ada, Some(apple)).await;
    let ada_github = connected_later(ada.id, ProviderKey::GITHUB, "gh-ada");
    add_link(&*repo, ada_github).await.unwrap();
    let (grace, github) = registered("grace@example.com", ProviderKey::GITHUB, "gh-grace");
    store_user(repo.as_ref(), &grace, Some(github)).await;
    let grace_apple = connected_later(grace.id, ProviderKey::APPLE, "apple-grace");
    add_link(&*repo, grace_apple).await.unwrap();

    for (user, subject) in [(ada.id, "apple-ada"), (grace.id, "apple-grace")] {
        let deleted = SignalCommand {
            subject: ProviderSubject::parse(subject).unwrap(),
            ..apple_about_ada(&format!("jti-{subject}"), SignalKind::AccountDeleted)
        };
        assert_eq!(repo.apply_signal(deleted).await, applied(user, false));
    }

    let forgotten = repo.find_user(ada.id).await.unwrap().unwrap();
    assert_eq!(
        (
            &forgotten.email,
            &forgotten.full_name,
            &forgotten.avatar_url
        ),
        (&None, &None, &None),
        "Apple's account gave them"
    );
    assert!(!forgotten.email_verified);
    let held = repo.find_user_by_email(&email("ada@example.com")).await;
    assert_eq!(held.unwrap(), None, "the address is free");
    assert_eq!(
        linked_providers(&*repo, ada.id).await,
        [ProviderKey::GITHUB]
    );
    assert_eq!(
        event_kinds(&*repo, ada.id).await[..3],
        [
            AuditEventType::UserProfileErased,
            AuditEventType::AccountUnlinked,
            AuditEventType::ProviderAccountDeleted
        ],
        "newest first"
    );

    let kept = repo.find_user(grace.id).await.unwrap();
    assert_eq!(kept, Some(grace), "GitHub's account gave them");
}

pub async fn a_disabled_account_signs_nobody_in_until_it_is_enabled(repo: Arc<dyn Repository>) {
    let identity = provider_identity(ProviderKey::GOOGLE, "g-ada", Some("ada@example.com"), true);
    let ada = signed_in_user(&*repo, sign_in(identity.clone())).await;
    let began = LoginMethod::Password;
    store_session_begun_with(&*repo, ada, token_hash(1), began).await;
    let source = SignalSource::GoogleRisc;
    let disabled = signal(source, "set-off", "g-ada", SignalKind::AccountDisabled);
    assert!(matches!(
        repo.apply_signal(disabled).await,
        Ok(SignalOutcome::Applied { .. })
    ));
    assert!(
        !refresh_works(&*repo, token_hash(1)).await,
        "every session of the user ended"
    );
    assert_eq!(
        repo.sign_in_with_provider(sign_in(identity.clone()))
            .await
            .map(|s| s.user.id),
        Err(SignInError::AccountDisabled)
    );
    let listed = |links: Vec<LinkedAccount>| links.iter().map(|link| link.disabled).collect();
    let flags: Vec<bool> = listed(repo.list_links(ada).await.unwrap());
    assert_eq!(flags, [true], "the link stays, disabled");
    let found = repo.find_link(&identity.account()).await.unwrap();
    assert!(
        found.is_some_and(|link| link.disabled),
        "found disabled too"
    );
    let mut enabled = signal(source, "set-on", "g-ada", SignalKind::AccountEnabled);
    enabled.occurred_at = now() + Duration::minutes(1);
    assert!(matches!(
        repo.apply_signal(enabled).await,
        Ok(SignalOutcome::Applied { .. })
    ));
    let signed_in = repo.sign_in_with_provider(sign_in(identity)).await.unwrap();
    assert_eq!(signed_in.user.id, ada);
    let flags: Vec<bool> = listed(repo.list_links(ada).await.unwrap());
    assert_eq!(flags, [false]);
}

pub async fn an_older_state_change_arriving_late_changes_nothing(repo: Arc<dyn Repository>) {
    let identity = provider_identity(ProviderKey::GOOGLE, "g-ada", Some("ada@example.com"), true);
    signed_in_user(&*repo, sign_in(identity.clone())).await;
    let source = SignalSource::GoogleRisc;
    let mut disabled = signal(source, "set-late-off", "g-ada", SignalKind::AccountDisabled);
    disabled.occurred_at = now() + Duration::minutes(5);
    repo.apply_signal(disabled).await.unwrap();
    // An enable from before the disable, delivered after it (a retry).
    let late = signal(source, "set-late-on", "g-ada", SignalKind::AccountEnabled);
    assert!(matches!(
        repo.apply_signal(late).await,
        Ok(SignalOutcome::Applied { .. })
    ));
    assert_eq!(
        repo.sign_in_with_provider(sign_in(identity))
            .await
            .map(|s| s.is_new_user),
        Err(SignInError::AccountDisabled),
        "still disabled"
    );
}
