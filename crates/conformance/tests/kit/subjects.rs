//! One row per provider: its fixture, its adapter, and where it differs from the others.

use social_login_conformance::fixture::{self, OTHER_P256_KEY_PEM};
use social_login_conformance::kit::{Adapter, Credentials, Pkce, Refusals, Subject};
use social_login_domain::SecretText;
use social_login_provider_apple::AppleProvider;
use social_login_provider_core::ProviderSettings;
use social_login_provider_oauth2::{
    DiscordProvider, FacebookProvider, GithubProvider, TwitterProvider,
};
use social_login_provider_oidc::{GoogleProvider, LinkedinProvider, MicrosoftProvider};
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID, ClientAuthKind, LinkedinKnobs,
    LinkedinPkce, SimulatorHandle,
};

/// The refusals of providers that answer as RFC 6749 says.
const RFC_6749: Refusals = Refusals {
    replayed_code: "token endpoint answered error `invalid_grant`",
    wrong_verifier: "token endpoint answered error `invalid_grant`",
    wrong_secret: "token endpoint answered error `invalid_client`",
};

const GRAPH_ERROR: &str = "token endpoint answered error `non-string error member`";

/// The simulated provider checks the verifier without being asked.
fn checks_pkce(_: &SimulatorHandle) {}

pub const GITHUB: Subject = Subject {
    fixture: fixture::GITHUB,
    build: |settings, http, credentials| {
        Box::new(GithubProvider::new(credentials.apply(settings), http).unwrap())
    },
    scopes: &["read:user", "user:email"],
    email_scope: Some("user:email"),
    client_auth: ClientAuthKind::Body,
    pkce: Pkce::Optional,
    sends_nonce: false,
    requires_nonce: false,
    enforce_pkce: checks_pkce,
    refusals: Refusals {
        replayed_code: "token endpoint answered error `bad_verification_code`",
        wrong_verifier: "token endpoint answered error `bad_verification_code`",
        wrong_secret: "token endpoint answered error `incorrect_client_credentials`",
    },
    user_info: Some("GitHub profile endpoint"),
    never_in_messages: &["gho_"],
};

pub const DISCORD: Subject = Subject {
    fixture: fixture::DISCORD,
    build: |settings, http, credentials| {
        Box::new(DiscordProvider::new(credentials.apply(settings), http).unwrap())
    },
    scopes: &["identify", "email"],
    email_scope: Some("email"),
    client_auth: ClientAuthKind::Body,
    pkce: Pkce::Optional,
    sends_nonce: false,
    requires_nonce: false,
    enforce_pkce: checks_pkce,
    refusals: RFC_6749,
    user_info: Some("Discord user endpoint"),
    never_in_messages: &[],
};

pub const FACEBOOK: Subject = Subject {
    fixture: fixture::FACEBOOK,
    build: |settings, http, credentials| {
        Box::new(FacebookProvider::new(credentials.apply(settings), http).unwrap())
    },
    scopes: &["email", "public_profile"],
    email_scope: Some("email"),
    client_auth: ClientAuthKind::Body,
    pkce: Pkce::Optional,
    sends_nonce: false,
    requires_nonce: false,
    enforce_pkce: checks_pkce,
    // The Graph API's error envelope: `error` is an object, not an RFC 6749 code.
    refusals: Refusals {
        replayed_code: GRAPH_ERROR,
        wrong_verifier: GRAPH_ERROR,
        wrong_secret: GRAPH_ERROR,
    },
    user_info: Some("Facebook profile endpoint"),
    never_in_messages: &["EAA"],
};

