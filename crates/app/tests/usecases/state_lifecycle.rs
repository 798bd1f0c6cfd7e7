//! docs/api.md#state-values: every transition of the state value, through callback and connect.

use crate::world::{CODE, RawInput, World, ada_on_github, github_login};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use social_login_app::{AppError, AppResult, AuthorizeOptions};
use social_login_domain::{Origin, ProviderKey};
use social_login_domain::{Purpose, StateMismatch};
use social_login_ports::MockIdentityProvider;
use social_login_testing::state_in;
use std::sync::Arc;
use time::Duration;

fn mismatch(why: StateMismatch) -> AppError {
    AppError::StateMismatch(why)
}

#[tokio::test]
async fn a_login_state_is_consumed_by_the_callback() {
    let world = World::new();
    let state = world.started_login(ada_on_github()).await;
    world.callback("github", &state).await.unwrap();
    assert!(world.is_spent(&state));
}

#[tokio::test]
async fn the_callback_hands_the_code_and_the_stored_verifier_and_nonce_to_the_provider() {
    let world = World::new();
    let state = world.started_login(ada_on_github()).await;
    let issued = world.sealed(&state);
    world.callback("github", &state).await.unwrap();
    let received = world.github.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].code.expose(), CODE);
    assert_eq!(received[0].redeemed.pkce_verifier, issued.pkce_verifier);
    assert_eq!(received[0].redeemed.nonce, issued.nonce);
    assert_eq!(received[0].redeemed.purpose, Purpose::Login);
}

#[tokio::test]
async fn a_connect_state_is_consumed_by_connect_of_the_bound_user() {
    let (world, user) = World::with_user("ada@example.com").await;
    let state = world.started_connect(user, ada_on_github()).await;
    world.connect(user, "github", &state).await.unwrap();
    assert!(world.is_spent(&state));
    assert_eq!(
        world.github.received()[0].redeemed.purpose,
        Purpose::Connect { user }
    );
}

#[tokio::test]
async fn a_replayed_state_is_refused() {
    let world = World::new();
    let state = world.started_login(ada_on_github()).await;
    world.callback("github", &state).await.unwrap();
    assert_eq!(
        world.callback("github", &state).await,
        Err(mismatch(StateMismatch::Unknown))
    );
    assert_eq!(world.github.received().len(), 1);
}

#[tokio::test]
async fn a_state_is_still_good_a_second_before_it_expires() {
    let world = World::new();
    let state = world.started_login(ada_on_github()).await;
    world
        .clock
        .advance(Duration::minutes(10) - Duration::seconds(1));
    assert!(world.callback("github", &state).await.is_ok());
}

#[tokio::test]
async fn an_expired_state_is_refused() {
    let world = World::new();
    let state = world.started_login(ada_on_github()).await;
    world.clock.advance(Duration::minutes(10));
    assert_eq!(
        world.callback("github", &state).await,
        Err(mismatch(StateMismatch::Expired))
    );
    assert!(world.github.received().is_empty());
    // Nothing to remember: an expired value can never be redeemed again.
    assert_eq!(world.states.spent_count(), 0);
}

#[tokio::test]
async fn a_login_state_is_refused_by_connect() {
    let (world, user) = World::with_user("ada@example.com").await;
    let state = world.started_login(ada_on_github()).await;
    let refused = world.connect_refusal(user, "github", &state).await;
    assert_eq!(refused, mismatch(StateMismatch::WrongPurpose));
}

#[tokio::test]
async fn a_connect_state_is_refused_by_the_callback() {
    let (world, pat) = World::with_user("pat@example.com").await;
    world.answers(ada_on_github());
    let state = world.connect_state("github", pat).await;
    assert_eq!(
        world.callback("github", &state).await,
        Err(mismatch(StateMismatch::WrongPurpose))
    );
    assert_eq!(world.users.user_count(), 1, "nobody registered");
}

#[tokio::test]
async fn a_connect_state_is_refused_for_another_user() {
    let world = World::new();
    let owner = world.user("ada@example.com").await;
    let intruder = world.user("eve@example.com").await;
    let eves = github_login("gh-1", "eve@example.com");
    let state = world.started_connect(owner, eves).await;
    let refused = world.connect_refusal(intruder, "github", &state).await;
    assert_eq!(refused, mismatch(StateMismatch::OtherUser));
}

#[tokio::test]
async fn a_state_used_on_another_provider_is_refused_and_spent() {
    let world = World::new();
    let state = world.started_login(ada_on_github()).await;
    assert_eq!(
        world.callback("google", &state).await,
        Err(mismatch(StateMismatch::OtherProvider))
    );
    assert_eq!(
        world.callback("github", &state).await,
        Err(mismatch(StateMismatch::Unknown))
    );
    assert!(world.github.received().is_empty());
    assert!(world.google.received().is_empty());
}

