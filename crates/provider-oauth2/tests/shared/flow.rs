//! The browser and callback steps every adapter test repeats, for any `IdentityProvider`.
//! Included by each provider's test binary with `#[path]` (no GitHub-specific code here).

#![allow(dead_code)]

use social_login_domain::{Purpose, RedeemedState, SecretText, StateToken};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, IdentityProvider, ProviderError, ProviderLogin,
};
use std::collections::HashMap;

pub const STATE: &str = "state-0123456789abcdef";
/// 43 characters, the shortest verifier RFC 7636 allows (and Discord's strict minimum).
pub const VERIFIER: &str = "verifier-0123456789-0123456789-0123456789ab";
pub const NONCE: &str = "nonce-unused-by-oauth2-providers";

pub fn request(verifier: &str) -> AuthorizationRequest {
    AuthorizationRequest {
        state: StateToken::parse(STATE).unwrap(),
        pkce_verifier: SecretText::new(verifier),
        nonce: SecretText::new(NONCE),
    }
}

pub fn query_of(url: &str) -> HashMap<String, String> {
    url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect()
}

/// Follows `url` like a browser would, up to `callback`; returns the callback's query.
pub async fn visit(url: &str, callback: &str) -> HashMap<String, String> {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent("test-browser")
        .build()
        .unwrap();
    let response = browser.get(url).send().await.unwrap();
    assert_eq!(
        response.status(),
        302,
        "the simulator approves and redirects"
    );
    let location = response.headers()["location"].to_str().unwrap();
    assert!(location.starts_with(callback), "{location}");
    query_of(location)
}

/// The code the simulator issued for an authorization with `verifier`.
pub async fn authorize(provider: &dyn IdentityProvider, callback: &str, verifier: &str) -> String {
    let query = visit(&provider.authorization_url(&request(verifier)), callback).await;
    assert_eq!(query["state"], STATE);
    assert!(!query.contains_key("error"), "{query:?}");
    query["code"].clone()
}

pub async fn complete(
    provider: &dyn IdentityProvider,
    code: &str,
    verifier: &str,
) -> Result<ProviderLogin, ProviderError> {
    provider
        .complete(CallbackInput {
            code: SecretText::new(code),
            redeemed: RedeemedState {
                provider: provider.key(),
                purpose: Purpose::Login,
                pkce_verifier: SecretText::new(verifier),
                nonce: SecretText::new(NONCE),
            },
            post_body: None,
        })
        .await
}

/// The whole sign-in: authorize, then complete with the same verifier.
pub async fn sign_in(
    provider: &dyn IdentityProvider,
    callback: &str,
) -> Result<ProviderLogin, ProviderError> {
    let code = authorize(provider, callback, VERIFIER).await;
    complete(provider, &code, VERIFIER).await
}

/// Asserts a code-exchange failure whose message contains none of `secrets`.
pub fn expect_code_exchange(
    result: Result<ProviderLogin, ProviderError>,
    secrets: &[&str],
) -> String {
    match result {
        Err(ProviderError::CodeExchange(message)) => {
            for secret in secrets {
                assert!(!message.contains(secret), "{message}");
            }
            message
        }
        other => panic!("expected CodeExchange, got {other:?}"),
    }
}

/// Asserts a user-info failure whose message contains none of `secrets`.
pub fn expect_user_info(result: Result<ProviderLogin, ProviderError>, secrets: &[&str]) -> String {
    match result {
        Err(ProviderError::UserInfo(message)) => {
            for secret in secrets {
                assert!(!message.contains(secret), "{message}");
            }
            message
        }
        other => panic!("expected UserInfo, got {other:?}"),
    }
}