pub const TWITTER: Subject = Subject {
    fixture: fixture::TWITTER,
    build: |settings, http, credentials| {
        Box::new(TwitterProvider::new(credentials.apply(settings), http).unwrap())
    },
    scopes: &["tweet.read", "users.read", "offline.access"],
    email_scope: None,
    client_auth: ClientAuthKind::Basic,
    pkce: Pkce::Required,
    sends_nonce: false,
    requires_nonce: false,
    enforce_pkce: checks_pkce,
    refusals: Refusals {
        replayed_code: "token endpoint answered error `invalid_request`",
        wrong_verifier: "token endpoint answered error `invalid_request`",
        wrong_secret: "token endpoint answered error `unauthorized_client`",
    },
    user_info: Some("X user endpoint"),
    never_in_messages: &[],
};

pub const GOOGLE: Subject = Subject {
    fixture: fixture::GOOGLE,
    build: |settings, http, credentials| {
        Box::new(GoogleProvider::new(credentials.apply(settings), http).unwrap())
    },
    scopes: &["openid", "email", "profile"],
    email_scope: Some("email"),
    client_auth: ClientAuthKind::Body,
    pkce: Pkce::Optional,
    sends_nonce: true,
    requires_nonce: true,
    enforce_pkce: checks_pkce,
    refusals: RFC_6749,
    user_info: Some("Google userinfo endpoint"),
    never_in_messages: &["ya29."],
};

pub const MICROSOFT: Subject = Subject {
    fixture: fixture::MICROSOFT,
    build: |settings, http, credentials| {
        Box::new(MicrosoftProvider::new(credentials.apply(settings), http).unwrap())
    },
    scopes: &["openid", "email", "profile"],
    email_scope: None,
    client_auth: ClientAuthKind::Body,
    pkce: Pkce::Optional,
    sends_nonce: true,
    requires_nonce: true,
    enforce_pkce: checks_pkce,
    refusals: RFC_6749,
    user_info: None,
    never_in_messages: &["EwA", "AADSTS"],
};

pub const LINKEDIN: Subject = Subject {
    fixture: fixture::LINKEDIN,
    build: |settings, http, credentials| {
        Box::new(LinkedinProvider::new(credentials.apply(settings), http).unwrap())
    },
    scopes: &["openid", "email", "profile"],
    email_scope: Some("email"),
    client_auth: ClientAuthKind::Body,
    pkce: Pkce::Optional,
    sends_nonce: true,
    // LinkedIn never sends the nonce back.
    requires_nonce: false,
    // A web app on LinkedIn skips PKCE; a native app checks it.
    enforce_pkce: |sim| {
        sim.set_linkedin_knobs(LinkedinKnobs {
            pkce: LinkedinPkce::Enforce,
        })
    },
    refusals: Refusals {
        // LinkedIn answers a bad code with `invalid_request`, not `invalid_grant`.
        replayed_code: "token endpoint answered error `invalid_request`",
        wrong_verifier: "token endpoint answered error `invalid_request`",
        wrong_secret: "token endpoint answered error `invalid_client`",
    },
    user_info: Some("LinkedIn userinfo endpoint"),
    never_in_messages: &["AQV"],
};

pub const APPLE: Subject = Subject {
    fixture: fixture::APPLE,
    build: apple,
    scopes: &["name", "email"],
    email_scope: Some("email"),
    client_auth: ClientAuthKind::Body,
    pkce: Pkce::Optional,
    sends_nonce: true,
    requires_nonce: true,
    enforce_pkce: checks_pkce,
    refusals: RFC_6749,
    user_info: None,
    never_in_messages: &["MIG"],
};

/// Apple's client secret is a JWT the adapter signs: wrong credentials are a key of no team.
fn apple(
    settings: ProviderSettings,
    http: reqwest::Client,
    credentials: Credentials,
) -> Box<dyn Adapter> {
    let pem = match credentials {
        Credentials::Registered => APPLE_TEST_KEY_PEM,
        Credentials::Wrong => OTHER_P256_KEY_PEM,
    };
    let provider = AppleProvider::new(
        settings,
        APPLE_TEST_TEAM_ID.into(),
        APPLE_TEST_KEY_ID.into(),
        SecretText::new(pem),
        http,
    );
    Box::new(provider.unwrap())
}
