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

/// Asserts a `CodeExchange` failure whose message holds none of `secrets`; returns it.
pub fn expect_code_exchange(
    result: Result<ProviderLogin, ProviderError>,
    secrets: &[impl AsRef<str>],
) -> String {
    match result {
        Err(ProviderError::CodeExchange(message)) => checked(message, secrets),
        other => panic!("expected CodeExchange, got {other:?}"),
    }
}

/// Asserts a `UserInfo` failure whose message holds none of `secrets`; returns it.
pub fn expect_user_info(
    result: Result<ProviderLogin, ProviderError>,
    secrets: &[impl AsRef<str>],
) -> String {
    match result {
        Err(ProviderError::UserInfo(message)) => checked(message, secrets),
        other => panic!("expected UserInfo, got {other:?}"),
    }
}

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
