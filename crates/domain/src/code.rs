//! The authorization code a provider sends back through the browser.

use crate::SecretText;

/// The longest code passed on; real ones are well under 1 KiB.
pub const MAX_CODE_LEN: usize = 2048;

/// A code as the provider issued it: 1 to [`MAX_CODE_LEN`] characters. It is a one-time
/// credential: `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct AuthorizationCode(SecretText);

/// The text cannot be an authorization code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("code: must be 1 to {MAX_CODE_LEN} characters")]
pub struct InvalidCode;

impl AuthorizationCode {
    pub fn parse(raw: &str) -> Result<Self, InvalidCode> {
        if raw.is_empty() || raw.len() > MAX_CODE_LEN {
            return Err(InvalidCode);
        }
        Ok(Self(SecretText::new(raw)))
    }

    pub fn into_secret(self) -> SecretText {
        self.0
    }
}

redacted_debug!(AuthorizationCode);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_of_1_to_2048_characters_parses_and_never_prints() {
        for code in ["Q", &"Q".repeat(MAX_CODE_LEN)] {
            let parsed = AuthorizationCode::parse(code).unwrap();
            assert!(!format!("{parsed:?}").contains('Q'));
        }
        assert_eq!(AuthorizationCode::parse(""), Err(InvalidCode));
        assert_eq!(
            AuthorizationCode::parse(&"c".repeat(MAX_CODE_LEN + 1)),
            Err(InvalidCode)
        );
    }
}
