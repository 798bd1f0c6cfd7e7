//! Email addresses: stored as received, matched ignoring the case of ASCII letters only
//! (docs/api.md).

/// An email address as a provider or a user gave it.
///
/// The original spelling is kept for storage and display; [`Email::normalized`] is the key
/// used for look-ups, so `Ada@Example.com` and `ada@example.com` are the same user, while
/// `\u{212A}` (KELVIN SIGN) stays a different address from `k`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Email {
    original: String,
}

/// The text is not a plausible email address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a valid email address")]
pub struct InvalidEmail;

impl Email {
    /// Longest address SMTP can carry (RFC 5321 path limit less the brackets).
    pub const MAX_LEN: usize = 254;

    /// Accepts `local@domain` with a non-empty local part and a domain containing no
    /// white space. Deliberately loose: providers are the authority on their addresses.
    pub fn parse(raw: &str) -> Result<Self, InvalidEmail> {
        let trimmed = raw.trim();
        if trimmed.len() > Self::MAX_LEN
            || trimmed.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(InvalidEmail);
        }
        match trimmed.rsplit_once('@') {
            Some((local, domain)) if !local.is_empty() && !domain.is_empty() => Ok(Self {
                original: trimmed.to_owned(),
            }),
            _ => Err(InvalidEmail),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.original
    }

    /// The look-up key: ASCII letters lowercased, every other character as received.
    ///
    /// Unicode case folding would make distinct addresses equal (`\u{212A}` KELVIN SIGN
    /// lowercases to `k`, `\u{0130}` to `i` + a combining dot): an attacker registers the
    /// look-alike and is matched, or auto-linked, to the owner of the ASCII address. Mail
    /// systems do not fold them either.
    pub fn normalized(&self) -> String {
        self.original.to_ascii_lowercase()
    }

    pub fn matches(&self, other: &Email) -> bool {
        self.normalized() == other.normalized()
    }
}

// Emails are personal data: keep them out of debug logs.
redacted_debug!(Email);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_spelling_it_was_given() {
        let email = Email::parse(" Ada@Example.COM ").unwrap();
        assert_eq!(email.as_str(), "Ada@Example.COM");
        assert_eq!(email.normalized(), "ada@example.com");
    }

    #[test]
    fn matches_ignoring_case() {
        let a = Email::parse("Ada@Example.com").unwrap();
        let b = Email::parse("ada@example.COM").unwrap();
        assert!(a.matches(&b));
        assert!(!a.matches(&Email::parse("bob@example.com").unwrap()));
    }

    #[test]
    fn the_kelvin_sign_is_not_the_letter_k() {
        let kelvin = Email::parse("\u{212A}im@example.com").unwrap();
        let ascii = Email::parse("kim@example.com").unwrap();
        assert!(!kelvin.matches(&ascii));
        assert_eq!(kelvin.normalized(), "\u{212A}im@example.com");
        let dotted = Email::parse("\u{0130}nci@example.com").unwrap();
        assert!(!dotted.matches(&Email::parse("inci@example.com").unwrap()));
    }

    #[test]
    fn non_ascii_letters_keep_their_case() {
        let upper = Email::parse("JOS\u{00C9}@example.com").unwrap();
        assert_eq!(upper.normalized(), "jos\u{00C9}@example.com");
        assert!(!upper.matches(&Email::parse("jos\u{00E9}@example.com").unwrap()));
        assert!(upper.matches(&Email::parse("Jos\u{00C9}@Example.COM").unwrap()));
    }

    #[test]
    fn rejects_text_that_is_not_an_address() {
        for bad in [
            "",
            "ada",
            "@example.com",
            "ada@",
            "a da@example.com",
            "ada\0@example.com",
        ] {
            assert_eq!(Email::parse(bad), Err(InvalidEmail), "{bad:?}");
        }
        let long = format!("{}@example.com", "a".repeat(250));
        assert_eq!(Email::parse(&long), Err(InvalidEmail));
    }

    #[test]
    fn accepts_relay_addresses_as_any_other() {
        let relay = Email::parse("x7k2p9q4m1@privaterelay.appleid.com").unwrap();
        assert_eq!(relay.as_str(), "x7k2p9q4m1@privaterelay.appleid.com");
    }

    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        /// Local parts of ASCII letters and digits mixed with a few non-ASCII letters that
        /// Unicode case mapping changes (or maps onto ASCII).
        fn local_part() -> impl Strategy<Value = String> {
            proptest::collection::vec(
                prop_oneof![
                    4 => proptest::char::range('a', 'z'),
                    4 => proptest::char::range('A', 'Z'),
                    1 => Just('\u{212A}'),
                    1 => Just('\u{212B}'),
                    1 => Just('\u{0130}'),
                    1 => Just('\u{00C9}'),
                    1 => Just('\u{00E9}'),
                    1 => Just('\u{017F}'),
                ],
                1..24,
            )
            .prop_map(|chars| chars.into_iter().collect())
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Two addresses match exactly when they are equal after lowercasing ASCII
            /// letters, and the key changes nothing but ASCII letters.
            #[test]
            fn matching_ignores_ascii_case_and_nothing_else(a in local_part(), b in local_part()) {
                let left = Email::parse(&format!("{a}@Example.com")).unwrap();
                let right = Email::parse(&format!("{b}@example.COM")).unwrap();
                prop_assert_eq!(left.matches(&right), a.eq_ignore_ascii_case(&b));
                let key = left.normalized();
                prop_assert_eq!(key.chars().count(), left.as_str().chars().count());
                for (kept, given) in key.chars().zip(left.as_str().chars()) {
                    prop_assert_eq!(kept, given.to_ascii_lowercase());
                }
            }

            /// Changing the case of any ASCII letter of an address keeps it the same address.
            #[test]
            fn ascii_case_changes_keep_the_same_address(a in local_part(), flips in any::<u64>()) {
                let flipped: String = a
                    .chars()
                    .enumerate()
                    .map(|(i, c)| if flips >> (i % 64) & 1 == 1 { c.to_ascii_uppercase() } else { c })
                    .collect();
                let left = Email::parse(&format!("{a}@example.com")).unwrap();
                let right = Email::parse(&format!("{flipped}@EXAMPLE.com")).unwrap();
                prop_assert!(left.matches(&right));
            }
        }
    }
}
