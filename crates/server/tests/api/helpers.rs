//! `spawn_app()`: starts exactly what production starts, against a fresh database and a
//! fresh simulator, and the small HTTP helpers the tests share.
//!
//! Two test binaries compile this file: `api` (SQLite) and `api_postgres` (PostgreSQL). Each
//! names its storage in `main.rs` (`STORAGE`); [`prepare_storage`] is the one place that
//! knows how to set each up.

#[path = "../common/approval.rs"]
mod approval;

pub use approval::{Approval, authorization_url, user_id};
use reqwest::StatusCode;
use sea_orm::{ConnectionTrait, Database, DbBackend, Statement};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use social_login::server::{RunningServer, start};
use social_login::settings::Settings;
use social_login::simulated::{SimulatedClient, enable_all, enable_standard, register_clients};
use social_login_app::DeliveryPace;
use social_login_domain::ProviderKey;
use social_login_simulator::{
    Provider, RegisteredClient, Revocation, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use social_login_test_support::{FaultProxy, PostgresDatabase, postgres_admin_url, redis_url};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use tempfile::TempDir;

pub const CLIENT_ID: &str = "e2e-client";
pub const CLIENT_SECRET: &str = "e2e-client-secret-value";
/// Where every simulated provider sends the browser back (nothing listens: tests read the
/// redirect instead of following it).
pub const REDIRECT_BASE: &str = "http://127.0.0.1:9/auth/callback/";

pub fn redirect_uri(provider: impl std::fmt::Display) -> String {
    format!("{REDIRECT_BASE}{provider}")
}

fn client(key: ProviderKey) -> SimulatedClient {
    SimulatedClient {
        client_id: CLIENT_ID.into(),
        client_secret: CLIENT_SECRET.into(),
        redirect_uri: redirect_uri(key),
    }
}

pub const PASSWORD: &str = "correct horse battery";

/// How much faster than in production every test app delivers its webhooks: the same
/// schedule of retries, probes, polls and upkeep, in seconds rather than tens of seconds.
pub const WEBHOOK_PACE_FACTOR: i32 = 5;

/// The webhook pace of every test app.
pub fn webhook_pace() -> DeliveryPace {
    DeliveryPace::default().faster_by(WEBHOOK_PACE_FACTOR)
}

/// An iOS app's bundle id, registered with the simulated Apple as a client of its own (a
/// native app's Sign in with Apple codes are issued to it); a test lists it in apple's
/// `client_ids` when the service should accept it.
pub const APPLE_APP_BUNDLE_ID: &str = "com.example.ios";

/// The apps' `secret_key`: an output of `social-login gen-secret`, as the strength check
/// requires of any key.
pub const SECRET_KEY: &str = "GA_qvFSlkHKzKt0dJl-effGdF67rtQou5fOx6_P7rsVdCZt3kOJ05EYCkO1rzwgf";

/// The webhook secret of every app that has a receiver: `whsec_` + base64 of 32 bytes.
/// `[server] public_url` of every test app (facebook needs one: its data deletion answers
/// with a status URL under it). A name, not where the app listens: a test that follows such
/// a URL takes its path to [`TestApp::url`].
pub const PUBLIC_URL: &str = "https://auth.example.test";

pub const WEBHOOK_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=";

/// Knobs a test may turn before the app starts.
pub struct Options {
    pub auto_link_by_email: bool,
    pub rate_limit: Option<(u64, u32)>,
    pub github_enabled: bool,
    pub max_body_bytes: usize,
    pub provider_timeout_seconds: u64,
    pub trusted_proxies: Vec<String>,
    /// `[webhooks] url`, with [`WEBHOOK_SECRET`].
    pub webhook_url: Option<String>,
    /// Settings that need the simulator (its URLs), or the simulator made to answer some
    /// way before the app starts: run after the providers are enabled, before `tune`.
    pub with_simulator: fn(&mut Settings, &SimulatorHandle),
    /// Any other setting, changed last.
    pub tune: fn(&mut Settings),
}

impl Default for Options {
    fn default() -> Self {
        Self {
            auto_link_by_email: false,
            rate_limit: None,
            github_enabled: true,
            max_body_bytes: 65_536,
            provider_timeout_seconds: 10,
            trusted_proxies: Vec::new(),
            webhook_url: None,
            with_simulator: |_, _| {},
            tune: |_| {},
        }
    }
}

/// An app that links a verified provider email to the user who has it
/// (`auto_link_by_email`).
pub async fn spawn_auto_linking_app() -> TestApp {
    spawn_app_with(Options {
        auto_link_by_email: true,
        ..Options::default()
    })
    .await
}

/// What the apps of a test binary store their data in.
pub struct Storage {
    /// A fresh PostgreSQL database per app on `TEST_POSTGRES_URL`, dropped afterwards;
    /// otherwise a SQLite file in the app's temp dir.
    pub postgres: bool,
    /// Spent state ids in Redis (`TEST_REDIS_URL`) under a key prefix of the app's own;
    /// otherwise in the process.
    pub redis: bool,
}

pub struct TestApp {
    pub base: String,
    pub http: reqwest::Client,
    pub sim: SimulatorHandle,
    pub data_dir: TempDir,
    postgres: Option<PostgresDatabase>,
    server: Option<RunningServer>,
    settings: Settings,
}

/// `authorization_url` naming `user_id` as the simulated user who approves (in its query,
/// before any fragment: WeChat's ends in `#wechat_redirect`).
pub fn as_user(authorization_url: &str, user_id: &str) -> String {
    let mut url = url::Url::parse(authorization_url).expect("an authorization URL");
    url.query_pairs_mut().append_pair("sim_user", user_id);
    url.to_string()
}

/// Every preset enabled against the simulator, each under its own key.
#[allow(dead_code, reason = "the presets' tests run in the SQLite binary only")]
pub fn with_presets(settings: &mut Settings, sim: &SimulatorHandle) {
    social_login::simulated::enable_presets(settings, sim, client);
}

/// Users seeded in the simulator for every app.
pub fn ada() -> SimUser {
    SimUser::new("583231", "adalovelace")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
}

pub fn grace() -> SimUser {
    SimUser::new("1000001", "gracehopper")
        .with_name("Grace Hopper")
        .with_email("grace@example.com", true)
}

pub fn unverified() -> SimUser {
    SimUser::new("1000002", "unverified").with_email("ada@example.com", false)
}

/// Adds the two providers from configuration the simulator's standard ones stand for,
/// `acme-sso` (`kind = "oidc"`) and `corp` (`kind = "oauth2"`), after the eight.
pub fn with_standard_providers(settings: &mut Settings, sim: &SimulatorHandle) {
    enable_standard(settings, sim, client);
}

impl Options {
    /// The defaults, with the two providers from configuration.
    pub fn standard() -> Self {
        Self {
            with_simulator: with_standard_providers,
            ..Self::default()
        }
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(Options::default()).await
}

/// An app that delivers its webhooks to `url` (signed with [`WEBHOOK_SECRET`]).
pub async fn spawn_app_posting_to(url: String) -> TestApp {
    spawn_app_with(Options {
        webhook_url: Some(url),
        ..Options::default()
    })
    .await
}

/// An app with the defaults and one change to its settings.
pub async fn spawn_app_tuned(tune: fn(&mut Settings)) -> TestApp {
    spawn_app_with(Options {
        tune,
        ..Options::default()
    })
    .await
}

pub async fn spawn_app_with(options: Options) -> TestApp {
    spawn(options, None).await
}

/// An app whose database connections all pass through `proxy`, so a test can cut them.
#[allow(
    dead_code,
    reason = "only the PostgreSQL binary takes its database away"
)]
pub async fn spawn_app_with_database_via(options: Options, proxy: &FaultProxy) -> TestApp {
    spawn(options, Some(proxy)).await
}

