//! Knobs: what a test sets to make a simulated provider answer one way or another (Apple's
//! claim style, LinkedIn's PKCE, what the standard providers lie about, the refresh grant),
//! read by every request, set through the handle or `POST /_control/<name>_knobs`.

use crate::lock::locked;
use std::sync::Mutex;

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

    /// Changes some knobs and keeps the others.
    pub fn update(&self, change: impl FnOnce(&mut T)) {
        change(&mut locked(&self.0));
    }
}
