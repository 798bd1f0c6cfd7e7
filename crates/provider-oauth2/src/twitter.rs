//! X, formerly Twitter (docs/providers.md#x-twitter): the declaration reads `/2/users/me`
//! (`confirmed_email` is confirmed by definition); the quirks ask for the user fields sign-in
//! reads, and `confirmed_email` only when the scopes include the email scope (and the app may
//! request emails), and name an answer without user data.

use reqwest::RequestBuilder;
use serde_json::{Map, Value};
use social_login_ports::ProviderError;
use social_login_provider_core::{ProviderPlan, Quirks, UserinfoCall};
use url::Url;

/// X's quirks: the scope that lets `/2/users/me` return `confirmed_email`.
#[derive(Debug, Clone)]
pub struct TwitterQuirks {
    email_scope: Option<String>,
}

impl TwitterQuirks {
    pub fn new(plan: &ProviderPlan) -> Self {
        Self {
            email_scope: plan.spec.email_scope.clone(),
        }
    }
}

impl Quirks for TwitterQuirks {
    fn userinfo_request(&self, call: UserinfoCall<'_>) -> RequestBuilder {
        let wants_email = self
            .email_scope
            .as_ref()
            .is_some_and(|email| call.scopes.contains(email));
        let url = with_user_fields(call.url, wants_email);
        call.http.get(url).bearer_auth(call.access_token.expose())
    }

    /// `{"errors": [...]}` without `data`: X's way of refusing.
    fn userinfo_failure(&self, document: &Map<String, Value>) -> Option<ProviderError> {
        let data = document.get("data").is_some_and(Value::is_object);
        let message = "X userinfo endpoint answered no user data";
        (!data).then(|| ProviderError::UserInfo(message.into()))
    }
}

/// `user.fields=profile_image_url` (`,confirmed_email` with the email scope), replacing any
/// `user.fields` of a configured URL and keeping its other parameters.
fn with_user_fields(url: &Url, wants_email: bool) -> Url {
    let fields = match wants_email {
        true => "profile_image_url,confirmed_email",
        false => "profile_image_url",
    };
    let mut url = url.clone();
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(name, _)| name != "user.fields")
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    url.query_pairs_mut()
        .clear()
        .extend_pairs(kept)
        .append_pair("user.fields", fields);
    url
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use social_login_domain::{Email, ProviderIdentity, ProviderKey};
    use social_login_provider_core::offline::identity_of;

    fn quirks() -> TwitterQuirks {
        TwitterQuirks {
            email_scope: Some("users.email".into()),
        }
    }

    async fn identity(email: Value) -> Result<ProviderIdentity, ProviderError> {
        let answer = json!({"data": {"id": "2244994945", "name": "Ada Lovelace", "username": "ada",
            "profile_image_url": "https://pbs.twimg.com/profile_images/1/a_normal.jpg",
            "confirmed_email": email}});
        identity_of(ProviderKey::TWITTER, &quirks(), &[answer], None).await
    }

    #[tokio::test]
    async fn a_confirmed_email_is_a_verified_email() {
        let identity = identity(json!("ada@example.com")).await.unwrap();
        assert_eq!(identity.subject.as_str(), "2244994945");
        let email = identity.email.as_ref().map(Email::as_str);
        assert_eq!(email, Some("ada@example.com"));
        assert!(identity.email_verified);
        assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
    }

    #[tokio::test]
    async fn without_a_confirmed_email_there_is_no_email() {
        for email in [Value::Null, json!("not-an-email")] {
            let identity = identity(email).await.unwrap();
            assert_eq!(identity.email, None);
            assert!(!identity.email_verified);
        }
    }

    #[test]
    fn an_answer_without_data_is_a_user_info_failure() {
        let errors = json!({"errors": [{"title": "Unauthorized"}]});
        let failure = quirks().userinfo_failure(errors.as_object().unwrap());
        assert!(matches!(failure, Some(ProviderError::UserInfo(_))));
    }

    #[test]
    fn confirmed_email_is_asked_for_only_with_the_email_scope() {
        let url = Url::parse("https://api.x.com/2/users/me").unwrap();
        assert_eq!(
            with_user_fields(&url, false).as_str(),
            "https://api.x.com/2/users/me?user.fields=profile_image_url"
        );
        let url = Url::parse("https://x.example/2/users/me?user.fields=id&expansions=x").unwrap();
        assert_eq!(
            with_user_fields(&url, true).as_str(),
            "https://x.example/2/users/me?expansions=x&user.fields=profile_image_url%2Cconfirmed_email"
        );
    }
}
