//! From a provider's JSON documents to who signed in, by the declaration's JSON Pointers
//! (RFC 6901; docs/providers.md, "Providers from configuration").
//!
//! Each field takes the sources in order (the id_token claims, then the userinfo answer),
//! within a source its pointers in order, and the first usable value wins; a pointer
//! prefixed `token:` reads the token endpoint's answer instead (its members but the tokens).
//! Text fields are JSON strings, trimmed, non-blank. A malformed email is no email: the next
//! source is not asked, as a provider that sent a bad address has not sent a good one
//! elsewhere.

use serde_json::{Map, Value};
use social_login_domain::{Email, ProviderIdentity, ProviderKey, ProviderSubject};
use social_login_ports::ProviderError;
use social_login_provider_spec::{Claims, EmailVerified, TOKEN_RESPONSE};
use std::borrow::Cow;

/// What the pointers read: the documents in order, and the token answer's members.
#[derive(Debug, Clone, Copy)]
pub struct Sources<'a> {
    pub documents: &'a [&'a Map<String, Value>],
    /// `None` where no token answer came with the sign-in (an id_token an app presented).
    pub token: Option<&'a Map<String, Value>>,
}

impl<'a> Sources<'a> {
    /// The documents a pointer reads, and the pointer into them.
    fn for_pointer<'p>(&self, pointer: &'p str) -> (Vec<&'a Map<String, Value>>, &'p str) {
        match pointer.strip_prefix(TOKEN_RESPONSE) {
            Some(inner) => (self.token.into_iter().collect(), inner),
            None => (self.documents.to_vec(), pointer),
        }
    }
}

/// Reads `claims` from `sources`: who signed in at `provider`, before the quirks. The subject
/// is a JSON string (1 to 255 bytes) or number; anything else, or nothing, is
/// `ProviderError::UserInfo` naming the pointer.
pub fn map(
    sources: &[&Map<String, Value>],
    claims: &Claims,
    provider: ProviderKey,
) -> Result<ProviderIdentity, ProviderError> {
    map_sources(
        Sources {
            documents: sources,
            token: None,
        },
        claims,
        provider,
    )
}

/// [`map`], the token answer's members readable by `token:` pointers.
pub fn map_sources(
    sources: Sources<'_>,
    claims: &Claims,
    provider: ProviderKey,
) -> Result<ProviderIdentity, ProviderError> {
    let (documents, pointer) = sources.for_pointer(&claims.subject);
    let subject = documents
        .iter()
        .find_map(|source| subject_at(source, pointer))
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

/// `true`, the string `"true"` (exactly), or the number 1 at `pointer`: how
/// providers say a flag is set (Google and Discord send a boolean, LinkedIn's and Apple's
/// id_tokens the string, Zoom a number).
pub fn says_true(document: &Map<String, Value>, pointer: &str) -> bool {
    holds(value_at(document, pointer))
}

/// Whether a flag's value says it is set.
pub fn holds(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(text)) => text == "true",
        Some(Value::Number(number)) => number.as_u64() == Some(1),
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

/// The email of the first source with one, and whether a source that gives that same
/// address vouches for it (a `token:` flag aside, which the token answer vouches) while none
/// that gives it says otherwise: one document's flag never verifies another address (OpenID
/// Connect providers may put the flag in userinfo alone, Vercel's; the documents are about
/// the one subject, checked), and a flag that is present and not set wins.
fn email_of(
    sources: Sources<'_>,
    pointer: &str,
    verified: &EmailVerified,
) -> (Option<Email>, bool) {
    let (documents, pointer) = sources.for_pointer(pointer);
    let address = |source: &Map<String, Value>| text_at(source, pointer).map(Email::parse);
    let Some(Ok(email)) = documents.iter().find_map(|source| address(source)) else {
        return (None, false);
    };
    let vouched = match verified {
        EmailVerified::AllOf(flags) => {
            let (in_token, plain): (Vec<&String>, Vec<&String>) = flags
                .iter()
                .partition(|flag| flag.starts_with(TOKEN_RESPONSE));
            let token_holds = in_token.iter().all(|flag| {
                let inner = &flag[TOKEN_RESPONSE.len()..];
                sources.token.is_some_and(|token| says_true(token, inner))
            });
            let gives = |source: &Map<String, Value>| {
                address(source).is_some_and(|found| found.is_ok_and(|found| found.matches(&email)))
            };
            let vouches = |source: &&Map<String, Value>| {
                gives(source) && plain.iter().all(|flag| says_true(source, flag))
            };
            let denies = |source: &&Map<String, Value>| {
                gives(source)
                    && plain
                        .iter()
                        .any(|flag| value_at(source, flag).is_some_and(|value| !holds(Some(value))))
            };
            token_holds
                && (plain.is_empty()
                    || (documents.iter().any(vouches) && !documents.iter().any(denies)))
        }
        EmailVerified::WhenPresent => true,
        EmailVerified::Never => false,
    };
    (Some(email), vouched)
}

/// The first text the pointers find: the documents in order (within one its plain pointers
/// in order), then the token answer (its `token:` pointers in order).
fn first_text(sources: Sources<'_>, pointers: &[String]) -> Option<String> {
    let plain = |source: &Map<String, Value>| {
        pointers
            .iter()
            .filter(|pointer| !pointer.starts_with(TOKEN_RESPONSE))
            .find_map(|pointer| text_at(source, pointer).map(str::to_owned))
    };
    let in_token = |token: &Map<String, Value>| {
        pointers
            .iter()
            .filter_map(|pointer| pointer.strip_prefix(TOKEN_RESPONSE))
            .find_map(|pointer| text_at(token, pointer).map(str::to_owned))
    };
    sources
        .documents
        .iter()
        .find_map(|source| plain(source))
        .or_else(|| sources.token.and_then(in_token))
}

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;
