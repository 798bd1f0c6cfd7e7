//! Successful sign-ins: how GitHub's answers become the identity and the tokens.

use super::support::*;
use social_login_conformance::{assert_tokens, email_of};
use social_login_simulator::{Endpoint, SimEmail, SimUser};

fn email(address: &str, primary: bool, verified: bool) -> SimEmail {
    SimEmail {
        email: address.into(),
        primary,
        verified,
        visibility: None,
    }
}

#[tokio::test]
async fn a_private_verified_primary_email_comes_from_the_emails_endpoint() {
    let (_sim, login) = signed_in().await;
    assert_eq!(login.identity, FX.seeded_identity());
    assert_tokens(&login.tokens, "gho_", false);
}

#[tokio::test]
async fn api_calls_carry_the_headers_github_asks_for() {
    let (sim, _) = signed_in().await;
    let records = sim.requests();
    let token = records
        .iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert_eq!(token.accept.as_deref(), Some("application/json"));
    assert_eq!(
        token.client_auth,
        Some(social_login_simulator::ClientAuthKind::Body)
    );
    assert!(token.code_verifier_present);
    for endpoint in [Endpoint::Userinfo, Endpoint::Emails] {
        let record = records
            .iter()
            .find(|r| r.endpoint == Some(endpoint))
            .unwrap();
        assert_eq!(record.outcome, "ok");
        assert_eq!(record.authorization_scheme.as_deref(), Some("Bearer"));
        assert_eq!(
            record.accept.as_deref(),
            Some("application/vnd.github+json")
        );
        assert_eq!(record.api_version.as_deref(), Some("2022-11-28"));
        assert!(
            record
                .user_agent
                .as_deref()
                .is_some_and(|ua| ua.starts_with("social-login/"))
        );
    }
}

#[tokio::test]
async fn a_public_email_is_used_and_verified_by_the_emails_list() {
    let user = SimUser::new("42", "grace")
        .with_public_email("grace@example.com")
        .with_emails(vec![
            email("grace@example.com", false, true),
            email("g@work.example", true, false),
        ]);
    let sim = FX.start_as(user).await;
    let identity = FX.flow().sign_in(&provider(&sim)).await.unwrap().identity;
    assert_eq!(email_of(&identity), Some("grace@example.com"));
    assert!(identity.email_verified);
}

#[tokio::test]
async fn a_public_email_missing_from_the_list_is_unverified() {
    let user = SimUser::new("42", "grace")
        .with_public_email("grace@example.com")
        .with_emails(vec![email("g@work.example", true, false)]);
    let sim = FX.start_as(user).await;
    let identity = FX.flow().sign_in(&provider(&sim)).await.unwrap().identity;
    assert_eq!(email_of(&identity), Some("grace@example.com"));
    assert!(!identity.email_verified);
}

#[tokio::test]
async fn without_a_verified_primary_or_public_email_there_is_no_email() {
    let user = SimUser::new("7", "nomail")
        .with_email("unverified@example.com", false)
        .with_emails(vec![
            email("unverified@example.com", true, false),
            email("7+nomail@users.noreply.github.com", false, true),
        ]);
    let sim = FX.start_as(user).await;
    let identity = FX.flow().sign_in(&provider(&sim)).await.unwrap().identity;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
}

#[tokio::test]
async fn a_missing_name_is_null_not_the_login_handle() {
    let sim = FX
        .start_as(SimUser::new("8", "octocat").with_email("o@example.com", true))
        .await;
    let identity = FX.flow().sign_in(&provider(&sim)).await.unwrap().identity;
    assert_eq!(identity.full_name, None);
    assert_eq!(identity.avatar_url, None);
}