async fn spawn(options: Options, database_via: Option<&FaultProxy>) -> TestApp {
    capture_logs();
    let sim = Simulator::start(
        register_clients(SimulatorConfig::default(), client)
            .with_client(RegisteredClient::new(
                Provider::Apple,
                APPLE_APP_BUNDLE_ID,
                "",
                "",
            ))
            .with_user(ada())
            .with_user(grace())
            .with_user(unverified()),
    )
    .await
    .expect("simulator starts");
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut settings = Settings::with_secret_key(SECRET_KEY);
    settings.server.bind = "127.0.0.1:0".into();
    let postgres = prepare_storage(&mut settings, data_dir.path(), database_via).await;
    settings.auto_link_by_email = options.auto_link_by_email;
    settings.http.max_body_bytes = options.max_body_bytes;
    settings.http.provider_timeout_seconds = options.provider_timeout_seconds;
    settings.server.trusted_proxies = options.trusted_proxies;
    settings.rate_limit.enabled = options.rate_limit.is_some();
    if let Some((per_second, burst)) = options.rate_limit {
        settings.rate_limit.per_second = per_second;
        settings.rate_limit.burst = burst;
    }
    enable_all(&mut settings, &sim, client);
    settings.server.public_url = Some(PUBLIC_URL.to_owned());
    if let Some(github) = settings.oauth_providers.get_mut(ProviderKey::GITHUB) {
        github.enabled = options.github_enabled;
    }
    settings.webhooks.pace = webhook_pace();
    if let Some(url) = options.webhook_url {
        settings.webhooks.url = Some(url);
        settings.webhooks.secret = Some(WEBHOOK_SECRET.to_owned().into());
    }
    (options.with_simulator)(&mut settings, &sim);
    (options.tune)(&mut settings);
    settings.validate().expect("test settings are valid");
    let server = start(&settings).await.expect("server starts");
    TestApp {
        base: server.url(),
        http: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        sim,
        data_dir,
        postgres,
        server: Some(server),
        settings,
    }
}

