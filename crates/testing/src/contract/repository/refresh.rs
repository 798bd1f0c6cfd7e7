//! Refresh-token rotation, reuse detection, expiry and logout.

mod proving;
pub use proving::*;

use super::Repository;
use super::fixtures::store_user;
use super::fixtures::{
    login_of, login_time, logout, new_user, now, random_hash, refresh, refresh_works, rotation,
    signed_in_user, start_family_ending, store_token, token_hash,
};
use social_login_domain::ProviderKey;
use social_login_domain::UserId;
use social_login_ports::RotationRefused::{self, Invalid, ReuseDetected};
use social_login_ports::{RotateError, Rotated};
use std::sync::Arc;
use time::{Duration, OffsetDateTime};
use tokio::sync::Barrier;

async fn user(repo: &Arc<dyn Repository>) -> UserId {
    user_with_email(repo, "ada@example.com").await
}

/// Lifetime of each successor in these tests.
fn ttl() -> Duration {
    Duration::days(2)
}

/// Presents token `presented` at `at`, asking for `successor` in its place (tokens are
/// [`token_hash`]es): whose session it was, or why not.
async fn rotate(
    repo: &Arc<dyn Repository>,
    presented: u8,
    successor: u8,
    at: OffsetDateTime,
) -> Result<UserId, RotateError> {
    let tokens = (token_hash(presented), token_hash(successor));
    let rotated = rotation(&**repo, tokens, at, ttl()).await;
    rotated.map(|rotated| rotated.user)
}

/// Runs each `(presented, successor, expected, why)` step at [`now`], in order, asserting
/// its outcome.
async fn assert_rotations(
    repo: &Arc<dyn Repository>,
    steps: &[(u8, u8, Result<UserId, RotateError>, &str)],
) {
    for (presented, successor, expected, why) in steps {
        assert_eq!(
            &rotate(repo, *presented, *successor, now()).await,
            expected,
            "{presented} -> {successor}: {why}"
        );
    }
}

pub async fn rotation_returns_the_user_and_its_successor_rotates_in_turn(
    repo: Arc<dyn Repository>,
) {
    let ada = user(&repo).await;
    let family = store_token(&*repo, ada, token_hash(1)).await;

    let rotated = rotation(&*repo, (token_hash(1), token_hash(2)), now(), ttl()).await;
    assert_eq!(
        rotated,
        Ok(Rotated {
            user: ada,
            session: family,
            auth_time: login_time(),
            expires_at: now() + ttl(),
        })
    );
    assert_eq!(
        rotate(&repo, 2, 3, now() + Duration::days(1)).await,
        Ok(ada),
        "the successor is valid until its own expiry"
    );
}

/// What a rotation refused for `why` answers.
fn refused<T>(why: RotationRefused) -> Result<T, RotateError> {
    Err(RotateError::Refused(why))
}

pub async fn a_rotated_token_presented_again_revokes_its_whole_family(repo: Arc<dyn Repository>) {
    let ada = user(&repo).await;
    store_token(&*repo, ada, token_hash(1)).await;
    let other_session = 9;
    store_token(&*repo, ada, token_hash(other_session)).await;
    rotate(&repo, 1, 2, now()).await.unwrap();

    assert_rotations(
        &repo,
        &[
            (
                1,
                3,
                refused(ReuseDetected),
                "the rotated token presented again is a reuse",
            ),
            (
                2,
                4,
                refused(Invalid),
                "the legitimate successor is revoked with its family",
            ),
            (other_session, 5, Ok(ada), "other families are untouched"),
        ],
    )
    .await;
}

pub async fn an_expired_token_is_refused_and_stays_unused(repo: Arc<dyn Repository>) {
    let ada = user(&repo).await;
    store_token(&*repo, ada, token_hash(1)).await;
    let expiry = now() + Duration::days(1);

    assert_eq!(rotate(&repo, 1, 2, expiry).await, refused(Invalid));
    assert_eq!(
        rotate(&repo, 2, 3, now()).await,
        refused(Invalid),
        "no successor was stored"
    );
    // Refused, not consumed: a clock that was briefly wrong does not burn the session.
    assert_eq!(rotate(&repo, 1, 2, now()).await, Ok(ada));
}

pub async fn an_unknown_token_is_refused(repo: Arc<dyn Repository>) {
    assert_eq!(rotate(&repo, 1, 2, now()).await, refused(Invalid));
}

