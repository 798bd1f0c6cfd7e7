//! The verifiers of provider signals, one per endpoint (docs/api.md, "Signals from
//! providers"). An endpoint without one is "not configured", as a disabled provider is.

use social_login_domain::SignalSource;
use social_login_ports::SignalVerifier;
use std::collections::HashMap;
use std::sync::Arc;

/// Holds one verifier per signal source whose provider is enabled.
#[derive(Clone, Default)]
pub struct SignalVerifiers {
    verifiers: HashMap<SignalSource, Arc<dyn SignalVerifier>>,
}

impl SignalVerifiers {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds or replaces the verifier of its own source.
    pub fn with(mut self, verifier: Arc<dyn SignalVerifier>) -> Self {
        self.verifiers.insert(verifier.source(), verifier);
        self
    }

    pub fn get(&self, source: SignalSource) -> Option<&Arc<dyn SignalVerifier>> {
        self.verifiers.get(&source)
    }
}
