//! The control API under `/_control`: choose the next identity, inject faults (id_token
//! faults too), rotate the signing key, read the log, expire or revoke the tokens issued,
//! set the refresh grant's knobs and read its counts.
//! Tests in Rust use the same operations through [`crate::SimulatorHandle`].

use crate::config::Provider;
use crate::faults::Fault;
use crate::id_token_fault::IdTokenFaultRequest;
use crate::knobs::Knobs;
use crate::lock::locked;
use crate::state::SimState;
use crate::users::SimUser;
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{MethodRouter, get, post};
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/identity", post(set_identity))
        .route("/faults", post(set_fault).delete(clear_faults))
        .route("/id_token_fault", post(set_id_token_fault))
        .route("/rotate_signing_key", post(rotate_signing_key))
        .route("/apple_knobs", knobs_route(|sim| &sim.apple.knobs))
        .route("/linkedin_knobs", knobs_route(|sim| &sim.linkedin_knobs))
        .route("/standard_knobs", knobs_route(|sim| &sim.standard_knobs))
        .route("/refresh_knobs", knobs_route(|sim| &sim.refresh_knobs))
        .route("/tokens/expire", post(expire_access_tokens))
        .route("/grants/revoke", post(revoke_grants))
        .route("/refresh_grants", get(refresh_grants))
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

/// Clears every fault, the id_token ones included.
async fn clear_faults(State(sim): State<Arc<SimState>>) -> StatusCode {
    sim.faults.clear();
    sim.id_token_faults.clear();
    StatusCode::NO_CONTENT
}

async fn set_id_token_fault(
    State(sim): State<Arc<SimState>>,
    Json(request): Json<IdTokenFaultRequest>,
) -> StatusCode {
    sim.id_token_faults.set(request.provider, request.fault);
    StatusCode::NO_CONTENT
}

async fn rotate_signing_key(State(sim): State<Arc<SimState>>) -> StatusCode {
    sim.keys.rotate();
    StatusCode::NO_CONTENT
}

/// Every access token issued so far stops working; refresh tokens keep working.
async fn expire_access_tokens(State(sim): State<Arc<SimState>>) -> StatusCode {
    sim.expire_access_tokens();
    StatusCode::NO_CONTENT
}

/// Every access and refresh token issued so far is dead.
async fn revoke_grants(State(sim): State<Arc<SimState>>) -> StatusCode {
    sim.revoke_grants();
    StatusCode::NO_CONTENT
}

/// The refresh grants answered, by provider: `{"apple": 2}` (a provider that answered none
/// is left out).
async fn refresh_grants(State(sim): State<Arc<SimState>>) -> Json<BTreeMap<Provider, usize>> {
    Json(sim.refresh_counts.all())
}

async fn log(State(sim): State<Arc<SimState>>) -> Json<Vec<crate::log::RequestRecord>> {
    Json(sim.log.all())
}

/// The control route that replaces a provider's knobs with the posted ones (each left out
/// takes its default).
fn knobs_route<T>(knobs: fn(&SimState) -> &Knobs<T>) -> MethodRouter<Arc<SimState>>
where
    T: Clone + DeserializeOwned + Send + 'static,
{
    post(
        move |State(sim): State<Arc<SimState>>, Json(posted): Json<T>| async move {
            knobs(&sim).set(posted);
            StatusCode::NO_CONTENT
        },
    )
}
