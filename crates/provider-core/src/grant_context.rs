//! What a grant keeps beside its refresh token for the next refresh (VK ID's `device_id`):
//! stored with the token, inside the same sealed value, and taken apart before the token is
//! sent. A token stored without one reads as the token alone.

use crate::token_set::TokenSet;
use social_login_domain::SecretText;

/// Between the context and the token: a control character neither holds.
const SEPARATOR: char = '\u{1f}';

/// `refresh_token` kept with `context`; a context holding a control character (the
/// separator is one) is not kept: the token stays alone.
pub fn kept_with(context: &str, refresh_token: &SecretText) -> SecretText {
    if context.chars().any(char::is_control) {
        return refresh_token.clone();
    }
    SecretText::new(format!("{context}{SEPARATOR}{}", refresh_token.expose()))
}

/// `tokens` with their refresh token (if any) kept with `context`: a new grant's, or a
/// refresh's rotated token, which keeps what the grant keeps.
pub fn keep(context: &str, tokens: &mut TokenSet) {
    tokens.refresh_token = (tokens.refresh_token.as_ref()).map(|t| kept_with(context, t));
}

/// The context a stored refresh token was kept with, if any, and the token to send.
pub fn kept_apart(stored: &SecretText) -> (Option<String>, SecretText) {
    match stored.expose().split_once(SEPARATOR) {
        Some((context, token)) => (Some(context.to_owned()), SecretText::new(token)),
        None => (None, stored.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_kept_with_a_context_comes_apart_and_one_without_is_the_token() {
        let kept = kept_with("device-1", &SecretText::new("rt.abc"));
        let (context, token) = kept_apart(&kept);
        assert_eq!(context.as_deref(), Some("device-1"));
        assert_eq!(token.expose(), "rt.abc");
        let (none, alone) = kept_apart(&SecretText::new("rt.abc"));
        assert_eq!((none, alone.expose()), (None, "rt.abc"));
        let refused = kept_with("dev\u{1f}ice", &SecretText::new("rt.abc"));
        assert_eq!(
            kept_apart(&refused).1.expose(),
            "rt.abc",
            "no context to split on"
        );
    }
}
