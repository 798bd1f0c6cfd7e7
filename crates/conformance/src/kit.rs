//! The provider conformance kit: the failure scenarios every adapter shares, written once
//! and run against each adapter over the simulator from one table ([`conformance_kit!`]).
//!
//! A [`Subject`] is one row: the simulator fixture, how to build the adapter, and what the
//! provider answers where providers differ (scopes, client authentication, error codes).
//! Scenarios come in groups a row lists; each scenario is one test named after it.

pub mod code_exchange;
pub mod email_scope;
pub mod id_token;
pub mod revocation;
pub mod sign_in;
pub mod user_info;

use crate::fixture::Fixture;
use social_login_ports::IdentityProvider;
use social_login_provider_core::{ProviderSettings, build_http_client};
use social_login_simulator::{ClientAuthKind, Endpoint, RequestRecord, SimulatorHandle};
use std::fmt::Debug;
use std::time::Duration;

/// An adapter under test: the port, and a `Debug` that must hide its secrets.
pub trait Adapter: IdentityProvider + Debug {}

impl<T: IdentityProvider + Debug> Adapter for T {}

/// The client secret of an adapter the provider must refuse.
pub const WRONG_SECRET: &str = "wrong-secret-value-0123456789";
/// The timeout of an adapter whose provider is made slower than it.
pub const SHORT_TIMEOUT: Duration = Duration::from_millis(300);
const TIMEOUT: Duration = Duration::from_secs(10);

/// Which credentials [`Subject::build`] gives the adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credentials {
    /// The registered client's.
    Registered,
    /// Credentials the provider refuses: [`WRONG_SECRET`], or for Apple a key of no team.
    Wrong,
}

impl Credentials {
    /// `settings` with [`WRONG_SECRET`] as the client secret when `Wrong`.
    pub fn apply(self, mut settings: ProviderSettings) -> ProviderSettings {
        if self == Self::Wrong {
            settings.client_secret = social_login_domain::SecretText::new(WRONG_SECRET);
        }
        settings
    }
}

/// Whether the adapter lets the operator turn PKCE off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pkce {
    Optional,
    /// X requires it: `pkce = false` still sends a challenge.
    Required,
}

/// The messages of the three refusals that carry the provider's own error code.
#[derive(Debug, Clone, Copy)]
pub struct Refusals {
    pub replayed_code: &'static str,
    pub wrong_verifier: &'static str,
    pub wrong_secret: &'static str,
}

/// What a row's `revoke` sends (`revocation` group).
#[derive(Debug, Clone, Copy)]
pub struct Revokes {
    /// How failure messages name the endpoint.
    pub label: &'static str,
    /// The refresh token goes when the grant has one (revoking it ends the grant there).
    pub refresh_first: bool,
    /// A `token_type_hint` naming the token goes with it.
    pub hints: bool,
}

/// One provider's row in the kit's table.
#[derive(Debug, Clone, Copy)]
pub struct Subject {
    pub fixture: Fixture,
    /// The adapter over `settings` and `http` (a client from `build_http_client`).
    pub build: fn(ProviderSettings, reqwest::Client, Credentials) -> Box<dyn Adapter>,
    /// The default scopes, in the order the authorization URL carries them.
    pub scopes: &'static [&'static str],
    /// The scope whose absence leaves the identity without an email (`email_scope` group).
    pub email_scope: Option<&'static str>,
    pub client_auth: ClientAuthKind,
    pub pkce: Pkce,
    /// Whether the authorization URL carries the nonce (OpenID Connect and Apple).
    pub sends_nonce: bool,
    /// Whether an id_token without a nonce is refused (`id_token` group; LinkedIn never
    /// sends one).
    pub requires_nonce: bool,
    /// Makes the simulated provider check the PKCE verifier where it does not by default.
    pub enforce_pkce: fn(&SimulatorHandle),
    pub refusals: Refusals,
    /// How user-info failures name the endpoint (`user_info` group).
    pub user_info: Option<&'static str>,
    /// Provider-specific text no message may hold (token prefixes, `AADSTS`).
    pub never_in_messages: &'static [&'static str],
    /// How grants are revoked; `None` for a provider without a revocation endpoint
    /// (`no_revocation` group).
    pub revocation: Option<Revokes>,
}

impl Subject {
    /// The adapter with the fixture's settings.
    pub fn adapter(&self, sim: &SimulatorHandle) -> Box<dyn Adapter> {
        self.adapter_with(self.fixture.settings(sim), Credentials::Registered, TIMEOUT)
    }

