//! id_tokens minted for native sign-in: signed and shaped exactly like the code flow's.

use crate::support::fixtures::{ada, start};
use crate::support::{claims_of, verified_claims};
use social_login_simulator::{IdTokenFault, MICROSOFT_CONSUMER_TENANT, Provider};

const AUDIENCE: &str = "native-app";

#[tokio::test]
async fn every_provider_that_signs_id_tokens_mints_them_under_its_issuer() {
    let sim = start(&[]).await;
    let base = sim.base_url();
    let issuers = [
        (Provider::Google, sim.google().issuer),
        (
            Provider::Microsoft,
            sim.microsoft().issuer_of(MICROSOFT_CONSUMER_TENANT),
        ),
        (Provider::Linkedin, format!("{base}/linkedin/oauth")),
        (Provider::Apple, "https://appleid.apple.com".to_owned()),
        (Provider::StandardOidc, format!("{base}/oidc")),
    ];
    for (provider, issuer) in issuers {
        let token = sim.mint_id_token(provider, &ada(), AUDIENCE, Some("n-1"));
        let claims = verified_claims(&token, AUDIENCE, &issuer);
        // Microsoft's subject is pairwise: one per user and app.
        let subject = claims["sub"].as_str().unwrap();
        assert_eq!(
            subject == ada().id,
            provider != Provider::Microsoft,
            "{provider:?}"
        );
        assert!(
            claims.get("at_hash").is_none(),
            "no access token came with it"
        );
    }
}

#[tokio::test]
async fn a_minted_token_carries_the_claims_its_provider_puts_in_the_code_flows() {
    let sim = start(&[]).await;
    let google = claims_of(&sim.mint_id_token(Provider::Google, &ada(), AUDIENCE, Some("n-1")));
    assert_eq!(
        (google["azp"].as_str(), google["nonce"].as_str()),
        (Some(AUDIENCE), Some("n-1"))
    );
    assert_eq!(
        (google["email"].as_str(), google["email_verified"].as_bool()),
        (Some("ada@example.com"), Some(true))
    );
    assert_eq!(google["given_name"], "Ada");
    let microsoft = claims_of(&sim.mint_id_token(Provider::Microsoft, &ada(), AUDIENCE, None));
    assert_eq!(microsoft["tid"], MICROSOFT_CONSUMER_TENANT);
    assert_eq!(microsoft["preferred_username"], "ada@example.com");
    assert!(microsoft.get("nonce").is_none());
    let apple = claims_of(&sim.mint_id_token(Provider::Apple, &ada(), AUDIENCE, Some("n-2")));
    assert_eq!(
        (apple["email_verified"].as_str(), apple["nonce"].as_str()),
        (Some("true"), Some("n-2"))
    );
    let linkedin = claims_of(&sim.mint_id_token(Provider::Linkedin, &ada(), AUDIENCE, Some("n-3")));
    assert!(linkedin.get("nonce").is_none(), "LinkedIn never echoes it");
}

#[tokio::test]
async fn a_minted_token_takes_the_providers_id_token_fault() {
    let sim = start(&[]).await;
    sim.set_id_token_fault(Provider::Apple, IdTokenFault::WrongAudience);
    let broken = claims_of(&sim.mint_id_token(Provider::Apple, &ada(), AUDIENCE, None));
    assert_ne!(broken["aud"], AUDIENCE);
    let google = claims_of(&sim.mint_id_token(Provider::Google, &ada(), AUDIENCE, None));
    assert_eq!(google["aud"], AUDIENCE, "the fault is Apple's alone");
}

#[tokio::test]
#[should_panic(expected = "issues no id_tokens")]
async fn a_provider_without_id_tokens_mints_none() {
    let sim = start(&[]).await;
    sim.mint_id_token(Provider::StandardOauth2, &ada(), AUDIENCE, None);
}
