//! Provider revocation (docs/api.md#account-deletion-and-revocation): disconnecting revokes that link's grant at the
//! provider and deleting the account revokes every grant, best effort: a provider that
//! fails never blocks the unlink, and the failure is an audit event.

use crate::helpers::spawn_app;
use reqwest::StatusCode;
use social_login_simulator::{Endpoint, Fault, Provider};

/// GitHub's revocation endpoint answers `status`.
fn github_revocation_fails_with(status: u16) -> Fault {
    Fault {
        provider: Provider::Github,
        endpoint: Endpoint::Revoke,
        status: Some(status),
        garbage: false,
        delay_ms: None,
        error_in_200: None,
    }
}

#[tokio::test]
async fn disconnecting_revokes_the_links_grant_at_the_provider() {
    let app = spawn_app().await;
    let (_, bearer) = app.pat_linked("github").await;
    assert_eq!(app.revocations_at(Provider::Github).len(), 0);

    let unlinked = app.disconnect("github", &bearer).await;
    assert_eq!(unlinked.status(), StatusCode::NO_CONTENT);
    let revoked = app.assert_one_live_revocation(Provider::Github);
    assert_eq!(app.sim.revocations().len(), 1, "nothing else was revoked");
    let issued = app.sim.issued_access_tokens();
    assert!(
        !issued.contains(&revoked.token),
        "the access token no longer works at the provider"
    );
    app.stop().await;
}

#[tokio::test]
async fn deleting_the_account_revokes_every_grant_even_when_one_provider_fails() {
    let app = spawn_app().await;
    let (_, bearer) = app.signed_in("583231").await;
    app.link("google", &bearer, "583231").await;
    app.sim.set_fault(github_revocation_fails_with(500));

    let deleted = app.delete("/users/me", Some(&bearer)).await;
    assert_eq!(
        deleted.status(),
        StatusCode::NO_CONTENT,
        "a provider failure blocks nothing"
    );
    assert_eq!(app.revocations_at(Provider::Google).len(), 1);
    assert_eq!(app.revocations_at(Provider::Github).len(), 0);
    app.assert_unauthorized(&bearer).await;
    app.stop().await;
}

#[tokio::test]
async fn a_failed_revocation_on_disconnect_is_an_audit_event() {
    let app = spawn_app().await;
    let (_, bearer) = app.signed_up("pat@example.com").await;
    app.connect_response(&bearer, "583231").await;
    app.sim.set_fault(github_revocation_fails_with(503));
    let unlinked = app.disconnect("github", &bearer).await;
    assert_eq!(unlinked.status(), StatusCode::NO_CONTENT);
    let events = app.events(&bearer).await;
    assert_eq!(events[0]["type"], "provider.revocation_failed");
    assert_eq!(events[0]["provider"], "github");
    assert_eq!(events[1]["type"], "account.unlinked");
    app.stop().await;
}

#[tokio::test]
async fn reddit_hears_its_own_user_agent_on_revocation_as_on_the_token_request() {
    let app = crate::helpers::spawn_app_with(crate::helpers::Options {
        with_simulator: crate::helpers::with_presets,
        ..crate::helpers::Options::default()
    })
    .await;
    let (_, bearer) = app.pat_linked("reddit").await;
    let unlinked = app.disconnect("reddit", &bearer).await;
    assert_eq!(unlinked.status(), StatusCode::NO_CONTENT);
    let reddit = Some(Provider::simulated("reddit"));
    let agent_at = |endpoint| {
        let requests = app.sim.requests().into_iter();
        requests
            .filter(|request| request.provider == reddit && request.endpoint == Some(endpoint))
            .map(|request| request.user_agent)
            .next_back()
            .flatten()
    };
    let token_agent = agent_at(Endpoint::Token).expect("a token request");
    assert!(!token_agent.starts_with("social-login/"), "{token_agent}");
    assert_eq!(agent_at(Endpoint::Revoke), Some(token_agent));
    app.stop().await;
}

#[tokio::test]
async fn a_deletion_the_request_deadline_cuts_off_still_revokes_its_grants() {
    let app = crate::helpers::spawn_app_tuned(|settings| {
        settings.http.request_timeout_seconds = 1;
    })
    .await;
    let (_, bearer) = app.signed_in("583231").await;
    // GitHub answers the revocation after the request's deadline has passed.
    app.sim.set_fault(
        Fault::new(Provider::Github, Endpoint::Revoke)
            .delay(std::time::Duration::from_millis(1_500)),
    );
    let cut = app.delete("/users/me", Some(&bearer)).await;
    assert_ne!(
        cut.status(),
        StatusCode::NO_CONTENT,
        "the deadline answered first"
    );
    app.assert_unauthorized(&bearer).await;
    // The stored tokens went with the account: this revocation is the only one there is.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while app.revocations_at(Provider::Github).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the grant was never revoked"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    app.stop().await;
}
