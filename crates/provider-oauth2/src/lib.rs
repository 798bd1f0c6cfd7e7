//! OAuth 2.0 + REST provider adapters: providers without an id_token, whose identity comes
//! from their API. One file per provider on top of `social-login-provider-core`.

pub mod discord;
pub mod facebook;
pub mod github;
pub mod twitter;

pub use discord::DiscordProvider;
pub use facebook::FacebookProvider;
pub use github::GithubProvider;
pub use twitter::TwitterProvider;
