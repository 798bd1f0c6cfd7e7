//! From a provider's JSON documents to who signed in, by the declaration's JSON Pointers
//! (RFC 6901; docs/providers.md, "Providers from configuration").
//!
//! Each field takes the sources in order (the id_token claims, then the userinfo answer),
//! within a source its pointers in order, and the first usable value wins. Text fields are
//! JSON strings, trimmed, non-blank. A malformed email is no email: the next source is not
//! asked, as a provider that sent a bad address has not sent a good one elsewhere.

use serde_json::{Map, Value};
use social_login_domain::{Email, ProviderIdentity, ProviderKey, ProviderSubject};
use social_login_ports::ProviderError;
use social_login_provider_spec::{Claims, EmailVerified};
use std::borrow::Cow;

/// Reads `claims` from `sources`: who signed in at `provider`, before the quirks. The subject
/// is a JSON string (1 to 255 bytes) or number; anything else, or nothing, is
/// `ProviderError::UserInfo` naming the pointer.
pub fn map(
    sources: &[&Map<String, Value>],
    claims: &Claims,
    provider: ProviderKey,
) -> Result<ProviderIdentity, ProviderError> {
    let subject = sources
        .iter()
        .find_map(|source| subject_at(source, &claims.subject))
        .ok_or_else(|| {
            ProviderError::UserInfo(format!(
                "no usable subject at `{}`: a string of 1 to 255 bytes or a number",
                claims.subject
            ))
        })?;
    let (email, email_verified) = match &claims.email {
        Some(pointer) => email_of(sources, pointer, &claims.email_verified),
        None => (None, false),
    };
    Ok(ProviderIdentity {
        provider,
        subject,
        email_verified: email.is_some() && email_verified,
        email,
        full_name: first_text(sources, &claims.name),
        avatar_url: first_text(sources, claims.avatar_url.as_slice()),
        hosted_domain: first_text(sources, claims.hosted_domain.as_slice()),
    })
}

/// The text at `pointer` in `document`: a JSON string, trimmed, non-blank.
pub fn text_at<'d>(document: &'d Map<String, Value>, pointer: &str) -> Option<&'d str> {
    value_at(document, pointer)?
        .as_str()
        .map(str::trim)
        .filter(|text| !text.is_empty())
}

/// `true`, or the string `"true"` in any ASCII case, at `pointer`: how providers say a
/// flag is set (Google and Discord send a boolean, LinkedIn's and Apple's id_tokens the
/// string).
pub fn says_true(document: &Map<String, Value>, pointer: &str) -> bool {
    match value_at(document, pointer) {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(text)) => text.eq_ignore_ascii_case("true"),
        _ => false,
    }
}

/// The value at `pointer` in an object document.
pub fn value_at<'d>(document: &'d Map<String, Value>, pointer: &str) -> Option<&'d Value> {
    let (first, rest) = match pointer.strip_prefix('/')?.split_once('/') {
        Some((first, rest)) => (first, Some(rest)),
        None => (pointer.strip_prefix('/')?, None),
    };
    let member = document.get(unescape(first).as_ref())?;
    match rest {
        // `rest` ends `pointer`, right after a `/`: that slash and `rest` are the pointer
        // into `member`, without building it again.
        Some(rest) => member.pointer(&pointer[pointer.len() - rest.len() - 1..]),
        None => Some(member),
    }
}

/// RFC 6901 §4: `~1` is `/`, then `~0` is `~`. A token without `~` (every built-in one) is
/// itself, borrowed.
fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

fn subject_at(document: &Map<String, Value>, pointer: &str) -> Option<ProviderSubject> {
    let subject = match value_at(document, pointer)? {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        _ => return None,
    };
    ProviderSubject::parse(subject).ok()
}

/// The email of the first source with one, and whether that same source vouches for it:
/// one document's flag never verifies another document's address.
fn email_of(
    sources: &[&Map<String, Value>],
    pointer: &str,
    verified: &EmailVerified,
) -> (Option<Email>, bool) {
    let Some((source, raw)) = sources
        .iter()
        .find_map(|source| text_at(source, pointer).map(|raw| (source, raw)))
    else {
        return (None, false);
    };
    let Ok(email) = Email::parse(raw) else {
        return (None, false);
    };
    let vouched = match verified {
        EmailVerified::Claim(flag) => says_true(source, flag),
        EmailVerified::WhenPresent => true,
        EmailVerified::Never => false,
    };
    (Some(email), vouched)
}

fn first_text(sources: &[&Map<String, Value>], pointers: &[String]) -> Option<String> {
    sources.iter().find_map(|source| {
        pointers
            .iter()
            .find_map(|pointer| text_at(source, pointer).map(str::to_owned))
    })
}

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;
