//! Random values for state ids, PKCE verifiers and nonces.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use social_login_domain::StateId;

/// 32 bytes from the OS generator. A failing OS RNG is not recoverable: refuse to go on
/// rather than issue guessable values.
fn random_bytes() -> [u8; 32] {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
    bytes
}

/// A fresh state id: 128 random bits.
pub fn random_state_id() -> StateId {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
    StateId::from_bytes(bytes)
}

/// 43 URL-safe characters carrying 256 bits: a valid PKCE verifier (RFC 7636 §4.1 wants
/// 43 to 128) and an unguessable nonce.
pub fn random_url_token() -> String {
    URL_SAFE_NO_PAD.encode(random_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_43_url_safe_characters_and_differ() {
        let a = random_url_token();
        assert_eq!(a.len(), 43);
        assert!(
            a.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_ne!(a, random_url_token());
    }
}
