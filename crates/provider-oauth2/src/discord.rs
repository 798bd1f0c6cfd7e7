//! Discord (docs/providers.md#discord): the declaration reads `/users/@me` (the display name,
//! else the unique username); the quirk turns the avatar hash into the CDN URL Discord
//! itself shows ([`avatar`]).

mod avatar;

use async_trait::async_trait;
use serde_json::Value;
use social_login_ports::ProviderError;
use social_login_provider_core::{Finish, Quirks};

/// Discord's quirk: the avatar URL.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiscordQuirks;

#[async_trait]
impl Quirks for DiscordQuirks {
    async fn finish(&self, finish: &mut Finish<'_>) -> Result<(), ProviderError> {
        let user = finish.cx.first();
        let text = |name| user.and_then(|user| user.get(name)).and_then(Value::as_str);
        let id = finish.identity.subject.as_str();
        let avatar = avatar::avatar_url(id, text("avatar"), text("discriminator"));
        finish.identity.avatar_url = avatar;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use social_login_domain::{Email, ProviderIdentity, ProviderKey};
    use social_login_provider_core::offline::identity_of;

    fn user() -> Value {
        json!({"id": "1047859021147058176", "username": "ada.lovelace", "discriminator": "0",
               "global_name": "Ada", "avatar": null, "email": "ada@example.com",
               "verified": true})
    }

    async fn identity(changes: Value) -> Result<ProviderIdentity, ProviderError> {
        let mut user = user();
        for (name, value) in changes.as_object().unwrap() {
            user[name] = value.clone();
        }
        identity_of(ProviderKey::DISCORD, &DiscordQuirks, &[user], None).await
    }

    #[tokio::test]
    async fn a_verified_email_is_verified_and_the_display_name_wins() {
        let identity = identity(json!({})).await.unwrap();
        assert_eq!(identity.subject.as_str(), "1047859021147058176");
        let email = identity.email.as_ref().map(Email::as_str);
        assert_eq!(email, Some("ada@example.com"));
        assert!(identity.email_verified);
        assert_eq!(identity.full_name.as_deref(), Some("Ada"));
        let avatar = identity.avatar_url.as_deref();
        assert_eq!(
            avatar,
            Some("https://cdn.discordapp.com/embed/avatars/4.png")
        );
    }

    #[tokio::test]
    async fn an_unverified_or_unstated_email_is_kept_but_not_verified() {
        for verified in [json!(false), Value::Null] {
            let identity = identity(json!({ "verified": verified })).await.unwrap();
            assert!(identity.email.is_some());
            assert!(!identity.email_verified);
        }
    }

    #[tokio::test]
    async fn without_email_there_is_nothing_to_verify() {
        let identity = identity(json!({"email": null})).await.unwrap();
        assert_eq!(identity.email, None);
        assert!(!identity.email_verified);
    }

    #[tokio::test]
    async fn without_a_display_name_the_username_is_the_name() {
        for global_name in [Value::Null, json!("  ")] {
            let identity = identity(json!({ "global_name": global_name }))
                .await
                .unwrap();
            assert_eq!(identity.full_name.as_deref(), Some("ada.lovelace"));
        }
    }

    #[tokio::test]
    async fn an_own_avatar_hash_gives_its_cdn_url() {
        let hash = json!({"avatar": "a_1269e74af4df7417b13759eae50c83dc"});
        let identity = identity(hash).await.unwrap();
        assert!(
            identity
                .avatar_url
                .unwrap()
                .ends_with("/a_1269e74af4df7417b13759eae50c83dc.gif")
        );
    }

    #[tokio::test]
    async fn an_empty_id_is_a_user_info_failure() {
        let error = identity(json!({"id": ""})).await.unwrap_err();
        assert!(matches!(error, ProviderError::UserInfo(_)));
    }
}
