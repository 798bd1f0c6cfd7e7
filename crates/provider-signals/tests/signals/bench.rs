//! One Apple and one RISC verifier on the simulator's key sets, a clock the tests move, and
//! tokens signed with the fixture keys.

use serde_json::{Value, json};
use social_login_conformance::ManualClock;
use social_login_ports::{
    Clock, RefusalReason, SignalError, SignalRefused, SignalVerifier, VerifiedSignal,
};
use social_login_provider_core::build_http_client;
use social_login_provider_signals::{
    AppleNotificationVerifier, GoogleRiscVerifier, JwsSignalSettings,
};
use social_login_simulator::{Simulator, SimulatorConfig, SimulatorHandle, TEST_KEY_A};
use std::sync::Arc;
use std::time::Duration;
use url::Url;

pub const APPLE_ISSUER: &str = "https://appleid.apple.com";
pub const SERVICES_ID: &str = "com.example.web";
pub const BUNDLE_ID: &str = "com.example.ios";
pub const RISC_ISSUER: &str = "https://accounts.google.com/";
pub const GOOGLE_CLIENT: &str = "1234567890-sim.apps.googleusercontent.com";
pub const ANDROID_CLIENT: &str = "1234567890-android.apps.googleusercontent.com";

pub struct Bench {
    /// Kept alive: it serves the key sets.
    pub _sim: SimulatorHandle,
    pub clock: Arc<ManualClock>,
    pub apple: AppleNotificationVerifier,
    pub risc: GoogleRiscVerifier,
}

/// `[oauth_providers.google.endpoints] issuer` of the bench: the issuer of the accounts
/// the links name (a simulated or self-hosted Google).
pub const CONFIGURED_GOOGLE_ISSUER: &str = "https://google.simulated.example";

pub async fn bench() -> Bench {
    let sim = Simulator::start(SimulatorConfig::default())
        .await
        .expect("simulator starts");
    let clock = ManualClock::starting_now();
    let http = build_http_client(Duration::from_secs(5)).unwrap();
    let settings = |jwks: &str, issuer: &str, audiences: [&str; 2]| JwsSignalSettings {
        jwks: Url::parse(jwks).unwrap(),
        issuer: issuer.to_owned(),
        audiences: audiences.map(str::to_owned).to_vec(),
    };
    let apple = AppleNotificationVerifier::new(
        settings(&sim.apple().jwks, APPLE_ISSUER, [SERVICES_ID, BUNDLE_ID]),
        &http,
        clock.clone(),
    );
    let risc = GoogleRiscVerifier::new(
        settings(
            &sim.google().jwks,
            RISC_ISSUER,
            [GOOGLE_CLIENT, ANDROID_CLIENT],
        ),
        Some(CONFIGURED_GOOGLE_ISSUER),
        &http,
        clock.clone(),
    );
    Bench {
        _sim: sim,
        clock,
        apple,
        risc,
    }
}

impl Bench {
    pub fn now(&self) -> i64 {
        self.clock.now().unix_timestamp()
    }

    /// Apple's notification claims, the event given as Apple sends it: a JSON string.
    pub fn apple_claims(&self, event: Value) -> Value {
        json!({
            "iss": APPLE_ISSUER, "aud": BUNDLE_ID, "iat": self.now(), "exp": self.now() + 86_400,
            "jti": "a1b2c3d4-apple", "events": event.to_string(),
        })
    }

    /// A SET carrying `event` of type `uri`, with no `exp` (Google sends none).
    pub fn risc_claims(&self, uri: &str, event: Value) -> Value {
        json!({
            "iss": RISC_ISSUER, "aud": GOOGLE_CLIENT, "iat": self.now(), "jti": "set-1",
            "events": {uri: event},
        })
    }

    pub async fn apple(&self, claims: &Value) -> Result<VerifiedSignal, RefusalReason> {
        self.apple
            .verify(&signed(claims))
            .await
            .map_err(|error| refusal(error).reason)
    }

    pub async fn risc(&self, claims: &Value) -> Result<VerifiedSignal, RefusalReason> {
        self.risc
            .verify(&signed(claims))
            .await
            .map_err(|error| refusal(error).reason)
    }
}

/// The refusal of a signal that was checked and refused.
pub fn refusal(error: SignalError) -> SignalRefused {
    match error {
        SignalError::Refused(refused) => refused,
        unchecked => panic!("not refused but unchecked: {unchecked}"),
    }
}

/// `claims` signed RS256 with the published key A.
pub fn signed(claims: &Value) -> String {
    TEST_KEY_A.sign(TEST_KEY_A.kid, claims)
}

/// The subject of a Google account as Google's SETs name it.
pub fn google_subject(sub: &str) -> Value {
    json!({"subject": {"subject_type": "iss-sub", "iss": RISC_ISSUER, "sub": sub}})
}
