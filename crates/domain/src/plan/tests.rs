//! What the rules plan: each store applies these plans unchanged, so the plans themselves
//! are where a login, a removal and a signal's writes are pinned down.

use crate::SealedTokens;
use crate::plan::{Write, WritePlan};
use crate::refresh::RefreshTokenHash;
use crate::removal::{LinkRemoval, LockChange, Remover};
use crate::session::SessionStart;
use crate::sign_in::{ProviderSignIn, SignInRead, SignInRefused, StoredLink};
use crate::signal_plan::{SignalCommand, SignalReceipt, SignalTarget};
use crate::test_fixtures::{identity, link, user};
use crate::{
    AuditContext, AuditEventType, FamilyId, LinkedAccount, LinkedAccountId, LoginMethod,
    ProviderKey, ProviderSubject, SealedToken, SignalId, SignalKind, SignalSource, SignupPolicy,
    UserId,
};
use time::{Duration, OffsetDateTime};

fn now() -> OffsetDateTime {
    OffsetDateTime::UNIX_EPOCH + Duration::days(20_000)
}

fn audit() -> AuditContext {
    crate::test_fixtures::audit_at(now())
}

fn login(email: Option<&str>, access_token: &str) -> ProviderSignIn {
    ProviderSignIn {
        identity: identity(ProviderKey::GITHUB, "gh-1", email, true),
        tokens: SealedTokens {
            access_token: SealedToken::new(access_token),
            refresh_token: None,
            scopes: crate::Scopes::default(),
            access_expires_at: None,
            client_id: Some("bundle".into()),
        },
        linking: crate::linking::Linking::Auto,
        signup: SignupPolicy::default(),
        new_user_id: UserId::new(),
        new_link_id: LinkedAccountId::new(),
        session: SessionStart {
            hash: RefreshTokenHash([7; 32]),
            family: FamilyId::new(),
            token_expires_at: now() + Duration::days(1),
            family_expires_at: now() + Duration::days(30),
            auth_time: now(),
            began_with: LoginMethod::Provider(ProviderKey::GITHUB),
        },
        now: now(),
        audit: audit(),
    }
}

fn kinds(plan: &WritePlan) -> Vec<AuditEventType> {
    plan.events.iter().map(|event| event.kind).collect()
}

#[test]
fn a_returning_login_without_tokens_keeps_the_stored_ones_and_starts_a_session() {
    let owner = user(false);
    let stored = StoredLink {
        link: link(&owner, ProviderKey::GITHUB),
        user: owner.clone(),
    };
    let read = SignInRead {
        linked: Some(stored.clone()),
        email_owner: None,
    };

    let plan = login(None, "").plan(read.clone()).unwrap();

    assert_eq!((plan.user.id, plan.is_new_user), (owner.id, false));
    let [
        Write::RefreshLink(refresh),
        Write::StartSession { first, .. },
    ] = &plan.writes.writes[..]
    else {
        panic!("{:?}", plan.writes.writes);
    };
    assert_eq!(refresh.link, stored.link.id);
    assert_eq!(
        refresh.access_token, None,
        "no token came: the stored one stays"
    );
    assert_eq!(first.user_id, owner.id);
    assert_eq!(kinds(&plan.writes), [AuditEventType::UserLogin]);

    let with_token = login(None, "sealed").plan(read.clone()).unwrap();
    let Write::RefreshLink(refresh) = &with_token.writes.writes[0] else {
        panic!("{:?}", with_token.writes.writes);
    };
    let (token, client) = refresh.access_token.as_ref().unwrap();
    assert_eq!(
        (token.as_str(), client.as_deref()),
        ("sealed", Some("bundle"))
    );
}

