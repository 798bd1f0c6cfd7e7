//! What a simulator starts with: the providers it imitates, registered clients, seeded users.

use crate::users::SimUser;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::net::SocketAddr;
use std::time::Duration;

/// A provider the simulator imitates, by its dialect's name (`dialects.toml`); each is served
/// under its own path prefix, that name. The eight built-in providers and the two standard
/// ones have constants; the presets' are [`Provider::preset`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Provider(&'static str);

#[allow(non_upper_case_globals)] // Named as the enum it replaced, so matches read the same.
impl Provider {
    pub const Github: Self = Self("github");
    pub const Google: Self = Self("google");
    pub const Facebook: Self = Self("facebook");
    pub const Microsoft: Self = Self("microsoft");
    pub const Linkedin: Self = Self("linkedin");
    pub const Discord: Self = Self("discord");
    pub const Twitter: Self = Self("twitter");
    pub const Apple: Self = Self("apple");
    /// A provider that follows the OpenID Connect standards and nothing else, at `/oidc`.
    pub const StandardOidc: Self = Self("oidc");
    /// A plain OAuth 2.0 provider with a user document of its own shape, at `/oauth2`.
    pub const StandardOauth2: Self = Self("oauth2");
}

impl Provider {
    /// The eight built-in providers, then the two standard ones.
    #[rustfmt::skip] // A list, not a column of ten lines.
    pub const ALL: [Self; 10] = [
        Self::Google, Self::Github, Self::Facebook, Self::Microsoft, Self::Linkedin,
        Self::Discord, Self::Twitter, Self::Apple, Self::StandardOidc, Self::StandardOauth2,
    ];

    /// The simulated provider of dialect `name`, if there is one.
    pub fn named(name: &str) -> Option<Self> {
        crate::dialect::name_of(name).map(Self)
    }

    /// The simulated provider of dialect `name`, as a constant (a test fixture's): a name
    /// with no dialect fails where the provider is first served.
    pub const fn simulated(name: &'static str) -> Self {
        Self(name)
    }

    /// The simulated preset of that key (`gitlab`), if the simulator imitates it.
    pub fn preset(name: &str) -> Option<Self> {
        Self::named(name).filter(|provider| !Self::ALL.contains(provider))
    }

    /// Every provider the simulator imitates: [`Self::ALL`], then the presets.
    pub fn every() -> impl Iterator<Item = Self> {
        Self::ALL.into_iter().chain(
            crate::dialect::names()
                .map(Self)
                .filter(|provider| !Self::ALL.contains(provider)),
        )
    }

    /// How it answers.
    pub(crate) fn dialect(self) -> &'static crate::dialect::Dialect {
        crate::dialect::of(self.0)
    }

    /// The path prefix of this provider's routes, without slashes: its dialect's name.
    pub fn prefix(self) -> &'static str {
        self.0
    }
}

impl fmt::Debug for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl Serialize for Provider {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for Provider {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Self::named(&name).ok_or_else(|| de::Error::custom("no such simulated provider"))
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
    pub apple_teams: Vec<crate::apple::team::AppleTeam>,
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
    pub fn with_apple_team(mut self, team: crate::apple::team::AppleTeam) -> Self {
        self.apple_teams.push(team);
        self
    }
}
