//! The simulated Google.

mod authorize;
mod support;
mod token;
