//! From Discord's user object to the normalised identity.
//!
//! The email is verified exactly when Discord says `verified: true` (PROVIDERS.md §10.7).
//! The name is the display name (`global_name`), else the unique `username`: Discord has
//! no other name, and every account has a username. The avatar is always a URL: the
//! user's own, or the default one Discord itself shows.

use super::api::User;
use super::avatar::avatar_url;
use social_login_domain::{Email, ProviderIdentity, ProviderKey, ProviderSubject};
use social_login_ports::ProviderError;

pub fn to_identity(user: User) -> Result<ProviderIdentity, ProviderError> {
    let subject = ProviderSubject::parse(user.id.clone())
        .map_err(|_| ProviderError::UserInfo("Discord user has no usable id".into()))?;
    let email = user.email.as_deref().and_then(|raw| Email::parse(raw).ok());
    let email_verified = email.is_some() && user.verified == Some(true);
    let avatar_url = avatar_url(
        &user.id,
        user.avatar.as_deref(),
        user.discriminator.as_deref(),
    );
    Ok(ProviderIdentity {
        provider: ProviderKey::DISCORD,
        subject,
        email,
        email_verified,
        full_name: non_blank(user.global_name).or_else(|| non_blank(user.username)),
        avatar_url,
    })
}

fn non_blank(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use social_login_provider_core::ObjectOnly;

    fn user() -> User {
        User {
            id: "1047859021147058176".into(),
            username: Some("ada.lovelace".into()),
            discriminator: Some("0".into()),
            global_name: Some("Ada".into()),
            avatar: None,
            email: Some("ada@example.com".into()),
            verified: Some(true),
            _object: ObjectOnly,
        }
    }

    #[test]
    fn a_verified_email_is_verified_and_the_display_name_wins() {
        let identity = to_identity(user()).unwrap();
        assert_eq!(identity.subject.as_str(), "1047859021147058176");
        assert_eq!(
            identity.email.as_ref().map(Email::as_str),
            Some("ada@example.com")
        );
        assert!(identity.email_verified);
        assert_eq!(identity.full_name.as_deref(), Some("Ada"));
    }

    #[test]
    fn an_unverified_or_unstated_email_is_kept_but_not_verified() {
        for verified in [Some(false), None] {
            let identity = to_identity(User { verified, ..user() }).unwrap();
            assert!(identity.email.is_some());
            assert!(!identity.email_verified);
        }
    }

    #[test]
    fn without_email_there_is_nothing_to_verify() {
        let identity = to_identity(User {
            email: None,
            ..user()
        })
        .unwrap();
        assert_eq!(identity.email, None);
        assert!(!identity.email_verified);
    }

    #[test]
    fn without_a_display_name_the_username_is_the_name() {
        for global_name in [None, Some("  ".to_owned())] {
            let identity = to_identity(User {
                global_name,
                ..user()
            })
            .unwrap();
            assert_eq!(identity.full_name.as_deref(), Some("ada.lovelace"));
        }
    }

    #[test]
    fn an_empty_id_is_a_user_info_failure() {
        let error = to_identity(User {
            id: String::new(),
            ..user()
        })
        .unwrap_err();
        assert!(matches!(error, ProviderError::UserInfo(_)));
    }
}
