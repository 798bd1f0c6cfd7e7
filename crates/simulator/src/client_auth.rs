//! Client authentication at a token endpoint: HTTP Basic or credentials in the body.

use crate::config::{Provider, RegisteredClient};
use crate::log::ClientAuthKind;
use axum::http::{HeaderMap, header};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use subtle::ConstantTimeEq;

/// The credentials a token request presented.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresentedClient {
    pub client_id: String,
    pub client_secret: Option<String>,
    pub kind: ClientAuthKind,
}

/// Basic wins when present (RFC 6749 §2.3.1: a client uses one method per request); else
/// the body fields. `None` when the request names no client at all.
pub fn presented(
    headers: &HeaderMap,
    body_id: Option<&str>,
    body_secret: Option<&str>,
) -> Option<PresentedClient> {
    if let Some((client_id, client_secret)) = basic(headers) {
        return Some(PresentedClient {
            client_id,
            client_secret: Some(client_secret),
            kind: ClientAuthKind::Basic,
        });
    }
    let client_id = body_id.filter(|id| !id.is_empty())?.to_owned();
    let client_secret = body_secret.filter(|s| !s.is_empty()).map(str::to_owned);
    let kind = if client_secret.is_some() {
        ClientAuthKind::Body
    } else {
        ClientAuthKind::None
    };
    Some(PresentedClient {
        client_id,
        client_secret,
        kind,
    })
}

/// The registered client these credentials authenticate, if any (secret compared in
/// constant time).
pub fn authenticate<'a>(
    clients: &'a [RegisteredClient],
    provider: Provider,
    presented: &PresentedClient,
) -> Option<&'a RegisteredClient> {
    let client = clients
        .iter()
        .find(|c| c.provider == provider && c.client_id == presented.client_id)?;
    let secret = presented.client_secret.as_deref()?;
    bool::from(secret.as_bytes().ct_eq(client.client_secret.as_bytes())).then_some(client)
}

/// `Authorization: Basic base64(urlencode(id):urlencode(secret))`, decoded.
fn basic(headers: &HeaderMap) -> Option<(String, String)> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, encoded) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = String::from_utf8(STANDARD.decode(encoded.trim()).ok()?).ok()?;
    let (id, secret) = decoded.split_once(':')?;
    Some((form_decode(id)?, form_decode(secret)?))
}

/// Form-decoding of one component (`+` is a space, `%XX` a byte), as RFC 6749 §2.3.1 asks
/// clients to encode the Basic user name and password.
fn form_decode(raw: &str) -> Option<String> {
    let mut out = Vec::with_capacity(raw.len());
    let mut bytes = raw.bytes();
    while let Some(byte) = bytes.next() {
        match byte {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = [bytes.next()?, bytes.next()?];
                out.push(u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?);
            }
            other => out.push(other),
        }
    }
    String::from_utf8(out).ok()
}
