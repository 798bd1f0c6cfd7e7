//! A user's own sessions: listed while live, newest use first, and ended one at a time by
//! their user alone.

use super::Repository;
use super::fixtures::{
    new_user, now, random_hash, refresh_works, rotation, session, start_session_at, store_token,
    store_user, token_hash,
};
use social_login_domain::refresh::RefreshTokenHash;
use social_login_domain::session::LoginMethod;
use social_login_domain::session_list::{MAX_LISTED_SESSIONS, MAX_SESSIONS_READ};
use social_login_domain::{AuditEventType, FamilyId, UserId};
use social_login_ports::SessionEnding;
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

async fn someone(repo: &Arc<dyn Repository>, email: &str) -> UserId {
    let user = new_user(Some(email), false);
    store_user(repo.as_ref(), &user, None).await;
    user.id
}

/// Ada with two sessions (tokens 1 and 2, in that order), and Grace with none yet.
async fn ada_with_two_sessions_and_grace(
    repo: &Arc<dyn Repository>,
) -> (UserId, [FamilyId; 2], UserId) {
    let ada = someone(repo, "ada@example.com").await;
    let grace = someone(repo, "grace@example.com").await;
    let first = store_token(&**repo, ada, token_hash(1)).await;
    let second = store_token(&**repo, ada, token_hash(2)).await;
    (ada, [first, second], grace)
}

fn ending(user: UserId, session: FamilyId) -> SessionEnding {
    SessionEnding {
        user,
        session,
        audit: crate::audit_now(),
    }
}

pub async fn a_users_live_sessions_are_listed_newest_use_first_and_only_theirs(
    repo: Arc<dyn Repository>,
) {
    let (ada, [first, second], grace) = ada_with_two_sessions_and_grace(&repo).await;
    store_token(&*repo, grace, token_hash(3)).await;
    // The first session is refreshed an hour later: it was used last.
    let later = now() + Duration::hours(1);
    rotation(
        &*repo,
        (token_hash(1), token_hash(4)),
        later,
        Duration::days(1),
    )
    .await
    .unwrap();

    let listed = repo.list_sessions(ada, later).await.unwrap();
    let ids: Vec<_> = listed.iter().map(|session| session.id).collect();
    assert_eq!(ids, [first, second]);
    assert_eq!(listed[0].last_used_at, later);
    assert_eq!(listed[1].last_used_at, now());
    assert_eq!(listed[0].created_at, now());
    assert_eq!(listed[0].began_with, Some(LoginMethod::Password));
    // Past the sessions' end nothing is live.
    let ended = repo.list_sessions(ada, now() + Duration::days(31)).await;
    assert_eq!(ended.unwrap(), []);
}

pub async fn a_user_ends_only_a_live_session_of_their_own_and_its_tokens_stop(
    repo: Arc<dyn Repository>,
) {
    let (ada, [hers, other], grace) = ada_with_two_sessions_and_grace(&repo).await;

    assert_eq!(
        repo.end_session(ending(grace, hers)).await,
        Ok(false),
        "not Grace's"
    );
    assert!(refresh_works(&*repo, token_hash(1)).await);
    assert_eq!(repo.list_sessions(ada, now()).await.unwrap().len(), 2);

    assert_eq!(repo.end_session(ending(ada, hers)).await, Ok(true));
    let events = repo.list_events(ada, 10).await.unwrap();
    assert_eq!(events[0].kind, AuditEventType::SessionLogout);
    assert_eq!(
        repo.end_session(ending(ada, hers)).await,
        Ok(false),
        "ended already"
    );
    let left: Vec<_> = repo
        .list_sessions(ada, now())
        .await
        .unwrap()
        .iter()
        .map(|session| session.id)
        .collect();
    assert_eq!(left, [other]);
    assert!(
        refresh_works(&*repo, token_hash(2)).await,
        "the other goes on"
    );
}

pub async fn a_session_is_found_by_its_id_and_is_live_only_for_its_user_until_it_ends(
    repo: Arc<dyn Repository>,
) {
    let (ada, [hers, other], grace) = ada_with_two_sessions_and_grace(&repo).await;
    let live = |session, user, at| {
        let repo = &repo;
        async move {
            let found = repo.find_session(session).await.unwrap();
            found.is_some_and(|family| family.is_live_session_of(user, at))
        }
    };
    assert!(live(hers, ada, now()).await);
    assert!(!live(hers, grace, now()).await, "not Grace's");
    assert!(
        !live(hers, ada, now() + Duration::days(31)).await,
        "past its end"
    );
    assert_eq!(repo.find_session(FamilyId::new()).await, Ok(None));

    assert_eq!(repo.end_session(ending(ada, hers)).await, Ok(true));
    let ended = repo.find_session(hers).await.unwrap();
    assert!(ended.is_some_and(|family| family.revoked && family.user_id == ada));
    assert!(!live(hers, ada, now()).await, "ended");
    assert!(live(other, ada, now()).await, "the other goes on");
}

pub async fn a_listing_reads_only_the_newest_sessions_of_a_user_who_has_very_many(
    repo: Arc<dyn Repository>,
) {
    let ada = someone(&repo, "ada@example.com").await;
    // Her first session, started a day early and used last: a listing that read every
    // session would show it first.
    let first = started_at(&repo, ada, token_hash(1), now() - Duration::days(1)).await;
    for second in 0..MAX_SESSIONS_READ {
        let at = now() - Duration::hours(1) + Duration::seconds(second as i64);
        started_at(&repo, ada, random_hash(), at).await;
    }
    let later = now() + Duration::hours(1);
    let renewed = rotation(
        &*repo,
        (token_hash(1), token_hash(2)),
        later,
        Duration::days(1),
    );
    renewed.await.unwrap();

    let listed = repo.list_sessions(ada, later).await.unwrap();
    assert_eq!(listed.len(), MAX_LISTED_SESSIONS);
    assert!(listed.iter().all(|session| session.id != first));
    // The newest of those read comes first.
    let newest = now() - Duration::hours(1) + Duration::seconds(MAX_SESSIONS_READ as i64 - 1);
    assert_eq!(listed[0].created_at, newest);
}

/// A password session of `user` whose first token is `hash`, started at `at`.
async fn started_at(
    repo: &Arc<dyn Repository>,
    user: UserId,
    hash: RefreshTokenHash,
    at: OffsetDateTime,
) -> FamilyId {
    let session = session(hash, now() + Duration::days(30));
    start_session_at(&**repo, user, session, crate::audit_now(), at).await
}