    pub fn adapter_with(
        &self,
        settings: ProviderSettings,
        credentials: Credentials,
        timeout: Duration,
    ) -> Box<dyn Adapter> {
        let http = build_http_client(timeout).expect("an HTTP client");
        (self.build)(settings, http, credentials)
    }

    /// Every secret of this sign-in: the fixture's, the wrong one, the row's markers and
    /// `codes`.
    pub fn secrets(&self, sim: &SimulatorHandle, codes: &[&str]) -> Vec<String> {
        let mut secrets = self.fixture.secrets(sim);
        secrets.push(WRONG_SECRET.to_owned());
        secrets.extend(self.never_in_messages.iter().map(|s| (*s).to_owned()));
        secrets.extend(codes.iter().map(|s| (*s).to_owned()));
        secrets
    }
}

/// The first request `sim` received at this row's `endpoint`.
pub fn record(sim: &SimulatorHandle, subject: &Subject, endpoint: Endpoint) -> RequestRecord {
    sim.requests()
        .into_iter()
        .find(|r| r.provider == Some(subject.fixture.provider) && r.endpoint == Some(endpoint))
        .unwrap_or_else(|| panic!("no {endpoint:?} request"))
}

/// The kit's table: `name: SUBJECT => [groups];` a line per provider. Each group expands to
/// one `#[tokio::test]` per scenario in a module named after the row (the caller needs
/// `tokio` with `macros`). Groups: `sign_in`, `code_exchange`, `user_info`, `id_token`,
/// `nonce`, `openid`, `email_scope`, `revocation`, `no_revocation`.
#[macro_export]
macro_rules! conformance_kit {
    ($($name:ident: $subject:path => [$($group:ident),+ $(,)?];)+) => {
        $(
            mod $name {
                $( $crate::conformance_kit!(@$group $subject); )+
            }
        )+
    };
    (@sign_in $subject:path) => {
        $crate::conformance_kit!(@tests $subject, sign_in, [
            the_authorization_url_carries_the_request,
            the_token_request_authenticates_the_client,
            turning_pkce_off,
            a_returning_user_gets_the_same_subject_and_a_fresh_token,
            debug_output_hides_the_secrets,
        ]);
    };
    (@code_exchange $subject:path) => {
        $crate::conformance_kit!(@tests $subject, code_exchange, [
            a_replayed_code_is_refused,
            a_wrong_pkce_verifier_is_refused,
            a_wrong_client_secret_is_refused,
            a_token_endpoint_server_error,
            an_error_inside_a_200,
            a_garbage_token_response,
            a_token_endpoint_slower_than_the_timeout,
            an_unreachable_token_endpoint,
        ]);
    };
    (@user_info $subject:path) => {
        $crate::conformance_kit!(@tests $subject, user_info, [
            a_user_info_server_error,
            a_garbage_user_info_response,
            a_user_info_endpoint_slower_than_the_timeout,
        ]);
    };
    (@id_token $subject:path) => {
        $crate::conformance_kit!(@tests $subject, id_token, [
            an_unavailable_key_set,
            each_broken_id_token_names_its_check,
        ]);
    };
    (@nonce $subject:path) => {
        $crate::conformance_kit!(@tests $subject, id_token, [
            an_id_token_of_another_sign_in_is_refused_by_its_nonce,
        ]);
    };
    (@openid $subject:path) => {
        $crate::conformance_kit!(@tests $subject, id_token, [
            a_token_answer_without_id_token,
        ]);
    };
    (@email_scope $subject:path) => {
        $crate::conformance_kit!(@tests $subject, email_scope, [
            without_the_email_scope_there_is_no_email,
        ]);
    };
    (@revocation $subject:path) => {
        $crate::conformance_kit!(@tests $subject, revocation, [
            the_grant_of_a_sign_in_is_revoked,
            without_a_refresh_token_the_access_token_is_revoked,
            a_revocation_endpoint_server_error,
            a_revocation_endpoint_slower_than_the_timeout,
            an_unreachable_revocation_endpoint,
        ]);
    };
    (@no_revocation $subject:path) => {
        $crate::conformance_kit!(@tests $subject, revocation, [
            revocation_is_not_supported_and_nothing_is_sent,
        ]);
    };
    (@tests $subject:path, $group:ident, [$($scenario:ident),+ $(,)?]) => {
        $(
            #[tokio::test]
            async fn $scenario() {
                $crate::kit::$group::$scenario(&$subject).await;
            }
        )+
    };
}