/// Points `settings` at this binary's storage, through `via` when given, and returns the
/// PostgreSQL database to drop afterwards.
async fn prepare_storage(
    settings: &mut Settings,
    data_dir: &Path,
    via: Option<&FaultProxy>,
) -> Option<PostgresDatabase> {
    if !crate::STORAGE.postgres {
        assert!(via.is_none(), "the fault proxy is for PostgreSQL");
        let file = data_dir.join("social-login.db");
        settings.database.url = format!("sqlite://{}?mode=rwc", file.display());
        return None;
    }
    if crate::STORAGE.redis {
        let Some(redis) = redis_url() else {
            // As for PostgreSQL below.
            std::process::exit(0);
        };
        settings.oauth_state_store.backend = social_login::settings::StateStoreBackend::Redis;
        settings.oauth_state_store.url = Some(redis);
        settings.oauth_state_store.key_prefix = format!("e2e:{}:", uuid::Uuid::new_v4().simple());
    }
    let Some(admin_url) = postgres_admin_url() else {
        // No PostgreSQL, not in CI: `postgres_admin_url` printed the SKIPPED line. A test
        // cannot end its caller early, and every test of this binary needs the database,
        // so the whole binary ends here, successfully.
        std::process::exit(0);
    };
    let database = PostgresDatabase::create(&admin_url).await;
    settings.database.url = match via {
        Some(proxy) => proxy.route(database.url()),
        None => database.url().to_owned(),
    };
    Some(database)
}

impl TestApp {
    /// The database the app runs on, for a test that changes rows behind its back (what
    /// the passing of time would do).
    pub fn database_url(&self) -> &str {
        &self.settings.database.url
    }

