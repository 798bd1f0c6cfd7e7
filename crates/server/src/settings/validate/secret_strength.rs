//! Is a `secret_key` strong enough to be the root of every key? Refuses the placeholders of
//! our examples and values worth under 128 bits as zxcvbn estimates them (`estimate`):
//! words, names, keyboard runs, repetitions, sequences and dates count for what they are
//! worth, so a passphrase or `0123456789…` is refused however long it looks.
//!
//! Why it matters: the access-token signing key derives from `secret_key` and its public
//! half is published (`/.well-known/jwks.json`), so anyone can test guesses of `secret_key`
//! offline, at their own speed, without the service ever seeing them.

mod estimate;

/// Least estimated strength of a `secret_key`. What `social-login gen-secret` prints (48
/// random bytes, base64url) scores ~212: zxcvbn prices a random character at log2(10).
pub const MIN_SECRET_BITS: f64 = 128.0;

/// Lowercase markers of a value copied from an example rather than generated.
const PLACEHOLDER_MARKERS: [&str; 8] = [
    "replace",
    "change-me",
    "changeme",
    "placeholder",
    "example",
    "your-secret",
    "gen-secret",
    "secret-here",
];

/// Why a secret long enough in bytes is still refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weakness {
    Placeholder,
    Predictable,
}

pub fn weakness(secret: &str) -> Option<Weakness> {
    let lower = secret.to_ascii_lowercase();
    if PLACEHOLDER_MARKERS
        .iter()
        .any(|marker| lower.contains(marker))
    {
        return Some(Weakness::Placeholder);
    }
    (estimate::bits(secret) < MIN_SECRET_BITS).then_some(Weakness::Predictable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_gen_secret_prints_is_strong() {
        for _ in 0..200 {
            let secret = social_login_security::generate_secret_key();
            assert_eq!(weakness(&secret), None, "{secret}");
        }
    }

    #[test]
    fn other_random_encodings_of_32_bytes_are_strong() {
        use base64::Engine as _;
        for _ in 0..50 {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes).unwrap();
            // What `openssl rand -hex 32` and `openssl rand -base64 32` print.
            let hex: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
            let base64 = base64::engine::general_purpose::STANDARD.encode(bytes);
            for secret in [hex, base64] {
                assert_eq!(weakness(&secret), None, "{secret}");
            }
        }
    }

    #[test]
    fn passphrases_sequences_and_keyboard_runs_are_predictable_however_long() {
        for weak in [
            "this-is-my-super-secret-key-for-production!".to_owned(),
            "0123456789".repeat(5),
            "correct-horse-battery-staple-".repeat(2),
            "qwertyuiopasdfghjklzxcvbnm1234567890qwertyuiop".to_owned(),
            "JohnSmith1985-JaneSmith1987-london-summer-2024".to_owned(),
            "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ".to_owned(),
            "P@ssw0rdP@ssw0rdP@ssw0rdP@ssw0rdP@ssw0rd".to_owned(),
        ] {
            assert_eq!(weakness(&weak), Some(Weakness::Predictable), "{weak}");
        }
    }

    #[test]
    fn a_random_block_repeated_is_worth_the_block_once() {
        let block = &social_login_security::generate_secret_key()[..24];
        assert_eq!(
            weakness(&block.repeat(2)),
            Some(Weakness::Predictable),
            "{block}"
        );
    }

    #[test]
    fn the_example_placeholder_and_its_kind_are_refused() {
        for placeholder in [
            "REPLACE-ME-run-social-login-gen-secret-0000",
            "changeme-changeme-changeme-changeme-1234",
            "this-is-an-example-secret-key-of-forty-chars",
        ] {
            assert_eq!(
                weakness(placeholder),
                Some(Weakness::Placeholder),
                "{placeholder}"
            );
        }
    }

    #[test]
    fn repetitive_and_small_alphabet_values_are_predictable() {
        for weak in [
            "k".repeat(40),
            "abababababababababababababababab".to_owned(),
            "correct horse battery staple extra".to_owned(),
            "deadbeefdeadbeefdeadbeefdeadbeef".to_owned(),
        ] {
            assert_eq!(weakness(&weak), Some(Weakness::Predictable), "{weak}");
        }
    }
}
