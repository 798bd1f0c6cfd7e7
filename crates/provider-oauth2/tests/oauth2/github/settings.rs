//! Settings GitHub's adapter takes beyond the shared ones: scopes, the emails endpoint.

use super::support::*;
use social_login_conformance::{query_of, request};
use social_login_ports::IdentityProvider;
use social_login_provider_core::ProviderConfigError;

#[tokio::test]
async fn configured_scopes_replace_the_defaults() {
    let sim = FX.start().await;
    let mut settings = FX.settings(&sim);
    settings.scopes = Some(vec!["user:email".into()]);
    let url = provider_with(settings)
        .authorization_url(&request())
        .unwrap();
    assert_eq!(query_of(&url)["scope"], "user:email");
}

#[tokio::test]
async fn an_invalid_emails_endpoint_is_refused_naming_its_field() {
    let error = crate::refused(&FX, |s| s.endpoints.emails = Some("not a url".into())).await;
    let field = "endpoints.emails";
    assert_eq!(error, ProviderConfigError::InvalidUrl { field });
}
