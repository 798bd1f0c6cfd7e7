//! Native sign-in (docs/api.md): the adapter's verified identity goes through the callback's
//! and connect's rules; no provider token is stored with the link.

use crate::world::*;
use social_login_app::{AppError, IdTokenCommand, MAX_ID_TOKEN_BYTES, MAX_NONCE_BYTES};
use social_login_domain::ProviderKey;
use social_login_ports::{PostBody, ProviderError, TokenCipher};

const ID_TOKEN: &str = "eyJhbGciOiJSUzI1NiJ9.e30.signature";

fn command(world: &World, provider: &str) -> IdTokenCommand {
    command_for(world, provider, ID_TOKEN)
}

/// A native sign-in with this token (each token is accepted once).
fn command_for(world: &World, provider: &str, id_token: &str) -> IdTokenCommand {
    world
        .service
        .id_token_command(
            world.service.enabled_provider(provider).unwrap(),
            id_token,
            Some("raw-nonce"),
            Some(PostBody::new(r#"{"user": {}}"#)),
        )
        .unwrap()
}

#[tokio::test]
async fn a_native_sign_in_registers_the_user_and_stores_no_provider_token() {
    let world = World::new();
    let ada = identity(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    world.google.answer_id_token(Ok(ada));
    let result = world
        .id_token_sign_in(command(&world, "google"))
        .await
        .unwrap();
    assert!(result.is_new_user);
    assert_eq!(result.user.email.unwrap().as_str(), "ada@example.com");

    let (access, refresh) = world
        .users
        .stored_tokens(ProviderKey::GOOGLE, "g-1")
        .unwrap();
    assert!(access.is_none());
    assert_eq!(refresh, None);

    // The adapter got the token, the raw nonce and the post_body as sent.
    let received = world.google.id_tokens_received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].id_token.expose(), ID_TOKEN);
    assert_eq!(received[0].nonce.as_ref().unwrap().expose(), "raw-nonce");
    assert_eq!(
        received[0].post_body.as_ref().unwrap().as_json(),
        r#"{"user": {}}"#
    );
}

#[tokio::test]
async fn a_native_login_of_a_code_flow_account_is_the_same_user_and_keeps_its_provider_tokens() {
    let world = World::new();
    let ada = identity(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    let first = world.login_with(provider_login(ada.clone())).await;
    world.google.answer_id_token(Ok(ada));
    let again = world
        .id_token_sign_in(command(&world, "google"))
        .await
        .unwrap();
    assert!(!again.is_new_user);
    assert_eq!(again.user.id, first.user.id);
    let (access, refresh) = world
        .users
        .stored_tokens(ProviderKey::GOOGLE, "g-1")
        .unwrap();
    assert_eq!(
        world.cipher.open(&access).unwrap().expose(),
        "g-1-access",
        "a login that brings no token replaces none"
    );
    assert_eq!(
        world.cipher.open(&refresh.unwrap()).unwrap().expose(),
        "g-1-refresh"
    );
}

#[tokio::test]
async fn the_callbacks_email_rules_apply_to_a_native_sign_in() {
    let world = World::new();
    world
        .register("ada@example.com", "correct horse battery")
        .await;
    let ada = identity(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    world.google.answer_id_token(Ok(ada));
    let refused = world.id_token_sign_in(command(&world, "google")).await;
    assert!(
        matches!(refused, Err(AppError::LinkOffered { .. })),
        "{refused:?}"
    );
}

#[tokio::test]
async fn a_native_connect_links_once_with_no_provider_token() {
    let (world, pat) = World::with_user("pat@example.com").await;
    let grace = identity(ProviderKey::GOOGLE, "g-2", Some("grace@example.com"), true);
    world.google.answer_id_token(Ok(grace));
    let link = world
        .id_token_connect(world.fresh_login(pat).await, command(&world, "google"))
        .await
        .unwrap();
    assert_eq!(link.user_id, pat);
    assert_eq!(link.provider, ProviderKey::GOOGLE);
    let (access, _) = world
        .users
        .stored_tokens(ProviderKey::GOOGLE, "g-2")
        .unwrap();
    assert!(access.is_none());

    let sam = world
        .register("sam@example.com", "correct horse battery")
        .await;
    let taken = world
        .id_token_connect(
            world.fresh_login(sam.user.id).await,
            command_for(&world, "google", "another.id.token"),
        )
        .await;
    assert_eq!(taken.err(), Some(AppError::ProviderAlreadyLinked));
}

#[tokio::test]
async fn a_provider_without_id_tokens_or_a_bad_token_fails_as_its_adapter_says() {
    let world = World::new();
    let unsupported = world.id_token_sign_in(command(&world, "github")).await;
    assert_eq!(unsupported.err(), Some(AppError::IdTokenNotSupported));

    world.google.answer_id_token(Err(ProviderError::UserInfo(
        "id_token nonce does not match".into(),
    )));
    let refused = world.id_token_sign_in(command(&world, "google")).await;
    assert!(matches!(refused, Err(AppError::UserInfoFailed(_))));
    assert_eq!(world.users.user_count(), 0);

    // An adapter vouching for another provider's account is a bug, never a login.
    let github = identity(ProviderKey::GITHUB, "gh-1", None, false);
    world.google.answer_id_token(Ok(github));
    let confused = world.id_token_sign_in(command(&world, "google")).await;
    assert!(matches!(confused, Err(AppError::Internal(_))));
    assert_eq!(world.users.user_count(), 0);
}

#[test]
fn the_input_is_checked_provider_first_then_its_bounds() {
    let world = World::new();
    let parse = |provider: &str, id_token: &str, nonce: Option<&str>| {
        world
            .service
            .enabled_provider(provider)
            .and_then(|provider| {
                world
                    .service
                    .id_token_command(provider, id_token, nonce, None)
            })
            .map(|_| ())
    };
    assert_eq!(
        parse("nope", "", None),
        Err(AppError::ProviderNotConfigured)
    );
    assert_eq!(
        parse("apple", ID_TOKEN, None),
        Err(AppError::ProviderNotConfigured)
    );
    let longest = "a".repeat(MAX_ID_TOKEN_BYTES);
    assert_eq!(
        parse("google", &longest, Some(&"n".repeat(MAX_NONCE_BYTES))),
        Ok(())
    );
    for (id_token, nonce) in [
        ("", None),
        (&*"a".repeat(MAX_ID_TOKEN_BYTES + 1), None),
        (ID_TOKEN, Some("")),
        (ID_TOKEN, Some(&*"n".repeat(MAX_NONCE_BYTES + 1))),
    ] {
        assert!(
            matches!(
                parse("google", id_token, nonce),
                Err(AppError::Validation(_))
            ),
            "{} bytes, nonce {:?}",
            id_token.len(),
            nonce.map(str::len)
        );
    }
}