#[test]
fn a_disabled_account_or_a_locked_user_plans_nothing() {
    let mut owner = user(false);
    let mut stored = StoredLink {
        link: LinkedAccount {
            disabled: true,
            ..link(&owner, ProviderKey::GITHUB)
        },
        user: owner.clone(),
    };
    let read = |stored: &StoredLink| SignInRead {
        linked: Some(stored.clone()),
        email_owner: None,
    };
    assert_eq!(
        login(None, "t").plan(read(&stored)),
        Err(SignInRefused::AccountDisabled)
    );
    owner.locked = true;
    stored.user = owner;
    stored.link.disabled = false;
    assert_eq!(
        login(None, "t").plan(read(&stored)),
        Err(SignInRefused::UserLocked)
    );
}

#[test]
fn a_new_account_registers_with_its_link_and_a_verified_owner_gets_linked() {
    let plan = login(Some("ada@example.com"), "t")
        .plan(SignInRead::default())
        .unwrap();
    assert!(plan.is_new_user);
    assert!(
        matches!(
            &plan.writes.writes[..],
            [Write::InsertUser(_), Write::InsertLink(link), Write::StartSession { .. }]
                if link.user_id == plan.user.id && link.created_at == plan.user.created_at
        ),
        "a registration's user and link share their instant (User::registered_through)"
    );
    assert_eq!(
        kinds(&plan.writes),
        [AuditEventType::UserRegistered, AuditEventType::UserLogin]
    );

    let mut owner = user(false);
    owner.email = Some(crate::Email::parse("ada@example.com").unwrap());
    owner.email_verified = true;
    let read = SignInRead {
        linked: None,
        email_owner: Some((owner.clone(), vec![link(&owner, ProviderKey::GOOGLE)])),
    };
    let plan = login(Some("ada@example.com"), "t")
        .plan(read.clone())
        .unwrap();
    assert_eq!((plan.user.id, plan.is_new_user), (owner.id, false));
    assert!(matches!(
        &plan.writes.writes[..],
        [Write::InsertLink(link), Write::StartSession { .. }] if link.user_id == owner.id
    ));
    assert_eq!(
        kinds(&plan.writes),
        [AuditEventType::AccountLinked, AuditEventType::UserLogin]
    );
}

fn by_operator(force: bool) -> Remover {
    Remover::Operator { force }
}

/// `owner`'s only link, GitHub's, and its removal with GitHub enabled.
fn github_of(owner: &crate::User) -> (LinkedAccount, LinkRemoval) {
    let github = link(owner, ProviderKey::GITHUB);
    let removal = LinkRemoval {
        user: owner.id,
        provider: ProviderKey::GITHUB,
        usable: vec![ProviderKey::GITHUB],
        audit: audit(),
    };
    (github, removal)
}

#[test]
fn an_operators_removal_ends_the_sessions_the_link_began_and_the_users_own_none() {
    let owner = user(true);
    let (github, removal) = github_of(&owner);
    let writes = |by| {
        let plan = removal.plan(&owner, std::slice::from_ref(&github), by);
        plan.unwrap().writes.writes
    };
    assert_eq!(writes(Remover::User), [Write::DeleteLink(github.id)]);
    let began_with = Some(LoginMethod::Provider(ProviderKey::GITHUB));
    for force in [false, true] {
        assert_eq!(
            writes(by_operator(force)),
            [
                Write::DeleteLink(github.id),
                Write::RevokeSessions {
                    user: owner.id,
                    began_with
                }
            ],
            "the password stays a way in: force changes nothing"
        );
    }
}

#[test]
fn a_forced_removal_of_the_last_way_in_also_locks_and_ends_the_sessions() {
    let owner = user(false);
    let (only, removal) = github_of(&owner);
    assert!(
        removal
            .plan(&owner, std::slice::from_ref(&only), by_operator(false))
            .is_err()
    );

    let plan = removal
        .plan(&owner, std::slice::from_ref(&only), by_operator(true))
        .unwrap();

    assert!(plan.unlink.lock);
    assert_eq!(
        plan.writes.writes,
        [
            Write::DeleteLink(only.id),
            Write::SetLocked {
                user: owner.id,
                locked: true
            },
            Write::RevokeSessions {
                user: owner.id,
                began_with: None
            },
        ]
    );
    assert_eq!(
        kinds(&plan.writes),
        [AuditEventType::AccountUnlinked, AuditEventType::UserLocked]
    );
}

