//! GitHub's `/user` claims, on documents alone (the email rule is the emails list's, in
//! `social_login_provider_core::emails`).

use serde_json::{Value, json};
use social_login_domain::{ProviderIdentity, ProviderKey};
use social_login_provider_core::NoQuirks;
use social_login_provider_core::offline::identity_of;

fn user(name: Value, public: Value) -> Value {
    json!({"login": "adalovelace", "id": 583231, "name": name, "email": public,
           "avatar_url": "https://avatars.example/u/583231"})
}

async fn signed_in(user: Value) -> ProviderIdentity {
    identity_of(ProviderKey::GITHUB, &NoQuirks, &[user], None)
        .await
        .unwrap()
}

#[tokio::test]
async fn the_numeric_id_is_the_subject_and_the_avatar_is_read() {
    let identity = signed_in(user(json!("Ada"), Value::Null)).await;
    assert_eq!(
        identity.subject.as_str(),
        "583231",
        "the numeric id, as text"
    );
    assert_eq!(
        identity.avatar_url.as_deref(),
        Some("https://avatars.example/u/583231")
    );
}

#[tokio::test]
async fn a_public_email_alone_is_never_verified() {
    let identity = signed_in(user(Value::Null, json!("ada@example.com"))).await;
    assert_eq!(
        identity.email.as_ref().map(|email| email.as_str()),
        Some("ada@example.com")
    );
    assert!(!identity.email_verified, "only the emails list vouches");
}

#[tokio::test]
async fn a_missing_or_blank_name_is_null_not_the_login() {
    for name in [Value::Null, json!("  ")] {
        let identity = signed_in(user(name, Value::Null)).await;
        assert_eq!(identity.full_name, None);
    }
    let named = signed_in(user(json!("Ada"), Value::Null)).await;
    assert_eq!(named.full_name.as_deref(), Some("Ada"));
}
