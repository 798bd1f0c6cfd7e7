//! The provider engine and its plumbing: a declaration (`social-login-provider-spec`) and
//! the operator's settings resolve into a [`ProviderPlan`]; one [`Engine`] runs the code flow
//! of any plan, both kinds, reading who signed in by JSON Pointer ([`claims`]), with each
//! built-in provider's [`Quirks`] at the few places providers differ. Below it: the one
//! pooled HTTP client, the oauth2 5 bridge, JSON fetching, revocation, and failure messages
//! that are safe to log.

pub mod api_call;
pub mod authorize_url;
pub mod claims;
pub mod code_flow;
pub mod config_error;
pub mod emails;
pub mod engine;
pub mod failure;
pub mod fetch;
pub mod grant_context;
pub mod http_client;
pub mod id_token_check;
#[cfg(any(test, feature = "strategies"))]
pub mod json_strategies;
pub mod object_only;
#[cfg(any(test, feature = "strategies"))]
pub mod offline;
pub mod plan;
pub mod quirks;
pub mod revocation;
pub mod settings;
pub mod settings_check;
pub mod token_answer;
pub mod token_http;
pub mod token_set;

/// The declarations the plans are made from.
pub use social_login_provider_spec as spec;

pub use api_call::ApiShape;
pub use authorize_url::AuthorizeUrl;
pub use code_flow::CodeFlow;
pub use config_error::{ProviderConfigError, parse_http_url, require_non_empty};
pub use emails::EmailsCall;
pub use engine::{BuildContext, Engine};
pub use fetch::{decode_json, fetch_json, fetch_json_unless};
pub use http_client::{
    Answer, CallKind, HttpClientError, ProviderHttp, SendError, USER_AGENT, build_http_client,
};
pub use id_token_check::{IdTokenCheck, Presented};
pub use object_only::ObjectOnly;
pub use plan::{Endpoint, ProviderPlan, Urls};
pub use quirks::{Finish, FinishContext, NoQuirks, Quirks, RevocationCall, UserinfoCall, identify};
pub use revocation::{
    AlreadyGone, RevocationEndpoint, revocation_url, send_revocation, whole_grant_token,
};
pub use settings::{EndpointOverrides, ProviderSettings, SigningKey};
pub use settings_check::{ProblemField, SettingsProblem, problems};
pub use token_answer::TokenAnswer;
pub use token_http::{TokenHttp, TokenHttpError, TokenShape};
pub use token_set::TokenSet;
