//! `social-login providers`: the catalogue an operator picks from, one entry per provider the
//! service knows by name (the eight built-in ones, then the presets): its key, name and kind,
//! what its table must set, and when its emails count as verified and on whose word.

use social_login_provider_core::spec::{ProviderSpec, TokenAuth, catalogue};
use std::fmt::Write;

/// The whole catalogue as text, an entry of three lines per provider.
pub fn listing() -> String {
    let mut text = String::new();
    for spec in catalogue() {
        // Writing to a String cannot fail.
        let _ = writeln!(
            text,
            "{key}  {name}  ({kind})\n  set:   {set}\n  email: {rule}",
            key = spec.key,
            name = spec.display_name,
            kind = spec.kind.as_str(),
            set = what_to_set(spec).join(", "),
            // When its addresses count as verified, and the provider's word for it.
            rule = spec.email_note,
        );
    }
    text
}

/// What an operator's table (and settings) must name for `spec` to work; an optional
/// tenant in brackets.
fn what_to_set(spec: &ProviderSpec) -> Vec<String> {
    let mut set = vec!["client_id".to_owned()];
    if spec.token_auth == TokenAuth::SignedSecretPost {
        set.extend(["apple_team_id", "apple_key_id", "apple_private_key"].map(str::to_owned));
    } else {
        set.push("client_secret".to_owned());
    }
    set.push("redirect_uri".to_owned());
    set.extend(spec.needs.iter().cloned());
    if let Some(issuer) = spec.issuer.as_deref().filter(|_| spec.is_per_tenant()) {
        set.push(format!("[issuer, default {issuer}]"));
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str) -> String {
        let listing = listing();
        let start = listing
            .find(&format!("{key}  "))
            .unwrap_or_else(|| panic!("{key} is listed"));
        listing[start..]
            .lines()
            .take(3)
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn every_provider_known_by_name_is_listed_once_built_ins_first() {
        let listing = listing();
        let keys: Vec<&str> = listing
            .lines()
            .filter(|line| !line.starts_with(' '))
            .map(|line| line.split("  ").next().unwrap())
            .collect();
        let expected: Vec<String> = catalogue().map(|spec| spec.key.to_string()).collect();
        assert_eq!(keys, expected);
        assert_eq!(keys[..2], ["google", "github"]);
        assert!(keys.len() > 40, "the eight and the presets");
    }

    #[test]
    fn an_entry_says_what_to_set_and_why_its_emails_are_or_are_not_trusted() {
        let okta = entry("okta");
        assert!(okta.contains("Okta  (oidc)"), "{okta}");
        assert!(
            okta.contains("set:   client_id, client_secret, redirect_uri, issuer"),
            "{okta}"
        );
        assert!(okta.contains("email: verified when"), "{okta}");
        let gitlab = entry("gitlab");
        assert!(
            gitlab.contains("[issuer, default https://gitlab.com]"),
            "{gitlab}"
        );
        let spotify = entry("spotify");
        assert!(spotify.contains("email: never verified"), "{spotify}");
        let apple = entry("apple");
        assert!(apple.contains("apple_private_key, redirect_uri"), "{apple}");
        let facebook = entry("facebook");
        assert!(facebook.contains("email: never verified"), "{facebook}");
        let cognito = entry("cognito");
        assert!(
            cognito.contains("redirect_uri, issuer, domain"),
            "{cognito}"
        );
    }
}
