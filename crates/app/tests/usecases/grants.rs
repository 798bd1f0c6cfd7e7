//! The provider tokens a link keeps for revocation: a native sign-in, which brings none,
//! never erases the ones a code-flow login stored, and whatever is stored revokes the grant.

use crate::world::*;
use social_login_domain::SealedTokens;
use social_login_domain::{
    LinkedAccountId, NewLinkedAccount, ProviderKey, ProviderSubject, SecretText,
};
use social_login_ports::AccountLink;
use social_login_ports::{Clock, SessionTokens, TokenCipher, UserRepository};
use social_login_testing::{FakeSessions, ReversingCipher};

async fn native_sign_in_of(world: &World, subject: &str) -> social_login_app::LoginResult {
    world.google.answer_id_token(Ok(identity(
        ProviderKey::GOOGLE,
        subject,
        Some("ada@example.com"),
        true,
    )));
    let command = world.id_token_command("google", "header.payload.signature");
    world.id_token_sign_in(command).await.unwrap()
}

#[tokio::test]
async fn a_native_sign_in_after_a_code_flow_login_keeps_the_grant_revocable() {
    let google = login_at(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    let (world, code_flow) = World::signed_in(google).await;
    let native = native_sign_in_of(&world, "g-1").await;
    assert_eq!(native.user.id, code_flow.user.id);
    let (access, refresh) = world
        .users
        .stored_tokens(ProviderKey::GOOGLE, "g-1")
        .unwrap();
    assert!(!access.is_none(), "the code flow's access token is kept");
    assert!(refresh.is_some());

    let caller = FakeSessions
        .verify_access(native.access_token.value.expose(), world.clock.now())
        .unwrap();
    world.delete_account(caller).await.unwrap();
    let revoked = world.google.revoked();
    assert_eq!(revoked.len(), 1, "the grant is revoked at the provider");
    assert_eq!(revoked[0].access_token.expose(), "g-1-access");
    assert_eq!(
        revoked[0].refresh_token.as_ref().map(SecretText::expose),
        Some("g-1-refresh")
    );
}

#[tokio::test]
async fn a_link_that_kept_only_its_refresh_token_is_revoked_with_it() {
    // What an earlier version left behind: a native sign-in blanked the access token of a
    // link whose refresh token stayed.
    let world = World::new();
    let ada = world.register("ada@example.com", "correct horse").await;
    let refresh = ReversingCipher
        .seal(&SecretText::new("g-legacy-refresh"))
        .unwrap();
    world
        .users
        .add_link(AccountLink {
            link: NewLinkedAccount {
                id: LinkedAccountId::new(),
                user_id: ada.user.id,
                provider: ProviderKey::GOOGLE,
                subject: ProviderSubject::parse("g-legacy").unwrap(),
                email: None,
                tokens: SealedTokens {
                    refresh_token: Some(refresh),
                    ..SealedTokens::none()
                },
                created_at: world.clock.now(),
            },
            audit: social_login_testing::audit_now(),
        })
        .await
        .unwrap();

    world
        .service
        .disconnect_raw(ada.user.id, "google")
        .await
        .unwrap();
    let revoked = world.google.revoked();
    assert_eq!(revoked.len(), 1, "revoked with what was stored");
    assert_eq!(
        revoked[0].refresh_token.as_ref().map(SecretText::expose),
        Some("g-legacy-refresh")
    );
}
