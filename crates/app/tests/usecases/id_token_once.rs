//! Native sign-in's nonce and single use (docs/api.md): the nonce is required unless the
//! provider makes it optional, and one id_token is accepted once, until it expires, whatever
//! the flow (sign-in or connect) that presents it again.

use crate::world::*;
use social_login_app::{AppError, AppResult, AuthService, ProviderRegistry};
use social_login_domain::{Origin, ProviderKey, Spend};
use social_login_ports::{Clock, MockStateStore, ProviderError, StateStoreError};
use time::Duration;

const ID_TOKEN: &str = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJnLTEifQ.signature";

fn google_signs_in_ada(world: &World) {
    let ada = identity(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    world.google.answer_id_token(Ok(ada));
}

async fn sign_in(world: &World, id_token: &str, nonce: Option<&str>) -> AppResult<()> {
    sign_in_on(&world.service, id_token, nonce).await
}

/// A native Google sign-in with `id_token` through `service` (one whose ports a test swapped).
async fn sign_in_on(service: &AuthService, id_token: &str, nonce: Option<&str>) -> AppResult<()> {
    let google = service.enabled_provider("google")?;
    let command = service.id_token_command(google, id_token, nonce, None)?;
    service
        .id_token_sign_in(command, &Origin::default())
        .await
        .map(|_| ())
}

#[tokio::test]
async fn the_same_id_token_logs_in_once_and_is_refused_after() {
    let world = World::new();
    google_signs_in_ada(&world);
    assert_eq!(sign_in(&world, ID_TOKEN, Some("raw-nonce")).await, Ok(()));
    for _ in 0..2 {
        let replay = sign_in(&world, ID_TOKEN, Some("raw-nonce")).await;
        assert_eq!(
            replay,
            Err(AppError::UserInfoFailed("id_token was already used".into()))
        );
    }
    assert_eq!(world.users.user_count(), 1);
    // Another token of the same person is another sign-in.
    assert_eq!(
        sign_in(&world, "other.id.token", Some("raw-nonce")).await,
        Ok(())
    );
}

#[tokio::test]
async fn the_same_signed_claims_with_the_signature_written_another_way_are_the_same_token() {
    let world = World::new();
    google_signs_in_ada(&world);
    let (signed, _) = ID_TOKEN.rsplit_once('.').unwrap();
    assert_eq!(sign_in(&world, ID_TOKEN, Some("raw-nonce")).await, Ok(()));
    let reencoded = format!("{signed}.signaturf");
    let replay = sign_in(&world, &reencoded, Some("raw-nonce")).await;
    assert!(
        matches!(replay, Err(AppError::UserInfoFailed(_))),
        "{replay:?}"
    );
}

#[tokio::test]
async fn a_token_used_to_sign_in_cannot_then_connect() {
    let (world, pat) = World::with_user("pat@example.com").await;
    google_signs_in_ada(&world);
    sign_in(&world, ID_TOKEN, Some("raw-nonce")).await.unwrap();
    let command = world
        .service
        .id_token_command(
            world.service.enabled_provider("google").unwrap(),
            ID_TOKEN,
            Some("raw-nonce"),
            None,
        )
        .unwrap();
    let connect = world
        .id_token_connect(world.fresh_login(pat).await, command)
        .await;
    assert!(matches!(connect, Err(AppError::UserInfoFailed(_))));
}

#[tokio::test]
async fn a_used_token_is_remembered_until_it_would_stop_verifying() {
    let world = World::new();
    google_signs_in_ada(&world);
    let usable_until = world.clock.now() + Duration::minutes(61);
    world.google.id_tokens_usable_until(usable_until);
    let mut states = MockStateStore::new();
    states
        .expect_spend()
        .withf(move |_, expires_at| *expires_at == usable_until)
        .times(1)
        .returning(|_, _| Ok(Spend::First));
    let service = world.service_on_states(states);
    assert_eq!(
        sign_in_on(&service, ID_TOKEN, Some("raw-nonce")).await,
        Ok(())
    );
}

#[tokio::test]
async fn a_token_the_adapter_refuses_takes_no_room_in_the_store() {
    let world = World::new();
    world.google.answer_id_token(Err(ProviderError::UserInfo(
        "id_token signature is invalid".into(),
    )));
    for n in 0..3 {
        let refused = sign_in(&world, &format!("forged.{n}.token"), Some("raw-nonce")).await;
        assert!(matches!(refused, Err(AppError::UserInfoFailed(_))));
    }
    assert_eq!(world.states.spent_count(), 0);
}

#[tokio::test]
async fn a_state_store_that_cannot_record_the_token_is_unavailable_and_logs_nobody_in() {
    let world = World::new();
    google_signs_in_ada(&world);
    let mut states = MockStateStore::new();
    states
        .expect_spend()
        .returning(|_, _| Err(StateStoreError::unreachable("SET NX timed out")));
    let service = world.service_on_states(states);
    let result = sign_in_on(&service, ID_TOKEN, Some("raw-nonce")).await;
    assert!(
        matches!(result, Err(AppError::Unavailable(_))),
        "{result:?}"
    );
    assert_eq!(world.users.user_count(), 0);
}

#[tokio::test]
async fn without_a_nonce_the_request_is_invalid_and_the_adapter_never_sees_it() {
    let world = World::new();
    google_signs_in_ada(&world);
    let missing = sign_in(&world, ID_TOKEN, None).await;
    assert_eq!(
        missing,
        Err(AppError::Validation("nonce is required".into()))
    );
    assert!(world.google.id_tokens_received().is_empty());
    assert_eq!(world.states.spent_count(), 0);
}

#[tokio::test]
async fn a_provider_whose_nonce_is_optional_passes_a_request_without_one_to_its_adapter() {
    let world = World::new();
    google_signs_in_ada(&world);
    let service = world.service_swapping(|ports| {
        ports.providers = ProviderRegistry::new()
            .with(world.google.clone())
            .with(world.github.clone())
            .with_optional_nonce(ProviderKey::GOOGLE)
    });
    let command = service
        .id_token_command(
            service.enabled_provider("google").unwrap(),
            ID_TOKEN,
            None,
            None,
        )
        .unwrap();
    assert!(command.nonce.is_none());
    service
        .id_token_sign_in(command, &Origin::default())
        .await
        .unwrap();
    // The adapter is told there was none, and refuses a token that carries one (its
    // verifier's rule, tested there); the other providers still require it.
    assert!(world.google.id_tokens_received()[0].nonce.is_none());
    assert!(matches!(
        service.id_token_command(
            service.enabled_provider("github").unwrap(),
            ID_TOKEN,
            None,
            None
        ),
        Err(AppError::Validation(_))
    ));
}
