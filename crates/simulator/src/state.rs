//! The simulator's shared state, handed to every route.

use crate::codes::CodeStore;
use crate::config::{Provider, RegisteredClient, SimulatorConfig};
use crate::faults::FaultStore;
use crate::id_token_fault::IdTokenFaultStore;
use crate::knobs::Knobs;
use crate::log::{RequestLog, RequestRecord};
use crate::signing::KeyRing;
use crate::tokens::TokenStore;
use crate::users::Directory;
use axum::response::Response;
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Debug)]
pub struct SimState {
    /// `http://127.0.0.1:<port>`: OIDC discovery documents name endpoints under it.
    pub base_url: String,
    /// The `iss` of the simulated Google.
    pub google_issuer: String,
    /// Show the sign-in page on an authorize request that names no user.
    pub interactive: bool,
    pub clients: Vec<RegisteredClient>,
    pub directory: Mutex<Directory>,
    /// Each provider's codes, with its own lifetime.
    codes: HashMap<Provider, CodeStore>,
    pub tokens: TokenStore,
    /// Refresh tokens of the providers that issue them.
    pub refresh_tokens: TokenStore,
    pub revocations: crate::revocation::RevocationLog,
    pub faults: FaultStore,
    pub id_token_faults: IdTokenFaultStore,
    pub keys: KeyRing,
    pub log: RequestLog,
    /// Apple's teams, consents and knobs.
    pub apple: crate::apple::AppleState,
    /// What the simulated LinkedIn does with PKCE.
    pub linkedin_knobs: Knobs<crate::linkedin::LinkedinKnobs>,
    /// What the standard providers say differently from the truth, for tests.
    pub standard_knobs: Knobs<crate::standard::StandardKnobs>,
}

impl SimState {
    pub fn new(config: &SimulatorConfig, base_url: String) -> Self {
        let codes = Provider::every()
            .map(|p| {
                (
                    p,
                    CodeStore::new(crate::dialect::of(p).code_lifetime.of(config)),
                )
            })
            .collect();
        Self {
            google_issuer: config
                .google_issuer
                .clone()
                .unwrap_or_else(|| format!("{base_url}/google")),
            base_url,
            interactive: config.interactive,
            clients: config.clients.clone(),
            directory: Mutex::new(Directory::new(config.users.clone())),
            codes,
            tokens: TokenStore::default(),
            refresh_tokens: TokenStore::default(),
            revocations: Default::default(),
            faults: FaultStore::default(),
            id_token_faults: IdTokenFaultStore::default(),
            keys: KeyRing::default(),
            log: RequestLog::default(),
            apple: crate::apple::AppleState::new(config),
            linkedin_knobs: Knobs::default(),
            standard_knobs: Knobs::default(),
        }
    }

    /// The code store of `provider` (every provider has one).
    pub fn codes(&self, provider: Provider) -> &CodeStore {
        &self.codes[&provider]
    }

    pub fn client(&self, provider: Provider, client_id: &str) -> Option<&RegisteredClient> {
        self.clients
            .iter()
            .find(|client| client.provider == provider && client.client_id == client_id)
    }

    /// Plays the fault injected on the record's provider and endpoint, if any: `Err` is the
    /// faulty answer, already logged; `Ok` hands the record back for the real answer.
    pub async fn strike_fault(&self, record: RequestRecord) -> Result<RequestRecord, Response> {
        if let (Some(provider), Some(endpoint)) = (record.provider, record.endpoint)
            && let Some(response) = self.faults.strike(provider, endpoint).await
        {
            return Err(self.finish(record, "fault", response));
        }
        Ok(record)
    }

    /// Logs the request with its outcome and passes the response through.
    pub fn finish(&self, mut record: RequestRecord, outcome: &str, response: Response) -> Response {
        record.outcome = outcome.to_owned();
        self.log.push(record);
        response
    }
}
