//! What a simulator starts with: the providers it imitates, registered clients, seeded users.

use crate::users::SimUser;
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::time::Duration;

/// A provider the simulator imitates; each is served under its own path prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    Github,
    Google,
    Facebook,
    Microsoft,
    Linkedin,
    Discord,
    Twitter,
    Apple,
    /// A provider that follows the OpenID Connect standards and nothing else, at `/oidc`.
    #[serde(rename = "oidc")]
    StandardOidc,
    /// A plain OAuth 2.0 provider with a user document of its own shape, at `/oauth2`.
    #[serde(rename = "oauth2")]
    StandardOauth2,
}

impl Provider {
    /// Every simulated provider: the eight built-in ones, then the two standard ones.
    #[rustfmt::skip] // A list, not a column of ten lines.
    pub const ALL: [Self; 10] = [
        Self::Google, Self::Github, Self::Facebook, Self::Microsoft, Self::Linkedin,
        Self::Discord, Self::Twitter, Self::Apple, Self::StandardOidc, Self::StandardOauth2,
    ];

    /// The path prefix of this provider's routes, without slashes.
    pub fn prefix(self) -> &'static str {
        match self {
            Self::Github => "github",
            Self::Google => "google",
            Self::Facebook => "facebook",
            Self::Microsoft => "microsoft",
            Self::Linkedin => "linkedin",
            Self::Discord => "discord",
            Self::Twitter => "twitter",
            Self::Apple => "apple",
            Self::StandardOidc => "oidc",
            Self::StandardOauth2 => "oauth2",
        }
    }
}

/// An OAuth app registered with a simulated provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisteredClient {
    pub provider: Provider,
    pub client_id: String,
    pub client_secret: String,
    /// The callback URLs; the first is used when a request names none.
    pub redirect_uris: Vec<String>,
}

impl RegisteredClient {
    pub fn new(
        provider: Provider,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
        redirect_uri: impl Into<String>,
    ) -> Self {
        Self {
            provider,
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            redirect_uris: vec![redirect_uri.into()],
        }
    }
}

/// Everything [`crate::Simulator::start`] needs.
#[derive(Debug, Clone)]
pub struct SimulatorConfig {
    /// Where to listen; loopback with an OS-chosen port by default.
    pub bind: SocketAddr,
    pub clients: Vec<RegisteredClient>,
    /// Users that `login_hint` / `sim_user` can name (by login or id); the first is the
    /// default identity. Logins are unique: a later user with the same login replaces it.
    pub users: Vec<SimUser>,
    /// How long an authorization code stays redeemable (GitHub: 10 minutes). Zero makes
    /// every code expired at once, which is how tests reach the expiry path without waiting.
    pub code_ttl: Duration,
    /// How long a code of the simulated X stays redeemable: 30 seconds, as at X
    /// (docs/providers.md#x-twitter); `code_ttl` does not apply to X.
    pub twitter_code_ttl: Duration,
    /// The `iss` of the simulated Google's id_tokens and discovery document; `None` means
    /// `<base url>/google`. Set `https://accounts.google.com` (or `accounts.google.com`) to
    /// test an adapter with its production issuer list.
    pub google_issuer: Option<String>,
    /// Show a sign-in page (pick or type an identity) on an authorize request that names
    /// no user, as a person in a browser needs; off for tests, which auto-approve.
    pub interactive: bool,
    /// Apple teams whose keys sign client secrets ([`crate::AppleTeam::test_fixture`]).
    pub apple_teams: Vec<crate::apple::AppleTeam>,
}

impl Default for SimulatorConfig {
    fn default() -> Self {
        Self {
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            clients: Vec::new(),
            users: Vec::new(),
            code_ttl: Duration::from_secs(600),
            twitter_code_ttl: Duration::from_secs(30),
            google_issuer: None,
            interactive: false,
            apple_teams: Vec::new(),
        }
    }
}

impl SimulatorConfig {
    pub fn with_client(mut self, client: RegisteredClient) -> Self {
        self.clients.push(client);
        self
    }

    pub fn with_user(mut self, user: SimUser) -> Self {
        self.users.push(user);
        self
    }

    pub fn with_code_ttl(mut self, ttl: Duration) -> Self {
        self.code_ttl = ttl;
        self
    }

    /// Sets how long the simulated X's codes live (30 seconds by default).
    pub fn with_twitter_code_ttl(mut self, ttl: Duration) -> Self {
        self.twitter_code_ttl = ttl;
        self
    }

    /// Turns the browser sign-in page on (the demo).
    pub fn interactive(mut self) -> Self {
        self.interactive = true;
        self
    }

    pub fn with_google_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.google_issuer = Some(issuer.into());
        self
    }

    /// Seeds an Apple team key the simulated Apple verifies client secrets with.
    pub fn with_apple_team(mut self, team: crate::apple::AppleTeam) -> Self {
        self.apple_teams.push(team);
        self
    }
}
