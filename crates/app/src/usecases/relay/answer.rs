//! A relayed call's answer on its way back: bounded in size, and never carrying the grant's
//! own access token (a provider that takes it in the query may repeat its URL).

use crate::{AppError, AppResult};
use bytes::Bytes;
use memchr::memmem;
use social_login_domain::SecretText;
use social_login_ports::ApiBody;

/// An answer's body that stops with an error past `left` bytes, so no answer larger than
/// `max_response_bytes` passes, however it was announced, and stops with an error where it
/// would show the grant's token: no byte of the token goes out before it is seen whole.
pub struct BoundedBody {
    inner: Box<dyn ApiBody>,
    left: u64,
    guard: TokenGuard,
    /// The provider's body has ended (and what the guard held back went out).
    ended: bool,
}

impl BoundedBody {
    pub(super) fn new(inner: Box<dyn ApiBody>, left: u64, guard: TokenGuard) -> Self {
        Self {
            inner,
            left,
            guard,
            ended: false,
        }
    }

    /// The next chunk; an error once the bound is passed, the token shows, or the provider's
    /// body fails.
    pub async fn chunk(&mut self) -> AppResult<Option<Bytes>> {
        while !self.ended {
            let Some(chunk) = self.inner.chunk().await? else {
                self.ended = true;
                // Searched with all that came before it: the rest may go.
                return Ok(Some(self.guard.held_back()).filter(|rest| !rest.is_empty()));
            };
            let length = u64::try_from(chunk.len()).unwrap_or(u64::MAX);
            self.left = self.left.checked_sub(length).ok_or_else(|| {
                AppError::ProviderUnavailable("answer longer than max_response_bytes".into())
            })?;
            let passed = self.guard.pass(chunk).ok_or_else(|| {
                AppError::ProviderUnavailable(
                    "the provider's answer repeats the grant's token".into(),
                )
            })?;
            if !passed.is_empty() {
                return Ok(Some(passed));
            }
        }
        Ok(None)
    }
}

/// Looks for the grant's access token in what goes back to the caller: in a header's value,
/// and in a body read chunk by chunk, also where it spans two chunks. The token is looked
/// for as it is, as a query carries it (percent-encoded, either case of hex digits) and as
/// JSON may escape it (`\/`): a provider that repeats the URL it was called at shows one of
/// them.
pub(super) struct TokenGuard {
    /// Finds each form of the token; none for one too short to tell apart from chance.
    finders: Vec<memmem::Finder<'static>>,
    /// How much of the end of what came so far a form can start in: the longest form's
    /// length less one.
    keep: usize,
    /// The end of what came so far, at most `keep` bytes, held back: the start of a token
    /// the next chunk may complete.
    held: Vec<u8>,
}

/// Tokens shorter than this are not looked for: a few characters would be found by chance.
const SHORTEST_GUARDED: usize = 16;

impl TokenGuard {
    pub(super) fn new(token: &SecretText) -> Self {
        let token = token.expose().as_bytes();
        let mut forms = Vec::new();
        if token.len() >= SHORTEST_GUARDED {
            // As the adapter puts it in a query, and with the hex digits in lowercase.
            let encoded: String = url::form_urlencoded::byte_serialize(token).collect();
            forms = vec![
                token.to_vec(),
                encoded.clone().into_bytes(),
                lowercase_escapes(&encoded).into_bytes(),
                json_escaped(token),
            ];
            forms.sort();
            forms.dedup();
        }
        let finders: Vec<_> = forms
            .iter()
            .map(|form| memmem::Finder::new(form).into_owned())
            .collect();
        let longest = finders.iter().map(|f| f.needle().len()).max();
        Self {
            finders,
            keep: longest.map_or(0, |longest| longest - 1),
            held: Vec::new(),
        }
    }

    /// Whether a header value shows the token.
    pub(super) fn shows_in(&self, value: &str) -> bool {
        self.found_in(value.as_bytes())
    }

    fn found_in(&self, bytes: &[u8]) -> bool {
        (self.finders.iter()).any(|finder| finder.find(bytes).is_some())
    }

    /// What of `chunk` may go to the caller now, searched after the chunks before it: all
    /// that came but the last `keep` bytes, which are held back; `None` where the token
    /// shows.
    fn pass(&mut self, chunk: Bytes) -> Option<Bytes> {
        if self.finders.is_empty() {
            return Some(chunk);
        }
        let mut came = std::mem::take(&mut self.held);
        came.extend_from_slice(&chunk);
        if self.found_in(&came) {
            return None;
        }
        self.held = came.split_off(came.len().saturating_sub(self.keep));
        Some(Bytes::from(came))
    }

    /// What was held back, once the body has ended.
    fn held_back(&mut self) -> Bytes {
        Bytes::from(std::mem::take(&mut self.held))
    }
}

/// `encoded` with the two hex digits after each `%` in lowercase.
fn lowercase_escapes(encoded: &str) -> String {
    let mut lower = String::with_capacity(encoded.len());
    let mut hex_left = 0_u8;
    for c in encoded.chars() {
        lower.push(if hex_left > 0 {
            c.to_ascii_lowercase()
        } else {
            c
        });
        hex_left = if c == '%' {
            2
        } else {
            hex_left.saturating_sub(1)
        };
    }
    lower
}

