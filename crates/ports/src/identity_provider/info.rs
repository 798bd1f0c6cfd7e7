//! What a client is told about a provider (`GET /auth/oauth/providers`, docs/api.md): its key,
//! what a button says, its kind and whether apps may sign in with its id_tokens.

use social_login_domain::{ProviderKey, ProviderKind};

/// One enabled provider, as clients that list providers see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderInfo {
    pub key: ProviderKey,
    /// What a sign-in button says ("GitHub", "X", or a configured provider's own name).
    pub display_name: String,
    pub kind: ProviderKind,
    /// Apps may sign in with an id_token of this provider (`/id-token`).
    pub id_token: bool,
}

impl ProviderInfo {
    /// A built-in provider's own description; any other key is a plain OAuth 2.0 provider
    /// named by its key (what an adapter that says nothing about itself gets).
    pub fn from_key(key: ProviderKey) -> Self {
        let (display_name, kind, id_token) = match key {
            ProviderKey::GOOGLE => ("Google", ProviderKind::Oidc, true),
            ProviderKey::GITHUB => ("GitHub", ProviderKind::OAuth2, false),
            ProviderKey::FACEBOOK => ("Facebook", ProviderKind::OAuth2, false),
            ProviderKey::MICROSOFT => ("Microsoft", ProviderKind::Oidc, true),
            ProviderKey::LINKEDIN => ("LinkedIn", ProviderKind::Oidc, false),
            ProviderKey::DISCORD => ("Discord", ProviderKind::OAuth2, false),
            ProviderKey::TWITTER => ("X", ProviderKind::OAuth2, false),
            ProviderKey::APPLE => ("Apple", ProviderKind::Oidc, true),
            _ => ("", ProviderKind::OAuth2, false),
        };
        let display_name = match display_name {
            "" => key.to_string(),
            name => name.to_owned(),
        };
        Self {
            key,
            display_name,
            kind,
            id_token,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_carry_their_documented_names_and_only_native_ones_take_id_tokens() {
        let names: Vec<String> = ProviderKey::BUILT_IN
            .into_iter()
            .map(|key| ProviderInfo::from_key(key).display_name)
            .collect();
        assert_eq!(
            names,
            [
                "Google",
                "GitHub",
                "Facebook",
                "Microsoft",
                "LinkedIn",
                "Discord",
                "X",
                "Apple"
            ]
        );
        let native: Vec<ProviderKey> = ProviderKey::BUILT_IN
            .into_iter()
            .filter(|key| ProviderInfo::from_key(*key).id_token)
            .collect();
        assert_eq!(
            native,
            [
                ProviderKey::GOOGLE,
                ProviderKey::MICROSOFT,
                ProviderKey::APPLE
            ]
        );
        let linkedin = ProviderInfo::from_key(ProviderKey::LINKEDIN);
        assert_eq!(linkedin.kind, ProviderKind::Oidc);
    }

    #[test]
    fn any_other_key_is_named_by_itself() {
        let acme = ProviderInfo::from_key("acme-sso".parse().unwrap());
        assert_eq!(acme.display_name, "acme-sso");
        assert_eq!((acme.kind, acme.id_token), (ProviderKind::OAuth2, false));
    }
}
