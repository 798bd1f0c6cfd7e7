//! The control API under `/_control`: choose the next identity, inject faults, read the log.
//! Tests in Rust use the same operations through [`crate::SimulatorHandle`].

use crate::faults::Fault;
use crate::lock::locked;
use crate::state::SimState;
use crate::users::SimUser;
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use std::sync::Arc;

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/identity", post(set_identity))
        .route("/faults", post(set_fault).delete(clear_faults))
        .route("/log", get(log))
}

/// Adds or replaces the user (by login) and approves as them from now on.
async fn set_identity(State(sim): State<Arc<SimState>>, Json(user): Json<SimUser>) -> StatusCode {
    locked(&sim.directory).set_identity(user);
    StatusCode::NO_CONTENT
}

async fn set_fault(State(sim): State<Arc<SimState>>, Json(fault): Json<Fault>) -> StatusCode {
    sim.faults.set(fault);
    StatusCode::NO_CONTENT
}

async fn clear_faults(State(sim): State<Arc<SimState>>) -> StatusCode {
    sim.faults.clear();
    StatusCode::NO_CONTENT
}

async fn log(State(sim): State<Arc<SimState>>) -> Json<Vec<crate::log::RequestRecord>> {
    Json(sim.log.all())
}
