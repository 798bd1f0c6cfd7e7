//! The operator's rules: searches by id, email, provider and account; a lock that refuses
//! the user's logins (linked or matched by email, or decided before it) and refreshes and
//! ends its sessions; a forced unlink that locks; each change recorded with the admin key's
//! id.

use super::Repository;
use super::fixtures::creation;
use super::fixtures::{
    ada_on_google, auto_linking_login_of, event_kinds, linked_providers, login_of, new_link,
    new_user, now, random_hash, refresh, session, sign_in, signed_in_user, store_token, token_hash,
};
use crate::audit_at;
use social_login_domain::disconnect::DisconnectRefused;
use social_login_domain::{
    AdminKeyId, AuditEventType, EventSet, Origin, PageLimit, ProviderKey, ProviderSubject,
    UserFilter, UserId,
};
use social_login_ports::RotationRefused;
use social_login_ports::{
    LinkRemoval, LockChange, OperatorUnlink, PlanError, RemoveLinkError, RotateError,
    SessionOpening, SessionsRevocation, SignInError, UserPage, UserSearch,
};
use std::sync::Arc;
use time::Duration;

fn key() -> AdminKeyId {
    AdminKeyId::of_digest(&[0x5f; 32])
}

/// What an admin request's writes carry: the key's id in the origin.
fn by_admin() -> social_login_domain::AuditContext {
    by_admin_after(0)
}

/// Locks or unlocks `user` as an operator; whether the user existed.
async fn set_locked(
    repo: &dyn Repository,
    user: UserId,
    locked: bool,
    audit: social_login_domain::AuditContext,
) -> bool {
    let change = LockChange {
        user,
        locked,
        audit,
    };
    repo.set_locked(change).await.unwrap()
}

/// Ends every session of `user` as an operator; whether the user existed.
async fn revoke_sessions(repo: &dyn Repository, user: UserId) -> bool {
    let revocation = SessionsRevocation {
        user,
        audit: by_admin(),
    };
    repo.revoke_sessions(revocation).await.unwrap()
}

/// [`by_admin`] for a request `seconds` later (events sort by time).
fn by_admin_after(seconds: i64) -> social_login_domain::AuditContext {
    let mut audit = audit_at(now() + Duration::seconds(seconds), EventSet::all());
    audit.origin = Origin::default().by_admin(key());
    audit
}

/// The kinds of `user`'s events that the admin key's requests recorded, newest first.
async fn admin_kinds(repo: &Arc<dyn Repository>, user: UserId) -> Vec<AuditEventType> {
    let events = repo.list_events(user, 100).await.unwrap();
    let by_admin = events.iter().filter(|e| e.origin.admin() == Some(key()));
    by_admin.map(|e| e.kind).collect()
}

/// The page of at most `n` users that `filter` names whose id is greater than `after`.
async fn find(
    repo: &dyn Repository,
    filter: UserFilter,
    after: Option<UserId>,
    n: u64,
) -> UserPage {
    let search = UserSearch {
        filter,
        after,
        limit: PageLimit::new(n).unwrap(),
    };
    repo.find_users(search).await.unwrap()
}

pub async fn pages_go_by_id_and_each_filter_finds_its_users(repo: Arc<dyn Repository>) {
    let mut ids = Vec::new();
    for n in 0..5 {
        let user = new_user(Some(&format!("u{n}@example.com")), true);
        let link = (n % 2 == 0).then(|| new_link(user.id, ProviderKey::GITHUB, &format!("gh{n}")));
        ids.push(user.id);
        repo.create_user(creation(user, link, audit_at(now(), EventSet::NONE)))
            .await
            .unwrap();
    }
    ids.sort();
    let first = find(&*repo, UserFilter::All, None, 2).await;
    assert_eq!(
        first.users.iter().map(|u| u.id).collect::<Vec<_>>(),
        ids[..2]
    );
    assert!(first.more);
    let rest = find(&*repo, UserFilter::All, Some(ids[1]), 3).await;
    assert_eq!(
        rest.users.iter().map(|u| u.id).collect::<Vec<_>>(),
        ids[2..]
    );
    assert!(!rest.more, "exactly a page left");

    let github = find(&*repo, UserFilter::Provider(ProviderKey::GITHUB), None, 100).await;
    assert_eq!(github.users.len(), 3);
    assert!(github.users.windows(2).all(|w| w[0].id < w[1].id));
    let one = find(
        &*repo,
        UserFilter::Account(ProviderKey::GITHUB, ProviderSubject::parse("gh2").unwrap()),
        None,
        100,
    )
    .await;
    assert_eq!(one.users.len(), 1);
    let by_email = find(
        &*repo,
        UserFilter::Email(social_login_domain::Email::parse("U3@EXAMPLE.com").unwrap()),
        None,
        100,
    )
    .await;
    assert_eq!(by_email.users.len(), 1);
    assert_eq!(
        by_email.users[0].email.as_ref().unwrap().as_str(),
        "u3@example.com"
    );
    let none = find(&*repo, UserFilter::Provider(ProviderKey::APPLE), None, 100).await;
    assert!(none.users.is_empty() && !none.more);
}

