//! A provider login in one transaction: decided by the domain's rule, written all or not
//! at all, with its session.

use super::Repository;
use super::fixtures::{
    ada_on_google, assert_no_account_written, auto_linking_login_of, delete_user, linked_providers,
    login_of, new_user, provider_identity, refresh, refresh_works, sign_in, signed_in_user,
    store_user, token_hash, user_by_email, user_less_identity,
};
use social_login_domain::SealedTokens;
use social_login_domain::linking::EmailAlreadyRegistered;
use social_login_domain::{ProviderIdentity, ProviderKey, SealedToken};
use social_login_ports::RotationRefused;
use social_login_ports::{ProviderSignIn, RotateError, SignInError};
use std::sync::Arc;

pub async fn a_new_account_registers_a_user_with_its_link_and_session(repo: Arc<dyn Repository>) {
    let login = login_of(ProviderKey::GITHUB, "gh-1", Some("Ada@Example.com"), true);
    let signed_in = repo.sign_in_with_provider(login.clone()).await.unwrap();
    assert!(signed_in.is_new_user);
    assert_eq!(signed_in.user.id, login.new_user_id);
    assert!(signed_in.user.email_verified);
    assert_eq!(
        repo.find_user(login.new_user_id).await.unwrap(),
        Some(signed_in.user.clone()),
        "what the login returns is what was stored"
    );
    let link = repo
        .find_link(&login.identity.account())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (link.id, link.user_id),
        (login.new_link_id, login.new_user_id)
    );
    assert!(
        refresh_works(&*repo, login.session.hash).await,
        "the session is live"
    );
}

pub async fn a_matching_claimed_email_is_refused_and_nothing_is_written(repo: Arc<dyn Repository>) {
    let owner = new_user(Some("ada@example.com"), true);
    let owner_id = owner.id;
    store_user(repo.as_ref(), &owner, None).await;
    let login = login_of(ProviderKey::GITHUB, "gh-1", Some("ADA@example.com"), true);
    // Refused, naming the owner who may confirm the link by signing in.
    let offer = EmailAlreadyRegistered {
        confirm_with: Some(owner_id),
    };
    assert_eq!(
        repo.sign_in_with_provider(login.clone()).await,
        Err(SignInError::EmailAlreadyRegistered(offer))
    );
    assert_no_account_written(&*repo, &login).await;
    assert_eq!(
        refresh(&*repo, login.session.hash).await,
        Err(RotateError::Refused(RotationRefused::Invalid)),
        "no session was started"
    );
}

pub async fn with_auto_linking_a_verified_email_links_to_its_verified_owner(
    repo: Arc<dyn Repository>,
) {
    let owner = ada_on_google(&*repo).await;
    let github = auto_linking_login_of(ProviderKey::GITHUB, "gh-1", Some("Ada@Example.com"), true);
    let signed_in = repo.sign_in_with_provider(github.clone()).await.unwrap();
    assert!(!signed_in.is_new_user);
    assert_eq!(signed_in.user, owner);
    let providers = linked_providers(&*repo, owner.id).await;
    assert_eq!(providers, [ProviderKey::GOOGLE, ProviderKey::GITHUB]);
}

pub async fn an_unverified_email_matches_nobody_and_claims_nothing(repo: Arc<dyn Repository>) {
    let squatter = login_of(
        ProviderKey::DISCORD,
        "d-1",
        Some("victim@example.com"),
        false,
    );
    let squatter = repo.sign_in_with_provider(squatter).await.unwrap().user;
    let owner = auto_linking_login_of(ProviderKey::GOOGLE, "g-1", Some("victim@example.com"), true);
    let owner = repo.sign_in_with_provider(owner).await.unwrap();
    assert!(owner.is_new_user);
    assert_ne!(owner.user.id, squatter.id);
    assert_eq!(
        user_by_email(&*repo, "victim@example.com")
            .await
            .map(|user| user.id),
        Some(owner.user.id)
    );
}