    /// Runs the write `statement` makes for the app's database behind the service's back
    /// (what an upgrade or the passing of time leaves there); how many rows it changed.
    pub async fn write_behind(&self, statement: impl FnOnce(DbBackend) -> Statement) -> u64 {
        let db = Database::connect(self.database_url()).await.unwrap();
        let written = db.execute_raw(statement(db.get_database_backend())).await;
        db.close().await.unwrap();
        written.unwrap().rows_affected()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `path` on the operator API's own listener (`[admin] bind`), when it has one.
    pub fn admin_url(&self, path: &str) -> Option<String> {
        let address = self.server.as_ref()?.admin_address()?;
        Some(format!("http://{address}{path}"))
    }

    pub async fn get(&self, path: &str, bearer: Option<&str>) -> reqwest::Response {
        let mut request = self.http.get(self.url(path));
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        request.send().await.unwrap()
    }

    pub async fn post(&self, path: &str, body: &Value, bearer: Option<&str>) -> reqwest::Response {
        let mut request = self.http.post(self.url(path)).json(body);
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        request.send().await.unwrap()
    }

    pub async fn delete(&self, path: &str, bearer: Option<&str>) -> reqwest::Response {
        let mut request = self.http.delete(self.url(path));
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        request.send().await.unwrap()
    }

    /// GET authorize; returns the authorization URL.
    pub async fn authorize(&self, provider: &str, bearer: Option<&str>) -> String {
        let response = self
            .get(&format!("/auth/oauth/{provider}/authorize"), bearer)
            .await;
        authorization_url(response).await
    }

    /// Plays the browser at the provider: approve as `user_id`, follow nothing, read the
    /// code and state off the redirect to our redirect_uri.
    pub async fn approve_at_provider(&self, authorization_url: &str, user_id: &str) -> Approval {
        let response = self
            .http
            .get(as_user(authorization_url, user_id))
            .send()
            .await;
        Approval::from_redirect(&response.unwrap(), REDIRECT_BASE)
    }

    /// authorize (as the holder of `bearer`, if any) → the provider, where `user_id`
    /// approves: the provider's answer, to bring to a callback or connect.
    pub async fn approval(&self, provider: &str, bearer: Option<&str>, user_id: &str) -> Approval {
        let url = self.authorize(provider, bearer).await;
        self.approve_at_provider(&url, user_id).await
    }

    /// authorize → provider → callback; returns the raw callback response.
    pub async fn login_response(&self, user_id: &str) -> reqwest::Response {
        self.login_response_at("github", user_id).await
    }

    pub async fn login_response_at(&self, provider: &str, user_id: &str) -> reqwest::Response {
        let approval = self.approval(provider, None, user_id).await;
        self.callback(provider, &approval).await
    }

    /// POST the provider's answer to the login callback.
    pub async fn callback(&self, provider: &str, approval: &Approval) -> reqwest::Response {
        let path = format!("/auth/oauth/{provider}/callback");
        self.post(&path, &approval.body(), None).await
    }

    /// POST the provider's answer to connect, as the holder of `bearer`.
    pub async fn connect(
        &self,
        provider: &str,
        approval: &Approval,
        bearer: &str,
    ) -> reqwest::Response {
        let path = format!("/auth/oauth/{provider}/connect");
        self.post(&path, &approval.body(), Some(bearer)).await
    }

    /// A successful GitHub login: the login result and its bearer token.
    pub async fn signed_in(&self, user_id: &str) -> (Value, String) {
        let login = self.login(user_id).await;
        let bearer = token(&login);
        (login, bearer)
    }

    /// A password registration (see [`Self::register`]): its result and its bearer token.
    pub async fn signed_up(&self, email: &str) -> (Value, String) {
        let registered = self.register(email).await;
        let bearer = token(&registered);
        (registered, bearer)
    }

    /// Pat's password registration (pat@example.com, see [`Self::signed_up`]) that then
    /// connected `provider` as the simulator's 583231: the registration and its bearer token.
    pub async fn pat_linked(&self, provider: &str) -> (Value, String) {
        let (registered, bearer) = self.signed_up("pat@example.com").await;
        self.link(provider, &bearer, "583231").await;
        (registered, bearer)
    }

    /// A successful GitHub login; returns the login result.
    pub async fn login(&self, user_id: &str) -> Value {
        self.login_at("github", user_id).await
    }

    /// A successful login with `provider`; returns the login result.
    pub async fn login_at(&self, provider: &str, user_id: &str) -> Value {
        let response = self.login_response_at(provider, user_id).await;
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.unwrap()
    }

    /// GET `path` answered 200; its JSON body.
    pub async fn get_json(&self, path: &str, bearer: Option<&str>) -> Value {
        let response = self.get(path, bearer).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        response.json().await.unwrap()
    }

    /// authorize (with bearer) → provider → connect; returns the raw connect response.
    pub async fn connect_response(&self, bearer: &str, user_id: &str) -> reqwest::Response {
        self.connect_response_at("github", bearer, user_id).await
    }

    /// authorize (with bearer) → provider → connect, answered 201: the new link.
    pub async fn link(&self, provider: &str, bearer: &str, user_id: &str) -> Value {
        let linked = self.connect_response_at(provider, bearer, user_id).await;
        assert_eq!(linked.status(), StatusCode::CREATED, "{provider} linked");
        linked.json().await.unwrap()
    }

    pub async fn connect_response_at(
        &self,
        provider: &str,
        bearer: &str,
        user_id: &str,
    ) -> reqwest::Response {
        let approval = self.approval(provider, Some(bearer), user_id).await;
        self.connect(provider, &approval, bearer).await
    }

    /// POST /auth/login with `email` and `password`.
    pub async fn password_login(&self, email: &str, password: &str) -> reqwest::Response {
        let credentials = json!({"email": email, "password": password});
        self.post("/auth/login", &credentials, None).await
    }

    /// POST /auth/refresh with `refresh_token`, as a login result holds it.
    pub async fn refresh(&self, refresh_token: &Value) -> reqwest::Response {
        let body = json!({"refresh_token": refresh_token});
        self.post("/auth/refresh", &body, None).await
    }

    /// The grant revocations `provider` has received, oldest first.
    pub fn revocations_at(&self, provider: Provider) -> Vec<Revocation> {
        let all = self.sim.revocations().into_iter();
        all.filter(|revocation| revocation.provider == provider)
            .collect()
    }

    /// Checks that `provider` received exactly one revocation, of a live token of this
    /// client; returns it.
    pub fn assert_one_live_revocation(&self, provider: Provider) -> Revocation {
        let mut revocations = self.revocations_at(provider);
        assert_eq!(revocations.len(), 1, "{revocations:?}");
        let revocation = revocations.remove(0);
        assert!(
            revocation.kind.is_some(),
            "a live token of this client was revoked"
        );
        revocation
    }

    /// Checks that `bearer` no longer authenticates: GET /users/me is 401 Unauthorized.
    pub async fn assert_unauthorized(&self, bearer: &str) {
        let me = self.get("/users/me", Some(bearer)).await;
        assert_problem_in("GET /users/me", me, 401, "Unauthorized").await;
    }

    /// Checks that a login callback with `approval` at `provider` is refused as a state it
    /// cannot take (spent, expired or minted for another provider): 400 OAuthStateMismatch.
    pub async fn assert_state_refused(&self, provider: &str, approval: &Approval) {
        let refused = self.callback(provider, approval).await;
        assert_problem(refused, 400, "OAuthStateMismatch").await;
    }

    /// Checks that a refresh with `refresh_token` is refused: 401 InvalidCredentials.
    pub async fn assert_refresh_refused(&self, refresh_token: &Value) {
        let refused = self.refresh(refresh_token).await;
        assert_problem_in("refresh", refused, 401, "InvalidCredentials").await;
    }

    /// POST /auth/logout with `refresh_token`, as a login result holds it.
    pub async fn logout(&self, refresh_token: &Value) -> reqwest::Response {
        let body = json!({"refresh_token": refresh_token});
        self.post("/auth/logout", &body, None).await
    }

    /// GET /auth/oauth/accounts answered 200: the caller's linked accounts.
    pub async fn accounts(&self, bearer: &str) -> Value {
        self.get_json("/auth/oauth/accounts", Some(bearer)).await
    }

    /// GET /users/me/events answered 200: the caller's audit events, newest first.
    pub async fn events(&self, bearer: &str) -> Value {
        self.get_json("/users/me/events", Some(bearer)).await
    }

    /// DELETE /auth/oauth/{provider}/disconnect as the holder of `bearer`.
    pub async fn disconnect(&self, provider: &str, bearer: &str) -> reqwest::Response {
        let path = format!("/auth/oauth/{provider}/disconnect");
        self.delete(&path, Some(bearer)).await
    }

    /// DELETE /users/me as the holder of `bearer`, answered 204.
    pub async fn delete_account(&self, bearer: &str) {
        let deleted = self.delete("/users/me", Some(bearer)).await;
        assert_eq!(deleted.status(), StatusCode::NO_CONTENT, "account deleted");
    }

    pub async fn register(&self, email: &str) -> Value {
        let response = self
            .post(
                "/auth/register",
                &json!({"email": email, "password": PASSWORD, "full_name": "Pat"}),
                None,
            )
            .await;
        assert_eq!(response.status(), StatusCode::CREATED);
        response.json().await.unwrap()
    }

    /// Everything the service stored: every byte of its data directory (SQLite database,
    /// WAL, shm) and, on PostgreSQL, every row of every table as JSON text plus the raw
    /// bytes of every `bytea` value (which JSON would show only as hex).
    pub async fn stored_bytes(&self) -> Vec<u8> {
        let mut all = Vec::new();
        for entry in std::fs::read_dir(self.data_dir.path()).unwrap() {
            all.extend(std::fs::read(entry.unwrap().path()).unwrap());
        }
        if let Some(database) = &self.postgres {
            all.extend(postgres_dump(database.url()).await);
        }
        all
    }

    /// The settings the app runs with (its database URL, for a CLI run beside it).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Stops the server and starts a new one on the same database, with `change` applied
    /// to the settings: a restart, or a new release.
    #[allow(dead_code, reason = "not every binary restarts its app")]
    pub async fn restart_with(&mut self, change: impl FnOnce(&mut Settings)) {
        if let Some(server) = self.server.take() {
            server.stop().await.unwrap();
        }
        change(&mut self.settings);
        let server = start(&self.settings).await.expect("server restarts");
        self.base = server.url();
        self.server = Some(server);
    }

    pub async fn stop(mut self) {
        if let Some(server) = self.server.take() {
            server.stop().await.unwrap();
        }
        if let Some(database) = self.postgres.take() {
            database.drop().await;
        }
    }
}

impl TestApp {
    /// The body of a native sign-in: `provider`'s id_token for `audience` about `user`, with
    /// the hash of a raw nonce no other sign-in of this binary uses, as an app makes one per
    /// sign-in (and each token is accepted once).
    pub fn native_body_for(&self, provider: Provider, user: &SimUser, audience: &str) -> Value {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let nonce = format!("native-nonce-{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let hashed = hex::encode(Sha256::digest(nonce.as_bytes()));
        let id_token = self
            .sim
            .mint_id_token(provider, user, audience, Some(&hashed));
        json!({"id_token": id_token, "nonce": nonce})
    }

    /// `provider`'s id_token for this app's client about `user`, with the nonce claim
    /// `nonce` if any.
    pub fn id_token(&self, provider: Provider, user: &SimUser, nonce: Option<&str>) -> String {
        self.sim.mint_id_token(provider, user, CLIENT_ID, nonce)
    }

    /// POST /auth/oauth/{provider}/id-token with `body`: a native sign-in.
    pub async fn native_sign_in(&self, provider: &str, body: &Value) -> reqwest::Response {
        let path = format!("/auth/oauth/{provider}/id-token");
        self.post(&path, body, None).await
    }

    /// The providers linked to the holder of `bearer`, oldest link first.
    pub async fn linked_providers(&self, bearer: &str) -> Vec<String> {
        let accounts = self.accounts(bearer).await;
        let providers = strings(&accounts, "provider");
        providers.into_iter().map(str::to_owned).collect()
    }

    /// Checks that `claimant`, signing in at `provider` with the verified address of
    /// `owner`'s user, is refused (409 EmailAlreadyRegistered) and that `owner` keeps the
    /// one link they had: an address claim never links or takes over.
    pub async fn assert_no_takeover(&self, provider: &str, claimant: SimUser, owner: &Value) {
        let id = claimant.id.clone();
        self.sim.add_user(claimant);
        let response = self.login_response_at(provider, &id).await;
        assert_problem_in(provider, response, 409, "EmailAlreadyRegistered").await;
        let accounts = self.accounts(&token(owner)).await;
        let links = accounts.as_array().unwrap().len();
        assert_eq!(links, 1, "nothing linked to the owner: {accounts}");
    }

    /// [`TestApp::native_body_for`] this app's client id.
    pub fn native_body(&self, provider: Provider, user: &SimUser) -> Value {
        self.native_body_for(provider, user, CLIENT_ID)
    }
}

/// The string `field` of each object of the JSON array `list`, in order.
pub fn strings<'a>(list: &'a Value, field: &str) -> Vec<&'a str> {
    let items = list.as_array().expect("a JSON array");
    items
        .iter()
        .map(|item| item[field].as_str().unwrap())
        .collect()
}