#[tokio::test]
async fn a_malformed_state_is_refused() {
    let world = World::new();
    world.answers(ada_on_github());
    let too_long = "a".repeat(129);
    for bad in [
        "",
        "short",
        "has spaces in it, 20+ chars",
        "a/b+c=d/e+f=g/h+i=j",
        &too_long,
    ] {
        assert_eq!(
            world.callback("github", bad).await,
            Err(mismatch(StateMismatch::Unknown)),
            "{bad:?}"
        );
    }
    assert!(world.github.received().is_empty());
}

#[tokio::test]
async fn a_refused_state_is_spent() {
    let (world, user) = World::with_user("ada@example.com").await;
    let state = world.started_connect(user, ada_on_github()).await;
    assert!(world.callback("github", &state).await.is_err());
    // The rightful use afterwards finds nothing: a refusal burns the value.
    let refused = world.connect_refusal(user, "github", &state).await;
    assert_eq!(refused, mismatch(StateMismatch::Unknown));
}

#[tokio::test]
async fn the_state_is_checked_before_the_provider_is_called() {
    let (world, pat) = World::with_user("pat@example.com").await;
    let mut provider = MockIdentityProvider::new();
    provider.expect_key().return_const(ProviderKey::GITHUB);
    provider.expect_ready().returning(|| Ok(()));
    provider.expect_authorization_url().returning(|request| {
        Ok(format!(
            "https://mock.test/?state={}",
            request.state.as_str()
        ))
    });
    provider.expect_complete().never();
    let service = world.service_swapping(|ports| {
        ports.providers = social_login_app::ProviderRegistry::new().with(Arc::new(provider))
    });
    let unknown = "A".repeat(43);
    assert_eq!(
        service.callback_raw("github", CODE, &unknown, None).await,
        Err(mismatch(StateMismatch::Unknown))
    );
    let connect = world.connect_state("github", pat).await;
    assert_eq!(
        service.callback_raw("github", CODE, &connect, None).await,
        Err(mismatch(StateMismatch::WrongPurpose))
    );
    let login =
        social_login_testing::state_in(&service.authorize_raw("github", None).await.unwrap());
    assert_eq!(
        service
            .connect_raw(world.fresh_login(pat).await, "github", CODE, &login)
            .await,
        Err(mismatch(StateMismatch::WrongPurpose))
    );
}

/// A binding secret as a client makes one: 43 random URL-safe characters.
const BINDING: &str = "Yd3kQ9vPz-1mN_bX7cLr0sTu2wA5eH8gJ4fK6iO~.aZ";

/// What authorize is given of a secret: its BASE64URL SHA-256, as a PKCE S256 challenge.
fn challenge_of(secret: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(secret.as_bytes()))
}

/// Authorize for a GitHub login bound to `binding`; returns the state from the URL.
async fn bound_login_state(world: &World, binding: &str) -> String {
    world.answers(ada_on_github());
    let provider = world.service.enabled_provider("github").unwrap();
    let options = AuthorizeOptions {
        binding_challenge: Some(challenge_of(binding)),
        ..AuthorizeOptions::default()
    };
    let url = world.service.authorize(provider, None, options).await;
    state_in(&url.unwrap())
}

/// The callback of `state`, presenting `binding`.
async fn callback_presenting(world: &World, state: &str, binding: Option<&str>) -> AppResult<()> {
    let provider = world.service.enabled_provider("github")?;
    let ret = world.service.provider_return(provider, CODE, state, None)?;
    let ret = ret.with_binding(binding.map(str::to_owned));
    world
        .service
        .callback(ret, &Origin::default())
        .await
        .map(drop)
}

#[tokio::test]
async fn a_bound_state_is_finished_only_with_its_binding_and_a_stranger_cannot_spend_it() {
    let world = World::new();
    let state = bound_login_state(&world, BINDING).await;
    let other = BINDING.replace('Y', "y");
    for presented in [None, Some(other.as_str())] {
        let refused = callback_presenting(&world, &state, presented).await;
        assert_eq!(refused.unwrap_err(), mismatch(StateMismatch::OtherClient));
        assert!(!world.is_spent(&state), "{presented:?}");
    }
    callback_presenting(&world, &state, Some(BINDING))
        .await
        .unwrap();
    assert!(world.is_spent(&state));
}

#[tokio::test]
async fn an_unbound_state_refuses_a_binding_and_a_malformed_challenge_is_refused_on_authorize() {
    let world = World::new();
    let state = world.started_login(ada_on_github()).await;
    let refused = callback_presenting(&world, &state, Some(BINDING)).await;
    assert_eq!(refused.unwrap_err(), mismatch(StateMismatch::OtherClient));
    callback_presenting(&world, &state, None).await.unwrap();

    let challenge = challenge_of(BINDING);
    let one_too_many = format!("{challenge}A");
    for malformed in ["short", &one_too_many, &"+".repeat(43), BINDING] {
        let provider = world.service.enabled_provider("github").unwrap();
        let options = AuthorizeOptions {
            binding_challenge: Some(malformed.to_owned()),
            ..AuthorizeOptions::default()
        };
        let refused = world.service.authorize(provider, None, options).await;
        assert!(
            matches!(refused, Err(AppError::Validation(_))),
            "{malformed}"
        );
    }
}