pub async fn a_lock_refuses_logins_and_refreshes_ends_sessions_and_unlock_gives_back_logins(
    repo: Arc<dyn Repository>,
) {
    let login = login_of(ProviderKey::GITHUB, "gh-1", Some("ada@example.com"), true);
    let user = signed_in_user(&*repo, login.clone()).await;
    let other = token_hash(9);
    store_token(&*repo, user, other).await;
    assert_eq!(repo.active_sessions(user, now()).await.unwrap(), 2);

    assert!(set_locked(&*repo, user, true, by_admin()).await);
    assert!(repo.find_user(user).await.unwrap().unwrap().locked);
    assert_eq!(repo.active_sessions(user, now()).await.unwrap(), 0);
    assert_eq!(
        refresh(&*repo, other).await,
        Err(RotateError::Refused(RotationRefused::UserLocked))
    );
    let mut again = sign_in(login.identity.clone());
    again.session.hash = random_hash();
    assert_eq!(
        repo.sign_in_with_provider(again.clone()).await.map(|_| ()),
        Err(SignInError::UserLocked)
    );
    assert_eq!(
        repo.active_sessions(user, now()).await.unwrap(),
        0,
        "nothing written"
    );
    // A password login that read the user before the lock committed: its session is
    // refused by the lock, not left to outlive it.
    let late = SessionOpening {
        user,
        session: session(random_hash(), now() + Duration::days(30)),
        now: now(),
        audit: crate::audit_now(),
    };
    assert_eq!(repo.start_family(late).await, Err(PlanError::Locked));
    assert_eq!(repo.active_sessions(user, now()).await.unwrap(), 0);

    assert!(set_locked(&*repo, user, false, by_admin_after(1)).await);
    assert!(!repo.find_user(user).await.unwrap().unwrap().locked);
    assert_eq!(
        refresh(&*repo, other).await,
        Err(RotateError::Refused(RotationRefused::Invalid)),
        "the ended session stays ended"
    );
    assert!(repo.sign_in_with_provider(again).await.is_ok());
    assert!(!set_locked(&*repo, UserId::new(), true, by_admin()).await);

    assert_eq!(
        admin_kinds(&repo, user).await,
        [AuditEventType::UserUnlocked, AuditEventType::UserLocked]
    );
    let events = repo.list_events(user, 100).await.unwrap();
    assert!(
        events
            .iter()
            .filter(|e| e.kind == AuditEventType::UserLogin)
            .all(|e| e.origin.admin().is_none())
    );
}

pub async fn ending_sessions_leaves_the_user_unlocked(repo: Arc<dyn Repository>) {
    let user = new_user(Some("pat@example.com"), true);
    let id = user.id;
    repo.create_user(creation(user, None, audit_at(now(), EventSet::NONE)))
        .await
        .unwrap();
    store_token(&*repo, id, token_hash(1)).await;
    assert!(revoke_sessions(&*repo, id).await);
    assert_eq!(repo.active_sessions(id, now()).await.unwrap(), 0);
    assert!(!repo.find_user(id).await.unwrap().unwrap().locked);
    assert!(!revoke_sessions(&*repo, UserId::new()).await);
    let kinds = event_kinds(&*repo, id).await;
    assert!(kinds.contains(&AuditEventType::UserSessionsRevoked));
}

