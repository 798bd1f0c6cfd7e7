//! What every simulated provider does alike, each in its own words: one scenario per test,
//! run at every provider, checked against what that provider is expected to answer
//! (`dialects/expected.toml`).

mod api;
mod authorize;
mod expected;
mod token;
