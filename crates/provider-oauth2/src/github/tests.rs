//! The email rule and the `/user` claims, on documents alone.

use super::emails::{EmailEntry, choose};
use serde_json::{Value, json};
use social_login_domain::{Email, ProviderIdentity, ProviderKey};
use social_login_provider_core::NoQuirks;
use social_login_provider_core::ObjectOnly;
use social_login_provider_core::offline::identity_of;

fn user(name: Value, public: Value) -> Value {
    json!({"login": "adalovelace", "id": 583231, "name": name, "email": public,
           "avatar_url": "https://avatars.example/u/583231"})
}

fn entry(email: &str, primary: bool, verified: bool) -> EmailEntry {
    EmailEntry {
        email: email.into(),
        primary,
        verified,
        _object: ObjectOnly,
    }
}

/// The declaration's claims of `user`, then the email rule on `emails` as the quirk applies
/// it (`None`: the list could not be read).
async fn signed_in(user: Value, emails: Option<&[EmailEntry]>) -> ProviderIdentity {
    let mut identity = identity_of(ProviderKey::GITHUB, &NoQuirks, &[user], None)
        .await
        .unwrap();
    (identity.email, identity.email_verified) =
        choose(identity.email.take(), emails.unwrap_or_default());
    identity
}

fn email_of(identity: &ProviderIdentity) -> Option<&str> {
    identity.email.as_ref().map(Email::as_str)
}

#[tokio::test]
async fn the_verified_primary_email_is_chosen_over_others() {
    let emails = [
        entry("583231+adalovelace@users.noreply.github.com", false, true),
        entry("ada@example.com", true, true),
    ];
    let identity = signed_in(user(json!("Ada"), Value::Null), Some(&emails)).await;
    assert_eq!(
        identity.subject.as_str(),
        "583231",
        "the numeric id, as text"
    );
    assert_eq!(email_of(&identity), Some("ada@example.com"));
    assert!(identity.email_verified);
    assert_eq!(
        identity.avatar_url.as_deref(),
        Some("https://avatars.example/u/583231")
    );
}

#[tokio::test]
async fn an_unverified_primary_gives_no_email_rather_than_another_entry() {
    let emails = [
        entry("ada@example.com", true, false),
        entry("other@example.com", false, true),
    ];
    let identity = signed_in(user(Value::Null, Value::Null), Some(&emails)).await;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
}

#[tokio::test]
async fn a_public_email_is_verified_only_if_listed_as_verified() {
    let listed = [entry("Ada@Example.com", false, true)];
    let public = || user(Value::Null, json!("ada@example.com"));
    let identity = signed_in(public(), Some(&listed)).await;
    assert_eq!(email_of(&identity), Some("ada@example.com"));
    assert!(identity.email_verified);

    let unlisted = signed_in(public(), None).await;
    assert_eq!(email_of(&unlisted), Some("ada@example.com"));
    assert!(!unlisted.email_verified);
}

#[tokio::test]
async fn a_missing_or_blank_name_is_null_not_the_login() {
    for name in [Value::Null, json!("  ")] {
        let identity = signed_in(user(name, Value::Null), None).await;
        assert_eq!(identity.full_name, None);
    }
    let named = signed_in(user(json!("Ada"), Value::Null), None).await;
    assert_eq!(named.full_name.as_deref(), Some("Ada"));
}

#[tokio::test]
async fn a_malformed_email_counts_as_none() {
    let emails = [entry("not-an-email", true, true)];
    let identity = signed_in(user(Value::Null, json!("also bad")), Some(&emails)).await;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
}
