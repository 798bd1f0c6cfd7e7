//! The simulator's shared state, handed to every route.

use crate::codes::{CodeStore, Grant, RedeemError};
use crate::config::{Provider, RegisteredClient, SimulatorConfig};
use crate::faults::FaultStore;
use crate::id_token_fault::IdTokenFaultStore;
use crate::knobs::Knobs;
use crate::log::{RequestLog, RequestRecord};
use crate::revocation::{Reach, Revocation, TokenKind};
use crate::signing::KeyRing;
use crate::tokens::{IssuedToken, TokenStore};
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
    pub apple: crate::apple::state::AppleState,
    /// What the simulated LinkedIn does with PKCE.
    pub linkedin_knobs: Knobs<crate::linkedin::knobs::LinkedinKnobs>,
    /// What the standard providers say differently from the truth, for tests.
    pub standard_knobs: Knobs<crate::standard::knobs::StandardKnobs>,
    /// Whether the refresh grant rotates refresh tokens and how long it waits.
    pub refresh_knobs: Knobs<crate::refresh::RefreshKnobs>,
    /// The refresh grants each provider answered.
    pub refresh_counts: crate::refresh::RefreshCounts,
}

impl SimState {
    pub fn new(config: &SimulatorConfig, base_url: String) -> Self {
        let codes = Provider::every()
            .map(|p| (p, CodeStore::new(p.dialect().code_lifetime.of(config))))
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
            apple: crate::apple::state::AppleState::new(config),
            linkedin_knobs: Knobs::default(),
            standard_knobs: Knobs::default(),
            refresh_knobs: Knobs::default(),
            refresh_counts: Default::default(),
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

impl SimState {
    /// Redeems `code` for `client_id` at `provider`. Redeeming burns the code, so a code
    /// of another provider or client, or any later failure, still leaves it unusable.
    pub fn redeem(
        &self,
        provider: Provider,
        code: &str,
        client_id: &str,
    ) -> Result<Grant, RedeemError> {
        let grant = self.codes(provider).redeem(code)?;
        if grant.provider != provider || grant.client_id != client_id {
            return Err(RedeemError::Unknown);
        }
        Ok(grant)
    }

    /// What `token` grants if it is an unrevoked token (access or refresh, expired or not)
    /// of `provider`, whoever its client.
    pub fn holder(&self, provider: Provider, token: &str) -> Option<IssuedToken> {
        let issued = self
            .tokens
            .issued(token)
            .or_else(|| self.refresh_tokens.issued(token));
        issued.filter(|t| t.provider == provider)
    }

    /// What `token` is if it is an unrevoked token (expired or not: revoking one still ends
    /// its grant) of `client_id` at `provider`.
    pub fn held(
        &self,
        (provider, client_id): (Provider, &str),
        token: &str,
    ) -> Option<(TokenKind, IssuedToken)> {
        let ours = |t: &IssuedToken| t.provider == provider && t.client_id == client_id;
        match self.tokens.issued(token).filter(ours) {
            Some(issued) => Some((TokenKind::Access, issued)),
            None => self
                .refresh_tokens
                .issued(token)
                .filter(ours)
                .map(|t| (TokenKind::Refresh, t)),
        }
    }

    /// Revokes `token` if it is a live token of `client_id` at `provider`, and records the
    /// revocation. Returns what the token was and what it granted.
    pub fn revoke(
        &self,
        (provider, client_id): (Provider, &str),
        token: &str,
        hint: Option<&str>,
        reach: Reach,
    ) -> Option<(TokenKind, IssuedToken)> {
        let refresh = &self.refresh_tokens;
        let found = self.held((provider, client_id), token);
        if let Some((_, issued)) = &found {
            self.tokens.revoke(token);
            refresh.revoke(token);
            if reach == Reach::Grant {
                self.tokens.revoke_grant(issued);
                refresh.revoke_grant(issued);
            }
        }
        self.revocations.push(Revocation {
            provider,
            client_id: client_id.to_owned(),
            token: token.to_owned(),
            hint: hint.map(str::to_owned),
            kind: found.as_ref().map(|(kind, _)| *kind),
        });
        found
    }
}

/// What a test does to every grant at once, as a provider's own incidents would.
impl SimState {
    /// Every access token issued so far stops working (401); refresh tokens keep working.
    pub fn expire_access_tokens(&self) {
        self.tokens.expire_all();
    }

    /// Every access and refresh token issued so far is dead, as if each user had revoked
    /// the app at the provider (nothing is recorded as a client's revocation).
    pub fn revoke_grants(&self) {
        self.tokens.revoke_all();
        self.refresh_tokens.revoke_all();
    }
}
