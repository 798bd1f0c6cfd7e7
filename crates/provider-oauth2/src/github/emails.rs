//! GitHub's `/user/emails`, and which email to trust (docs/providers.md#github): the
//! `primary && verified` entry, never a silent fall back to another entry. Without one, the
//! public `/user` email, verified only if the list has it as verified. Otherwise no email: a
//! user with none still signs in, and nothing links by email.

use reqwest::{RequestBuilder, StatusCode};
use serde::Deserialize;
use social_login_domain::Email;
use social_login_ports::ProviderError;
use social_login_provider_core::{ObjectOnly, ProviderHttp, fetch_json_unless};

/// One entry of the list. No `Debug`: it holds an email. Decoded from a JSON object only.
#[derive(Clone, Deserialize)]
pub struct EmailEntry {
    pub email: String,
    #[serde(default)]
    pub primary: bool,
    #[serde(default)]
    pub verified: bool,
    #[serde(flatten)]
    pub _object: ObjectOnly,
}

/// The list; `None` when it could not be read but a public email exists, which is then
/// kept as unverified (it never links accounts). Without a public email the list is the
/// only source, so its failure is the sign-in's.
pub async fn fetch(
    http: &ProviderHttp,
    request: RequestBuilder,
    has_public: bool,
) -> Result<Option<Vec<EmailEntry>>, ProviderError> {
    // 403/404: the token lacks `user:email` (narrowed scopes). That is "no email", and a
    // provider without email still signs the user in.
    let absent = [StatusCode::FORBIDDEN, StatusCode::NOT_FOUND];
    match fetch_json_unless("GitHub emails endpoint", http, request, &absent).await {
        Ok(listed) => Ok(Some(listed.unwrap_or_default())),
        Err(error) if has_public => {
            tracing::warn!(%error, "GitHub emails unavailable; public email kept as unverified");
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// The email to keep, and whether it is verified.
pub fn choose(public: Option<Email>, emails: &[EmailEntry]) -> (Option<Email>, bool) {
    let primary = emails.iter().find(|entry| entry.primary && entry.verified);
    if let Some(email) = primary.and_then(|entry| Email::parse(&entry.email).ok()) {
        return (Some(email), true);
    }
    let Some(public) = public else {
        return (None, false);
    };
    let verified = emails.iter().any(|entry| {
        entry.verified && Email::parse(&entry.email).is_ok_and(|listed| listed.matches(&public))
    });
    (Some(public), verified)
}