pub async fn an_unlink_ends_the_sessions_its_link_began_and_a_users_own_disconnect_none(
    repo: Arc<dyn Repository>,
) {
    use super::fixtures::{add_link, refresh_works, remove_link, store_session_begun_with};
    use social_login_domain::LoginMethod;
    let ada = new_user(Some("ada@example.com"), true);
    let github = new_link(ada.id, ProviderKey::GITHUB, "gh-ada");
    repo.create_user(creation(ada.clone(), Some(github), by_admin()))
        .await
        .unwrap();
    let google = new_link(ada.id, ProviderKey::GOOGLE, "g-ada");
    add_link(&*repo, google).await.unwrap();
    let sessions = [
        (1, LoginMethod::Provider(ProviderKey::GITHUB)),
        (2, LoginMethod::Provider(ProviderKey::GOOGLE)),
        (3, LoginMethod::Password),
    ];
    for (token, began_with) in sessions {
        store_session_begun_with(&*repo, ada.id, token_hash(token), began_with).await;
    }

    remove_link(&*repo, ada.id, ProviderKey::GOOGLE)
        .await
        .unwrap();
    let unlinked = repo
        .unlink(OperatorUnlink {
            removal: LinkRemoval {
                user: ada.id,
                provider: ProviderKey::GITHUB,
                usable: vec![ProviderKey::GITHUB, ProviderKey::GOOGLE],
                audit: by_admin(),
            },
            force: false,
        })
        .await
        .unwrap();
    assert!(!unlinked.locked);
    for (token, live, session) in [
        (1, false, "GitHub's, unlinked by the operator"),
        (2, true, "Google's, disconnected by the user"),
        (3, true, "the password's"),
    ] {
        let works = refresh_works(&*repo, token_hash(token)).await;
        assert_eq!(works, live, "{session}");
    }
}

pub async fn the_last_way_in_goes_only_by_force_which_locks_in_the_same_transaction(
    repo: Arc<dyn Repository>,
) {
    let user = new_user(Some("ada@example.com"), false);
    let id = user.id;
    let link = new_link(id, ProviderKey::GITHUB, "gh-7");
    repo.create_user(creation(user, Some(link), audit_at(now(), EventSet::NONE)))
        .await
        .unwrap();
    store_token(&*repo, id, token_hash(3)).await;
    let usable = vec![ProviderKey::GITHUB];
    let refused = repo
        .unlink(OperatorUnlink {
            removal: LinkRemoval {
                user: id,
                provider: ProviderKey::GITHUB,
                usable: usable.clone(),
                audit: by_admin(),
            },
            force: false,
        })
        .await;
    assert_eq!(
        refused.map(|_| ()),
        Err(RemoveLinkError::Refused(DisconnectRefused::LastLoginMethod))
    );
    assert_eq!(repo.list_links(id).await.unwrap().len(), 1);

    let forced = repo
        .unlink(OperatorUnlink {
            removal: LinkRemoval {
                user: id,
                provider: ProviderKey::GITHUB,
                usable,
                audit: by_admin(),
            },
            force: true,
        })
        .await
        .unwrap();
    assert!(forced.locked);
    assert_eq!(forced.grant.provider, ProviderKey::GITHUB);
    assert!(repo.list_links(id).await.unwrap().is_empty());
    assert!(repo.find_user(id).await.unwrap().unwrap().locked);
    assert_eq!(repo.active_sessions(id, now()).await.unwrap(), 0);
    assert_eq!(
        admin_kinds(&repo, id).await,
        [AuditEventType::UserLocked, AuditEventType::AccountUnlinked]
    );
}

pub async fn a_locked_user_is_not_signed_in_by_an_email_match_and_nothing_is_written(
    repo: Arc<dyn Repository>,
) {
    let owner = ada_on_google(&*repo).await.id;
    assert!(set_locked(&*repo, owner, true, by_admin()).await);
    let before = repo.list_events(owner, 100).await.unwrap().len();

    let github = auto_linking_login_of(ProviderKey::GITHUB, "gh-1", Some("Ada@Example.com"), true);
    assert_eq!(
        repo.sign_in_with_provider(github.clone()).await.map(|_| ()),
        Err(SignInError::UserLocked)
    );
    let providers = linked_providers(&*repo, owner).await;
    assert_eq!(providers, [ProviderKey::GOOGLE], "no link was added");
    assert_eq!(repo.active_sessions(owner, now()).await.unwrap(), 0);
    assert_eq!(repo.list_events(owner, 100).await.unwrap().len(), before);

    assert!(set_locked(&*repo, owner, false, by_admin_after(1)).await);
    let signed_in = repo.sign_in_with_provider(github).await.unwrap();
    assert_eq!(
        signed_in.user.id, owner,
        "unlocked, the email match links again"
    );
}
