//! The simulator over real HTTP: the checks it makes, as a client sees them.

mod api;
mod authorize;
mod control;
mod google;
mod google_support;
mod google_token;
mod support;
mod token;
