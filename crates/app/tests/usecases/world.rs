//! The test world: an `AuthService` wired to fakes, and short ways to drive its flows.

use social_login_app::{
    AppError, AuthPolicy, AuthService, LoginResult, Ports, ProviderRegistry, Registration,
    SignalVerifiers,
};
use social_login_domain::{
    Email, LinkedAccount, ProviderIdentity, ProviderKey, ProviderSubject, ProviderTokens,
    SecretText, UserId,
};
use social_login_ports::{PostBody, ProviderLogin, SessionTokens, VerifiedAccess};
use social_login_testing::{
    FakeClock, FakeHasher, FakeProvider, FakeSessions, FakeStateSealer, FakeStateStore,
    InMemoryRepository, ReversingCipher, SeededRandomness, state_in,
};
use std::sync::Arc;
use time::OffsetDateTime;

/// A code the fake providers accept (they never look at it).
pub const CODE: &str = "authorization-code-from-the-provider";

/// github and google are enabled; every other key is absent from the registry.
pub struct World {
    pub service: AuthService,
    ports: Ports,
    /// Users, links and sessions: one store, as one database holds them.
    pub users: Arc<InMemoryRepository>,
    /// The same store as `users`, named for what a test looks at.
    pub refresh_tokens: Arc<InMemoryRepository>,
    pub sealer: Arc<FakeStateSealer>,
    pub states: Arc<FakeStateStore>,
    pub clock: Arc<FakeClock>,
    pub cipher: Arc<ReversingCipher>,
    pub github: Arc<FakeProvider>,
    pub google: Arc<FakeProvider>,
}

impl World {
    pub fn new() -> Self {
        Self::with_policy(AuthPolicy::default())
    }

    pub fn auto_linking() -> Self {
        Self::with_policy(AuthPolicy {
            auto_link_by_email: true,
            ..AuthPolicy::default()
        })
    }

    pub fn with_policy(policy: AuthPolicy) -> Self {
        let start = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
        let github = Arc::new(FakeProvider::new(ProviderKey::GITHUB));
        let google = Arc::new(FakeProvider::new(ProviderKey::GOOGLE));
        let users = Arc::new(InMemoryRepository::default());
        let refresh_tokens = users.clone();
        let sealer = Arc::new(FakeStateSealer::default());
        let clock = Arc::new(FakeClock::at(start));
        let states = Arc::new(FakeStateStore::with_clock(clock.clone()));
        let cipher = Arc::new(ReversingCipher);
        let ports = Ports {
            users: users.clone(),
            refresh_tokens: refresh_tokens.clone(),
            signals: users.clone(),
            signal_verifiers: SignalVerifiers::new(),
            state_sealer: sealer.clone(),
            states: states.clone(),
            providers: ProviderRegistry::new()
                .with(github.clone())
                .with(google.clone()),
            cipher: cipher.clone(),
            hasher: Arc::new(FakeHasher),
            sessions: Arc::new(FakeSessions),
            clock: clock.clone(),
            random: Arc::new(SeededRandomness::default()),
        };
        Self {
            service: AuthService::new(ports.clone(), policy),
            ports,
            users,
            refresh_tokens,
            sealer,
            states,
            clock,
            cipher,
            github,
            google,
        }
    }

    /// The fake ports, for a test that swaps one of them for a mock.
    pub fn ports(&self) -> Ports {
        self.ports.clone()
    }

    /// A service on `ports` with this world's policy.
    pub fn service_with(&self, ports: Ports) -> AuthService {
        AuthService::new(ports, self.service.policy())
    }

    pub fn provider(&self, key: ProviderKey) -> &FakeProvider {
        match key {
            ProviderKey::GITHUB => &self.github,
            ProviderKey::GOOGLE => &self.google,
            other => panic!("{other} is not enabled in the test world"),
        }
    }

    /// A valid access token of `user`, as the login result of a login now would carry it.
    pub fn bearer_for(&self, user: UserId) -> String {
        use social_login_ports::Clock;
        let now = self.clock.now();
        let token = FakeSessions.issue_access(user, now, now).unwrap();
        token.value.expose().to_owned()
    }

    /// What the bearer token of a session of `user` whose login happened just now says.
    pub fn fresh_login(&self, user: UserId) -> VerifiedAccess {
        use social_login_ports::Clock;
        let now = self.clock.now();
        VerifiedAccess {
            user,
            issued_at: now,
            auth_time: Some(now),
        }
    }

    /// Whether the state value has been spent by a callback or connect.
    pub fn is_spent(&self, state: &str) -> bool {
        let sealed = self.sealer.peek(state).expect("a value this world sealed");
        self.states.is_spent(sealed.id)
    }

    /// Runs authorize without a bearer and returns the state from the URL.
    pub async fn login_state(&self, provider: &str) -> String {
        state_in(&self.service.authorize_raw(provider, None).await.unwrap())
    }

