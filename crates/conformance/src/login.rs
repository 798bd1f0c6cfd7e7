//! Reading a successful sign-in: its email as text, and the shape of its tokens.

use social_login_domain::{ProviderIdentity, ProviderTokens};

/// The identity's email as text, to compare with a literal.
pub fn email_of(identity: &ProviderIdentity) -> Option<&str> {
    identity.email.as_ref().map(|email| email.as_str())
}

/// Asserts the access token is one of the provider's (it starts with `prefix`, and is never
/// empty) and that a refresh token came exactly when `refresh`.
pub fn assert_tokens(tokens: &ProviderTokens, prefix: &str, refresh: bool) {
    let access = tokens.access_token.expose();
    assert!(
        !access.is_empty() && access.starts_with(prefix),
        "{prefix}…"
    );
    assert_eq!(tokens.refresh_token.is_some(), refresh, "a refresh token");
}