/// `bytes` with each `/` escaped as JSON allows (`\/`).
fn json_escaped(bytes: &[u8]) -> Vec<u8> {
    let mut escaped = Vec::with_capacity(bytes.len() * 2);
    for &byte in bytes {
        if byte == b'/' {
            escaped.push(b'\\');
        }
        escaped.push(byte);
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "y0_AgAAAABkZXYtdG9rZW4tZm9yLXRlc3Rz";

    fn guard() -> TokenGuard {
        TokenGuard::new(&SecretText::new(TOKEN))
    }

    impl TokenGuard {
        /// Whether `chunk`, after the chunks before it, shows the token.
        fn shows_next(&mut self, chunk: &[u8]) -> bool {
            self.pass(Bytes::copy_from_slice(chunk)).is_none()
        }
    }

    /// A provider's body in the chunks given.
    struct Chunks(std::collections::VecDeque<Bytes>);

    #[async_trait::async_trait]
    impl ApiBody for Chunks {
        async fn chunk(&mut self) -> Result<Option<Bytes>, social_login_ports::ProviderError> {
            Ok(self.0.pop_front())
        }

        fn announced_length(&self) -> Option<u64> {
            None
        }
    }

    /// What `parts` let out before the body ended or was refused, and whether it was.
    async fn let_out(parts: &[&str]) -> (String, bool) {
        let chunks = parts.iter().map(|part| Bytes::from(part.to_string()));
        let mut body = BoundedBody::new(Box::new(Chunks(chunks.collect())), u64::MAX, guard());
        let mut out = String::new();
        loop {
            match body.chunk().await {
                Ok(Some(chunk)) => out.push_str(std::str::from_utf8(&chunk).unwrap()),
                Ok(None) => return (out, false),
                Err(_) => return (out, true),
            }
        }
    }

    #[tokio::test]
    async fn no_byte_of_the_token_goes_out_before_it_shows_whole() {
        let body = format!("{{\"query\": \"format=json&oauth_token={TOKEN}&page=2\"}}");
        let start = body.find(TOKEN).unwrap();
        for split in 0..=body.len() {
            let (out, refused) = let_out(&[&body[..split], &body[split..]]).await;
            assert!(refused, "split at {split}");
            assert!(out.len() <= start, "split at {split} let out {out:?}");
        }
    }

    #[tokio::test]
    async fn an_answer_without_the_token_goes_out_whole_whatever_its_chunks() {
        let body = format!("{{\"query\": \"format=json&page=2\", \"pad\": \"{TOKEN:.20}\"}}");
        for size in [1, 3, 7, 35, body.len()] {
            let parts: Vec<&str> = (0..body.len())
                .step_by(size)
                .map(|at| &body[at..(at + size).min(body.len())])
                .collect();
            assert_eq!(
                let_out(&parts).await,
                (body.clone(), false),
                "chunks of {size}"
            );
        }
        assert_eq!(let_out(&[]).await, (String::new(), false));
    }

    #[test]
    fn the_token_is_caught_percent_encoded_in_either_case_and_json_escaped() {
        let token = "ya29.a0/Af+h=Token|with/slashes";
        let guard = TokenGuard::new(&SecretText::new(token));
        let encoded = "ya29.a0%2FAf%2Bh%3DToken%7Cwith%2Fslashes";
        assert!(guard.shows_in(&format!("https://api.example/next?access_token={encoded}")));
        let lower = "ya29.a0%2fAf%2bh%3dToken%7cwith%2fslashes";
        assert!(guard.shows_in(&format!(
            "https://api.example/next?access_token={lower}&p=2"
        )));
        let mut body = TokenGuard::new(&SecretText::new(token));
        let escaped = r#"{"next": "https:\/\/api.example\/?t=ya29.a0\/Af+h=Token|with\/slashes"}"#;
        assert!(body.shows_next(escaped.as_bytes()));
        assert!(
            !guard.shows_in("ya29.a0%2FAf%2Bh%3DToken"),
            "a part is no token"
        );
    }

    #[test]
    fn an_encoded_token_is_caught_across_any_split_of_the_body() {
        let token = "ya29.a0/Af+h=Token|with/slashes";
        let body = "{\"next\": \"?access_token=ya29.a0%2FAf%2Bh%3DToken%7Cwith%2Fslashes\"}";
        for split in 0..=body.len() {
            let mut guard = TokenGuard::new(&SecretText::new(token));
            let (first, second) = body.split_at(split);
            let caught = guard.shows_next(first.as_bytes()) || guard.shows_next(second.as_bytes());
            assert!(caught, "split at {split}");
        }
    }

    #[test]
    fn a_header_value_with_the_token_is_caught() {
        let guard = guard();
        assert!(guard.shows_in(&format!(
            "https://api.example/next?oauth_token={TOKEN}&page=2"
        )));
        assert!(!guard.shows_in("https://api.example/next?page=2"));
    }

    #[test]
    fn the_token_is_caught_in_one_chunk_or_across_any_split_and_nothing_else_is() {
        let body = format!("{{\"query\": \"format=json&oauth_token={TOKEN}\"}}");
        for split in 0..=body.len() {
            for middle in [split, (split + 7).min(body.len())] {
                let mut guard = guard();
                let parts = [&body[..split], &body[split..middle], &body[middle..]];
                let caught = parts.iter().any(|part| guard.shows_next(part.as_bytes()));
                assert!(caught, "split at {split} and {middle}");
            }
        }
        let mut guard = guard();
        let clean = body.replace(TOKEN, "elsewhere");
        for part in clean.as_bytes().chunks(5) {
            assert!(!guard.shows_next(part));
        }
    }

    #[test]
    fn a_token_too_short_to_tell_apart_is_not_looked_for() {
        let mut guard = TokenGuard::new(&SecretText::new("abc"));
        assert!(!guard.shows_next(b"xxabcxx"));
        assert!(!guard.shows_in("abc"));
    }
}
