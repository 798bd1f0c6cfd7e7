//! Tokens of the current format, which prove their session and expiry: a rotation deletes
//! their row, and a replay is still recognised from the proof.

use super::super::fixtures::{logout, now, rotation, store_token, token_hash};
use super::{Repository, race_two_rotations_of_one_token, rotate, ttl, user};
use social_login_domain::FamilyId;
use social_login_domain::refresh::{PresentedRefresh, RefreshIssue};
use social_login_ports::{RotateError, RotationRefused};
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// Token `byte` as one of the current format presents it: proving `family` and `expires_at`.
pub(super) fn proving(byte: u8, family: FamilyId, expires_at: OffsetDateTime) -> PresentedRefresh {
    PresentedRefresh {
        hash: token_hash(byte),
        issued_in: Some(RefreshIssue { family, expires_at }),
    }
}

pub async fn a_proving_token_loses_its_row_when_rotated_and_its_replay_still_revokes_its_family(
    repo: Arc<dyn Repository>,
) {
    let ada = user(&repo).await;
    let family = store_token(&*repo, ada, token_hash(1)).await;
    let first = proving(1, family, now() + Duration::days(1));
    let rotated = rotation(&*repo, (first, token_hash(2)), now(), ttl()).await;
    assert_eq!(rotated.map(|rotated| rotated.user), Ok(ada));

    assert_eq!(
        rotate(&repo, 1, 3, now()).await,
        Err(RotateError::Refused(RotationRefused::Invalid)),
        "its row went: without its proof it is unknown"
    );
    assert_eq!(
        rotation(&*repo, (first, token_hash(4)), now(), ttl()).await,
        Err(RotateError::Refused(RotationRefused::ReuseDetected)),
        "with its proof it is a spent token of its family"
    );
    let second = proving(2, family, now() + ttl());
    assert_eq!(
        rotation(&*repo, (second, token_hash(5)), now(), ttl()).await,
        Err(RotateError::Refused(RotationRefused::Invalid)),
        "the legitimate successor is revoked with its family"
    );
}

pub async fn a_proving_token_replayed_past_its_expiry_is_refused_and_revokes_nothing(
    repo: Arc<dyn Repository>,
) {
    let ada = user(&repo).await;
    let family = store_token(&*repo, ada, token_hash(1)).await;
    let expiry = now() + Duration::days(1);
    let first = proving(1, family, expiry);
    rotation(&*repo, (first, token_hash(2)), now(), ttl())
        .await
        .unwrap();

    // Its row may have been pruned as expired as well as rotated: it proves no copy.
    assert_eq!(
        rotation(&*repo, (first, token_hash(3)), expiry, ttl()).await,
        Err(RotateError::Refused(RotationRefused::Invalid))
    );
    let second = proving(2, family, now() + ttl());
    let rotated = rotation(&*repo, (second, token_hash(4)), expiry, ttl()).await;
    assert_eq!(rotated.map(|rotated| rotated.user), Ok(ada));
}

pub async fn of_two_concurrent_rotations_of_one_proving_token_exactly_one_wins(
    repo: Arc<dyn Repository>,
) {
    race_two_rotations_of_one_token(repo, true).await;
}

pub async fn logging_out_with_a_spent_proving_token_ends_its_session(repo: Arc<dyn Repository>) {
    let ada = user(&repo).await;
    let family = store_token(&*repo, ada, token_hash(1)).await;
    let first = proving(1, family, now() + Duration::days(1));
    rotation(&*repo, (first, token_hash(2)), now(), ttl())
        .await
        .unwrap();
    logout(&*repo, first).await.unwrap();
    assert_eq!(
        rotate(&repo, 2, 3, now()).await,
        Err(RotateError::Refused(RotationRefused::Invalid))
    );
}
