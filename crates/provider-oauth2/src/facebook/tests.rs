//! The Graph node through the declaration and the quirks, on documents alone.

use super::*;
use proptest::prelude::*;
use serde_json::json;
use social_login_domain::{Email, ProviderIdentity, ProviderKey};
use social_login_provider_core::json_strategies::body_bytes;
use social_login_provider_core::offline::identity_of;
use url::Url;

fn quirks() -> FacebookQuirks {
    FacebookQuirks {
        app_secret: SecretText::new("app-secret"),
    }
}

fn node(silhouette: bool) -> Value {
    json!({"id": "10229876543210987", "name": "Ada Lovelace", "email": "ada@example.com",
           "picture": {"data": {"height": 50, "is_silhouette": silhouette,
                                "url": "https://platform-lookaside.fbsbx.com/p/1", "width": 50}}})
}

fn graph_error() -> Value {
    json!({"error": {"message": "Error validating access token: ada@example.com EAAB-token",
                     "type": "OAuthException", "code": 190, "error_subcode": 463,
                     "fbtrace_id": "AbCdEf"}})
}

async fn identity(node: Value) -> Result<ProviderIdentity, ProviderError> {
    identity_of(ProviderKey::FACEBOOK, &quirks(), &[node], None).await
}

#[tokio::test]
async fn the_email_is_kept_but_never_verified() {
    let identity = identity(node(false)).await.unwrap();
    assert_eq!(identity.subject.as_str(), "10229876543210987");
    let email = identity.email.as_ref().map(Email::as_str);
    assert_eq!(email, Some("ada@example.com"));
    assert!(!identity.email_verified, "Facebook vouches for no email");
    assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
    let avatar = identity.avatar_url.as_deref();
    assert_eq!(avatar, Some("https://platform-lookaside.fbsbx.com/p/1"));
}

#[tokio::test]
async fn the_default_silhouette_is_no_avatar() {
    assert_eq!(identity(node(true)).await.unwrap().avatar_url, None);
}

#[tokio::test]
async fn a_node_without_id_is_a_user_info_failure() {
    let mut node = node(false);
    node.as_object_mut().unwrap().remove("id");
    assert!(matches!(
        identity(node).await,
        Err(ProviderError::UserInfo(_))
    ));
}

#[test]
fn a_graph_error_in_the_body_is_a_user_info_failure_naming_type_and_code() {
    let error = quirks().userinfo_failure(graph_error().as_object().unwrap());
    let expected = "Facebook userinfo endpoint answered Graph error OAuthException (code 190)";
    assert_eq!(error, Some(ProviderError::UserInfo(expected.into())));
    assert_eq!(
        quirks().userinfo_failure(node(false).as_object().unwrap()),
        None
    );
}

#[test]
fn a_configured_url_gets_our_fields_and_proof_in_place_of_its_own() {
    let url = Url::parse(
        "https://graph.example/me?appsecret_proof=00&fields=id&locale=en_US&access_token=x",
    )
    .unwrap();
    let signed = graph::signed(&url, "p1", Some(ME_FIELDS));
    assert_eq!(
        signed.query(),
        Some("locale=en_US&fields=id%2Cname%2Cemail%2Cpicture&appsecret_proof=p1")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    /// The Graph message is free text (it can quote the token and the email); only a type
    /// and a code that look like one are repeated.
    #[test]
    fn a_graph_error_never_quotes_its_message(body in body_bytes(graph_error())) {
        let Ok(Value::Object(document)) = serde_json::from_slice::<Value>(&body) else {
            return Ok(());
        };
        if let Some(ProviderError::UserInfo(message)) = quirks().userinfo_failure(&document) {
            for quoted in ["@", "EAAB", "Error validating"] {
                prop_assert!(!message.contains(quoted), "{}", message);
            }
        }
    }
}
