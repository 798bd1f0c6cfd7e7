//! Refresh-token rotation, reuse detection, expiry and logout.

use crate::fixtures::{new_user, now, store_token, token_hash};
use crate::harness::on_every_backend;
use social_login_domain::UserId;
use social_login_persistence::SeaOrmRepository;
use social_login_ports::{RefreshTokenRepository, RotateError, UserRepository};
use std::sync::Arc;
use time::Duration;
use tokio::sync::Barrier;

async fn user(repo: &SeaOrmRepository) -> UserId {
    let user = new_user(Some("ada@example.com"), false);
    repo.create_user(user.clone(), None).await.unwrap();
    user.id
}

fn later() -> time::OffsetDateTime {
    now() + Duration::days(2)
}

#[tokio::test]
async fn rotation_returns_the_user_and_its_successor_rotates_in_turn() {
    on_every_backend(|repo| async move {
        let ada = user(&repo).await;
        store_token(&repo, ada, token_hash(1)).await;

        let rotated = repo
            .rotate_refresh(token_hash(1), token_hash(2), now(), later())
            .await;
        assert_eq!(rotated, Ok(ada));
        let next = repo
            .rotate_refresh(
                token_hash(2),
                token_hash(3),
                now() + Duration::days(1),
                later(),
            )
            .await;
        assert_eq!(next, Ok(ada), "the successor is valid until its own expiry");
    })
    .await;
}

#[tokio::test]
async fn a_rotated_token_presented_again_revokes_its_whole_family() {
    on_every_backend(|repo| async move {
        let ada = user(&repo).await;
        store_token(&repo, ada, token_hash(1)).await;
        let other_session = token_hash(9);
        store_token(&repo, ada, other_session).await;
        repo.rotate_refresh(token_hash(1), token_hash(2), now(), later())
            .await
            .unwrap();

        assert_eq!(
            repo.rotate_refresh(token_hash(1), token_hash(3), now(), later())
                .await,
            Err(RotateError::ReuseDetected)
        );
        assert_eq!(
            repo.rotate_refresh(token_hash(2), token_hash(4), now(), later())
                .await,
            Err(RotateError::Refused),
            "the legitimate successor is revoked with its family"
        );
        assert_eq!(
            repo.rotate_refresh(other_session, token_hash(5), now(), later())
                .await,
            Ok(ada),
            "other families are untouched"
        );
    })
    .await;
}

#[tokio::test]
async fn an_expired_token_is_refused_and_stays_unused() {
    on_every_backend(|repo| async move {
        let ada = user(&repo).await;
        store_token(&repo, ada, token_hash(1)).await;
        let expiry = now() + Duration::days(1);

        assert_eq!(
            repo.rotate_refresh(token_hash(1), token_hash(2), expiry, later())
                .await,
            Err(RotateError::Refused)
        );
        assert_eq!(
            repo.rotate_refresh(token_hash(2), token_hash(3), now(), later())
                .await,
            Err(RotateError::Refused),
            "no successor was stored"
        );
        // Refused, not consumed: a clock that was briefly wrong does not burn the session.
        assert_eq!(
            repo.rotate_refresh(token_hash(1), token_hash(2), now(), later())
                .await,
            Ok(ada)
        );
    })
    .await;
}

#[tokio::test]
async fn an_unknown_token_is_refused() {
    on_every_backend(|repo| async move {
        assert_eq!(
            repo.rotate_refresh(token_hash(1), token_hash(2), now(), later())
                .await,
            Err(RotateError::Refused)
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_two_concurrent_rotations_of_one_token_exactly_one_wins() {
    on_every_backend(|repo| async move {
        let ada = user(&repo).await;
        for round in 0..8u8 {
            let presented = token_hash(round * 3);
            store_token(&repo, ada, presented).await;
            let barrier = Arc::new(Barrier::new(2));
            let rotation = |successor: u8| {
                let (repo, barrier) = (repo.clone(), barrier.clone());
                tokio::spawn(async move {
                    barrier.wait().await;
                    repo.rotate_refresh(presented, token_hash(successor), now(), later())
                        .await
                })
            };
            let first = rotation(round * 3 + 1);
            let second = rotation(round * 3 + 2);
            let outcomes = [first.await.unwrap(), second.await.unwrap()];

            assert_eq!(
                outcomes.iter().filter(|outcome| outcome.is_ok()).count(),
                1,
                "round {round}: {outcomes:?}"
            );
            assert!(
                outcomes.contains(&Err(RotateError::ReuseDetected)),
                "round {round}: the second use of one token is a reuse: {outcomes:?}"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn logout_revokes_the_family_of_the_presented_token() {
    on_every_backend(|repo| async move {
        let ada = user(&repo).await;
        store_token(&repo, ada, token_hash(1)).await;
        store_token(&repo, ada, token_hash(9)).await;
        repo.rotate_refresh(token_hash(1), token_hash(2), now(), later())
            .await
            .unwrap();

        repo.revoke_refresh(token_hash(2)).await.unwrap();

        assert_eq!(
            repo.rotate_refresh(token_hash(2), token_hash(3), now(), later())
                .await,
            Err(RotateError::Refused)
        );
        assert_eq!(
            repo.rotate_refresh(token_hash(1), token_hash(4), now(), later())
                .await,
            Err(RotateError::Refused),
            "a revoked family is refused, not treated as reuse"
        );
        assert_eq!(
            repo.rotate_refresh(token_hash(9), token_hash(5), now(), later())
                .await,
            Ok(ada),
            "the user's other session survives"
        );
    })
    .await;
}

#[tokio::test]
async fn logging_out_with_an_unknown_token_is_not_an_error() {
    on_every_backend(|repo| async move {
        repo.revoke_refresh(token_hash(7)).await.unwrap();
    })
    .await;
}
