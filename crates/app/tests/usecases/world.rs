//! The test world: an `AuthService` wired to fakes, and short ways to drive its flows.

use social_login_app::{
    AppError, AppResult, AuthPolicy, AuthService, IdTokenCommand, LoginResult, Ports,
    ProviderRegistry, Registration, SignalVerifiers,
};
use social_login_domain::{
    LinkedAccount, OAuthState, Origin, ProviderIdentity, ProviderKey, ProviderTokens, SecretText,
    UserId,
};
use social_login_ports::{
    AccessIssue, PostBody, ProviderError, ProviderLogin, SessionTokens, VerifiedAccess,
};
use social_login_testing::{
    FakeClock, FakeHasher, FakeProvider, FakeSessions, FakeStateSealer, FakeStateStore,
    InMemoryRepository, ReversingCipher, SeededRandomness, state_in,
};
use std::sync::Arc;
use time::OffsetDateTime;

/// The password of the users `World::signed_up` and `World::user` register.
pub const PASSWORD: &str = "correct horse";

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
            grants: users.clone(),
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

    /// A world in which `email` has registered with [`PASSWORD`]: the opening of most
    /// connect and disconnect tests.
    pub async fn with_user(email: &str) -> (Self, UserId) {
        let world = Self::new();
        let user = world.user(email).await;
        (world, user)
    }

    /// A world in which `login` has signed in through the whole flow, which must succeed.
    pub async fn signed_in(login: ProviderLogin) -> (Self, LoginResult) {
        let world = Self::new();
        let result = world.login_with(login).await;
        (world, result)
    }

    /// A world in which `email` has registered with [`PASSWORD`]: returns both, the
    /// registration's login result with its session.
    pub async fn signed_up(email: &str) -> (Self, LoginResult) {
        let world = Self::new();
        let login = world.register(email, PASSWORD).await;
        (world, login)
    }

    /// The fake ports, for a test that swaps one of them for a mock.
    pub fn ports(&self) -> Ports {
        self.ports.clone()
    }

    /// A service on `ports` with this world's policy.
    pub fn service_with(&self, ports: Ports) -> AuthService {
        AuthService::new(ports, self.service.policy())
    }

    /// A service on this world's ports after `swap`, which puts a mock in place of one: the
    /// test says only which port it replaces.
    pub fn service_swapping(&self, swap: impl FnOnce(&mut Ports)) -> AuthService {
        let mut ports = self.ports();
        swap(&mut ports);
        self.service_with(ports)
    }

    /// A service on this world's ports with `states` (a mock, mostly) as its state store.
    pub fn service_on_states(
        &self,
        states: impl social_login_ports::StateStore + 'static,
    ) -> AuthService {
        self.service_swapping(|ports| ports.states = Arc::new(states))
    }

    pub fn provider(&self, key: ProviderKey) -> &FakeProvider {
        match key {
            ProviderKey::GITHUB => &self.github,
            ProviderKey::GOOGLE => &self.google,
            other => panic!("{other} is not enabled in the test world"),
        }
    }

    /// A valid access token of `user`, as the login result of a login now would carry it
    /// (its session live in the store).
    pub async fn bearer_for(&self, user: UserId) -> String {
        use social_login_ports::Clock;
        let access = self.fresh_login(user).await;
        let issue = AccessIssue {
            user,
            session: access.session.expect("a fresh login's session"),
            auth_time: self.clock.now(),
        };
        let token = FakeSessions.issue_access(issue, self.clock.now()).unwrap();
        token.value.expose().to_owned()
    }

    /// A bearer of `user` from a login just now, in a session the store holds live: one of
    /// the user's own when it has one, else one started for it (a user the store does not
    /// hold gets none).
    pub async fn fresh_login(&self, user: UserId) -> VerifiedAccess {
        use social_login_domain::{FamilyId, LoginMethod};
        use social_login_ports::{Clock, RefreshTokenRepository, SessionOpening, SessionStart};
        use social_login_testing::contract::repository::fixtures::random_hash;
        let now = self.clock.now();
        let live = self.refresh_tokens.list_sessions(user, now).await.unwrap();
        let session = match live.first() {
            Some(listed) => listed.id,
            None => {
                let session = SessionStart {
                    hash: random_hash(),
                    family: FamilyId::new(),
                    token_expires_at: now + time::Duration::days(1),
                    family_expires_at: now + time::Duration::days(30),
                    auth_time: now,
                    began_with: LoginMethod::Password,
                };
                let family = session.family;
                let audit =
                    social_login_testing::audit_at(now, social_login_domain::EventSet::NONE);
                let opening = SessionOpening {
                    user,
                    session,
                    now,
                    audit,
                };
                let _ = self.refresh_tokens.start_family(opening).await;
                family
            }
        };
        VerifiedAccess {
            user,
            issued_at: now,
            auth_time: Some(now),
            session: Some(session),
        }
    }

    /// What the state value says, as this world's sealer sealed it.
    pub fn sealed(&self, state: &str) -> OAuthState {
        self.sealer.peek(state).expect("a value this world sealed")
    }

    /// Whether the state value has been spent by a callback or connect.
    pub fn is_spent(&self, state: &str) -> bool {
        self.states.is_spent(self.sealed(state).id)
    }

    /// Runs authorize without a bearer and returns the state from the URL.
    pub async fn login_state(&self, provider: &str) -> String {
        state_in(&self.service.authorize_raw(provider, None).await.unwrap())
    }

    /// Runs authorize as `user` and returns the state from the URL.
    pub async fn connect_state(&self, provider: &str, user: UserId) -> String {
        let bearer = self.bearer_for(user).await;
        state_in(
            &self
                .service
                .authorize_raw(provider, Some(&bearer))
                .await
                .unwrap(),
        )
    }

    /// The provider of `login` will answer with it; authorize without a bearer has run.
    /// Returns the state from the URL.
    pub async fn started_login(&self, login: ProviderLogin) -> String {
        let key = login.identity.provider;
        self.answers(login);
        self.login_state(key.as_str()).await
    }

    /// The provider of `login` will answer with it; authorize as `user` has run. Returns the
    /// state from the URL.
    pub async fn started_connect(&self, user: UserId, login: ProviderLogin) -> String {
        let key = login.identity.provider;
        self.answers(login);
        self.connect_state(key.as_str(), user).await
    }

    /// The whole login flow: authorize, the provider answers `login`, callback.
    pub async fn sign_in(&self, login: ProviderLogin) -> AppResult<LoginResult> {
        let key = login.identity.provider;
        let state = self.started_login(login).await;
        self.callback(key.as_str(), &state).await
    }

    /// The whole login flow of [`ada_on_github`], its callback run by `service` (one whose
    /// ports a test swapped) on a state this world issued.
    pub async fn github_login_on(&self, service: &AuthService) -> AppResult<LoginResult> {
        let state = self.started_login(ada_on_github()).await;
        service.callback_raw("github", CODE, &state, None).await
    }

    /// The whole connect flow for `user`.
    pub async fn connect_as(&self, user: UserId, login: ProviderLogin) -> AppResult<LinkedAccount> {
        let key = login.identity.provider;
        let state = self.started_connect(user, login).await;
        self.connect(user, key.as_str(), &state).await
    }

    /// The provider of `login` answers the next code exchange with it.
    pub fn answers(&self, login: ProviderLogin) {
        self.provider(login.identity.provider).answer(Ok(login));
    }

    /// The provider's return to the callback with the fake code and no form body.
    pub async fn callback(&self, provider: &str, state: &str) -> AppResult<LoginResult> {
        self.service.callback_raw(provider, CODE, state, None).await
    }

    /// The provider's return to connect for `user`, whose bearer is fresh.
    pub async fn connect(
        &self,
        user: UserId,
        provider: &str,
        state: &str,
    ) -> AppResult<LinkedAccount> {
        self.service
            .connect_raw(self.fresh_login(user).await, provider, CODE, state)
            .await
    }

    /// POST /auth/refresh with `refresh_token`.
    pub async fn refresh(&self, refresh_token: &str) -> AppResult<LoginResult> {
        self.service
            .refresh(refresh_token, &Origin::default())
            .await
    }

    /// POST /auth/refresh with the refresh token `login` handed out.
    pub async fn refresh_with(&self, login: &LoginResult) -> AppResult<LoginResult> {
        self.refresh(login.refresh_token.expose()).await
    }

    /// POST /auth/refresh with the refresh token `login` handed out, which must succeed.
    pub async fn refreshed(&self, login: &LoginResult) -> LoginResult {
        self.refresh_with(login)
            .await
            .expect("the refresh succeeds")
    }

    /// POST /auth/login, which must succeed.
    pub async fn password_signed_in(&self, email: &str, password: &str) -> LoginResult {
        let login = self.password_login(email, password).await;
        login.expect("the password login succeeds")
    }

    /// Checks that a refresh with `login`'s refresh token is refused as invalid credentials.
    pub async fn assert_refresh_refused(&self, login: &LoginResult) {
        let refused = self.refresh_with(login).await.map(|_| ());
        let user = login.user.id;
        assert_eq!(
            refused,
            Err(AppError::InvalidCredentials),
            "refresh of {user}"
        );
    }

    /// Checks that no user, no link and no session was ever stored: `what` failed cleanly.
    pub fn assert_nothing_stored(&self, what: &str) {
        assert_eq!(self.users.user_count(), 0, "{what}: no user");
        assert_eq!(self.users.link_count(), 0, "{what}: no link");
        assert_eq!(self.refresh_tokens.stored_count(), 0, "{what}: no session");
    }

    /// `user`'s connect at `provider` with `state`, which must fail and add no link: its error.
    pub async fn connect_refusal(&self, user: UserId, provider: &str, state: &str) -> AppError {
        let links = self.users.link_count();
        let refused = self.connect(user, provider, state).await.unwrap_err();
        assert_eq!(self.users.link_count(), links, "{refused:?} added a link");
        refused
    }

    /// The whole connect flow of `login` for `user`, which must fail and add no link: its
    /// error.
    pub async fn connect_as_refusal(&self, user: UserId, login: ProviderLogin) -> AppError {
        let links = self.users.link_count();
        let refused = self.connect_as(user, login).await.unwrap_err();
        assert_eq!(self.users.link_count(), links, "{refused:?} added a link");
        refused
    }

    /// `caller`'s disconnect of `provider`, which must fail and keep every link: its error.
    pub async fn disconnect_refusal(&self, caller: UserId, provider: &str) -> AppError {
        let links = self.users.link_count();
        let refused = self
            .service
            .disconnect_raw(caller, provider)
            .await
            .unwrap_err();
        assert_eq!(self.users.link_count(), links, "{refused:?} removed a link");
        refused
    }

    /// Checks that no provider token of `subject` at `provider` is stored (any more).
    pub fn assert_no_tokens(&self, provider: ProviderKey, subject: &str) {
        let stored = self.users.stored_tokens(provider, subject);
        assert!(stored.is_none(), "tokens of {provider} {subject}");
    }

    /// POST /auth/logout with `refresh_token`.
    pub async fn logout(&self, refresh_token: &str) -> AppResult<()> {
        self.service.logout(refresh_token, &Origin::default()).await
    }

    /// POST /auth/login.
    pub async fn password_login(&self, email: &str, password: &str) -> AppResult<LoginResult> {
        self.service.password_login_raw(email, password).await
    }

    /// POST /auth/register with `registration`.
    pub async fn register_with(&self, registration: Registration) -> AppResult<LoginResult> {
        self.service
            .register(registration, &Origin::default())
            .await
    }

    /// What the access token of `login` says, now.
    pub fn access_of(&self, login: &LoginResult) -> VerifiedAccess {
        use social_login_ports::Clock;
        FakeSessions
            .verify_access(login.access_token.value.expose(), self.clock.now())
            .expect("a valid access token")
    }

    /// A native sign-in's command for `provider` with `id_token`, the nonce `raw-nonce` and
    /// no form body.
    pub fn id_token_command(&self, provider: &str, id_token: &str) -> IdTokenCommand {
        let provider = self.service.enabled_provider(provider).unwrap();
        self.service
            .id_token_command(provider, id_token, Some("raw-nonce"), None)
            .unwrap()
    }

    /// The whole login flow, which must succeed.
    pub async fn login_with(&self, login: ProviderLogin) -> LoginResult {
        self.sign_in(login).await.expect("the login succeeds")
    }

    /// The whole connect flow for `user`, which must succeed.
    pub async fn link(&self, user: UserId, login: ProviderLogin) -> LinkedAccount {
        self.connect_as(user, login)
            .await
            .expect("the connect succeeds")
    }

    /// GitHub answers the next code exchange with `error`.
    pub fn github_refuses(&self, error: ProviderError) {
        self.github.answer(Err(error));
    }

    /// DELETE /users/me by `caller`.
    pub async fn delete_account(&self, caller: VerifiedAccess) -> AppResult<()> {
        self.service
            .delete_account(caller, &Origin::default())
            .await
    }

    /// DELETE /auth/oauth/{provider} by `user`.
    pub async fn disconnect(&self, user: UserId, provider: ProviderKey) -> AppResult<()> {
        let provider = self.service.provider_of(provider)?;
        self.service
            .disconnect(user, provider, &Origin::default())
            .await
    }

    /// POST /auth/oauth/{provider}/id-token with a parsed `command`.
    pub async fn id_token_sign_in(&self, command: IdTokenCommand) -> AppResult<LoginResult> {
        self.service
            .id_token_sign_in(command, &Origin::default())
            .await
    }

    /// POST /auth/oauth/{provider}/id-token/connect by `caller`.
    pub async fn id_token_connect(
        &self,
        caller: VerifiedAccess,
        command: IdTokenCommand,
    ) -> AppResult<LinkedAccount> {
        self.service
            .id_token_connect(caller, command, &Origin::default())
            .await
            .map(|connected| connected.link)
    }

    /// The (access, refresh) provider tokens stored with a link, opened with the cipher.
    pub fn opened_tokens(&self, provider: ProviderKey, subject: &str) -> (String, Option<String>) {
        use social_login_ports::TokenCipher;
        let (access, refresh) = self
            .users
            .stored_tokens(provider, subject)
            .expect("a stored link");
        let open = |sealed| self.cipher.open(sealed).unwrap().expose().to_owned();
        (open(&access), refresh.as_ref().map(open))
    }

    /// Registers `email` with [`PASSWORD`]; returns the new user's id.
    pub async fn user(&self, email: &str) -> UserId {
        self.register(email, PASSWORD).await.user.id
    }

    /// Registers a password user; panics if registration fails.
    pub async fn register(&self, email: &str, password: &str) -> LoginResult {
        self.register_with(registration(email, password))
            .await
            .unwrap()
    }
}