#[test]
fn an_unlock_ends_no_session() {
    let change = LockChange {
        user: UserId::new(),
        locked: false,
        audit: audit(),
    };
    let plan = change.plan();
    assert_eq!(plan.writes.len(), 1, "{:?}", plan.writes);
    assert_eq!(kinds(&plan), [AuditEventType::UserUnlocked]);
}

fn signal(kind: SignalKind, occurred_at: OffsetDateTime) -> SignalCommand {
    SignalCommand {
        receipt: SignalReceipt {
            source: SignalSource::GoogleRisc,
            id: SignalId::parse("jti-1").unwrap(),
            received_at: now(),
            payload: None,
        },
        subject: ProviderSubject::parse("g-1").unwrap(),
        action: kind.action(),
        event: kind.event(),
        occurred_at,
        audit: audit(),
    }
}

/// A signal's target: a user's Google link, their only one, whose state the provider last
/// changed at `last_state_change`.
fn the_only_link_google(last_state_change: Option<OffsetDateTime>) -> SignalTarget {
    let owner = user(false);
    let google = link(&owner, ProviderKey::GOOGLE);
    SignalTarget {
        link: google.id,
        last_state_change,
        user: owner,
        links: vec![google],
    }
}

#[test]
fn an_account_deleted_at_the_provider_takes_the_user_when_it_was_the_last_way_in() {
    let mut target = the_only_link_google(None);
    let plan = signal(SignalKind::AccountDeleted, now()).plan(&target);
    assert!(plan.user_deleted);
    assert!(
        plan.writes
            .writes
            .contains(&Write::DeleteUser(target.user.id))
    );

    let github = link(&target.user, ProviderKey::GITHUB);
    target.links.push(github);
    let plan = signal(SignalKind::AccountDeleted, now()).plan(&target);
    assert!(!plan.user_deleted);
    assert!(plan.writes.writes.contains(&Write::DeleteLink(target.link)));
    assert_eq!(
        kinds(&plan.writes),
        [
            AuditEventType::ProviderAccountDeleted,
            AuditEventType::AccountUnlinked,
            AuditEventType::UserProfileErased
        ]
    );
}

#[test]
fn a_link_removed_by_its_provider_takes_the_profile_the_user_registered_with_through_it() {
    // Registered through Google (the user and its link made at one instant), GitHub later.
    let mut target = the_only_link_google(None);
    let mut github = link(&target.user, ProviderKey::GITHUB);
    github.created_at += Duration::days(1);
    target.links.push(github);
    let forgets = |target: &SignalTarget, kind| {
        let plan = signal(kind, now()).plan(target);
        plan.writes
            .writes
            .contains(&Write::ForgetProfile(target.user.id))
    };
    assert!(forgets(&target, SignalKind::AccountDeleted));
    let plan = signal(SignalKind::AccountDeleted, now()).plan(&target);
    assert_eq!(
        kinds(&plan.writes),
        [
            AuditEventType::ProviderAccountDeleted,
            AuditEventType::AccountUnlinked,
            AuditEventType::UserProfileErased
        ]
    );
    let ids: std::collections::BTreeSet<_> = plan.writes.events.iter().map(|e| e.id).collect();
    assert_eq!(ids.len(), 3, "each event its own id");
    assert!(
        !forgets(&target, SignalKind::SessionsRevoked),
        "only a removed link takes the profile"
    );

    let mut connected_later = target.clone();
    connected_later.links[0].created_at += Duration::days(2);
    assert!(
        !forgets(&connected_later, SignalKind::AccountDeleted),
        "another Google account gave the profile"
    );
    let mut with_password = target;
    with_password.user.password_hash = Some(crate::PasswordHash::new("$argon2id$..."));
    assert!(
        !forgets(&with_password, SignalKind::AccountDeleted),
        "a password registration"
    );
}

