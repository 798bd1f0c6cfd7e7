//! A relayed call's answer on its way back: bounded in size, and never carrying the grant's
//! own access token (a provider that takes it in the query may repeat its URL).

use crate::{AppError, AppResult};
use bytes::Bytes;
use memchr::memmem;
use social_login_domain::SecretText;
use social_login_ports::ApiBody;

/// An answer's body that stops with an error past `left` bytes, so no answer larger than
/// `max_response_bytes` passes, however it was announced, and stops with an error where it
/// would show the grant's token.
pub struct BoundedBody {
    inner: Box<dyn ApiBody>,
    left: u64,
    guard: TokenGuard,
}

impl BoundedBody {
    pub(super) fn new(inner: Box<dyn ApiBody>, left: u64, guard: TokenGuard) -> Self {
        Self { inner, left, guard }
    }

    /// The next chunk; an error once the bound is passed, the token shows, or the provider's
    /// body fails.
    pub async fn chunk(&mut self) -> AppResult<Option<Bytes>> {
        let Some(chunk) = self.inner.chunk().await? else {
            return Ok(None);
        };
        let length = u64::try_from(chunk.len()).unwrap_or(u64::MAX);
        self.left = self.left.checked_sub(length).ok_or_else(|| {
            AppError::ProviderUnavailable("answer longer than max_response_bytes".into())
        })?;
        if self.guard.shows_next(&chunk) {
            return Err(AppError::ProviderUnavailable(
                "the provider's answer repeats the grant's token".into(),
            ));
        }
        Ok(Some(chunk))
    }
}

/// Looks for the grant's access token in what goes back to the caller: in a header's value,
/// and in a body read chunk by chunk, also where it spans two chunks.
pub(super) struct TokenGuard {
    /// Finds the token; `None` for one too short to tell apart from chance.
    finder: Option<memmem::Finder<'static>>,
    /// The end of what came so far, one byte shorter than the token.
    tail: Vec<u8>,
}

/// Tokens shorter than this are not looked for: a few characters would be found by chance.
const SHORTEST_GUARDED: usize = 16;

impl TokenGuard {
    pub(super) fn new(token: &SecretText) -> Self {
        let token = token.expose().as_bytes();
        Self {
            finder: (token.len() >= SHORTEST_GUARDED)
                .then(|| memmem::Finder::new(token).into_owned()),
            tail: Vec::new(),
        }
    }

    /// Whether a header value shows the token.
    pub(super) fn shows_in(&self, value: &str) -> bool {
        (self.finder.as_ref()).is_some_and(|finder| finder.find(value.as_bytes()).is_some())
    }

    /// Whether `chunk`, after the chunks before it, shows the token.
    fn shows_next(&mut self, chunk: &[u8]) -> bool {
        let Some(finder) = &self.finder else {
            return false;
        };
        let keep = finder.needle().len() - 1;
        let mut seam = std::mem::take(&mut self.tail);
        seam.extend_from_slice(&chunk[..chunk.len().min(keep)]);
        let found = finder.find(&seam).is_some() || finder.find(chunk).is_some();
        // The last `keep` bytes of all so far, for the next chunk's seam.
        if chunk.len() >= keep {
            seam.clear();
            seam.extend_from_slice(&chunk[chunk.len() - keep..]);
        } else {
            seam.drain(..seam.len().saturating_sub(keep));
        }
        self.tail = seam;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "y0_AgAAAABkZXYtdG9rZW4tZm9yLXRlc3Rz";

    fn guard() -> TokenGuard {
        TokenGuard::new(&SecretText::new(TOKEN))
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
