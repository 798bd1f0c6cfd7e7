//! A provider from configuration to start tests from, for this crate and the crates that read
//! declarations (feature `fixtures`, dev-only).

use crate::{Claims, EmailVerified, Endpoints, GenericProvider, ProviderKind};
use social_login_domain::ProviderKey;

/// `corp`: an `oauth2` provider at `https://corp.example` whose userinfo answer keeps the
/// account under `/data`; no issuer, no revocation, the default token authentication.
pub fn corp() -> GenericProvider {
    GenericProvider {
        key: ProviderKey::parse("corp").unwrap(),
        display_name: "Corp OAuth".into(),
        kind: ProviderKind::OAuth2,
        issuer: None,
        scopes: vec!["profile".into(), "email".into()],
        token_auth: None,
        claims: Claims {
            subject: "/data/id".into(),
            email: Some("/data/attributes/mail".into()),
            email_verified: EmailVerified::Never,
            name: vec!["/data/attributes/display".into()],
            avatar_url: None,
            hosted_domain: None,
        },
        endpoints: Endpoints {
            authorization: "https://corp.example/authorize".into(),
            token: "https://corp.example/token".into(),
            userinfo: Some("https://corp.example/me".into()),
            ..Endpoints::default()
        },
        revocation: None,
        knobs: Default::default(),
    }
}
