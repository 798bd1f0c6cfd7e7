//! Native sign-in: id_tokens the simulated Google signs for the app, each with a nonce of
//! its own, posted to `/auth/oauth/google/id-token`. They are all signed before the run:
//! signing is the provider's work, not the service's, and would crowd the benchmark's CPU.

use crate::flows::Flows;
use crate::setup::Setup;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

pub struct IdTokens {
    /// One request body per sign-in: the id_token and the raw nonce it was signed for.
    bodies: Vec<Value>,
}

impl IdTokens {
    /// `count` sign-ins of the native users `0..users`, in turn: the first of each registers
    /// them, the others are returning users'.
    pub fn mint(setup: &Setup, users: usize, count: usize) -> Self {
        let bodies = (0..count)
            .map(|n| {
                let raw_nonce = uuid::Uuid::new_v4().to_string();
                let hashed = hex::encode(Sha256::digest(raw_nonce.as_bytes()));
                let id_token = setup.mint_google_id_token(n % users.max(1), &hashed);
                json!({"id_token": id_token, "nonce": raw_nonce})
            })
            .collect();
        Self { bodies }
    }

    /// The `index`-th sign-in on the `turn`-th instance; true on 200.
    pub async fn sign_in(&self, flows: &Flows, turn: usize, index: usize) -> bool {
        match self.bodies.get(index) {
            Some(body) => flows.native_sign_in(turn, body).await,
            None => false,
        }
    }
}
