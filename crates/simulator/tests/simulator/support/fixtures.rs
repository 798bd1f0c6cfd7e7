//! One registered client per simulated provider, how it authenticates at the token
//! endpoint and what a usual sign-in asks for; and the person every test signs in as.

use super::SimClient;
use social_login_simulator::{
    AppleTeam, Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::sync::Arc;

/// How a client presents its credentials at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    /// `client_id` and `client_secret` in the form.
    Body,
    /// HTTP Basic (X's confidential clients).
    Basic,
    /// An ES256 JWT of the fixture team as `client_secret` in the form (Apple).
    SignedSecret,
}

#[derive(Debug, Clone, Copy)]
pub struct Fixture {
    pub provider: Provider,
    pub id: &'static str,
    /// Empty for Apple, whose secret is a JWT the client signs.
    pub secret: &'static str,
    pub callback: &'static str,
    /// What a usual sign-in asks for.
    pub scope: &'static str,
    pub auth: Auth,
}

impl std::fmt::Display for Fixture {
    /// The provider's name, for assertion messages.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.provider.prefix())
    }
}

impl Fixture {
    pub fn client<'s>(&self, sim: &'s SimulatorHandle) -> SimClient<'s> {
        SimClient::new(sim, *self)
    }

    /// A simulator serving this client alone (Ada the default identity), owned by the
    /// client: for a test that asks nothing else of the simulator.
    pub async fn started(&self) -> SimClient<'static> {
        SimClient::owning(start(&[*self]).await, *self)
    }

    pub fn registered(&self) -> RegisteredClient {
        RegisteredClient::new(self.provider, self.id, self.secret, self.callback)
    }
}

/// Where every fixture client is sent back to (each is registered with its own provider).
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback";
const X_SCOPE: &str = "tweet.read users.read users.email offline.access";

const fn fixture(provider: Provider, id: &'static str, scope: &'static str) -> Fixture {
    Fixture {
        provider,
        id,
        secret: "sim-client-secret",
        callback: CALLBACK,
        scope,
        auth: Auth::Body,
    }
}

pub const GOOGLE: Fixture = fixture(Provider::Google, "google-app", "openid email profile");
pub const GITHUB: Fixture = fixture(Provider::Github, "github-app", "read:user user:email");
pub const FACEBOOK: Fixture = fixture(Provider::Facebook, "1234567890", "email,public_profile");
pub const MICROSOFT: Fixture = fixture(Provider::Microsoft, "ms-app", "openid profile email");
pub const LINKEDIN: Fixture = fixture(Provider::Linkedin, "linkedin-app", "openid profile email");
pub const DISCORD: Fixture = fixture(Provider::Discord, "1234567890123", "identify email");
pub const TWITTER: Fixture = with_basic(fixture(Provider::Twitter, "x-app", X_SCOPE));
pub const APPLE: Fixture = with_jwt(fixture(Provider::Apple, "com.example.web", "name email"));
pub const OIDC: Fixture = fixture(Provider::StandardOidc, "acme-app", "openid email profile");
pub const OAUTH2: Fixture = fixture(Provider::StandardOauth2, "corp-app", "profile email");

/// A confidential client of X: HTTP Basic.
const fn with_basic(fixture: Fixture) -> Fixture {
    Fixture {
        auth: Auth::Basic,
        ..fixture
    }
}

/// A Services ID at Apple: no static secret, a JWT the client signs.
const fn with_jwt(fixture: Fixture) -> Fixture {
    Fixture {
        secret: "",
        auth: Auth::SignedSecret,
        ..fixture
    }
}

/// Every fixture, the built-in providers first.
pub const ALL: [Fixture; 10] = [
    GOOGLE, GITHUB, FACEBOOK, MICROSOFT, LINKEDIN, DISCORD, TWITTER, APPLE, OIDC, OAUTH2,
];

/// Ada: a numeric id (GitHub's kind), a name and a verified email.
pub fn ada() -> SimUser {
    SimUser::new("583231", "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
}

/// The clients of `fixtures`, the fixture Apple team, and Ada as the default identity.
pub fn config(fixtures: &[Fixture]) -> SimulatorConfig {
    config_for(fixtures, ada())
}

/// The clients of `fixtures`, the fixture Apple team, and `user` as the default identity.
pub fn config_for(fixtures: &[Fixture], user: SimUser) -> SimulatorConfig {
    let config = SimulatorConfig::default()
        .with_apple_team(AppleTeam::test_fixture())
        .with_user(user);
    fixtures
        .iter()
        .fold(config, |config, f| config.with_client(f.registered()))
}

/// One simulator serving every fixture ([`ALL`]) and a client of each, the clients owning
/// the simulator together: for a test that plays one scenario at every provider and asks
/// nothing else of the simulator.
pub async fn every_client() -> Vec<(Fixture, SimClient<'static>)> {
    let sim = Arc::new(start(&ALL).await);
    let client = |fixture: Fixture| (fixture, SimClient::sharing(sim.clone(), fixture));
    ALL.into_iter().map(client).collect()
}

pub async fn start(fixtures: &[Fixture]) -> SimulatorHandle {
    start_with(config(fixtures)).await
}

pub async fn start_with(config: SimulatorConfig) -> SimulatorHandle {
    Simulator::start(config).await.expect("simulator starts")
}
