//! Sign in with Apple on a device with its authorization code (docs/api.md#native-sign-in):
//! lock, linking and the sign-up policy refuse before the code is exchanged, so a refused
//! sign-in leaves no grant at Apple; a sign-in refused after the exchange revokes the grant
//! it got, as the app's client, when the account is linked to nobody.

use crate::world::*;
use social_login_app::{AppError, AppResult, AuthService, Connected, IdTokenCommand, Ports};
use social_login_domain::SignupRefused;
use social_login_domain::{
    AuditEventType, Origin, ProviderKey, ProviderSubject, ProviderTokens, SecretText, SignalAction,
    SignalId, SignalSource, UserId,
};
use social_login_ports::Clock;
use social_login_ports::{
    AddLinkError, AdminRepository, LockChange, MockUserRepository, NativeExchange, SignInError,
    SignalCommand, SignalReceipt, SignalRepository,
};
use social_login_testing::{FAKE_CLIENT_ID, FakeProvider, audit_now};
use std::sync::Arc;

/// A world with Apple enabled besides GitHub and Google; its service and its Apple.
fn with_apple() -> (World, AuthService, Arc<FakeProvider>) {
    with_apple_swapping(|_| {})
}

/// [`with_apple`], with `swap` applied to the service's ports.
fn with_apple_swapping(swap: impl FnOnce(&mut Ports)) -> (World, AuthService, Arc<FakeProvider>) {
    let world = World::new();
    let apple = Arc::new(FakeProvider::new(ProviderKey::APPLE));
    apple.answer_native_code(Ok(NativeExchange::Granted(ProviderTokens {
        scopes: social_login_domain::Scopes::default(),
        expires_in: None,
        access_token: SecretText::new("apple-access"),
        refresh_token: Some(SecretText::new("apple-refresh")),
    })));
    let registered = apple.clone();
    let service = world.service_swapping(move |ports| {
        ports.providers = ports.providers.clone().with(registered);
        swap(ports);
    });
    (world, service, apple)
}

/// Ada's Apple id_token with (or without) the authorization code the app got with it.
fn ada_on_apple(service: &AuthService, apple: &FakeProvider, code: bool) -> IdTokenCommand {
    apple.answer_id_token(Ok(identity(
        ProviderKey::APPLE,
        "apple-ada",
        Some("ada@example.com"),
        true,
    )));
    // Each id_token is accepted once: a fresh one per sign-in.
    let token = format!("header.{}.signature", apple.id_tokens_received().len());
    let command = service
        .id_token_command(
            service.enabled_provider("apple").unwrap(),
            &token,
            Some("raw-nonce"),
            None,
        )
        .unwrap();
    if code {
        service
            .with_authorization_code(command, "c.apple.code")
            .unwrap()
    } else {
        command
    }
}

/// [`with_apple`] where Ada signed in once already, without a code; her user.
async fn ada_signed_in_on_apple() -> (World, AuthService, Arc<FakeProvider>, UserId) {
    let (world, service, apple) = with_apple();
    let ada = sign_in(&service, ada_on_apple(&service, &apple, false)).await;
    (world, service, apple, ada.unwrap())
}

/// The code was exchanged, and its grant is not revoked (`why`).
fn assert_exchanged_and_kept(apple: &FakeProvider, why: &str) {
    assert_eq!(
        apple.native_codes_received().len(),
        1,
        "the code was exchanged"
    );
    assert!(apple.revoked().is_empty(), "{why}");
}

/// Pat registers with a password, then connects Ada's Apple account with its code.
async fn pat_connects_ada_on_apple(
    world: &World,
    service: &AuthService,
    apple: &FakeProvider,
) -> AppResult<Connected> {
    let pat = world.register("pat@example.com", "correct horse").await;
    let command = ada_on_apple(service, apple, true);
    (service.id_token_connect(world.access_of(&pat), command, &Origin::default())).await
}

async fn sign_in(service: &AuthService, command: IdTokenCommand) -> AppResult<UserId> {
    service
        .id_token_sign_in(command, &Origin::default())
        .await
        .map(|login| login.user.id)
}

#[tokio::test]
async fn an_email_held_by_another_account_is_offered_a_link_that_keeps_the_exchanged_grant() {
    let (world, service, apple) = with_apple();
    world.register("ada@example.com", "correct horse").await;
    let refused = sign_in(&service, ada_on_apple(&service, &apple, true)).await;
    assert!(
        matches!(refused, Err(AppError::LinkOffered { .. })),
        "{refused:?}"
    );
    assert_exchanged_and_kept(&apple, "its grant travels in the link token");
}

