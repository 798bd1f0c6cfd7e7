//! The dialog URL, the token request and the Graph call, as the simulated Facebook
//! receives them.

use crate::support::*;
use social_login_domain::{ProviderKey, SecretText};
use social_login_ports::IdentityProvider;
use social_login_provider_core::ProviderConfigError;
use social_login_provider_oauth2::FacebookProvider;
use social_login_provider_oauth2::facebook::{FACEBOOK_DEFAULTS, FACEBOOK_ME_URL};
use social_login_simulator::{ClientAuthKind, Endpoint};
use std::time::Duration;

#[test]
fn the_public_endpoints_name_one_pinned_graph_version() {
    assert_eq!(
        FACEBOOK_DEFAULTS.authorization,
        "https://www.facebook.com/v24.0/dialog/oauth"
    );
    assert_eq!(
        FACEBOOK_DEFAULTS.token,
        "https://graph.facebook.com/v24.0/oauth/access_token"
    );
    assert_eq!(FACEBOOK_ME_URL, "https://graph.facebook.com/v24.0/me");
}

#[tokio::test]
async fn the_dialog_url_carries_client_redirect_scopes_state_and_an_s256_challenge() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    assert_eq!(provider.key(), ProviderKey::Facebook);
    let url = provider.authorization_url(&request(VERIFIER));
    assert!(url.starts_with(&sim.facebook().authorization), "{url}");
    let query = query_of(&url);
    assert_eq!(query["client_id"], APP_ID);
    assert_eq!(query["redirect_uri"], CALLBACK);
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["scope"], "email public_profile");
    assert_eq!(query["state"], STATE);
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(!url.contains(VERIFIER) && !url.contains(APP_SECRET));
}

#[tokio::test]
async fn the_exchange_sends_credentials_and_verifier_and_the_simulator_checks_them() {
    let sim = simulator(ada()).await;
    sign_in_at(&provider(&sim)).await.unwrap();
    let token = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert_eq!(token.outcome, "ok");
    assert_eq!(token.client_auth, Some(ClientAuthKind::Body));
    assert!(token.code_verifier_present);
    assert_eq!(token.api_version.as_deref(), Some("v24.0"));
}

#[tokio::test]
async fn the_profile_call_carries_a_correct_appsecret_proof_and_the_bearer_token() {
    // The simulated app requires the proof: an "ok" outcome means it was present and
    // equal to HMAC-SHA256(app secret, access token).
    let sim = simulator(ada()).await;
    sign_in_at(&provider(&sim)).await.unwrap();
    let me = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Userinfo))
        .unwrap();
    assert_eq!(me.outcome, "ok");
    assert_eq!(me.authorization_scheme.as_deref(), Some("Bearer"));
}

#[tokio::test]
async fn a_configured_profile_url_gets_our_fields_and_proof_in_place_of_its_own() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    let me = format!(
        "{}?appsecret_proof=00&fields=id&locale=en_US",
        sim.facebook().me
    );
    settings.endpoints.userinfo = Some(me);
    let provider = provider_with(settings, Duration::from_secs(10));
    // A stale proof or the narrow field list would fail or lose the email.
    let identity = sign_in_at(&provider).await.unwrap().identity;
    assert!(identity.email.is_some());
    assert!(identity.full_name.is_some());
}

#[tokio::test]
async fn with_pkce_off_no_challenge_is_sent_and_no_verifier_either() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.pkce = false;
    let provider = provider_with(settings, Duration::from_secs(10));
    let query = query_of(&provider.authorization_url(&request(VERIFIER)));
    assert!(!query.contains_key("code_challenge"));
    assert!(sign_in_at(&provider).await.is_ok());
    let token = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert!(!token.code_verifier_present);
}

#[tokio::test]
async fn an_empty_app_secret_is_refused_at_start_up() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.client_secret = SecretText::new("");
    let error = FacebookProvider::new(settings, reqwest::Client::new()).unwrap_err();
    assert_eq!(
        error,
        ProviderConfigError::Missing {
            field: "client_secret"
        }
    );
}

#[tokio::test]
async fn the_adapter_debug_output_hides_the_secret() {
    let sim = simulator(ada()).await;
    let printed = format!("{:?}", provider(&sim));
    assert!(!printed.contains(APP_SECRET), "{printed}");
}
