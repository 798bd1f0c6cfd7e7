//! End-to-end tests: the real server on port 0, SQLite in a temp dir, and the simulated
//! identity provider on loopback, talking real HTTP.

mod access_tokens;
mod admin;
mod admin_events;
mod audit_events;
mod cache_control;
mod client_ip;
mod deletion;
mod demo;
mod demo_signals;
mod email_claims;
mod errors;
mod export;
mod fuzz;
mod generic_discovery;
mod generic_oauth2;
mod generic_oidc;
mod helpers;
mod id_token;
mod id_token_once;
mod keep_alive;
mod knobs;
mod link_completion;
mod load;
mod login_throttle;
mod malformed_heads;
mod metrics_labels;
mod native_apple_grants;
mod native_grants;
mod oauth_flow;
mod ops;
mod password;
mod presets;
mod process;
mod provider_list;
mod providers;
mod raw_http;
mod reauthentication;
mod refresh_formats;
mod relay;
mod revocation;
mod secrets;
mod sessions_list;
mod signals;
mod signup_google;
mod signup_policy;
mod slow_clients;
mod state;
mod two_providers;
mod webhooks;

/// Every app of this binary stores its data in a SQLite file of its own.
const STORAGE: helpers::Storage = helpers::Storage {
    postgres: false,
    redis: false,
};