/// Sends `request` and reads the answer's body as text, whatever its status.
pub async fn body_text(request: reqwest::RequestBuilder) -> String {
    request.send().await.unwrap().text().await.unwrap()
}

impl TestApp {
    /// Plays the browser at Apple: approve as `user_id` and read the form Apple would
    /// auto-submit to our redirect_uri (code, state, and `user` on a first authorization).
    pub async fn approve_at_apple(&self, authorization_url: &str, user_id: &str) -> Value {
        let url = format!("{authorization_url}&sim_user={user_id}");
        let html = body_text(self.http.get(url)).await;
        let form = self
            .sim
            .apple_form_post(&html)
            .expect("Apple answers with a form_post");
        assert_eq!(form.action, redirect_uri("apple"));
        Value::Object(
            form.fields
                .into_iter()
                .map(|(name, value)| (name, Value::String(value)))
                .collect(),
        )
    }
}

/// Every row of every table of the database at `url`, as text, and every `bytea` value raw.
async fn postgres_dump(url: &str) -> Vec<u8> {
    use sea_orm::sqlx::{self, AssertSqlSafe, Connection, PgConnection};
    let mut db = PgConnection::connect(url).await.unwrap();
    let columns: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT c.table_name::text, c.column_name::text, c.data_type::text \
         FROM information_schema.columns c JOIN information_schema.tables t \
         ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'",
    )
    .fetch_all(&mut db)
    .await
    .unwrap();
    let mut tables: Vec<&str> = columns.iter().map(|(table, _, _)| table.as_str()).collect();
    tables.sort_unstable();
    tables.dedup();
    assert!(
        tables.contains(&"users"),
        "the dump sees the schema: {tables:?}"
    );
    let mut dump = Vec::new();
    for table in tables {
        let rows: Vec<String> = sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT row_to_json(t)::text FROM \"{table}\" t"
        )))
        .fetch_all(&mut db)
        .await
        .unwrap();
        for row in rows {
            dump.extend(row.into_bytes());
        }
    }
    for (table, column, _) in columns.iter().filter(|(_, _, kind)| kind == "bytea") {
        let values: Vec<Option<Vec<u8>>> = sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT \"{column}\" FROM \"{table}\""
        )))
        .fetch_all(&mut db)
        .await
        .unwrap();
        dump.extend(values.into_iter().flatten().flatten());
    }
    db.close().await.ok();
    dump
}