pub async fn a_failure_after_the_user_is_written_leaves_no_user_and_no_link(
    repo: Arc<dyn Repository>,
) {
    // A session whose token hash is taken makes the last insert of the transaction fail.
    let taken = token_hash(7);
    let existing = repo
        .sign_in_with_provider(sign_in(user_less_identity()))
        .await
        .unwrap();
    super::fixtures::store_token(&*repo, existing.user.id, taken).await;
    let mut login = login_of(ProviderKey::GITHUB, "gh-2", Some("new@example.com"), true);
    login.session.hash = taken;
    assert!(matches!(
        repo.sign_in_with_provider(login.clone()).await,
        Err(SignInError::Repository(_))
    ));
    // All or nothing: the user was written before the session failed.
    assert_no_account_written(&*repo, &login).await;
    assert_eq!(user_by_email(&*repo, "new@example.com").await, None);
}

/// A login of `identity` that brings no provider token, as a native id_token sign-in.
fn tokenless(identity: ProviderIdentity) -> ProviderSignIn {
    let mut login = sign_in(identity);
    login.tokens = SealedTokens::none();
    login
}

/// A login of `identity` whose tokens an iOS app exchanged for its own client id.
fn ios_grant(identity: ProviderIdentity) -> ProviderSignIn {
    let mut login = sign_in(identity);
    login.tokens.client_id = Some("com.example.ios".into());
    login
}

pub async fn a_sign_in_that_brings_no_provider_token_keeps_the_stored_ones(
    repo: Arc<dyn Repository>,
) {
    let identity = provider_identity(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    let ada = signed_in_user(&*repo, sign_in(identity.clone())).await;

    // A native id_token sign-in of the same account: an identity and no provider token.
    let again = repo
        .sign_in_with_provider(tokenless(identity))
        .await
        .unwrap();
    assert_eq!((again.user.id, again.is_new_user), (ada, false));

    let grants = delete_user(&*repo, ada).await;
    assert_eq!(grants.len(), 1);
    assert_eq!(
        (&grants[0].access_token, &grants[0].refresh_token),
        (
            &SealedToken::new("k1:access"),
            &Some(SealedToken::new("k1:refresh"))
        ),
        "what revokes the grant is still there"
    );
}

/// A grant an app exchanged (Apple's native code) keeps the client it was issued to: stored
/// with new tokens, kept by a sign-in that brings none, replaced by the next tokens.
pub async fn the_client_a_grant_was_issued_to_goes_and_stays_with_its_tokens(
    repo: Arc<dyn Repository>,
) {
    let identity = provider_identity(ProviderKey::APPLE, "a-1", Some("ada@example.com"), true);
    let ada = signed_in_user(&*repo, ios_grant(identity.clone())).await;
    signed_in_user(&*repo, tokenless(identity.clone())).await;
    let grants = delete_user(&*repo, ada).await;
    assert_eq!(grants[0].client_id.as_deref(), Some("com.example.ios"));

    // The web's code flow then brings tokens of the configured client: no client id.
    let ada = signed_in_user(&*repo, ios_grant(identity.clone())).await;
    let mut web = sign_in(identity);
    web.tokens.access_token = SealedToken::new("k2:access");
    signed_in_user(&*repo, web).await;
    let grants = delete_user(&*repo, ada).await;
    assert_eq!(grants[0].access_token, SealedToken::new("k2:access"));
    assert_eq!(grants[0].client_id, None, "replaced with the tokens");
}

pub async fn an_unverified_email_equal_to_a_held_address_is_refused_even_with_auto_linking(
    repo: Arc<dyn Repository>,
) {
    let owner = ada_on_google(&*repo).await;
    let unverified =
        auto_linking_login_of(ProviderKey::DISCORD, "d-1", Some("ADA@example.com"), false);
    assert_eq!(
        repo.sign_in_with_provider(unverified.clone()).await,
        Err(SignInError::EmailAlreadyRegistered(
            EmailAlreadyRegistered::NO_OFFER
        ))
    );
    assert_eq!(repo.find_user(unverified.new_user_id).await.unwrap(), None);
    assert_eq!(repo.list_links(owner.id).await.unwrap().len(), 1);
    assert!(!refresh_works(&*repo, unverified.session.hash).await);
}