#[test]
fn a_disable_older_than_the_last_state_change_records_and_changes_nothing() {
    let target = the_only_link_google(Some(now()));
    let late = signal(SignalKind::AccountDisabled, now() - Duration::minutes(1)).plan(&target);
    assert!(late.writes.writes.is_empty());
    assert_eq!(kinds(&late.writes), [AuditEventType::ProviderSecurityEvent]);

    let fresh = signal(SignalKind::AccountDisabled, now()).plan(&target);
    assert!(fresh.writes.writes.contains(&Write::RevokeSessions {
        user: target.user.id,
        began_with: None
    }));
}

fn record(used: bool, revoked: bool) -> crate::refresh::RefreshRecord {
    crate::refresh::RefreshRecord {
        user_id: UserId::new(),
        family: FamilyId::new(),
        expires_at: now() + Duration::hours(1),
        used,
        revoked,
        family_expires_at: now() + Duration::minutes(5),
        auth_time: now() - Duration::days(1),
    }
}

#[test]
fn a_rotation_stores_a_successor_that_dies_with_its_family_and_a_reuse_revokes_it() {
    use crate::session_plan::{RefreshRotation, RotationRefused};
    let rotation = RefreshRotation {
        presented: RefreshTokenHash([1; 32]).into(),
        successor: RefreshTokenHash([2; 32]),
        now: now(),
        successor_ttl: Duration::days(1),
        audit: audit(),
    };
    let fresh = record(false, false);
    let plan = rotation.plan(Some(&fresh), false);
    let [Write::MarkTokenUsed(used), Write::InsertToken(successor)] = &plan.writes.writes[..]
    else {
        panic!("{:?}", plan.writes.writes);
    };
    assert_eq!(
        (*used, successor.hash),
        (rotation.presented.hash, rotation.successor)
    );
    assert_eq!(successor.expires_at, fresh.family_expires_at);
    let rotated = plan.outcome.unwrap();
    assert_eq!(rotated.auth_time, fresh.auth_time);
    assert_eq!(rotated.expires_at, successor.expires_at);

    // A token that proves its family is spent by deleting its row.
    let proving = RefreshRotation {
        presented: crate::refresh::PresentedRefresh {
            hash: RefreshTokenHash([1; 32]),
            issued_in: Some(crate::refresh::RefreshIssue {
                family: fresh.family,
                expires_at: fresh.expires_at,
            }),
        },
        ..rotation.clone()
    };
    let plan = proving.plan(Some(&fresh), false);
    assert!(
        matches!(&plan.writes.writes[..], [Write::DeleteToken(hash), Write::InsertToken(_)] if *hash == proving.presented.hash),
        "{:?}",
        plan.writes.writes
    );

    let reused = record(true, false);
    let plan = rotation.plan(Some(&reused), false);
    assert_eq!(plan.writes.writes, [Write::RevokeFamily(reused.family)]);
    assert_eq!(
        kinds(&plan.writes),
        [AuditEventType::SessionRefreshReuseDetected]
    );
    assert_eq!(plan.outcome, Err(RotationRefused::ReuseDetected));

    let locked = rotation.plan(Some(&reused), true);
    assert!(locked.writes.writes.is_empty() && locked.writes.events.is_empty());
    assert_eq!(locked.outcome, Err(RotationRefused::UserLocked));
}

#[test]
fn a_logout_records_once() {
    use crate::session_plan::Logout;
    let logout = Logout {
        presented: RefreshTokenHash([1; 32]).into(),
        audit: audit(),
    };
    let live = record(false, false);
    assert_eq!(
        logout.plan(Some(&live)).writes,
        [Write::RevokeFamily(live.family)]
    );
    assert!(logout.plan(Some(&record(false, true))).events.is_empty());
    assert!(logout.plan(None).writes.is_empty());
}
