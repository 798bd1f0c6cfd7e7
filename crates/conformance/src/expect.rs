//! The failure a sign-in must end in, and a check that its message repeats no secret.

use crate::flow::{NONCE, OTHER_NONCE, OTHER_VERIFIER, VERIFIER};
use social_login_ports::{ProviderError, ProviderLogin};

/// Text no failure message may hold, whatever the provider: a JWT (`eyJ`), key material,
/// the flow's verifiers and nonces.
const NEVER: &[&str] = &[
    "eyJ",
    "PRIVATE KEY",
    VERIFIER,
    OTHER_VERIFIER,
    NONCE,
    OTHER_NONCE,
];

/// Defines `$name(result, secrets)`, which asserts a `$variant` failure whose message holds
/// none of `secrets` and returns the message.
macro_rules! expect_failure {
    ($name:ident, $variant:ident) => {
        #[doc = concat!("Asserts a `", stringify!($variant), "` failure whose message holds")]
        /// none of `secrets`; returns the message.
        pub fn $name(
            result: Result<ProviderLogin, ProviderError>,
            secrets: &[impl AsRef<str>],
        ) -> String {
            match result {
                Err(ProviderError::$variant(message)) => checked(message, secrets),
                other => panic!(
                    concat!("expected ", stringify!($variant), ", got {:?}"),
                    other
                ),
            }
        }
    };
}

expect_failure!(expect_code_exchange, CodeExchange);
expect_failure!(expect_user_info, UserInfo);

/// Asserts `message` holds none of `secrets` nor any text of [`NEVER`].
pub fn assert_no_secret(message: &str, secrets: &[impl AsRef<str>]) {
    let secrets = secrets
        .iter()
        .map(AsRef::as_ref)
        .chain(NEVER.iter().copied());
    for secret in secrets.filter(|s| !s.is_empty()) {
        assert!(!message.contains(secret), "{secret:?} in {message}");
    }
}

fn checked(message: String, secrets: &[impl AsRef<str>]) -> String {
    assert_no_secret(&message, secrets);
    message
}