/// A registration of `email` with `password` and no name.
pub fn registration(email: &str, password: &str) -> Registration {
    Registration {
        email: email.into(),
        password: SecretText::new(password),
        full_name: None,
    }
}

/// What a provider asserts about an account.
pub use social_login_domain::test_fixtures::identity;

/// A completed provider sign-in with tokens named after the subject:
/// `<subject>-access` and `<subject>-refresh`.
pub fn provider_login(identity: ProviderIdentity) -> ProviderLogin {
    let subject = identity.subject.as_str().to_owned();
    ProviderLogin {
        identity,
        tokens: ProviderTokens {
            scopes: social_login_domain::Scopes::default(),
            expires_in: None,
            access_token: SecretText::new(format!("{subject}-access")),
            refresh_token: Some(SecretText::new(format!("{subject}-refresh"))),
        },
    }
}

/// `provider_login(identity(..))` in one call: a completed sign-in at `provider`.
pub fn login_at(
    provider: ProviderKey,
    subject: &str,
    email: Option<&str>,
    verified: bool,
) -> ProviderLogin {
    provider_login(identity(provider, subject, email, verified))
}

/// A login of a GitHub account with a verified email.
pub fn github_login(subject: &str, email: &str) -> ProviderLogin {
    provider_login(identity(ProviderKey::GITHUB, subject, Some(email), true))
}

