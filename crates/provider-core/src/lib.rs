//! Shared plumbing of the provider adapters: settings, the one pooled HTTP client, the
//! oauth2 5 bridge and code flow, JSON fetching, and failure messages that are safe to log.
//!
//! Each provider adapter (GitHub, the OIDC ones, Apple...) is a thin file on top of these:
//! it names its default endpoints and scopes in a [`FlowDefaults`], builds a [`CodeFlow`],
//! and maps its own profile JSON to a `ProviderIdentity`.

pub mod code_flow;
pub mod config_error;
pub mod failure;
pub mod fetch;
pub mod http_client;
#[cfg(any(test, feature = "strategies"))]
pub mod json_strategies;
pub mod object_only;
pub mod revocation;
pub mod settings;
pub mod settings_check;
pub mod token_http;
pub mod token_set;

pub use code_flow::{ClientAuth, CodeFlow, FlowDefaults};
pub use config_error::{ProviderConfigError, parse_http_url, require_non_empty, resolve_endpoint};
pub use fetch::{decode_json, fetch_json, fetch_json_unless};
pub use http_client::{HttpClientError, USER_AGENT, build_http_client};
pub use object_only::ObjectOnly;
pub use revocation::{AlreadyGone, RevocationEndpoint, send_revocation, whole_grant_token};
pub use settings::{EndpointOverrides, ProviderSettings};
pub use settings_check::{ProblemField, SettingsProblem, SettingsRules, check_settings};
pub use token_http::{TokenHttp, TokenHttpError};
pub use token_set::{IdTokenField, TokenSet};