#[tokio::test]
async fn a_locked_users_sign_in_is_refused_before_the_code_is_exchanged() {
    let (world, service, apple, ada) = ada_signed_in_on_apple().await;
    let lock = LockChange {
        user: ada,
        locked: true,
        audit: audit_now(),
    };
    assert!(world.users.set_locked(lock).await.unwrap());
    let refused = sign_in(&service, ada_on_apple(&service, &apple, true)).await;
    assert_eq!(refused, Err(AppError::UserLocked));
    assert!(
        apple.native_codes_received().is_empty(),
        "no grant was made"
    );
}

#[tokio::test]
async fn a_sign_in_refused_after_the_exchange_for_an_account_linked_to_nobody_revokes_its_grant() {
    // The decision before the exchange sees a new account; the sign-in's own transaction
    // refuses the sign-up (the policy's view changed in between).
    let mut users = MockUserRepository::new();
    users.expect_find_link().returning(|_| Ok(None));
    users.expect_find_user_by_email().returning(|_| Ok(None));
    users
        .expect_sign_in_with_provider()
        .times(1)
        .returning(|_| Err(SignInError::SignupRefused(SignupRefused::NotAllowed)));
    let (_world, service, apple) = with_apple_swapping(move |ports| ports.users = Arc::new(users));

    let refused = sign_in(&service, ada_on_apple(&service, &apple, true)).await;
    assert_eq!(refused, Err(AppError::SignupNotAllowed));
    assert_eq!(apple.native_codes_received().len(), 1);
    let revoked = apple.revoked();
    assert_eq!(revoked.len(), 1, "the grant nothing keeps is revoked");
    assert_eq!(revoked[0].access_token.expose(), "apple-access");
    assert_eq!(revoked[0].client_id.as_deref(), Some(FAKE_CLIENT_ID));
}

#[tokio::test]
async fn a_sign_in_refused_after_the_exchange_for_a_linked_account_keeps_its_authorization() {
    let (world, service, apple, _) = ada_signed_in_on_apple().await;
    // Apple's account is disabled after the decision could see it (a signal in between):
    // only the sign-in's own transaction refuses.
    let disabled = SignalCommand {
        receipt: SignalReceipt {
            source: SignalSource::AppleNotification,
            id: SignalId::parse("jti-disable").unwrap(),
            received_at: world.clock.now(),
            payload: None,
        },
        subject: ProviderSubject::parse("apple-ada").unwrap(),
        action: SignalAction::DisableAccount,
        event: AuditEventType::ProviderSecurityEvent,
        occurred_at: world.clock.now(),
        audit: audit_now(),
    };
    world.users.apply_signal(disabled).await.unwrap();

    let refused = sign_in(&service, ada_on_apple(&service, &apple, true)).await;
    assert_eq!(refused, Err(AppError::ProviderAccountDisabled));
    assert_exchanged_and_kept(
        &apple,
        "Apple's revocation would end the authorization the link keeps",
    );
}

#[tokio::test]
async fn a_connect_to_an_account_linked_elsewhere_is_refused_before_the_code_is_exchanged() {
    let (world, service, apple, _) = ada_signed_in_on_apple().await;
    let refused = pat_connects_ada_on_apple(&world, &service, &apple).await;
    assert_eq!(refused.err(), Some(AppError::ProviderAlreadyLinked));
    assert!(
        apple.native_codes_received().is_empty(),
        "no grant was made"
    );
}

#[tokio::test]
async fn a_connect_refused_after_the_exchange_revokes_nothing() {
    // The decision before the exchange sees the account linked to nobody; the link's own
    // write finds it taken meanwhile (by another user, whose grant Apple's revocation
    // would end).
    let mut users = MockUserRepository::new();
    users.expect_find_link().returning(|_| Ok(None));
    users.expect_list_links().returning(|_| Ok(Vec::new()));
    users
        .expect_add_link()
        .times(1)
        .returning(|_| Err(AddLinkError::ProviderAlreadyLinked));
    let (world, service, apple) = with_apple_swapping(move |ports| ports.users = Arc::new(users));

    let refused = pat_connects_ada_on_apple(&world, &service, &apple).await;
    assert_eq!(refused.err(), Some(AppError::ProviderAlreadyLinked));
    assert_exchanged_and_kept(&apple, "the grant may be another user's link's");
}
