//! Random values. Long-lived secrets (the `secret_key`, operator API keys, password salts)
//! come straight from the operating system's CSPRNG (`getrandom(2)`); the values every
//! request draws (state ids, PKCE verifiers, nonces, token ids, refresh tokens, the random
//! part of new ids) from rand's `ThreadRng`, a ChaCha12 CSPRNG per thread seeded from the
//! OS and reseeded from it after every 64 KiB, which spares a system call per value
//! (docs/decisions.md). Refresh tokens are among them although they live for weeks: what
//! `ThreadRng` gives up is against someone who can read the process's memory, who could
//! read the `secret_key` as well. The service never forks, so no two processes share a
//! generator's state.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::Rng as _;
use social_login_ports::Randomness;

/// Fills `N` bytes from the OS random source.
///
/// # Panics
/// If the operating system cannot provide randomness. There is no safe fallback for a
/// security token, and on the platforms we run on (`getrandom(2)`) this does not happen.
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    os_random_fill(&mut bytes);
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

/// `bytes` random bytes from [`ThreadRandomness`] as base64url without padding: safe in
/// URLs, headers and cookies.
///
/// # Panics
/// If the operating system cannot seed the generator, like [`generate_secret_key`].
pub fn random_url_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    ThreadRandomness.fill(&mut buf);
    URL_SAFE_NO_PAD.encode(buf)
}

/// The `Randomness` port on `ThreadRng`: a CSPRNG per thread, seeded and reseeded from the
/// operating system.
#[derive(Debug, Clone, Copy, Default)]
pub struct ThreadRandomness;

impl Randomness for ThreadRandomness {
    fn fill(&self, dest: &mut [u8]) {
        // Panics (rather than hand out guessable values) if the OS cannot seed it.
        rand::rng().fill_bytes(dest);
    }
}

/// Fills `dest` from the operating system's CSPRNG, for key material.
///
/// # Panics
/// If the operating system cannot provide randomness, like [`generate_secret_key`].
pub fn os_random_fill(dest: &mut [u8]) {
    getrandom::fill(dest).expect("the operating system random number generator failed");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_randomness_fills_every_byte_differently_each_time() {
        let (mut one, mut two) = ([0u8; 32], [0u8; 32]);
        ThreadRandomness.fill(&mut one);
        ThreadRandomness.fill(&mut two);
        assert_ne!(one, two);
        assert_ne!(one, [0u8; 32]);
    }

    #[test]
    fn two_threads_draw_different_values() {
        let draw = || {
            let mut bytes = [0u8; 32];
            ThreadRandomness.fill(&mut bytes);
            bytes
        };
        let other = std::thread::spawn(draw).join().unwrap();
        assert_ne!(draw(), other);
    }

    #[test]
    fn the_os_fill_fills_every_byte_differently_each_time() {
        let (mut one, mut two) = ([0u8; 32], [0u8; 32]);
        os_random_fill(&mut one);
        os_random_fill(&mut two);
        assert_ne!(one, two);
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
