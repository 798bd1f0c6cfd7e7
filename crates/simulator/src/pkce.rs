//! PKCE (RFC 7636) checks, as an authorization server makes them.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A PKCE challenge as an authorize request presented it (`code_challenge` and
/// `code_challenge_method`, each possibly absent), and as a code keeps it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    pub code_challenge: Option<String>,
    /// `S256` or `plain`; `None` with a challenge means `plain` (RFC 7636 §4.3).
    pub code_challenge_method: Option<String>,
}

impl Challenge {
    /// With a challenge the verifier must match it (S256, or equality for `plain`).
    pub fn verifier_matches(&self, verifier: Option<&str>) -> bool {
        let Some(challenge) = &self.code_challenge else {
            return true;
        };
        let Some(verifier) = verifier else {
            return false;
        };
        match self.code_challenge_method.as_deref() {
            Some("S256") => s256_matches(verifier, challenge),
            _ => bool::from(verifier.as_bytes().ct_eq(challenge.as_bytes())),
        }
    }
}

/// A well-formed S256 challenge: 43 base64url characters (a SHA-256 digest).
pub fn is_s256_challenge(challenge: &str) -> bool {
    challenge.len() == 43
        && challenge
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether `verifier` is 43 to 128 unreserved characters (RFC 7636 §4.1).
pub fn is_valid_verifier(verifier: &str) -> bool {
    (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// `BASE64URL(SHA256(verifier)) == challenge`, compared in constant time.
pub fn s256_matches(verifier: &str, challenge: &str) -> bool {
    if !is_valid_verifier(verifier) {
        return false;
    }
    let computed = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    computed.as_bytes().ct_eq(challenge.as_bytes()).into()
}
