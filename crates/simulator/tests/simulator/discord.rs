//! The simulated Discord: what its dialect and hooks add to what every provider does (see
//! `dialects`): its own answer to each PKCE mistake, its user object, and revocation
//! reaching the whole authorization.

use crate::support::fixtures::{DISCORD, config_for, start, start_with};
use crate::support::{OTHER_VERIFIER, VERIFIER};
use social_login_simulator::{DiscordSeed, SimUser, TokenKind};

#[tokio::test]
async fn a_plain_challenge_is_refused_as_an_unsupported_method() {
    let client = DISCORD.started().await;
    let plain = client
        .valid("identify")
        .set("code_challenge", VERIFIER)
        .set("code_challenge_method", "plain");
    let unsupported = "Unsupported \"code_challenge_method\"";
    client.assert_invalid_request(&plain, unsupported).await;
}

#[tokio::test]
async fn each_verifier_mistake_gets_its_own_answer() {
    let client = DISCORD.started().await;
    let with_challenge = client.valid("identify");
    let without_challenge = with_challenge
        .clone()
        .unset("code_challenge")
        .unset("code_challenge_method");
    let cases = [
        (
            &with_challenge,
            Some("too-short-verifier-0123456789"),
            "invalid_request",
            "Invalid \"code_verifier\"",
        ),
        (
            &with_challenge,
            None,
            "invalid_request",
            "Missing \"code_verifier\"",
        ),
        (
            &without_challenge,
            Some(VERIFIER),
            "invalid_request",
            "Invalid \"code_verifier\"",
        ),
        (
            &with_challenge,
            Some(OTHER_VERIFIER),
            "invalid_grant",
            "Invalid \"code_verifier\"",
        ),
    ];
    for (authorize, verifier, error, description) in cases {
        let code = client
            .answer(authorize)
            .await
            .get("code")
            .unwrap()
            .to_owned();
        let form = client.token_form(&code).with("code_verifier", verifier);
        let (status, body) = client.token(&form).await;
        assert_eq!(status, 400, "{verifier:?}");
        assert_eq!(
            (body["error"].as_str(), body["error_description"].as_str()),
            (Some(error), Some(description))
        );
    }
    let malformed = client
        .answer(&with_challenge.set("code_challenge", "short"))
        .await;
    assert_eq!(
        malformed.get("error_description"),
        Some("Invalid \"code_challenge\"")
    );
}

#[tokio::test]
async fn the_user_object_has_discords_fields_and_the_email_only_with_its_scope() {
    let nelly = SimUser::new("80351110224678912", "nelly")
        .with_email("nelly@example.com", true)
        .with_discord(DiscordSeed::legacy("1337").with_avatar("a_abc123"));
    let sim = start_with(config_for(&[DISCORD], nelly)).await;
    let client = DISCORD.client(&sim);
    let user = client.profile("identify email").await;
    let names = (user["username"].as_str(), user["discriminator"].as_str());
    assert_eq!(names, (Some("nelly"), Some("1337")));
    let seed = (user["avatar"].as_str(), user["verified"].as_bool());
    assert_eq!(seed, (Some("a_abc123"), Some(true)));
    let user = client.profile("identify").await;
    assert!(user.get("email").is_none() && user.get("verified").is_none());
    assert!(user["global_name"].is_null(), "nelly has no display name");
    let token = client.access_token("email").await;
    assert_eq!(
        client.userinfo(Some(&token)).await.0,
        401,
        "no identify: treated as no token"
    );
    assert_eq!(client.last_outcome(), "missing_scope");
}

#[tokio::test]
async fn revoking_the_refresh_token_revokes_the_whole_authorization() {
    let sim = start(&[DISCORD]).await;
    let client = DISCORD.client(&sim);
    let tokens = client.tokens(DISCORD.scope).await;
    let refresh = tokens["refresh_token"].as_str().unwrap();
    assert_eq!(client.revoke(refresh, "refresh_token").await.0, 200);
    let revoked = sim.revocations().pop().unwrap();
    assert_eq!(revoked.kind, Some(TokenKind::Refresh));
    assert_eq!(
        client.userinfo(tokens["access_token"].as_str()).await.0,
        401
    );
}
