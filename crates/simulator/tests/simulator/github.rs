//! The simulated GitHub, and the control API (driven through a GitHub app).

mod api;
mod authorize;
mod control;
pub mod support;
mod token;
