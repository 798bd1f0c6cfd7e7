//! From GitHub's `/user` and `/user/emails` to the normalised identity.
//!
//! The email rule (PROVIDERS.md §2.5, §10.7): the `primary && verified` entry of
//! `/user/emails`, never a silent fall back to another entry. Without one, the public
//! `/user` email is used, verified only if `/user/emails` lists it as verified. Otherwise
//! there is no email: a user with none still signs in, and nothing links by email.

use super::api::{EmailEntry, User};
use social_login_domain::{Email, ProviderIdentity, ProviderKey, ProviderSubject};
use social_login_ports::ProviderError;

/// Maps the answers; `emails` is `None` when the list could not be read.
pub fn to_identity(
    user: User,
    emails: Option<&[EmailEntry]>,
) -> Result<ProviderIdentity, ProviderError> {
    let subject = ProviderSubject::parse(user.id.to_string())
        .map_err(|_| ProviderError::UserInfo("GitHub profile has no usable id".into()))?;
    let (email, email_verified) = choose_email(user.email.as_deref(), emails.unwrap_or_default());
    Ok(ProviderIdentity {
        provider: ProviderKey::GITHUB,
        subject,
        email,
        email_verified,
        // Spec §2: full_name is null when the provider supplies no name; the login
        // handle is not a name.
        full_name: non_blank(user.name),
        avatar_url: non_blank(user.avatar_url),
    })
}

fn choose_email(public: Option<&str>, emails: &[EmailEntry]) -> (Option<Email>, bool) {
    let primary = emails.iter().find(|entry| entry.primary && entry.verified);
    if let Some(email) = primary.and_then(|entry| Email::parse(&entry.email).ok()) {
        return (Some(email), true);
    }
    let Some(public) = public.and_then(|raw| Email::parse(raw).ok()) else {
        return (None, false);
    };
    let verified = emails.iter().any(|entry| {
        entry.verified && Email::parse(&entry.email).is_ok_and(|listed| listed.matches(&public))
    });
    (Some(public), verified)
}

fn non_blank(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use social_login_provider_core::ObjectOnly;

    fn user(name: Option<&str>, public: Option<&str>) -> User {
        User {
            id: 583231,
            name: name.map(Into::into),
            email: public.map(Into::into),
            avatar_url: Some("https://avatars.example/u/583231".into()),
            _object: ObjectOnly,
        }
    }

    fn entry(email: &str, primary: bool, verified: bool) -> EmailEntry {
        EmailEntry {
            email: email.into(),
            primary,
            verified,
            _object: ObjectOnly,
        }
    }

    fn email_of(identity: &ProviderIdentity) -> Option<&str> {
        identity.email.as_ref().map(Email::as_str)
    }

    #[test]
    fn the_verified_primary_email_is_chosen_over_others() {
        let emails = [
            entry("583231+adalovelace@users.noreply.github.com", false, true),
            entry("ada@example.com", true, true),
        ];
        let identity = to_identity(user(Some("Ada"), None), Some(&emails)).unwrap();
        assert_eq!(identity.subject.as_str(), "583231");
        assert_eq!(email_of(&identity), Some("ada@example.com"));
        assert!(identity.email_verified);
    }

    #[test]
    fn an_unverified_primary_gives_no_email_rather_than_another_entry() {
        let emails = [
            entry("ada@example.com", true, false),
            entry("other@example.com", false, true),
        ];
        let identity = to_identity(user(None, None), Some(&emails)).unwrap();
        assert_eq!(identity.email, None);
        assert!(!identity.email_verified);
    }

    #[test]
    fn a_public_email_is_verified_only_if_listed_as_verified() {
        let listed = [entry("Ada@Example.com", false, true)];
        let identity = to_identity(user(None, Some("ada@example.com")), Some(&listed)).unwrap();
        assert_eq!(email_of(&identity), Some("ada@example.com"));
        assert!(identity.email_verified);

        let unlisted = to_identity(user(None, Some("ada@example.com")), None).unwrap();
        assert_eq!(email_of(&unlisted), Some("ada@example.com"));
        assert!(!unlisted.email_verified);
    }

    #[test]
    fn a_missing_or_blank_name_is_null_not_the_login() {
        assert_eq!(to_identity(user(None, None), None).unwrap().full_name, None);
        assert_eq!(
            to_identity(user(Some("  "), None), None).unwrap().full_name,
            None
        );
        assert_eq!(
            to_identity(user(Some("Ada"), None), None)
                .unwrap()
                .full_name
                .as_deref(),
            Some("Ada")
        );
    }

    #[test]
    fn a_malformed_email_counts_as_none() {
        let emails = [entry("not-an-email", true, true)];
        let identity = to_identity(user(None, Some("also bad")), Some(&emails)).unwrap();
        assert_eq!(identity.email, None);
        assert!(!identity.email_verified);
    }
}
