//! PKCE with LinkedIn: sent by default (S256), and `pkce = false` for an app whose token
//! endpoint refuses a `code_verifier`.

use super::support::*;
use social_login_conformance::expect_code_exchange;
use social_login_simulator::{Endpoint, LinkedinKnobs, LinkedinPkce};

fn pkce(mode: LinkedinPkce) -> LinkedinKnobs {
    LinkedinKnobs { pkce: mode }
}

#[tokio::test]
async fn an_app_enforcing_pkce_accepts_the_verifier_we_send() {
    let sim = simulator().await;
    sim.set_linkedin_knobs(pkce(LinkedinPkce::Enforce));
    assert!(FX.flow().sign_in(&provider(&sim)).await.is_ok());
}

#[tokio::test]
async fn an_app_refusing_code_verifier_fails_the_exchange_by_default() {
    let sim = simulator().await;
    sim.set_linkedin_knobs(pkce(LinkedinPkce::Reject));
    let message = expect_code_exchange(FX.flow().sign_in(&provider(&sim)).await, &FX.secrets(&sim));
    assert_eq!(message, "token endpoint answered error `invalid_request`");
}

#[tokio::test]
async fn with_pkce_off_an_app_refusing_code_verifier_signs_in() {
    let sim = simulator().await;
    sim.set_linkedin_knobs(pkce(LinkedinPkce::Reject));
    let mut settings = FX.settings(&sim);
    settings.pkce = false;
    let provider = provider_with(settings);
    let login = FX.flow().sign_in(&provider).await.unwrap();
    assert_eq!(login.identity.subject.as_str(), "Qx81mZ_a2");
    assert_eq!(record(&sim, Endpoint::Authorize).code_challenge, None);
    assert!(!record(&sim, Endpoint::Token).code_verifier_present);
}
