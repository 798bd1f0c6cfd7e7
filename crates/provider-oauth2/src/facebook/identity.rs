//! From the Graph API's user node to the normalised identity.
//!
//! Facebook sends no email-verified flag (PROVIDERS.md §3.5, §10.7). The safe reading is
//! taken: the email is kept but never counted as verified, so it never links accounts.
//! The default silhouette picture is not the person's: it gives no avatar.

use super::api::{GraphError, Me};
use social_login_domain::{Email, ProviderIdentity, ProviderKey, ProviderSubject};
use social_login_ports::ProviderError;
use social_login_provider_core::failure::safe_error_code;

pub fn to_identity(me: Me) -> Result<ProviderIdentity, ProviderError> {
    if let Some(error) = me.error {
        return Err(graph_failure(&error));
    }
    let subject = me
        .id
        .and_then(|id| ProviderSubject::parse(id).ok())
        .ok_or_else(|| ProviderError::UserInfo("Facebook profile has no usable id".into()))?;
    let avatar_url = me
        .picture
        .and_then(|picture| picture.data)
        .filter(|data| !data.is_silhouette)
        .and_then(|data| non_blank(data.url));
    Ok(ProviderIdentity {
        provider: ProviderKey::FACEBOOK,
        subject,
        email: me.email.as_deref().and_then(|raw| Email::parse(raw).ok()),
        email_verified: false,
        full_name: non_blank(me.name),
        avatar_url,
    })
}

fn graph_failure(error: &GraphError) -> ProviderError {
    let kind = error
        .kind
        .as_deref()
        .map_or_else(|| "unknown".to_owned(), safe_error_code);
    let code = error
        .code
        .map_or_else(|| "none".to_owned(), |c| c.to_string());
    ProviderError::UserInfo(format!(
        "Facebook profile endpoint answered Graph error {kind} (code {code})"
    ))
}

fn non_blank(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facebook::api::{Picture, PictureData};
    use social_login_provider_core::ObjectOnly;

    fn me() -> Me {
        Me {
            id: Some("10229876543210987".into()),
            name: Some("Ada Lovelace".into()),
            email: Some("ada@example.com".into()),
            picture: Some(Picture {
                data: Some(PictureData {
                    url: Some("https://platform-lookaside.fbsbx.com/p/1".into()),
                    is_silhouette: false,
                    _object: ObjectOnly,
                }),
                _object: ObjectOnly,
            }),
            error: None,
            _object: ObjectOnly,
        }
    }

    #[test]
    fn the_email_is_kept_but_never_verified() {
        let identity = to_identity(me()).unwrap();
        assert_eq!(identity.subject.as_str(), "10229876543210987");
        assert_eq!(
            identity.email.as_ref().map(Email::as_str),
            Some("ada@example.com")
        );
        assert!(!identity.email_verified, "Facebook vouches for no email");
        assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
        assert_eq!(
            identity.avatar_url.as_deref(),
            Some("https://platform-lookaside.fbsbx.com/p/1")
        );
    }

    #[test]
    fn the_default_silhouette_is_no_avatar() {
        let mut silhouette = me();
        if let Some(data) = silhouette.picture.as_mut().and_then(|p| p.data.as_mut()) {
            data.is_silhouette = true;
        }
        assert_eq!(to_identity(silhouette).unwrap().avatar_url, None);
    }

    #[test]
    fn a_graph_error_in_the_body_is_a_user_info_failure_naming_type_and_code() {
        let failed = Me {
            id: None,
            error: Some(GraphError {
                kind: Some("OAuthException".into()),
                code: Some(190),
                _object: ObjectOnly,
            }),
            ..me()
        };
        let error = to_identity(failed).unwrap_err();
        assert_eq!(
            error,
            ProviderError::UserInfo(
                "Facebook profile endpoint answered Graph error OAuthException (code 190)".into()
            )
        );
    }

    #[test]
    fn a_node_without_id_is_a_user_info_failure() {
        let error = to_identity(Me { id: None, ..me() }).unwrap_err();
        assert!(matches!(error, ProviderError::UserInfo(_)));
    }
}
