//! A good sign-in: what the authorization URL and the token request carry, PKCE off, a
//! returning user, and an adapter's `Debug`.

use super::{Subject, client_auth, record, sends_nonce};
use crate::flow::{NONCE, STATE, VERIFIER, query_of, request};
use social_login_domain::SecretText;
use social_login_simulator::{ClientAuthKind, Endpoint};

pub async fn the_authorization_url_carries_the_request(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let adapter = subject.adapter(&sim).await;
    assert_eq!(adapter.key(), subject.fixture.key);
    let url = adapter.authorization_url(&request()).unwrap();
    // Where the simulated provider serves it (a provider from configuration may have
    // learned it from its discovery document alone).
    let authorization = sim.endpoints(subject.fixture.provider).authorization;
    assert!(url.starts_with(&authorization), "{url}");
    let query = query_of(&url);
    let plan = adapter.plan();
    let spec = &plan.spec;
    assert_eq!(query[&spec.client_id_param], subject.fixture.client_id);
    assert_eq!(query["redirect_uri"], subject.fixture.callback);
    assert_eq!(query["response_type"], "code");
    let scope = query.get("scope").map_or("", String::as_str);
    assert_eq!(scope, spec.scopes.join(&spec.scope_separator));
    assert_eq!(query["state"], STATE);
    if plan.pkce {
        assert_eq!(query["code_challenge_method"], "S256");
        assert_eq!(query["code_challenge"].len(), 43, "base64url of SHA-256");
    } else {
        assert!(!query.contains_key("code_challenge"), "{query:?}");
    }
    let nonce = query.get("nonce").map(String::as_str);
    assert_eq!(nonce, sends_nonce(plan).then_some(NONCE));
    assert!(!url.contains(VERIFIER), "{url}");
    let secret = subject.fixture.client_secret;
    assert!(secret.is_empty() || !url.contains(secret), "{url}");
    // The simulator takes it, and checks the challenge at the exchange.
    let flow = subject.fixture.flow();
    flow.sign_in(&*adapter).await.expect("a sign-in");
}

pub async fn the_token_request_authenticates_the_client(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let flow = subject.fixture.flow();
    let adapter = subject.adapter(&sim).await;
    flow.sign_in(&*adapter).await.expect("a sign-in");
    let token = record(&sim, subject, Endpoint::Token);
    assert_eq!(token.outcome, "ok");
    let expected = client_auth(subject, adapter.plan());
    assert_eq!(token.client_auth, Some(expected));
    assert_eq!(token.code_verifier_present, adapter.plan().pkce);
    if expected == ClientAuthKind::Body {
        assert_eq!(token.authorization_scheme, None, "never HTTP Basic as well");
    }
}

pub async fn turning_pkce_off(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let mut settings = subject.fixture.settings(&sim);
    settings.pkce = false;
    let adapter = subject.adapter_of(settings).await;
    let query = query_of(&adapter.authorization_url(&request()).unwrap());
    let flow = subject.fixture.flow();
    flow.sign_in(&*adapter).await.expect("a sign-in");
    let token = record(&sim, subject, Endpoint::Token);
    match adapter.plan().spec.pkce_required {
        // A verifier without a challenge is refused by some providers: both or neither.
        false => {
            assert!(!query.contains_key("code_challenge"), "{query:?}");
            assert!(!query.contains_key("code_challenge_method"), "{query:?}");
            assert!(!token.code_verifier_present);
        }
        // X requires it: `pkce = false` still sends a challenge.
        true => {
            assert_eq!(query["code_challenge_method"], "S256");
            assert!(token.code_verifier_present);
        }
    }
}

pub async fn a_returning_user_gets_the_same_subject_and_a_fresh_token(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let adapter = subject.adapter(&sim).await;
    let flow = subject.fixture.flow();
    let first = flow.sign_in(&*adapter).await.expect("a sign-in");
    let second = flow.sign_in(&*adapter).await.expect("a second sign-in");
    assert_eq!(first.identity.subject, second.identity.subject);
    assert_eq!(first.identity.email, second.identity.email);
    assert_ne!(
        first.tokens.access_token.expose(),
        second.tokens.access_token.expose()
    );
    assert_eq!(sim.issued_access_tokens().len(), 2);
}

pub async fn debug_output_hides_the_secrets(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let mut settings = subject.fixture.settings(&sim);
    settings.client_secret = SecretText::new("do-not-print-me-0123456789");
    let adapter = subject.adapter_of(settings).await;
    let printed = format!("{adapter:?}");
    for secret in ["do-not-print-me", "PRIVATE KEY", "MIG"] {
        assert!(!printed.contains(secret), "{secret} in {printed}");
    }
}
