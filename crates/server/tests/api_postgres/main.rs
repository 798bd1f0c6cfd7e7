//! The end-to-end tests of `tests/api` once more, as several instances run them: each app on a
//! fresh PostgreSQL database of its own (created on `TEST_POSTGRES_URL`, dropped after) with
//! its spent state ids in Redis (`TEST_REDIS_URL`, a key prefix of its own), plus what only
//! PostgreSQL can show here: the database going away and coming back under a running
//! service.
//!
//! Without those variables the binary prints `SKIPPED:` and ends; under `CI` it fails.
//! Left out: `demo.rs`, whose demo always runs on its own embedded SQLite.

#[path = "../api/access_tokens.rs"]
mod access_tokens;
#[path = "../api/admin.rs"]
mod admin;
#[path = "../api/admin_events.rs"]
mod admin_events;
#[path = "../api/audit_events.rs"]
mod audit_events;
#[path = "../api/client_ip.rs"]
mod client_ip;
#[path = "../api/deletion.rs"]
mod deletion;
#[path = "../api/email_claims.rs"]
mod email_claims;
#[path = "../api/errors.rs"]
mod errors;
#[path = "../api/export.rs"]
mod export;
#[path = "../api/fuzz.rs"]
mod fuzz;
#[path = "../api/generic_discovery.rs"]
mod generic_discovery;
#[path = "../api/generic_oauth2.rs"]
mod generic_oauth2;
#[path = "../api/generic_oidc.rs"]
mod generic_oidc;
#[path = "../api/helpers.rs"]
mod helpers;
#[path = "../api/id_token.rs"]
mod id_token;
#[path = "../api/id_token_once.rs"]
mod id_token_once;
#[path = "../api/link_completion.rs"]
mod link_completion;
#[path = "../api/login_throttle.rs"]
mod login_throttle;
#[path = "../api/native_apple_grants.rs"]
mod native_apple_grants;
#[path = "../api/native_grants.rs"]
mod native_grants;
#[path = "../api/oauth_flow.rs"]
mod oauth_flow;
#[path = "../api/ops.rs"]
mod ops;
mod outage;
#[path = "../api/password.rs"]
mod password;
#[path = "../api/providers.rs"]
mod providers;
#[path = "../api/reauthentication.rs"]
mod reauthentication;
#[path = "../api/revocation.rs"]
mod revocation;
#[path = "../api/secrets.rs"]
mod secrets;
#[path = "../api/sessions_list.rs"]
mod sessions_list;
#[path = "../api/signals.rs"]
mod signals;
#[path = "../api/signup_google.rs"]
mod signup_google;
#[path = "../api/signup_policy.rs"]
mod signup_policy;
#[path = "../api/state.rs"]
mod state;
#[path = "../api/two_providers.rs"]
mod two_providers;
#[path = "../api/webhooks.rs"]
mod webhooks;

/// Every app of this binary stores its data in a PostgreSQL database of its own.
const STORAGE: helpers::Storage = helpers::Storage {
    postgres: true,
    redis: true,
};
