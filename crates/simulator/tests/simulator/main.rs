//! The simulator over real HTTP: the checks it makes, as a client sees them.

mod api;
mod authorize;
mod control;
mod support;
mod token;