pub async fn of_two_concurrent_rotations_of_one_token_exactly_one_wins(repo: Arc<dyn Repository>) {
    race_two_rotations_of_one_token(repo, false).await;
}

/// Eight rounds of two rotations of one token at once, the token proving its family if
/// `proves_family`: exactly one wins, the other is a reuse.
async fn race_two_rotations_of_one_token(repo: Arc<dyn Repository>, proves_family: bool) {
    let ada = user(&repo).await;
    for round in 0..8u8 {
        let family = store_token(&*repo, ada, token_hash(round * 3)).await;
        let presented = match proves_family {
            true => proving::proving(round * 3, family, now() + Duration::days(1)),
            false => token_hash(round * 3).into(),
        };
        let barrier = Arc::new(Barrier::new(2));
        let racer = |successor: u8| {
            let (repo, barrier) = (repo.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                let tokens = (presented, token_hash(successor));
                rotation(&*repo, tokens, now(), ttl()).await
            })
        };
        let first = racer(round * 3 + 1);
        let second = racer(round * 3 + 2);
        let outcomes = [first.await.unwrap(), second.await.unwrap()];

        assert_eq!(
            outcomes.iter().filter(|outcome| outcome.is_ok()).count(),
            1,
            "round {round}: {outcomes:?}"
        );
        assert!(
            outcomes.contains(&refused(ReuseDetected)),
            "round {round}: the second use of one token is a reuse: {outcomes:?}"
        );
    }
}

pub async fn logout_revokes_the_family_of_the_presented_token(repo: Arc<dyn Repository>) {
    let ada = user(&repo).await;
    store_token(&*repo, ada, token_hash(1)).await;
    store_token(&*repo, ada, token_hash(9)).await;
    rotate(&repo, 1, 2, now()).await.unwrap();

    logout(&*repo, token_hash(2)).await.unwrap();

    assert_rotations(
        &repo,
        &[
            (2, 3, refused(Invalid), "the logged-out token is refused"),
            (
                1,
                4,
                refused(Invalid),
                "a revoked family is refused, not treated as reuse",
            ),
            (9, 5, Ok(ada), "the user's other session survives"),
        ],
    )
    .await;
}

pub async fn logging_out_with_an_unknown_token_is_not_an_error(repo: Arc<dyn Repository>) {
    logout(&*repo, token_hash(7)).await.unwrap();
}

pub async fn a_family_ends_at_its_cap_however_often_it_was_rotated(repo: Arc<dyn Repository>) {
    let ada = user(&repo).await;
    let end = now() + Duration::days(3);
    start_family_ending(&*repo, ada, token_hash(1), end).await;
    rotate(&repo, 1, 2, now()).await.unwrap();
    // Each rotation would give two more days; the family's end caps them.
    let late = now() + Duration::hours(36);
    rotate(&repo, 2, 3, late).await.unwrap();
    assert_eq!(
        rotate(&repo, 3, 4, end - Duration::seconds(1)).await,
        Ok(ada)
    );
    assert_eq!(
        rotate(&repo, 4, 5, end).await,
        refused(Invalid),
        "no token of the family works past its end"
    );
}

/// How a revocation of the family reaches the store in [`no_rotation_in_flight_survives`].
#[derive(Clone, Copy, Debug)]
enum Revocation {
    /// Someone presents the family's first (long rotated) token: reuse detection.
    Reuse,
    /// Logout with the first token of the family.
    Logout,
}

