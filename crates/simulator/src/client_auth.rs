//! Client credentials as a token endpoint receives them: HTTP Basic or in the body, and the
//! constant-time check of a secret.

use crate::config::RegisteredClient;
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

/// Whether `secret` is the client's, compared in constant time. A client registered without
/// a secret (a public one) has none to present.
pub fn secret_matches(client: &RegisteredClient, secret: Option<&str>) -> bool {
    let Some(secret) = secret else {
        return false;
    };
    !client.client_secret.is_empty()
        && bool::from(secret.as_bytes().ct_eq(client.client_secret.as_bytes()))
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
