//! A simulated identity provider on loopback, checking what the real providers check.
//!
//! One axum server imitates every provider under its own path prefix (`/github/...`,
//! `/google/...`, and the standards-only `/oidc/...` and `/oauth2/...`), with registered
//! clients, seeded users, random single-use codes, PKCE verification and the providers'
//! quirks. One engine runs the common flow of every endpoint; each provider's manners are
//! data (its dialect, `dialects.toml`) and what data cannot say is its hooks. Tests and the
//! demo drive it through [`SimulatorHandle`] or the `/_control` HTTP API: choose the
//! identity the authorize endpoint approves as, inject faults, read what each endpoint
//! received, expire or revoke the tokens issued, rotate or slow the refresh grant. Each
//! provider also serves a small API for its access tokens at `/<prefix>/api/...`
//! ([`SimulatorHandle::api_base`]), what the service's relay calls.
//!
//! ```no_run
//! # async fn example() -> std::io::Result<()> {
//! use social_login_simulator::{Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig};
//! let sim = Simulator::start(
//!     SimulatorConfig::default()
//!         .with_client(RegisteredClient::new(Provider::Github, "id", "secret", "http://127.0.0.1:8080/cb"))
//!         .with_user(SimUser::new("583231", "ada").with_email("ada@example.com", true)),
//! )
//! .await?;
//! let token_url = sim.github().token;
//! # Ok(()) }
//! ```

mod api;
pub mod apple;
mod authorize;
mod claims;
mod client_auth;
mod codes;
pub mod config;
mod control;
mod dialect;
pub mod discord;
mod engine;
pub mod facebook;
pub mod faults;
mod flow;
pub mod github;
pub mod google;
mod hooks;
mod html;
mod id_token;
pub mod id_token_fault;
mod knobs;
pub mod linkedin;
mod lock;
pub mod log;
pub mod microsoft;
mod paths;
mod pkce;
mod providers;
mod random;
mod refresh;
pub mod revocation;
mod server;
mod sign_in_page;
pub mod signals;
pub mod signing;
pub mod standard;
mod state;
mod template;
mod tokens;
pub mod twitter;
pub mod users;
mod vk;
mod wechat;

pub use api::echo::ANSWER_HEADERS as ECHO_ANSWER_HEADERS;
pub use apple::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_PUBLIC_KEY_PEM, APPLE_TEST_TEAM_ID,
    AppleEndpoints, AppleFormPost, AppleKnobs, AppleTeam, ClaimStyle,
};
pub use config::{Provider, RegisteredClient, SimulatorConfig};
pub use discord::{DiscordEndpoints, DiscordSeed};
pub use facebook::FacebookEndpoints;
pub use faults::{Endpoint, Fault};
pub use github::GithubEndpoints;
pub use google::GoogleEndpoints;
pub use id_token_fault::{IdTokenFault, IdTokenFaultRequest};
pub use linkedin::{LinkedinEndpoints, LinkedinKnobs, LinkedinPkce};
pub use log::{ClientAuthKind, RequestRecord};
pub use microsoft::{MICROSOFT_CONSUMER_TENANT, MicrosoftAccount, MicrosoftEndpoints};
pub use paths::EndpointSet;
pub use revocation::{Revocation, TokenKind};
pub use server::{Simulator, SimulatorHandle};
pub use signals::{SignalAnswer, SignalDelivery, SignalKind, SignalRequest};
pub use signing::{TEST_KEY_A, TEST_KEY_B, TestKey};
pub use standard::StandardKnobs;
pub use twitter::TwitterEndpoints;
pub use users::{SimEmail, SimUser};

/// The look the simulator's pages share with the demo page: palette, typography, cards,
/// buttons, badges and form fields (CSS).
pub const PAGE_STYLE: &str = include_str!("page.css");
