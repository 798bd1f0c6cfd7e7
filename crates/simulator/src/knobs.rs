//! Knobs: what a test sets to make a simulated provider answer one way or another (Apple's
//! claim style, LinkedIn's PKCE, what the standard providers lie about), read by every
//! request, set through the handle or `POST /_control/<provider>_knobs`.

use crate::lock::locked;
use crate::state::SimState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{MethodRouter, post};
use serde::de::DeserializeOwned;
use std::sync::{Arc, Mutex};

/// The knobs in force for one provider.
#[derive(Debug, Default)]
pub struct Knobs<T>(Mutex<T>);

impl<T: Clone> Knobs<T> {
    pub fn get(&self) -> T {
        locked(&self.0).clone()
    }

    pub fn set(&self, knobs: T) {
        *locked(&self.0) = knobs;
    }
}

/// The control route that replaces a provider's knobs with the posted ones (each left out
/// takes its default).
pub fn route<T>(knobs: fn(&SimState) -> &Knobs<T>) -> MethodRouter<Arc<SimState>>
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