    /// Runs authorize as `user` and returns the state from the URL.
    pub async fn connect_state(&self, provider: &str, user: UserId) -> String {
        let bearer = self.bearer_for(user);
        state_in(
            &self
                .service
                .authorize_raw(provider, Some(&bearer))
                .await
                .unwrap(),
        )
    }

    /// The whole login flow: authorize, the provider answers `login`, callback.
    pub async fn sign_in(&self, login: ProviderLogin) -> Result<LoginResult, AppError> {
        let key = login.identity.provider;
        self.provider(key).answer(Ok(login));
        let state = self.login_state(key.as_str()).await;
        self.service
            .callback_raw(key.as_str(), CODE, &state, None)
            .await
    }

    /// The whole connect flow for `user`.
    pub async fn connect_as(
        &self,
        user: UserId,
        login: ProviderLogin,
    ) -> Result<LinkedAccount, AppError> {
        let key = login.identity.provider;
        self.provider(key).answer(Ok(login));
        let state = self.connect_state(key.as_str(), user).await;
        self.service
            .connect_raw(self.fresh_login(user), key.as_str(), CODE, &state, None)
            .await
    }

    /// Registers a password user; panics if registration fails.
    pub async fn register(&self, email: &str, password: &str) -> LoginResult {
        self.service
            .register(
                Registration {
                    email: email.into(),
                    password: SecretText::new(password),
                    full_name: None,
                },
                &social_login_domain::Origin::default(),
            )
            .await
            .unwrap()
    }
}

/// What a provider asserts about an account.
pub fn identity(
    provider: ProviderKey,
    subject: &str,
    email: Option<&str>,
    verified: bool,
) -> ProviderIdentity {
    ProviderIdentity {
        provider,
        subject: ProviderSubject::parse(subject).unwrap(),
        email: email.map(|email| Email::parse(email).unwrap()),
        email_verified: verified,
        full_name: Some("Ada Lovelace".into()),
        avatar_url: Some("https://avatars.test/ada.png".into()),
        hosted_domain: None,
    }
}

/// A completed provider sign-in with tokens named after the subject:
/// `<subject>-access` and `<subject>-refresh`.
pub fn provider_login(identity: ProviderIdentity) -> ProviderLogin {
    let subject = identity.subject.as_str().to_owned();
    ProviderLogin {
        identity,
        tokens: ProviderTokens {
            access_token: SecretText::new(format!("{subject}-access")),
            refresh_token: Some(SecretText::new(format!("{subject}-refresh"))),
        },
    }
}

/// A login of a GitHub account with a verified email.
pub fn github_login(subject: &str, email: &str) -> ProviderLogin {
    provider_login(identity(ProviderKey::GITHUB, subject, Some(email), true))
}

/// The use cases fed raw text, parsed as the HTTP layer parses it (`enabled_provider`,
/// `provider_return`: 404 before 422 before 400), so a test reads like the request it plays.
pub trait RawInput {
    async fn authorize_raw(&self, provider: &str, bearer: Option<&str>)
    -> Result<String, AppError>;
    async fn callback_raw(
        &self,
        provider: &str,
        code: &str,
        state: &str,
        post_body: Option<PostBody>,
    ) -> Result<LoginResult, AppError>;
    async fn connect_raw(
        &self,
        caller: VerifiedAccess,
        provider: &str,
        code: &str,
        state: &str,
        post_body: Option<PostBody>,
    ) -> Result<LinkedAccount, AppError>;
    async fn disconnect_raw(&self, caller: UserId, provider: &str) -> Result<(), AppError>;
}

impl RawInput for AuthService {
    async fn authorize_raw(
        &self,
        provider: &str,
        bearer: Option<&str>,
    ) -> Result<String, AppError> {
        self.authorize(self.enabled_provider(provider)?, bearer)
            .await
    }

    async fn callback_raw(
        &self,
        provider: &str,
        code: &str,
        state: &str,
        post_body: Option<PostBody>,
    ) -> Result<LoginResult, AppError> {
        self.callback(
            self.provider_return(provider, code, state, post_body)?,
            &social_login_domain::Origin::default(),
        )
        .await
    }

    async fn connect_raw(
        &self,
        caller: VerifiedAccess,
        provider: &str,
        code: &str,
        state: &str,
        post_body: Option<PostBody>,
    ) -> Result<LinkedAccount, AppError> {
        self.connect(
            caller,
            self.provider_return(provider, code, state, post_body)?,
            &social_login_domain::Origin::default(),
        )
        .await
    }

    async fn disconnect_raw(&self, caller: UserId, provider: &str) -> Result<(), AppError> {
        self.disconnect(
            caller,
            self.enabled_provider(provider)?,
            &social_login_domain::Origin::default(),
        )
        .await
    }
}
