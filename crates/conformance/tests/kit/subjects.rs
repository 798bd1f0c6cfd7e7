//! One row per provider: its fixture, its adapter, and where it differs from the others.
//! Discord is the plain OAuth 2.0 row and Google the plain OpenID Connect one; the other
//! rows name only what they do differently.

use social_login_conformance::fixture::{self, OTHER_P256_KEY_PEM};
use social_login_conformance::kit::{Adapter, Credentials, Pkce, Refusals, Revokes, Subject};
use social_login_domain::{ProviderKey, SecretText};
use social_login_provider_apple::AppleProvider;
use social_login_provider_core::spec::built_in_spec;
use social_login_provider_core::{BuildContext, ProviderSettings};
use social_login_provider_oidc::{GoogleProvider, LinkedinProvider, MicrosoftProvider};
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID, ClientAuthKind, LinkedinKnobs,
    LinkedinPkce,
};

/// The refusals of providers that answer as RFC 6749 says.
const RFC_6749: Refusals = Refusals {
    replayed_code: "token endpoint answered error `invalid_grant`",
    wrong_verifier: "token endpoint answered error `invalid_grant`",
    wrong_secret: "token endpoint answered error `invalid_client`",
};

/// The Graph API's error envelope: `error` is an object, not an RFC 6749 code.
const GRAPH_ERROR: &str = "token endpoint answered error `non-string error member`";

pub const DISCORD: Subject = Subject {
    fixture: fixture::DISCORD,
    build: |settings, http, credentials| oauth2(ProviderKey::Discord, settings, http, credentials),
    scopes: &["identify", "email"],
    email_scope: Some("email"),
    client_auth: ClientAuthKind::Body,
    pkce: Pkce::Optional,
    sends_nonce: false,
    requires_nonce: false,
    // The simulated provider checks the verifier without being asked.
    enforce_pkce: |_| {},
    refusals: RFC_6749,
    user_info: Some("Discord userinfo endpoint"),
    never_in_messages: &[],
    revocation: Some(DISCORD_REVOKES),
};

/// The refresh token when there is one, with a `token_type_hint` (RFC 7009).
const DISCORD_REVOKES: Revokes = Revokes {
    label: "Discord revocation endpoint",
    refresh_first: true,
    hints: true,
};

pub const GITHUB: Subject = Subject {
    fixture: fixture::GITHUB,
    build: |settings, http, credentials| oauth2(ProviderKey::Github, settings, http, credentials),
    scopes: &["read:user", "user:email"],
    email_scope: Some("user:email"),
    refusals: Refusals {
        replayed_code: "token endpoint answered error `bad_verification_code`",
        wrong_verifier: "token endpoint answered error `bad_verification_code`",
        wrong_secret: "token endpoint answered error `incorrect_client_credentials`",
    },
    user_info: Some("GitHub userinfo endpoint"),
    never_in_messages: &["gho_"],
    // The grant goes with the access token that names it.
    revocation: Some(Revokes {
        label: "GitHub revocation endpoint",
        refresh_first: false,
        hints: false,
    }),
    ..DISCORD
};

pub const FACEBOOK: Subject = Subject {
    fixture: fixture::FACEBOOK,
    build: |settings, http, credentials| oauth2(ProviderKey::Facebook, settings, http, credentials),
    scopes: &["email", "public_profile"],
    refusals: Refusals {
        replayed_code: GRAPH_ERROR,
        wrong_verifier: GRAPH_ERROR,
        wrong_secret: GRAPH_ERROR,
    },
    user_info: Some("Facebook userinfo endpoint"),
    never_in_messages: &["EAA"],
    revocation: Some(Revokes {
        label: "Facebook revocation endpoint",
        refresh_first: false,
        hints: false,
    }),
    ..DISCORD
};

pub const TWITTER: Subject = Subject {
    fixture: fixture::TWITTER,
    build: |settings, http, credentials| oauth2(ProviderKey::Twitter, settings, http, credentials),
    // The email needs `users.email`, which is not a default.
    scopes: &["tweet.read", "users.read", "offline.access"],
    email_scope: None,
    client_auth: ClientAuthKind::Basic,
    pkce: Pkce::Required,
    refusals: Refusals {
        replayed_code: "token endpoint answered error `invalid_request`",
        wrong_verifier: "token endpoint answered error `invalid_request`",
        wrong_secret: "token endpoint answered error `unauthorized_client`",
    },
    user_info: Some("X userinfo endpoint"),
    revocation: Some(Revokes {
        label: "X revocation endpoint",
        ..DISCORD_REVOKES
    }),
    ..DISCORD
};

pub const GOOGLE: Subject = Subject {
    fixture: fixture::GOOGLE,
    build: |settings, http, credentials| {
        Box::new(GoogleProvider::new(credentials.apply(settings), http).unwrap())
    },
    scopes: &["openid", "email", "profile"],
    sends_nonce: true,
    requires_nonce: true,
    user_info: Some("Google userinfo endpoint"),
    never_in_messages: &["ya29."],
    // No hint: Google's endpoint takes either token without one.
    revocation: Some(Revokes {
        label: "Google revocation endpoint",
        refresh_first: true,
        hints: false,
    }),
    ..DISCORD
};

pub const MICROSOFT: Subject = Subject {
    fixture: fixture::MICROSOFT,
    build: |settings, http, credentials| {
        Box::new(MicrosoftProvider::new(credentials.apply(settings), http).unwrap())
    },
    // Without `email` the username still comes: a quirk of its own.
    email_scope: None,
    user_info: None,
    never_in_messages: &["EwA", "AADSTS"],
    // No revocation endpoint at Microsoft.
    revocation: None,
    ..GOOGLE
};

pub const LINKEDIN: Subject = Subject {
    fixture: fixture::LINKEDIN,
    build: |settings, http, credentials| {
        Box::new(LinkedinProvider::new(credentials.apply(settings), http).unwrap())
    },
    // LinkedIn never sends the nonce back.
    requires_nonce: false,
    // A web app on LinkedIn skips PKCE; a native app checks it.
    enforce_pkce: |sim| {
        sim.set_linkedin_knobs(LinkedinKnobs {
            pkce: LinkedinPkce::Enforce,
        })
    },
    // LinkedIn answers a bad code with `invalid_request`, not `invalid_grant`.
    refusals: Refusals {
        replayed_code: "token endpoint answered error `invalid_request`",
        wrong_verifier: "token endpoint answered error `invalid_request`",
        ..RFC_6749
    },
    user_info: Some("LinkedIn userinfo endpoint"),
    never_in_messages: &["AQV"],
    // Refresh tokens are for partners only: the access token goes.
    revocation: Some(Revokes {
        label: "LinkedIn revocation endpoint",
        refresh_first: false,
        hints: false,
    }),
    ..GOOGLE
};

pub const APPLE: Subject = Subject {
    fixture: fixture::APPLE,
    build: apple,
    scopes: &["name", "email"],
    user_info: None,
    never_in_messages: &["MIG"],
    revocation: Some(Revokes {
        label: "Apple revocation endpoint",
        ..DISCORD_REVOKES
    }),
    ..GOOGLE
};

/// An OAuth 2.0 provider built the way the server builds it.
fn oauth2(
    key: ProviderKey,
    settings: ProviderSettings,
    http: reqwest::Client,
    credentials: Credentials,
) -> Box<dyn Adapter> {
    let spec = built_in_spec(key).expect("a built-in key");
    let settings = credentials.apply(settings);
    let provider = social_login_provider_oauth2::build(spec, &settings, &BuildContext::new(http));
    Box::new(provider.unwrap())
}

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
