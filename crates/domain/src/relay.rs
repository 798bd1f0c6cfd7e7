//! Where a relayed call may go: the path a client asks for under one of the provider's API
//! base URLs (`relay_base_urls`), checked before any I/O so that no request, however
//! encoded, leaves the base it names. A provider's own URL parser must not be able to read
//! it as another host or a path above the base.

mod grant;
mod headers;

pub use grant::{EXPIRY_MARGIN, GrantRenewal, RefusedGrant, RelayRefresh, needs_refresh};
pub use headers::{forwarded_to_provider, passed_back};

use std::fmt;

/// The methods a relayed call may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelayMethod {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl RelayMethod {
    /// The method named `name` (as HTTP spells it), if the relay carries it.
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "GET" => Self::Get,
            "POST" => Self::Post,
            "PUT" => Self::Put,
            "PATCH" => Self::Patch,
            "DELETE" => Self::Delete,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
            Self::Put => "PUT",
            Self::Patch => "PATCH",
            Self::Delete => "DELETE",
        }
    }
}

/// Longest relayed path or query accepted: API paths are short; the bound keeps a hostile
/// request from reaching a provider at full size.
pub const MAX_RELAY_PATH_BYTES: usize = 2048;

/// A path under a provider's API base URL, as the client sent it after `/relay/{provider}/`
/// (still percent-encoded: it is forwarded as it came).
#[derive(Clone, PartialEq, Eq)]
pub struct RelayPath(String);

/// Why a relayed path or query is refused (400 before any I/O).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BadRelayPath {
    #[error("path: longer than {MAX_RELAY_PATH_BYTES} bytes")]
    TooLong,
    #[error("path: `.` and `..` segments are not allowed")]
    DotSegment,
    #[error("path: empty segments (`//`) are not allowed")]
    EmptySegment,
    #[error("path: `@`, `\\`, `#`, `?` (in a path), spaces and control characters are not allowed")]
    ForbiddenCharacter,
    #[error("path: must not name a scheme or a host")]
    Scheme,
    #[error("path: an encoded slash, backslash, dot or percent sign is not allowed")]
    EncodedSeparator,
    #[error("path: a `%` must start an escape of two hex digits")]
    BadEscape,
}

impl RelayPath {
    /// Accepts a path relative to the base: no leading `/`, no `.` or `..` segment (plain
    /// or encoded), no empty segment, no `@`, `\`, `#`, `?`, space or control character, no
    /// scheme in the first segment, and no encoded `/`, `\`, `.` or `%`, which a provider
    /// might decode into one of those. The empty path names the base itself.
    pub fn parse(raw: &str) -> Result<Self, BadRelayPath> {
        if raw.len() > MAX_RELAY_PATH_BYTES {
            return Err(BadRelayPath::TooLong);
        }
        check_characters(raw)?;
        // The query is forwarded on its own: a `?` here would start one inside the path.
        if raw.contains('?') {
            return Err(BadRelayPath::ForbiddenCharacter);
        }
        check_escapes(raw)?;
        if raw.is_empty() {
            return Ok(Self(String::new()));
        }
        if raw
            .split('/')
            .next()
            .is_some_and(|first| first.contains(':'))
        {
            return Err(BadRelayPath::Scheme);
        }
        // A trailing slash (`repos/`) is a path of its own at some APIs: only an empty
        // segment inside the path, or at its start, is refused.
        if raw.starts_with('/') || raw.contains("//") {
            return Err(BadRelayPath::EmptySegment);
        }
        if raw.split('/').any(|segment| matches!(segment, "." | "..")) {
            return Err(BadRelayPath::DotSegment);
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for RelayPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Paths may carry identifiers of the person (`users/ada`): not for the logs.
        f.write_str("RelayPath([redacted])")
    }
}

/// The characters no relayed path or query carries, encoded or not.
fn check_characters(raw: &str) -> Result<(), BadRelayPath> {
    let forbidden = |c: char| matches!(c, '@' | '\\' | '#' | ' ') || c.is_control();
    if raw.chars().any(forbidden) {
        return Err(BadRelayPath::ForbiddenCharacter);
    }
    Ok(())
}

/// Every `%` starts an escape of two hex digits, and none encodes a separator, a dot or a
/// `%` (a double encoding a provider could decode twice).
fn check_escapes(raw: &str) -> Result<(), BadRelayPath> {
    let bytes = raw.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let escape = bytes
                .get(index + 1..index + 3)
                .ok_or(BadRelayPath::BadEscape)?;
            let text = std::str::from_utf8(escape).map_err(|_| BadRelayPath::BadEscape)?;
            let value = u8::from_str_radix(text, 16).map_err(|_| BadRelayPath::BadEscape)?;
            if matches!(value, b'/' | b'\\' | b'.' | b'%') || value.is_ascii_control() {
                return Err(BadRelayPath::EncodedSeparator);
            }
            index += 3;
        } else {
            index += 1;
        }
    }
    Ok(())
}

/// The query a relayed call forwards, as the client sent it (without the `?`): the same
/// characters and escapes as a path are refused, so it cannot end the URL early or smuggle a
/// fragment.
pub fn check_relay_query(raw: &str) -> Result<(), BadRelayPath> {
    if raw.len() > MAX_RELAY_PATH_BYTES {
        return Err(BadRelayPath::TooLong);
    }
    check_characters(raw)?;
    check_escapes(raw)
}

/// The URL a relayed call goes to: `base` (one of the provider's `relay_base_urls`, which
/// ends in `/`) with `path` and, when not empty, `query`.
pub fn relay_url(base: &str, path: &RelayPath, query: &str) -> String {
    let mut url = String::with_capacity(base.len() + path.0.len() + query.len() + 1);
    url.push_str(base);
    url.push_str(&path.0);
    if !query.is_empty() {
        url.push('?');
        url.push_str(query);
    }
    url
}

#[cfg(test)]
mod tests;
