//! A scripted signal verifier: the tokens a test signed "as the provider" verify as the
//! signals it chose; every other token is refused, as a forgery is.

use async_trait::async_trait;
use social_login_domain::SignalSource;
use social_login_ports::{
    RefusalReason, SignalError, SignalRefused, SignalVerifier, VerifiedSignal,
};
use std::collections::HashMap;
use std::sync::Mutex;

/// One signal endpoint. A token is only ever what [`FakeSignalVerifier::sign`] made it.
pub struct FakeSignalVerifier {
    source: SignalSource,
    signed: Mutex<HashMap<String, VerifiedSignal>>,
    presented: Mutex<Vec<String>>,
}

impl FakeSignalVerifier {
    pub fn new(source: SignalSource) -> Self {
        Self {
            source,
            signed: Mutex::new(HashMap::new()),
            presented: Mutex::new(Vec::new()),
        }
    }

    /// A token that verifies as `signal` from now on.
    pub fn sign(&self, signal: VerifiedSignal) -> String {
        let mut signed = self.signed.lock().unwrap();
        let token = format!("signed-{}-{}", signal.id.as_str(), signed.len());
        signed.insert(token.clone(), signal);
        token
    }

    /// Every token presented, in order.
    pub fn presented(&self) -> Vec<String> {
        self.presented.lock().unwrap().clone()
    }
}

#[async_trait]
impl SignalVerifier for FakeSignalVerifier {
    fn source(&self) -> SignalSource {
        self.source
    }

    async fn verify(&self, token: &str) -> Result<VerifiedSignal, SignalError> {
        self.presented.lock().unwrap().push(token.to_owned());
        self.signed
            .lock()
            .unwrap()
            .get(token)
            .cloned()
            .ok_or_else(|| {
                SignalRefused::new(RefusalReason::InvalidKey, "not signed by the fake").into()
            })
    }
}