/// Asserts a problem+json error with this status and code.
pub async fn assert_problem(response: reqwest::Response, status: u16, code: &str) -> Value {
    assert_problem_in("", response, status, code).await
}

/// [`assert_problem`] for one case of a table: every failure names `case`.
pub async fn assert_problem_in(
    case: &str,
    response: reqwest::Response,
    status: u16,
    code: &str,
) -> Value {
    assert_eq!(response.status().as_u16(), status, "{case}: status");
    assert_eq!(
        response.headers()["content-type"],
        "application/problem+json",
        "{case}"
    );
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], code, "{case}: {body}");
    assert_eq!(body["status"], status, "{case}");
    assert_eq!(body["type"], "about:blank", "{case}");
    assert!(
        body["title"].is_string() && body["detail"].is_string(),
        "{case}: {body}"
    );
    body
}

/// POSTs each of `bodies` to `path` as nobody; each must be the problem `status`/`code`
/// (a failure names the body).
pub async fn assert_each_refused(
    app: &TestApp,
    path: &str,
    bodies: &[Value],
    status: u16,
    code: &str,
) {
    for body in bodies {
        let response = app.post(path, body, None).await;
        assert_problem_in(&body.to_string(), response, status, code).await;
    }
}

/// Asserts that the login result `again` signed in the user of the login result `first`,
/// not a new one.
pub fn assert_returning(again: &Value, first: &Value) {
    assert_eq!(again["is_new_user"], false, "{again}");
    assert_eq!(again["user"]["id"], first["user"]["id"], "{again}");
}

