//! The `[emails]` knob: a second call that lists the account's addresses (GitHub's
//! `/user/emails`, Bitbucket's `/2.0/user/emails`), and which one to trust: the primary
//! entry if it is verified, never a silent fall back to another entry (without a `primary`
//! pointer, the first verified entry). Without one, the email the profile gave, verified only
//! if the list has it as verified. Otherwise no email: a user with none still signs in, and
//! nothing links by email.

use crate::api_call::ApiShape;
use crate::claims::{holds, text_at, value_at};
use crate::fetch::fetch_json_unless;
use crate::http_client::{CallKind, ProviderHttp};
use reqwest::StatusCode;
use serde_json::{Map, Value};
use social_login_domain::{Email, ProviderIdentity, SecretText};
use social_login_ports::ProviderError;
use social_login_provider_spec::knobs::EmailsList;
use url::Url;

/// One provider's emails call.
#[derive(Debug, Clone, Copy)]
pub struct EmailsCall<'a> {
    pub url: &'a Url,
    pub list: &'a EmailsList,
    pub shape: ApiShape<'a>,
    /// "GitHub emails endpoint": how failures name it.
    pub label: &'a str,
}

impl EmailsCall<'_> {
    /// Replaces the identity's email with the one the list vouches for (see the module).
    pub async fn apply(
        &self,
        identity: &mut ProviderIdentity,
        http: &ProviderHttp,
        token: &SecretText,
    ) -> Result<(), ProviderError> {
        let profile = identity.email.take();
        let listed = self.fetch(http, token, profile.is_some()).await?;
        let entries = listed.as_ref().map(|answer| self.entries(answer));
        (identity.email, identity.email_verified) =
            choose(self.list, profile, entries.unwrap_or_default());
        Ok(())
    }

    /// The list's answer; `None` when it could not be read but the profile has an email,
    /// which is then kept as unverified (it never links accounts). Without one the list is
    /// the only source, so its failure is the sign-in's.
    async fn fetch(
        &self,
        http: &ProviderHttp,
        token: &SecretText,
        has_profile_email: bool,
    ) -> Result<Option<Value>, ProviderError> {
        // 403/404: the token lacks the email scope (narrowed scopes). That is "no email",
        // and a provider without email still signs the user in.
        let absent = [StatusCode::FORBIDDEN, StatusCode::NOT_FOUND];
        let request = self.shape.request(http, self.url, token);
        match fetch_json_unless(self.label, http, request, CallKind::Emails, &absent).await {
            Ok(answer) => Ok(Some(answer.unwrap_or(Value::Array(Vec::new())))),
            Err(error) if has_profile_email => {
                tracing::warn!(%error, "emails list unavailable; profile email kept as unverified");
                Ok(None)
            }
            Err(error) => Err(error),
        }
    }

    /// The entries of the answer: the array at `list` (the answer itself when empty); the
    /// objects among them.
    fn entries<'v>(&self, answer: &'v Value) -> Vec<&'v Map<String, Value>> {
        let array = match (self.list.list.as_str(), answer) {
            ("", Value::Array(items)) => Some(items),
            (pointer, Value::Object(document)) if !pointer.is_empty() => {
                value_at(document, pointer).and_then(Value::as_array)
            }
            _ => None,
        };
        array
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .collect()
    }
}

/// The email to keep, and whether it is verified.
pub fn choose(
    list: &EmailsList,
    profile: Option<Email>,
    entries: Vec<&Map<String, Value>>,
) -> (Option<Email>, bool) {
    let flag = |entry: &Map<String, Value>, pointer: &Option<String>| {
        pointer
            .as_deref()
            .is_some_and(|pointer| holds(value_at(entry, pointer)))
    };
    let address = |entry: &Map<String, Value>| {
        text_at(entry, &list.address).and_then(|raw| Email::parse(raw).ok())
    };
    let chosen = entries.iter().find(|entry| match &list.primary {
        Some(_) => flag(entry, &list.primary) && flag(entry, &list.verified),
        None => flag(entry, &list.verified),
    });
    if let Some(email) = chosen.and_then(|entry| address(entry)) {
        return (Some(email), true);
    }
    let Some(profile) = profile else {
        return (None, false);
    };
    let verified = entries.iter().any(|entry| {
        flag(entry, &list.verified) && address(entry).is_some_and(|listed| listed.matches(&profile))
    });
    (Some(profile), verified)
}

#[cfg(test)]
mod tests;
