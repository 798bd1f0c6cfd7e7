//! What the simulated Apple remembers: seeded teams, who has authorized which client
//! already, and the knobs.

use super::knobs::AppleKnobs;
use super::team::AppleTeam;
use crate::config::SimulatorConfig;
use crate::knobs::Knobs;
use crate::lock::locked;
use std::collections::HashSet;
use std::sync::Mutex;

#[derive(Debug)]
pub struct AppleState {
    pub teams: Vec<AppleTeam>,
    /// `(client_id, user id)` of every authorization granted: the `user` form field is
    /// posted only when the pair is not in here yet.
    authorized: Mutex<HashSet<(String, String)>>,
    pub knobs: Knobs<AppleKnobs>,
}

impl AppleState {
    pub fn new(config: &SimulatorConfig) -> Self {
        Self {
            teams: config.apple_teams.clone(),
            authorized: Mutex::new(HashSet::new()),
            knobs: Knobs::default(),
        }
    }

    /// Records that `user_id` authorized `client_id`; true when it is the first time.
    pub fn first_authorization(&self, client_id: &str, user_id: &str) -> bool {
        locked(&self.authorized).insert((client_id.to_owned(), user_id.to_owned()))
    }

    /// After a revocation Apple asks for consent again, and posts `user` again (TN3194).
    pub fn forget_authorization(&self, client_id: &str, user_id: &str) {
        locked(&self.authorized).remove(&(client_id.to_owned(), user_id.to_owned()));
    }
}
