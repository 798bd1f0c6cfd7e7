//! Test-only support for the provider adapters (a dev-dependency, never a normal one).
//!
//! - [`clock`]: a clock the tests move by hand;
//! - more to come: the browser flow and the conformance kit.

pub mod clock;

pub use clock::ManualClock;
