//! From X's `/2/users/me` to the normalised identity.
//!
//! `confirmed_email` is by definition confirmed, so it is verified (PROVIDERS.md §7.5);
//! without it there is no email and the user still signs in (CONTRACT §4).

use super::api::UsersMe;
use social_login_domain::{Email, ProviderIdentity, ProviderKey, ProviderSubject};
use social_login_ports::ProviderError;

pub fn to_identity(answer: UsersMe) -> Result<ProviderIdentity, ProviderError> {
    let user = answer
        .data
        .ok_or_else(|| ProviderError::UserInfo("X user endpoint answered no user data".into()))?;
    let subject = ProviderSubject::parse(user.id)
        .map_err(|_| ProviderError::UserInfo("X user has no usable id".into()))?;
    let email = user
        .confirmed_email
        .as_deref()
        .and_then(|raw| Email::parse(raw).ok());
    Ok(ProviderIdentity {
        provider: ProviderKey::TWITTER,
        subject,
        email_verified: email.is_some(),
        email,
        full_name: non_blank(user.name),
        avatar_url: non_blank(user.profile_image_url),
    })
}

fn non_blank(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::twitter::api::User;
    use social_login_provider_core::ObjectOnly;

    fn answer(email: Option<&str>) -> UsersMe {
        UsersMe {
            data: Some(User {
                id: "2244994945".into(),
                name: Some("Ada Lovelace".into()),
                profile_image_url: Some(
                    "https://pbs.twimg.com/profile_images/1/a_normal.jpg".into(),
                ),
                confirmed_email: email.map(Into::into),
                _object: ObjectOnly,
            }),
            _object: ObjectOnly,
        }
    }

    #[test]
    fn a_confirmed_email_is_a_verified_email() {
        let identity = to_identity(answer(Some("ada@example.com"))).unwrap();
        assert_eq!(identity.subject.as_str(), "2244994945");
        assert_eq!(
            identity.email.as_ref().map(Email::as_str),
            Some("ada@example.com")
        );
        assert!(identity.email_verified);
        assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
    }

    #[test]
    fn without_a_confirmed_email_there_is_no_email() {
        let identity = to_identity(answer(None)).unwrap();
        assert_eq!(identity.email, None);
        assert!(!identity.email_verified);
    }

    #[test]
    fn a_malformed_email_counts_as_none_and_is_not_verified() {
        let identity = to_identity(answer(Some("not-an-email"))).unwrap();
        assert_eq!(identity.email, None);
        assert!(!identity.email_verified);
    }

    #[test]
    fn an_answer_without_data_is_a_user_info_failure() {
        let error = to_identity(UsersMe {
            data: None,
            _object: ObjectOnly,
        })
        .unwrap_err();
        assert!(matches!(error, ProviderError::UserInfo(_)));
    }
}
