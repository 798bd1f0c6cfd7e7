//! Token revocations: what each simulated revocation endpoint revoked, for tests to check,
//! and the one way every provider's endpoint revokes.

use crate::config::Provider;
use crate::lock::locked;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use serde::Serialize;
use std::sync::Mutex;

/// What kind of token a revocation found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    Access,
    Refresh,
}

/// One accepted revocation request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Revocation {
    pub provider: Provider,
    pub client_id: String,
    /// The token the client named (a simulated token, never a real one).
    pub token: String,
    /// The `token_type_hint` the client sent, if any.
    pub hint: Option<String>,
    /// What the token was; `None` when it was not a live token of this client (answered
    /// as a success all the same, RFC 7009 §2.2).
    pub kind: Option<TokenKind>,
}

/// Every accepted revocation, oldest first.
#[derive(Debug, Default)]
pub struct RevocationLog(Mutex<Vec<Revocation>>);

impl RevocationLog {
    pub fn all(&self) -> Vec<Revocation> {
        locked(&self.0).clone()
    }
}

/// How far a revocation reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    /// The token alone.
    Token,
    /// Every token of its authorization (Discord, GitHub's grant endpoint).
    Grant,
}

impl SimState {
    /// What `token` grants if it is a live token (access or refresh) of `provider`, whoever
    /// its client.
    pub fn holder(&self, provider: Provider, token: &str) -> Option<IssuedToken> {
        let issued = self
            .tokens
            .get(token)
            .or_else(|| self.refresh_tokens.get(token));
        issued.filter(|t| t.provider == provider)
    }

    /// What `token` is if it is a live token of `client_id` at `provider`.
    pub fn held(
        &self,
        (provider, client_id): (Provider, &str),
        token: &str,
    ) -> Option<(TokenKind, IssuedToken)> {
        let ours = |t: &IssuedToken| t.provider == provider && t.client_id == client_id;
        match self.tokens.get(token).filter(ours) {
            Some(issued) => Some((TokenKind::Access, issued)),
            None => self
                .refresh_tokens
                .get(token)
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
        locked(&self.revocations.0).push(Revocation {
            provider,
            client_id: client_id.to_owned(),
            token: token.to_owned(),
            hint: hint.map(str::to_owned),
            kind: found.as_ref().map(|(kind, _)| *kind),
        });
        found
    }
}
