//! id_tokens minted for native sign-in: signed and shaped exactly like the code flow's.

use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;
use social_login_simulator::{
    IdTokenFault, MICROSOFT_CONSUMER_TENANT, Provider, SimUser, Simulator, SimulatorConfig,
    SimulatorHandle, TEST_KEY_A,
};

const AUDIENCE: &str = "native-app";

fn ada() -> SimUser {
    SimUser::new("4242", "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
}

async fn start() -> SimulatorHandle {
    Simulator::start(SimulatorConfig::default())
        .await
        .expect("simulator starts")
}

/// The claims of `token` once the simulator's key verifies it for `AUDIENCE` and `issuer`.
fn verified(token: &str, issuer: &str) -> Value {
    let key = DecodingKey::from_rsa_components(TEST_KEY_A.n, TEST_KEY_A.e).unwrap();
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[AUDIENCE]);
    validation.set_issuer(&[issuer]);
    let header = jsonwebtoken::decode_header(token).unwrap();
    assert_eq!(header.kid.as_deref(), Some(TEST_KEY_A.kid));
    jsonwebtoken::decode::<Value>(token, &key, &validation)
        .unwrap()
        .claims
}

#[tokio::test]
async fn a_minted_google_token_carries_the_users_claims_and_the_nonce() {
    let sim = start().await;
    let token = sim.mint_id_token(Provider::Google, &ada(), AUDIENCE, Some("n-1"));
    let claims = verified(&token, &sim.google().issuer);
    assert_eq!(claims["sub"], "4242");
    assert_eq!(claims["azp"], AUDIENCE);
    assert_eq!(claims["nonce"], "n-1");
    assert_eq!(
        (claims["email"].as_str(), claims["email_verified"].as_bool()),
        (Some("ada@example.com"), Some(true))
    );
    assert_eq!(claims["given_name"], "Ada");
    assert!(
        claims.get("at_hash").is_none(),
        "no access token came with it"
    );
}

#[tokio::test]
async fn a_minted_microsoft_token_names_the_users_own_tenant() {
    let sim = start().await;
    let token = sim.mint_id_token(Provider::Microsoft, &ada(), AUDIENCE, None);
    let issuer = sim.microsoft().issuer_of(MICROSOFT_CONSUMER_TENANT);
    let claims = verified(&token, &issuer);
    assert_eq!(claims["tid"], MICROSOFT_CONSUMER_TENANT);
    assert_eq!(claims["preferred_username"], "ada@example.com");
    assert!(claims.get("nonce").is_none());
}

#[tokio::test]
async fn a_minted_apple_token_spells_booleans_as_strings_and_takes_id_token_faults() {
    let sim = start().await;
    let token = sim.mint_id_token(Provider::Apple, &ada(), AUDIENCE, Some("n-2"));
    let claims = verified(&token, &sim.apple().issuer);
    assert_eq!(
        (claims["email_verified"].as_str(), claims["nonce"].as_str()),
        (Some("true"), Some("n-2"))
    );
    sim.set_id_token_fault(Provider::Apple, IdTokenFault::WrongAudience);
    let broken = sim.mint_id_token(Provider::Apple, &ada(), AUDIENCE, None);
    let claims = crate::support::claims_of(&broken);
    assert_ne!(claims["aud"], AUDIENCE);
}
