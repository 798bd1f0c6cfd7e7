//! Rotating refresh chains: each chain is one session that a client keeps alive, refreshed
//! again and again with the refresh token its last refresh answered. At most as many
//! refreshes run at once as there are chains, so each takes a chain nobody else holds.

use crate::flows::Flows;
use crate::setup::user_id;
use std::sync::Mutex;

pub struct Chains {
    /// The newest refresh token of each chain not being refreshed right now.
    idle: Mutex<Vec<String>>,
}

impl Chains {
    /// `count` sessions, one per simulated user from `first` on, each begun by a GitHub
    /// login on the instances in turn.
    pub async fn start(flows: &Flows, first: usize, count: usize) -> Result<Self, String> {
        let mut idle = Vec::with_capacity(count);
        for n in 0..count {
            let login = flows
                .logged_in(n, &user_id(first + n))
                .await
                .ok_or("a refresh chain's login failed")?;
            let body: serde_json::Value = login.json().await.map_err(|e| e.to_string())?;
            let token = body["refresh_token"]
                .as_str()
                .ok_or("a login answered no refresh token")?;
            idle.push(token.to_owned());
        }
        Ok(Self {
            idle: Mutex::new(idle),
        })
    }

    /// Refreshes one idle chain on the `turn`-th instance; true when the service answered
    /// the chain's next token (a refused refresh ends that chain).
    pub async fn refresh(&self, flows: &Flows, turn: usize) -> bool {
        let Some(token) = self.idle.lock().expect("chains lock").pop() else {
            return false;
        };
        let Some(next) = flows.refresh(turn, &token).await else {
            return false;
        };
        self.idle.lock().expect("chains lock").push(next);
        true
    }
}
