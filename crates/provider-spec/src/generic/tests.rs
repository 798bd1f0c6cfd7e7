//! How a table, and what discovery found, become a declaration.

use super::*;
use crate::fixtures::corp;

fn acme() -> GenericProvider {
    GenericProvider {
        key: ProviderKey::parse("acme-sso").unwrap(),
        display_name: "Acme SSO".into(),
        kind: ProviderKind::Oidc,
        issuer: Some("https://sso.acme.example/realms/main".into()),
        scopes: vec!["openid".into(), "email".into()],
        endpoints: Endpoints::default(),
        ..corp()
    }
}

fn published() -> Published {
    let at = |path: &str| format!("https://sso.acme.example/realms/main/{path}");
    Published {
        issuer: "https://sso.acme.example/realms/main/".into(),
        endpoints: Endpoints {
            authorization: at("auth"),
            token: at("token"),
            userinfo: Some(at("userinfo")),
            emails: None,
            jwks: Some(at("certs")),
            refresh: None,
        },
        revocation: Some(at("revoke")),
        token_auth: TokenAuth::ClientSecretPost,
        algorithms: vec!["RS256".into(), "ES256".into()],
    }
}

#[test]
fn an_oauth2_table_is_a_sound_declaration_of_its_own_endpoints() {
    let spec = corp().declaration(None);
    assert_eq!(spec.problems(), []);
    assert_eq!(spec.endpoints, corp().endpoints);
    assert_eq!(spec.token_auth, TokenAuth::ClientSecretBasic, "the default");
    assert_eq!(spec.email_scope.as_deref(), Some("email"));
    assert!(!spec.native_sign_in());
    assert_eq!((spec.id_token, spec.revocation), (None, None));
}

#[test]
fn an_oidc_declaration_takes_what_discovery_published_unless_the_table_says_otherwise() {
    let mut table = acme();
    table.endpoints.userinfo = Some("https://profile.acme.example/me".into());
    let spec = table.declaration(Some(&published()));
    assert_eq!(spec.problems(), []);
    assert_eq!(spec.endpoints.token, published().endpoints.token);
    assert_eq!(
        spec.endpoints.userinfo.as_deref(),
        Some("https://profile.acme.example/me"),
        "the table's own"
    );
    assert_eq!(spec.token_auth, TokenAuth::ClientSecretPost, "as published");
    let rules = spec.id_token.as_ref().unwrap();
    assert_eq!(rules.nonce, NonceRule::Required);
    assert!(spec.native_sign_in());
    assert_eq!(rules.algorithms, ["RS256", "ES256"]);
    let revocation = spec.revocation.unwrap();
    assert_eq!(revocation.sends, RevokedToken::RefreshFirst);
    assert_eq!(revocation.client_auth, RevocationAuth::LikeToken);
    assert!(revocation.hint);
}

#[test]
fn id_tokens_signed_with_the_client_secret_give_no_native_sign_in() {
    let mut spec = acme().declaration(Some(&published()));
    spec.id_token_signing = crate::knobs::IdTokenSigning::ClientSecret;
    assert_eq!(spec.problems(), []);
    assert!(
        !spec.native_sign_in(),
        "an app holding the secret could sign any token"
    );
}

#[test]
fn the_id_token_issuer_is_the_published_one_with_or_without_one_trailing_slash() {
    let spec = acme().declaration(Some(&published()));
    let issuers = &spec.id_token.unwrap().issuers;
    assert_eq!(
        issuers,
        &[
            "https://sso.acme.example/realms/main/",
            "https://sso.acme.example/realms/main"
        ]
    );
    let mut bare = published();
    bare.issuer = "https://sso.acme.example".into();
    let issuers = acme().declaration(Some(&bare)).id_token.unwrap().issuers;
    assert_eq!(
        issuers,
        ["https://sso.acme.example", "https://sso.acme.example/"]
    );
}

#[test]
fn a_configured_token_authentication_wins_over_the_published_one() {
    let mut table = acme();
    table.token_auth = Some(TokenAuth::ClientSecretBasic);
    let spec = table.declaration(Some(&published()));
    assert_eq!(spec.token_auth, TokenAuth::ClientSecretBasic);
}
