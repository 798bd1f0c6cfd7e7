//! Is a `secret_key` strong enough to be the root of every key? Refuses the placeholders of
//! our examples and values too regular to be random (a copied example, `aaaa…`, a word list).

/// Least estimated entropy of a `secret_key`: what `social-login gen-secret` gives is ~200.
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
    (estimated_bits(secret) < MIN_SECRET_BITS).then_some(Weakness::Predictable)
}

/// Length × empirical Shannon entropy per character: a conservative estimate for random
/// text (base64 of 32 random bytes scores ~200) that punishes repetition and small
/// alphabets (`aaaa…` scores 0, a 32-character hex string at most 128).
fn estimated_bits(secret: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    let mut total = 0usize;
    for c in secret.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
        total += 1;
    }
    let n = total as f64;
    let per_char: f64 = counts
        .values()
        .map(|&count| {
            let p = count as f64 / n;
            -p * p.log2()
        })
        .sum();
    per_char * n
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