/// The account most tests sign in with: Ada's GitHub account `gh-1`, email verified.
pub fn ada_on_github() -> ProviderLogin {
    github_login("gh-1", "ada@example.com")
}

/// The use cases fed raw text, parsed as the HTTP layer parses it (`enabled_provider`,
/// `provider_return`: 404 before 422 before 400), so a test reads like the request it plays.
pub trait RawInput {
    /// The service the raw input goes to.
    fn service(&self) -> &AuthService;

    async fn authorize_raw(&self, provider: &str, bearer: Option<&str>) -> AppResult<String> {
        let service = self.service();
        service
            .authorize(
                service.enabled_provider(provider)?,
                bearer,
                Default::default(),
            )
            .await
    }

    async fn callback_raw(
        &self,
        provider: &str,
        code: &str,
        state: &str,
        post_body: Option<PostBody>,
    ) -> AppResult<LoginResult> {
        let service = self.service();
        let provider = service.enabled_provider(provider)?;
        let provider_return = service.provider_return(provider, code, state, post_body)?;
        service.callback(provider_return, &Origin::default()).await
    }

    /// Connect as the HTTP layer parses it, without a form body (no test posts one to
    /// connect).
    async fn connect_raw(
        &self,
        caller: VerifiedAccess,
        provider: &str,
        code: &str,
        state: &str,
    ) -> AppResult<LinkedAccount> {
        let service = self.service();
        let provider = service.enabled_provider(provider)?;
        let provider_return = service.provider_return(provider, code, state, None)?;
        service
            .connect(caller, provider_return, &Origin::default())
            .await
            .map(|connected| connected.link)
    }

    async fn disconnect_raw(&self, caller: UserId, provider: &str) -> AppResult<()> {
        let service = self.service();
        let provider = service.enabled_provider(provider)?;
        service
            .disconnect(caller, provider, &Origin::default())
            .await
    }

    async fn password_login_raw(&self, email: &str, password: &str) -> AppResult<LoginResult> {
        self.service()
            .password_login(email, SecretText::new(password), &Origin::default())
            .await
            .outcome
    }
}

impl RawInput for AuthService {
    fn service(&self) -> &AuthService {
        self
    }
}
