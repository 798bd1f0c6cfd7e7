//! Token revocations: what each simulated revocation endpoint revoked, for tests to check,
//! and the one way every provider's endpoint revokes.

use crate::config::Provider;
use crate::lock::locked;
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

    pub fn push(&self, revocation: Revocation) {
        locked(&self.0).push(revocation);
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
