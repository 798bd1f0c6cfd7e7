//! One verifier for the simulated Google's key set, its hand-moved clock, and tokens signed
//! with the simulator's fixture keys.

use serde_json::{Value, json};
use social_login_conformance::ManualClock;
use social_login_domain::SecretText;
use social_login_id_token::{IdTokenClaims, IdTokenVerifier, IssuerPolicy, KeySetCache};
use social_login_ports::{Clock, ProviderError};
use social_login_provider_core::build_http_client;
use social_login_simulator::{
    Endpoint, Fault, Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig,
    SimulatorHandle, TEST_KEY_A,
};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::task::JoinSet;

pub const CLIENT_ID: &str = "1234567890-sim.apps.googleusercontent.com";
pub const NONCE: &str = "nonce-0S6_WzA2Mj-0123456789";
pub const ISSUER: &str = "https://accounts.google.com";
/// Google's other spelling of its issuer (docs/providers.md#google).
pub const BARE_ISSUER: &str = "accounts.google.com";

/// The HTTP timeout of the key-set fetch: short, so a hang costs little real time.
pub const TIMEOUT: Duration = Duration::from_millis(1200);

/// Longer than [`TIMEOUT`]: the endpoint "hangs" as far as the client can tell.
pub const HANG: Duration = Duration::from_secs(30);

pub type Outcome = Result<IdTokenClaims, ProviderError>;

pub struct Bench {
    pub sim: SimulatorHandle,
    pub clock: Arc<ManualClock>,
    pub verifier: IdTokenVerifier,
}

pub async fn bench() -> Bench {
    let config = SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Google,
            CLIENT_ID,
            "secret",
            "http://127.0.0.1:4000/cb",
        ))
        .with_user(SimUser::new("1", "ada"));
    let sim = Simulator::start(config).await.expect("simulator starts");
    let clock = ManualClock::starting_now();
    let keys = KeySetCache::new(
        url::Url::parse(&sim.google().jwks).unwrap(),
        build_http_client(TIMEOUT).unwrap(),
    );
    let verifier = IdTokenVerifier::new(
        Arc::new(keys),
        IssuerPolicy::one_of([ISSUER, BARE_ISSUER]),
        CLIENT_ID,
        clock.clone(),
    );
    Bench {
        sim,
        clock,
        verifier,
    }
}

/// A bench whose cache a first verification filled, its clock then moved on by `by`.
pub async fn warm_bench(by: time::Duration) -> Bench {
    let bench = bench().await;
    bench.verify(&bench.token()).await.unwrap();
    bench.clock.advance(by);
    bench
}

impl Bench {
    pub fn now(&self) -> i64 {
        self.clock.now().unix_timestamp()
    }

    /// Valid claims for this client, issued now.
    pub fn claims(&self) -> Value {
        json!({
            "iss": ISSUER, "aud": CLIENT_ID, "azp": CLIENT_ID, "sub": "1",
            "iat": self.now(), "exp": self.now() + 3600, "nonce": NONCE,
        })
    }

    /// A valid token signed with key A.
    pub fn token(&self) -> String {
        signed(&self.claims())
    }

    /// A valid token signed with key A but naming `kid`.
    pub fn token_with_kid(&self, kid: &str) -> String {
        TEST_KEY_A.sign(kid, &self.claims())
    }

    pub async fn verify(&self, token: &str) -> Outcome {
        self.verifier
            .verify(&SecretText::new(token), &SecretText::new(NONCE))
            .await
    }

    /// The refusal of `token`: a `UserInfo` message that quotes no token.
    pub async fn refusal(&self, token: &str) -> String {
        refusal_message(&self.verify(token).await, token).to_owned()
    }

    /// Verifies `token` as one an app presented (native sign-in), without a nonce.
    pub async fn present(&self, token: &str) -> Outcome {
        self.verifier
            .verify_presented(&SecretText::new(token), None)
            .await
            .map(|presented| presented.claims)
    }

    /// The refusal of `token` presented by an app.
    pub async fn presented_refusal(&self, token: &str) -> String {
        refusal_message(&self.present(token).await, token).to_owned()
    }

    /// Valid claims of a token an app presents without a nonce.
    pub fn presented_claims(&self) -> Value {
        with_changes(self.claims(), json!({"nonce": null}))
    }

    /// Verifies ten copies of `token` at once; they all finish within one fetch timeout
    /// (with room for a slow machine) whatever the key endpoint does.
    pub async fn ten_at_once(&self, token: &str) -> Vec<Outcome> {
        self.at_once(token, 10).await
    }

    pub async fn at_once(&self, token: &str, count: usize) -> Vec<Outcome> {
        let started = Instant::now();
        let mut tasks = JoinSet::new();
        for _ in 0..count {
            let verifier = self.verifier.clone();
            let token = SecretText::new(token);
            tasks.spawn(async move { verifier.verify(&token, &SecretText::new(NONCE)).await });
        }
        let outcomes = tasks.join_all().await;
        let elapsed = started.elapsed();
        assert!(
            elapsed < TIMEOUT * 3,
            "{count} verifications took {elapsed:?}, timeout {TIMEOUT:?}"
        );
        outcomes
    }

    pub fn jwks_answers(&self, status: u16) {
        self.sim
            .set_fault(Fault::new(Provider::Google, Endpoint::Jwks).status(status));
    }

    pub fn jwks_delays(&self, delay: Duration) {
        self.sim
            .set_fault(Fault::new(Provider::Google, Endpoint::Jwks).delay(delay));
    }

    /// How many times the simulator served its key set.
    pub fn jwks_fetches(&self) -> usize {
        self.sim
            .requests()
            .iter()
            .filter(|r| r.endpoint == Some(Endpoint::Jwks))
            .count()
    }
}

/// `claims` signed as they are, RS256 with key A under its own `kid`.
pub fn signed(claims: &Value) -> String {
    TEST_KEY_A.sign(TEST_KEY_A.kid, claims)
}

/// `claims` with each member of `changes` set, or removed where it is null.
pub fn with_changes(mut claims: Value, changes: Value) -> Value {
    for (name, value) in changes.as_object().unwrap() {
        if value.is_null() {
            claims.as_object_mut().unwrap().remove(name);
        } else {
            claims[name] = value.clone();
        }
    }
    claims
}

/// The message of a `UserInfo` refusal, which must not quote the token.
pub fn refusal_message<'o>(outcome: &'o Outcome, token: &str) -> &'o str {
    match outcome {
        Err(ProviderError::UserInfo(message)) => {
            assert!(
                !message.contains(token) && !message.contains("eyJ"),
                "{message}"
            );
            message
        }
        other => panic!("expected UserInfo, got {other:?}"),
    }
}
