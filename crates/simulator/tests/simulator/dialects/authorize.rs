//! The authorize endpoints: who gets an error page and who gets a redirect, what comes back
//! to the callback on a denial, and which PKCE methods each takes.

use super::expected;
use crate::support::fixtures::{ALL, GITHUB, every_client, start};
use crate::support::{CHALLENGE, VERIFIER};
use social_login_simulator::Endpoint;

#[tokio::test]
async fn the_log_keeps_what_each_authorize_request_showed() {
    let sim = start(&ALL).await;
    for fixture in ALL {
        let client = fixture.client(&sim);
        client.code(fixture.scope).await;
        let record = sim.requests().pop().unwrap();
        let provider = fixture.provider;
        assert_eq!(
            (record.provider, record.endpoint),
            (Some(provider), Some(Endpoint::Authorize))
        );
        assert_eq!(record.client_id.as_deref(), Some(fixture.id));
        assert_eq!(record.redirect_uri.as_deref(), Some(fixture.callback));
        assert_eq!(record.scope.as_deref(), Some(fixture.scope));
        let challenge = (
            record.code_challenge.as_deref(),
            record.code_challenge_method.as_deref(),
        );
        assert_eq!(challenge, (Some(CHALLENGE), Some("S256")), "{provider:?}");
        assert!(
            record.nonce_present,
            "the nonce is noted, its value is not kept"
        );
        assert_eq!(record.outcome, "ok");
    }
}

#[tokio::test]
async fn an_unknown_client_gets_an_error_page_and_no_redirect() {
    for (fixture, client) in every_client().await {
        let params = client.valid(fixture.scope).set("client_id", "nobody");
        let response = client.authorize(&params).await;
        assert!(response.headers().get("location").is_none());
        let got = expected::Answer(response.status().as_u16(), client.last_outcome());
        assert_eq!(
            got,
            expected::of(fixture.provider).unknown_client,
            "{fixture}"
        );
    }
}

#[tokio::test]
async fn an_unregistered_callback_gets_an_error_page_but_github_reports_it_to_the_registered_one() {
    for (fixture, client) in every_client().await {
        let params = client
            .valid(fixture.scope)
            .set("redirect_uri", "http://evil.example/cb");
        let response = client.authorize(&params).await;
        if fixture.provider == GITHUB.provider {
            let location = response.headers()["location"].to_str().unwrap();
            assert!(location.starts_with(GITHUB.callback), "{location}");
            let answer = client.answer(&params).await;
            assert_eq!(answer.get("error"), Some("redirect_uri_mismatch"));
            assert_eq!(answer.get("state"), Some("st"));
            continue;
        }
        assert_eq!(response.status(), 400, "{fixture}");
        assert!(response.headers().get("location").is_none());
        // Matched exactly: not even a longer look-alike of the registered one.
        let look_alike = format!("{}x", fixture.callback);
        let params = client.valid(fixture.scope).set("redirect_uri", &look_alike);
        assert_eq!(client.authorize(&params).await.status(), 400, "{fixture}");
    }
}

#[tokio::test]
async fn a_missing_callback_is_the_registered_one_where_the_provider_says_so() {
    for (fixture, client) in every_client().await {
        let params = client.valid(fixture.scope).unset("redirect_uri");
        let status = client.authorize(&params).await.status();
        let registered = expected::of(fixture.provider).missing_callback == "registered";
        let expected = if registered { 302 } else { 400 };
        assert_eq!(status, expected, "{fixture}");
    }
}

#[tokio::test]
async fn a_denial_goes_back_to_the_callback_with_the_providers_error_and_the_state() {
    for (fixture, client) in every_client().await {
        let params = client.valid(fixture.scope).set("sim_deny", "1");
        let answer = client.answer(&params).await;
        let denial = expected::of(fixture.provider).denial.as_str();
        assert_eq!(answer.get("error"), Some(denial), "{fixture}");
        assert_eq!(
            (answer.get("state"), answer.get("code")),
            (Some("st"), None)
        );
    }
}

#[tokio::test]
async fn each_provider_takes_the_pkce_methods_it_documents() {
    for (fixture, client) in every_client().await {
        let expected = expected::of(fixture.provider);
        let valid = client.valid(fixture.scope);
        let plain = valid.clone().set("code_challenge", VERIFIER);
        let answer = client
            .answer(&plain.set("code_challenge_method", "plain"))
            .await;
        let provider = fixture.provider;
        assert_eq!(
            answer.get("code").is_some(),
            expected.pkce_plain,
            "{provider:?} plain"
        );
        let unknown = valid.set("code_challenge", CHALLENGE);
        let answer = client
            .answer(&unknown.set("code_challenge_method", "S512"))
            .await;
        let got = answer.get("error").unwrap_or("code");
        assert_eq!(got, expected.pkce_unknown_method, "{provider:?} S512");
    }
}
