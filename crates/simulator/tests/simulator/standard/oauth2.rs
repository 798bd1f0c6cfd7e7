//! `/oauth2`: no discovery and no id_token, a user document of its own nested shape, and
//! revocation reaching the whole grant.

use crate::support::fixtures::{OAUTH2, config_for, start, start_with};
use serde_json::json;
use social_login_simulator::{Provider, SimUser};

#[tokio::test]
async fn there_is_no_discovery_and_no_id_token_even_for_openid() {
    let sim = start(&[OAUTH2]).await;
    let client = OAUTH2.client(&sim);
    assert!(client.urls().discovery.is_none() && client.urls().issuer.is_none());
    let url = format!("{}/oauth2/.well-known/openid-configuration", sim.base_url());
    assert_eq!(client.get(&url, None).await.0, 404);
    assert!(
        client
            .tokens("openid profile email")
            .await
            .get("id_token")
            .is_none()
    );
}

#[tokio::test]
async fn the_user_document_is_nested_with_a_numeric_id_and_a_string_flag() {
    let ada = crate::support::fixtures::ada().with_avatar_url("https://corp.example/ada.png");
    let sim = start_with(config_for(&[OAUTH2], ada)).await;
    let client = OAUTH2.client(&sim);
    let body = client.profile("profile email").await;
    let attributes = json!({"mail": "ada@example.com", "mail_confirmed": "true", "display": "Ada Lovelace",
                            "avatar": {"url": "https://corp.example/ada.png"}});
    assert_eq!(
        body,
        json!({"data": {"id": 583231, "attributes": attributes}})
    );
    let body = client.profile("profile").await;
    assert!(
        body["data"]["attributes"].get("mail").is_none(),
        "no mail without the email scope"
    );
}

#[tokio::test]
async fn an_unconfirmed_mail_says_false_and_a_textual_id_stays_text() {
    let grace = SimUser::new("g-7", "grace").with_email("grace@example.com", false);
    let sim = start_with(config_for(&[OAUTH2], grace)).await;
    let client = OAUTH2.client(&sim);
    let body = client.profile("profile email").await;
    assert_eq!(body["data"]["id"], "g-7");
    assert_eq!(body["data"]["attributes"]["mail_confirmed"], "false");
    assert_eq!(
        body["data"]["attributes"]["display"], "grace",
        "the login without a name"
    );
}

#[tokio::test]
async fn revoking_the_refresh_token_revokes_the_whole_grant() {
    let sim = start(&[OAUTH2]).await;
    let client = OAUTH2.client(&sim);
    let body = client.tokens(OAUTH2.scope).await;
    assert_eq!(
        client
            .revoke(body["refresh_token"].as_str().unwrap(), "refresh_token")
            .await
            .0,
        200
    );
    assert_eq!(sim.revocations()[0].provider, Provider::StandardOauth2);
    assert_eq!(client.userinfo(body["access_token"].as_str()).await.0, 401);
}
