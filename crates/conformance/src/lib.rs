//! Test-only support for the provider adapters (a dev-dependency, never a normal one).
//!
//! - [`flow`]: the browser and callback steps of a sign-in against the simulator, for any
//!   `IdentityProvider` (a redirect, or Apple's form_post);
//! - [`fixture`]: one registered client and default user per simulated provider, and the
//!   settings that point an adapter at the simulator;
//! - [`expect`]: the failure a sign-in must end in, its message free of secrets;
//! - [`login`]: a successful sign-in's email as text and the shape of its tokens;
//! - [`kit`]: the conformance kit, the failure scenarios every adapter shares, run once per
//!   provider from one table with [`conformance_kit!`];
//! - [`clock`]: a clock the tests move by hand.

pub mod clock;
pub mod expect;
pub mod fixture;
pub mod flow;
pub mod kit;
pub mod login;

pub use clock::ManualClock;
pub use expect::{assert_no_secret, expect_code_exchange, expect_user_info};
pub use fixture::{
    APPLE, DISCORD, FACEBOOK, Fixture, GITHUB, GOOGLE, LINKEDIN, MICROSOFT, TWITTER,
};
pub use flow::{
    Authorize, Callback, Flow, NONCE, OTHER_NONCE, OTHER_VERIFIER, STATE, VERIFIER, complete,
    query_of, request,
};
pub use login::{assert_tokens, email_of};
