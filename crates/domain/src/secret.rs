//! A string that must never be printed: provider tokens, passwords, PKCE verifiers.

use std::fmt;
use subtle::ConstantTimeEq;

/// Secret text. `Debug` prints `[redacted]`, there is no `Display`, and reading it takes
/// an explicit `expose()` so every place that handles the plaintext is greppable.
#[derive(Clone, Eq)]
pub struct SecretText(String);

impl SecretText {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// Constant time in the contents, so a comparison leaks no prefix of the secret.
impl PartialEq for SecretText {
    fn eq(&self, other: &Self) -> bool {
        same_bytes(self.0.as_bytes(), other.0.as_bytes())
    }
}

/// Whether `a` and `b` are equal, in time that does not depend on where they differ
/// (`subtle`, as every other secret comparison of the service).
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.ct_eq(b).into()
}

impl fmt::Debug for SecretText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl From<String> for SecretText {
    fn from(value: String) -> Self {
        Self(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_compares_the_whole_value() {
        assert_eq!(SecretText::new("abc"), SecretText::new("abc"));
        assert_ne!(SecretText::new("abc"), SecretText::new("abd"));
        assert_ne!(SecretText::new("abc"), SecretText::new("abcd"));
        assert_ne!(SecretText::new(""), SecretText::new("a"));
    }

    #[test]
    fn debug_output_hides_the_value() {
        let secret = SecretText::new("gho_live_token");
        assert_eq!(format!("{secret:?}"), "[redacted]");
        assert_eq!(secret.expose(), "gho_live_token");
    }
}
