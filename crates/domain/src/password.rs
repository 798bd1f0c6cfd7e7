//! The password policy for password accounts (NIST SP 800-63B §5.1.1.2).

use crate::SecretText;

pub const MIN_PASSWORD_CHARS: usize = 8;
/// Bounds the work one login can cost the hasher.
pub const MAX_PASSWORD_CHARS: usize = 128;

/// Why a password is refused at registration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WeakPassword {
    #[error("password must be at least 8 characters")]
    TooShort,
    #[error("password must be at most 128 characters")]
    TooLong,
}

/// Length is the rule that matters; composition rules are not imposed (NIST).
pub fn check_password(password: &SecretText) -> Result<(), WeakPassword> {
    let chars = password.expose().chars().count();
    if chars < MIN_PASSWORD_CHARS {
        Err(WeakPassword::TooShort)
    } else if chars > MAX_PASSWORD_CHARS {
        Err(WeakPassword::TooLong)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_bounds_are_enforced_in_characters() {
        assert_eq!(
            check_password(&SecretText::new("1234567")),
            Err(WeakPassword::TooShort)
        );
        assert_eq!(check_password(&SecretText::new("12345678")), Ok(()));
        assert_eq!(
            check_password(&SecretText::new("ééééééé")),
            Err(WeakPassword::TooShort)
        );
        assert_eq!(
            check_password(&SecretText::new("x".repeat(129))),
            Err(WeakPassword::TooLong)
        );
    }
}
