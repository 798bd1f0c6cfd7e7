//! The knobs of the simulated LinkedIn: what its token endpoint does with PKCE.
//!
//! LinkedIn supports PKCE for native apps only, by arrangement (PROVIDERS.md §5.3); whether
//! a web app's token endpoint ignores or refuses a stray `code_verifier` is not verified
//! (§12). The default ignores it; `reject` is the app that `pkce = false` exists for.

use crate::lock::locked;
use crate::state::SimState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};

/// What the token endpoint does with a `code_verifier`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkedinPkce {
    /// Records the challenge and verifier and checks nothing (a web app).
    #[default]
    Ignore,
    /// Requires an S256 challenge at authorize and the matching verifier (a native app).
    Enforce,
    /// Refuses a token request that carries a `code_verifier` (`400 invalid_request`).
    Reject,
}

/// The body of `POST /_control/linkedin_knobs`; every field has its default when left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkedinKnobs {
    pub pkce: LinkedinPkce,
}

/// The knobs in force.
#[derive(Debug, Default)]
pub struct LinkedinKnobStore(Mutex<LinkedinKnobs>);

impl LinkedinKnobStore {
    pub fn get(&self) -> LinkedinKnobs {
        *locked(&self.0)
    }

    pub fn set(&self, knobs: LinkedinKnobs) {
        *locked(&self.0) = knobs;
    }
}

/// `POST /_control/linkedin_knobs`.
pub(crate) async fn set_knobs(
    State(sim): State<Arc<SimState>>,
    Json(knobs): Json<LinkedinKnobs>,
) -> StatusCode {
    sim.linkedin_knobs.set(knobs);
    StatusCode::NO_CONTENT
}