/// Checks that `again` is `first`'s user signing in again and that the name stored at the
/// first login is kept (Apple sends the name only once).
pub fn assert_returning_with_name(again: &Value, first: &Value) {
    assert_returning(again, first);
    let name = &first["user"]["full_name"];
    assert_eq!(
        &again["user"]["full_name"], name,
        "kept, not nulled: {again}"
    );
}

/// Asserts a 200 answer and returns its JSON body.
pub async fn ok_json(response: reqwest::Response) -> Value {
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

/// Asserts that `secret` was never written: not in any stored byte, not in the logs.
pub async fn assert_never_kept(app: &TestApp, secret: &str) {
    let stored = app.stored_bytes().await;
    assert!(
        !stored
            .windows(secret.len())
            .any(|window| window == secret.as_bytes()),
        "stored"
    );
    assert!(!logs().contains(secret), "logged");
}

pub fn token(login: &Value) -> String {
    login["access_token"].as_str().unwrap().to_owned()
}

/// Every log line the service wrote in this test binary, as one string.
pub fn logs() -> String {
    String::from_utf8_lossy(&LOGS.get().expect("logs captured").lock().unwrap()).into_owned()
}

static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();

/// Sends the service's JSON logs (debug level, so more is checked) into a buffer.
fn capture_logs() {
    LOGS.get_or_init(|| {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let writer = SharedBuffer(buffer.clone());
        tracing_subscriber::fmt()
            .json()
            .with_current_span(true)
            .with_env_filter("debug")
            .with_writer(move || writer.clone())
            .init();
        buffer
    });
}

#[derive(Clone)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
