//! What a session's rotations leave in `refresh_tokens`: one row however often it rotates
//! when its tokens prove their family, and every spent row until it expires for tokens of
//! the earlier format (which prove nothing, so only their rows detect their reuse).

use crate::fixtures::count_of;
use crate::harness::{on_every_backend, rusqlite_repository, sqlite_repository};
use social_login_domain::refresh::{PresentedRefresh, RefreshIssue};
use social_login_persistence::SeaOrmRepository;
use social_login_testing::contract::repository::Repository;
use social_login_testing::contract::repository::fixtures::{
    new_user, now, rotation, store_token, store_user, token_hash,
};
use time::Duration;

const ROTATIONS: u8 = 20;

/// Starts a session and rotates it [`ROTATIONS`] times, its tokens proving their family
/// if `proving`.
async fn rotate_a_session(repo: &dyn Repository, proving: bool) {
    let user = new_user(Some("ada@example.com"), false);
    store_user(repo, &user, None).await;
    let family = store_token(repo, user.id, token_hash(0)).await;
    let mut expires_at = now() + Duration::days(1);
    for n in 0..ROTATIONS {
        let presented = PresentedRefresh {
            hash: token_hash(n),
            issued_in: proving.then_some(RefreshIssue { family, expires_at }),
        };
        let rotated = rotation(
            repo,
            (presented, token_hash(n + 1)),
            now(),
            Duration::days(2),
        )
        .await
        .unwrap();
        expires_at = rotated.expires_at;
    }
}

async fn token_rows(repo: &SeaOrmRepository) -> i64 {
    count_of(repo, "SELECT count(*) FROM refresh_tokens").await
}

#[tokio::test]
async fn a_session_of_proving_tokens_keeps_one_row_however_often_it_rotates() {
    on_every_backend(|repo| async move {
        rotate_a_session(&repo, true).await;
        assert_eq!(token_rows(&repo).await, 1);
    })
    .await;
}

#[tokio::test]
async fn a_session_of_earlier_tokens_keeps_each_spent_row_to_detect_its_reuse() {
    on_every_backend(|repo| async move {
        rotate_a_session(&repo, false).await;
        assert_eq!(token_rows(&repo).await, i64::from(ROTATIONS) + 1);
    })
    .await;
}

#[tokio::test]
async fn through_rusqlite_a_session_of_proving_tokens_keeps_one_row() {
    let dir = tempfile::tempdir().unwrap();
    let repo = rusqlite_repository(dir.path()).await;
    rotate_a_session(&repo, true).await;
    drop(repo);
    let reader = sqlite_repository(dir.path()).await;
    assert_eq!(token_rows(&reader).await, 1);
}
