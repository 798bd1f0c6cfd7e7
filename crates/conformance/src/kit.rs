//! The provider conformance kit: the failure scenarios every adapter shares, written once
//! and run against each adapter over the simulator from one table ([`conformance_kit!`]).
//!
//! A [`Subject`] is one row: the simulator fixture, how to build the adapter, and what the
//! simulated provider answers where providers differ (error codes); what each provider asks
//! for is read from the plan its adapter was built from. Scenarios come in groups a row
//! lists; each scenario is one test named after it.

pub mod code_exchange;
pub mod email_scope;
pub mod email_trust;
pub mod id_token;
pub mod revocation;
pub mod sign_in;
pub mod user_info;

use crate::fixture::Fixture;
use social_login_domain::ProviderKey;
use social_login_ports::IdentityProvider;
use social_login_provider_core::spec::{NonceRule, ProviderKind, RevokedToken, TokenAuth};
use social_login_provider_core::{
    Endpoint as PlanEndpoint, Engine, ProviderHttp, ProviderPlan, ProviderSettings,
    build_http_client,
};
use social_login_simulator::{ClientAuthKind, Endpoint, Fault, RequestRecord, SimulatorHandle};
use std::fmt::Debug;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// A provider under test: the port, a `Debug` that must hide its secrets, and the plan it
/// was built from, which says what the kit must see where providers differ.
pub trait Adapter: IdentityProvider + Debug {
    fn plan(&self) -> &ProviderPlan;
}

impl Adapter for Engine {
    fn plan(&self) -> &ProviderPlan {
        Engine::plan(self)
    }
}

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

/// The messages of the three refusals that carry the provider's own error code.
#[derive(Debug, Clone, Copy)]
pub struct Refusals {
    pub replayed_code: &'static str,
    /// `None`: the provider compares no verifier (PKCE off, or never checked there), so a
    /// wrong one passes.
    pub wrong_verifier: Option<&'static str>,
    /// `None`: the client sends no secret at all (VK ID), so a wrong one passes unseen.
    pub wrong_secret: Option<&'static str>,
}

/// One provider's row in the kit's table. What the provider asks for (scopes, client
/// authentication, PKCE, nonce, revocation) is read from the plan its adapter was built
/// from; the row names only what the simulated provider answers.
#[derive(Debug, Clone, Copy)]
pub struct Subject {
    pub fixture: Fixture,
    /// The adapter of a key over `settings` and `http` (a client from `build_http_client`);
    /// a future, since building one may fetch (a provider's discovery document).
    pub build: fn(ProviderKey, ProviderSettings, ProviderHttp, Credentials) -> Built,
    /// Makes the simulated provider check the PKCE verifier where it does not by default.
    pub enforce_pkce: fn(&SimulatorHandle),
    pub refusals: Refusals,
    /// Provider-specific text no message may hold (token prefixes, `AADSTS`).
    pub never_in_messages: &'static [&'static str],
}

/// An adapter being built.
pub type Built = Pin<Box<dyn Future<Output = Box<dyn Adapter>> + Send>>;

impl Subject {
    /// The adapter with the fixture's settings.
    pub async fn adapter(&self, sim: &SimulatorHandle) -> Box<dyn Adapter> {
        self.adapter_of(self.fixture.settings(sim)).await
    }

    /// An adapter of the registered client with `settings` and production's timeout.
    pub async fn adapter_of(&self, settings: ProviderSettings) -> Box<dyn Adapter> {
        self.adapter_with(settings, Credentials::Registered, TIMEOUT)
            .await
    }

    /// A simulator whose provider meets `fault`, and an adapter of `timeout` pointed at it.
    pub async fn meeting(
        &self,
        fault: Fault,
        timeout: Duration,
    ) -> (SimulatorHandle, Box<dyn Adapter>) {
        let sim = self.fixture.start().await;
        sim.set_fault(fault);
        let settings = self.fixture.settings(&sim);
        let adapter = self
            .adapter_with(settings, Credentials::Registered, timeout)
            .await;
        (sim, adapter)
    }

    pub async fn adapter_with(
        &self,
        settings: ProviderSettings,
        credentials: Credentials,
        timeout: Duration,
    ) -> Box<dyn Adapter> {
        let http = build_http_client(timeout).expect("an HTTP client");
        (self.build)(self.fixture.key, settings, http, credentials).await
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

/// How the plan's client authenticates at the token endpoint, as the simulator records it;
/// `None` for a client that sends no secret (`refusals.wrong_secret` is `None`).
pub fn client_auth(subject: &Subject, plan: &ProviderPlan) -> ClientAuthKind {
    if subject.refusals.wrong_secret.is_none() {
        return ClientAuthKind::None;
    }
    match plan.spec.token_auth {
        TokenAuth::ClientSecretBasic => ClientAuthKind::Basic,
        TokenAuth::ClientSecretPost | TokenAuth::SignedSecretPost => ClientAuthKind::Body,
    }
}

/// Whether the authorization URL carries the nonce (the `oidc` kind).
pub fn sends_nonce(plan: &ProviderPlan) -> bool {
    plan.spec.kind == ProviderKind::Oidc
}

/// Whether an id_token without a nonce is refused (LinkedIn never sends one).
pub fn requires_nonce(plan: &ProviderPlan) -> bool {
    let rules = plan.spec.id_token.as_ref();
    rules.is_some_and(|rules| rules.nonce == NonceRule::Required)
}

/// How user-info failures name the endpoint; `None` for a provider without one.
pub fn user_info_label(plan: &ProviderPlan) -> Option<String> {
    let userinfo = plan.urls.get(PlanEndpoint::Userinfo);
    userinfo.map(|_| plan.label("userinfo endpoint"))
}

/// What a plan's revocation sends (`revocation` group).
#[derive(Debug, Clone)]
pub struct Revokes {
    /// How failure messages name the endpoint.
    pub label: String,
    /// The refresh token goes when the grant has one (revoking it ends the grant there).
    pub refresh_first: bool,
    /// A `token_type_hint` naming the token goes with it.
    pub hints: bool,
}

/// How the plan revokes grants; `None` for a provider without a revocation endpoint.
pub fn revokes(plan: &ProviderPlan) -> Option<Revokes> {
    let rules = plan.spec.revocation.as_ref()?;
    Some(Revokes {
        label: plan.label("revocation endpoint"),
        refresh_first: rules.sends == RevokedToken::RefreshFirst,
        hints: rules.hint,
    })
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
/// `nonce`, `openid`, `email_scope`, `email_trust`, `revocation`, `no_revocation`.
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
    (@email_trust $subject:path) => {
        $crate::conformance_kit!(@tests $subject, email_trust, [
            a_verified_address_counts_as_the_declaration_says,
            an_unverified_address_never_counts_as_verified,
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