/// A client refreshes in a tight loop while its family is revoked. Whatever rotation was in
/// flight, the chain must end: the client's next refresh after the revocation fails.
async fn no_rotation_in_flight_survives(repo: Arc<dyn Repository>, revocation: Revocation) {
    const TRIALS: usize = 20;
    let mut survivors = Vec::new();
    for trial in 0..TRIALS {
        let ada = user_with_email(&repo, &format!("loop{trial}@example.com")).await;
        let first = random_hash();
        store_token(&*repo, ada, first).await;
        let rotated = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let client = {
            let (repo, rotated) = (repo.clone(), rotated.clone());
            tokio::spawn(async move {
                let mut current = first;
                // Bounded: a surviving chain stops here instead of spinning forever. The
                // yield lets the revocation in even where a rotation never waits (a fake).
                for _ in 0..100_000 {
                    let next = random_hash();
                    match rotation(&*repo, (current, next), now(), ttl()).await {
                        Ok(_) => {
                            current = next;
                            rotated.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        }
                        Err(_) => return (current, false),
                    }
                    tokio::task::yield_now().await;
                }
                (current, true)
            })
        };
        while rotated.load(std::sync::atomic::Ordering::SeqCst) < 2 + trial % 5 {
            tokio::task::yield_now().await;
        }
        match revocation {
            Revocation::Reuse => assert_eq!(refresh(&*repo, first).await, refused(ReuseDetected)),
            Revocation::Logout => logout(&*repo, first).await.unwrap(),
        }
        // One rotation may have been in flight when the revocation returned; none after.
        let rotated_at_revocation = rotated.load(std::sync::atomic::Ordering::SeqCst);
        let (last, still_rotating) =
            tokio::time::timeout(std::time::Duration::from_secs(30), client)
                .await
                .expect("the client stops")
                .unwrap();
        let rotated_after =
            rotated.load(std::sync::atomic::Ordering::SeqCst) - rotated_at_revocation;
        let last_works = refresh_works(&*repo, last).await;
        if still_rotating || last_works || rotated_after > 1 {
            survivors.push(trial);
        }
    }
    assert!(
        survivors.is_empty(),
        "{revocation:?}: chains that survived the revocation in trials {survivors:?}"
    );
}

async fn user_with_email(repo: &Arc<dyn Repository>, email: &str) -> UserId {
    let user = new_user(Some(email), false);
    store_user(repo.as_ref(), &user, None).await;
    user.id
}

pub async fn reuse_detection_ends_a_chain_that_is_rotating_at_that_moment(
    repo: Arc<dyn Repository>,
) {
    no_rotation_in_flight_survives(repo, Revocation::Reuse).await;
}

pub async fn logout_ends_a_chain_that_is_rotating_at_that_moment(repo: Arc<dyn Repository>) {
    no_rotation_in_flight_survives(repo, Revocation::Logout).await;
}

pub async fn pruning_deletes_ended_families_and_expired_tokens_and_keeps_live_ones(
    repo: Arc<dyn Repository>,
) {
    let ada = user(&repo).await;
    // An ended family; a live family with a rotated-away token that has expired; a
    // live family with a live token.
    start_family_ending(&*repo, ada, token_hash(1), now() + Duration::hours(1)).await;
    store_token(&*repo, ada, token_hash(2)).await;
    let tokens = (token_hash(2), token_hash(3));
    rotation(&*repo, tokens, now(), Duration::days(10))
        .await
        .unwrap();
    store_token(&*repo, ada, token_hash(4)).await;

    let later = now() + Duration::days(2);
    let mut pruned = 0;
    loop {
        let batch = repo.prune_expired(later, 1).await.unwrap();
        if batch == 0 {
            break;
        }
        pruned += batch;
    }
    // Family 1 with its token, the expired token 2 (rotated), and token 4 (expired
    // after a day) go; family 2 stays with its live successor 3.
    assert_eq!(pruned, 4);
    assert_eq!(
        rotate(&repo, 3, 5, later).await,
        Ok(ada),
        "the live session survives housekeeping"
    );
    assert_eq!(rotate(&repo, 1, 6, now()).await, refused(Invalid));
}

pub async fn every_rotation_keeps_the_auth_time_of_the_login_that_started_the_session(
    repo: Arc<dyn Repository>,
) {
    // A session started by a provider login, whose login was three minutes before `now`.
    let mut login = login_of(
        ProviderKey::GITHUB,
        "gh-auth-time",
        Some("ada@example.com"),
        true,
    );
    let logged_in_at = now() - Duration::minutes(3);
    login.session.auth_time = logged_in_at;
    let ada = signed_in_user(&*repo, login.clone()).await;

    // Refreshed an hour, then a day, then a week later: never a new login.
    let mut presented = login.session.hash;
    for later in [Duration::hours(1), Duration::days(1), Duration::days(7)] {
        let successor = random_hash();
        let at = now() + later;
        let rotated = rotation(&*repo, (presented, successor), at, Duration::days(10)).await;
        assert_eq!(
            rotated,
            Ok(Rotated {
                user: ada,
                session: login.session.family,
                auth_time: logged_in_at,
                expires_at: (at + Duration::days(10)).min(login.session.family_expires_at),
            }),
            "refreshed {later} after the login"
        );
        presented = successor;
    }
}
