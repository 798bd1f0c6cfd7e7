//! Random values from the operating system's CSPRNG: secret keys, opaque tokens, ids.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// Fills `N` bytes from the OS random source.
///
/// # Panics
/// If the operating system cannot provide randomness. There is no safe fallback for a
/// security token, and on the platforms we run on (`getrandom(2)`) this does not happen.
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system random number generator failed");
    bytes
}

/// A fresh `secret_key` for the configuration: 48 random bytes, base64url without padding
/// (64 characters). Printed by `social-login gen-secret`.
///
/// 48 rather than 32 bytes for the service's strength check, which estimates like zxcvbn:
/// it prices a random character at log2(10) bits, so 43 characters score ~142 against a
/// floor of 128, and about one value in 15,000 that happens to contain a few words scored
/// under it. 64 characters score ~212: every value passes.
///
/// # Panics
/// If the operating system cannot provide randomness. There is no safe fallback for a
/// secret, and with `getrandom(2)` on the platforms we run on this does not happen.
pub fn generate_secret_key() -> String {
    URL_SAFE_NO_PAD.encode(random_bytes::<48>())
}

/// `bytes` random bytes as base64url without padding: safe in URLs, headers and cookies.
///
/// # Panics
/// If the operating system cannot provide randomness, like [`generate_secret_key`].
pub fn random_url_token(bytes: usize) -> String {
    try_random_url_token(bytes).expect("the operating system random number generator failed")
}

/// [`random_url_token`] for callers that can report the (practically impossible) failure.
pub(crate) fn try_random_url_token(bytes: usize) -> Result<String, getrandom::Error> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf)?;
    Ok(URL_SAFE_NO_PAD.encode(buf))
}

/// The `Randomness` port on the operating system's CSPRNG (`getrandom(2)`).
#[derive(Debug, Clone, Copy, Default)]
pub struct OsRandomness;

impl social_login_ports::Randomness for OsRandomness {
    fn fill(&self, dest: &mut [u8]) {
        getrandom::fill(dest).expect("the operating system random number generator failed");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_os_randomness_fills_every_byte_differently_each_time() {
        use social_login_ports::Randomness;
        let (mut one, mut two) = ([0u8; 32], [0u8; 32]);
        OsRandomness.fill(&mut one);
        OsRandomness.fill(&mut two);
        assert_ne!(one, two);
        assert_ne!(one, [0u8; 32]);
    }

    #[test]
    fn a_generated_secret_key_is_48_bytes_of_base64url() {
        let key = generate_secret_key();
        assert_eq!(key.len(), 64);
        assert_eq!(URL_SAFE_NO_PAD.decode(&key).map(|b| b.len()), Ok(48));
        assert_ne!(key, generate_secret_key());
    }

    #[test]
    fn a_url_token_encodes_the_requested_number_of_bytes() {
        let token = random_url_token(16);
        assert_eq!(URL_SAFE_NO_PAD.decode(&token).map(|b| b.len()), Ok(16));
        assert!(
            token
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
    }
}
