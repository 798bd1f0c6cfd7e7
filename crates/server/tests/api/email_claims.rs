//! docs/api.md#linking-rules: an unverified provider email is kept as received but claims nothing, so a
//! squatter cannot block the real owner's registration or verified login.

use crate::helpers::*;
use serde_json::Value;

/// Discord asserts ada@example.com *unverified* for the simulator's user 1000002.
async fn squatter_signs_in_with_discord(app: &TestApp) -> Value {
    let login = app.login_at("discord", "1000002").await;
    assert_eq!(
        login["user"]["email"], "ada@example.com",
        "kept for display"
    );
    assert_eq!(login["user"]["email_verified"], false);
    login
}

#[tokio::test]
async fn an_unverified_provider_email_does_not_block_the_owners_password_registration() {
    let app = spawn_app().await;
    let squatter = squatter_signs_in_with_discord(&app).await;
    let owner = app.register("Ada@Example.com").await;
    assert_ne!(owner["user"]["id"], squatter["user"]["id"]);
    // The owner's address is theirs now: it logs in with the password.
    let login = ok_json(app.password_login("ada@example.com", PASSWORD).await).await;
    assert_eq!(login["user"]["id"], owner["user"]["id"]);
    app.stop().await;
}

/// With auto-link off and on alike: the squatter's unverified address links nothing.
#[tokio::test]
async fn an_unverified_provider_email_does_not_block_the_owners_verified_login_nor_auto_link() {
    for auto_link_by_email in [false, true] {
        let case = format!("auto_link_by_email = {auto_link_by_email}");
        let app = spawn_app_with(Options {
            auto_link_by_email,
            ..Options::default()
        })
        .await;
        let squatter = squatter_signs_in_with_discord(&app).await;
        let response = app.login_response_at("google", "583231").await;
        assert_eq!(
            response.status(),
            200,
            "{case}: the owner's verified Google login"
        );
        let owner: Value = response.json().await.unwrap();
        assert_eq!(
            owner["is_new_user"], true,
            "{case}: not the squatter's user"
        );
        assert_eq!(owner["user"]["email_verified"], true, "{case}");
        assert_ne!(owner["user"]["id"], squatter["user"]["id"], "{case}");
        // And the squatter's account did not inherit anything: it still has only Discord.
        let providers = app.linked_providers(&token(&squatter)).await;
        assert_eq!(providers, ["discord"], "{case}");
        app.stop().await;
    }
}

/// What a user's own and another user's look-alike address look like to the service.
fn kim() -> social_login_simulator::SimUser {
    social_login_simulator::SimUser::new("2000001", "kim").with_email("kim@example.com", true)
}

/// The same letters but U+212A KELVIN SIGN first: Unicode lowercases it to `k`.
fn kelvin() -> social_login_simulator::SimUser {
    social_login_simulator::SimUser::new("2000002", "kelvin")
        .with_email("\u{212A}im@example.com", true)
}

#[tokio::test]
async fn a_verified_look_alike_address_with_the_kelvin_sign_is_never_auto_linked_to_the_ascii_owner()
 {
    let app = spawn_auto_linking_app().await;
    app.sim.add_user(kim());
    app.sim.add_user(kelvin());
    let owner = ok_json(app.login_response_at("google", "2000001").await).await;

    let look_alike = app.login_response_at("github", "2000002").await;
    assert_eq!(look_alike.status(), 200, "a different address registers");
    let look_alike: Value = look_alike.json().await.unwrap();
    assert_eq!(look_alike["is_new_user"], true);
    assert_ne!(look_alike["user"]["id"], owner["user"]["id"]);
    assert_eq!(look_alike["user"]["email"], "\u{212A}im@example.com");
    let accounts: Value = app.accounts(&token(&owner)).await;
    assert_eq!(accounts.as_array().unwrap().len(), 1, "the owner kept one");
    app.stop().await;
}

#[tokio::test]
async fn an_unverified_provider_email_equal_to_a_held_address_is_a_conflict_and_links_nothing() {
    for auto_link_by_email in [false, true] {
        let app = spawn_app_with(Options {
            auto_link_by_email,
            ..Options::default()
        })
        .await;
        // The address is held: by a verified Google login here, by a password below.
        let owner = ok_json(app.login_response_at("google", "583231").await).await;

        let response = app.login_response_at("discord", "1000002").await;
        assert_problem(response, 409, "EmailAlreadyRegistered").await;
        let accounts: Value = app.accounts(&token(&owner)).await;
        assert_eq!(accounts.as_array().unwrap().len(), 1, "nothing linked");
        app.stop().await;

        let app = spawn_app_with(Options {
            auto_link_by_email,
            ..Options::default()
        })
        .await;
        app.register("ada@example.com").await;
        let response = app.login_response_at("discord", "1000002").await;
        assert_problem(response, 409, "EmailAlreadyRegistered").await;
        app.stop().await;
    }
}
