//! Starting and stopping the simulator, and the handle tests and the demo hold.

use crate::config::Provider;
use crate::config::SimulatorConfig;
use crate::dialect::IdTokenWhen;
use crate::faults::Fault;
use crate::github::GithubEndpoints;
use crate::google::GoogleEndpoints;
use crate::hooks::Cx;
use crate::id_token_fault::IdTokenFault;
use crate::lock::locked;
use crate::log::RequestRecord;
use crate::paths::EndpointSet;
use crate::paths::PathParams;
use crate::state::SimState;
use crate::users::SimUser;
use axum::Router;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The simulated identity provider.
#[derive(Debug)]
pub struct Simulator;

impl Simulator {
    /// Binds `config.bind` (loopback, port 0 by default) and serves in a background task on
    /// the current tokio runtime until the handle is shut down or dropped.
    pub async fn start(config: SimulatorConfig) -> std::io::Result<SimulatorHandle> {
        let listener = tokio::net::TcpListener::bind(config.bind).await?;
        let addr = listener.local_addr()?;
        let state = Arc::new(SimState::new(&config, format!("http://{addr}")));
        let (stop, stopped) = oneshot::channel::<()>();
        let app = router(state.clone());
        let server = axum::serve(listener, app).with_graceful_shutdown(async {
            let _ = stopped.await;
        });
        let task = tokio::spawn(async move {
            if let Err(error) = server.await {
                tracing::warn!(%error, "simulator stopped with an error");
            }
        });
        Ok(SimulatorHandle {
            addr,
            base_url: format!("http://{addr}"),
            state,
            stop: Some(stop),
            task: Some(task),
        })
    }
}

/// Every route of every simulated provider, each under its own prefix, plus the control API.
fn router(state: Arc<SimState>) -> Router {
    Provider::every()
        .fold(Router::new(), |router, provider| {
            let served = crate::providers::served(provider);
            let routes = crate::engine::routes(served).merge(crate::api::routes(provider));
            router.nest(&format!("/{}", provider.prefix()), routes)
        })
        .nest("/_control/signals", crate::signals::routes())
        .nest("/_control", crate::control::routes())
        .with_state(state)
}

/// A running simulator. Dropping it stops the server at once.
#[derive(Debug)]
pub struct SimulatorHandle {
    addr: SocketAddr,
    base_url: String,
    state: Arc<SimState>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl SimulatorHandle {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The endpoint URLs of `provider` (Microsoft's under `common`), and the issuer of its
    /// id_tokens where it signs them.
    pub fn endpoints(&self, provider: Provider) -> EndpointSet {
        self.endpoints_with(provider, &PathParams::new())
    }

    fn endpoints_with(&self, provider: Provider, fill: &PathParams) -> EndpointSet {
        let mut set = provider
            .dialect()
            .paths
            .under(&self.base_url, provider.prefix(), fill);
        let cx = Cx::bare(&self.state, crate::providers::served(provider));
        let signs = cx.dialect.token.answer.id_token != IdTokenWhen::Never;
        set.issuer = signs.then(|| cx.hooks().issuer(&cx));
        set
    }

    pub fn github(&self) -> GithubEndpoints {
        self.endpoints(Provider::Github).into()
    }

    pub fn google(&self) -> GoogleEndpoints {
        self.endpoints(Provider::Google).into()
    }

    pub fn discord(&self) -> crate::discord::DiscordEndpoints {
        self.endpoints(Provider::Discord).into()
    }

    /// The simulated Facebook, its URLs naming Graph version `v24.0`.
    pub fn facebook(&self) -> crate::facebook::FacebookEndpoints {
        self.endpoints(Provider::Facebook).into()
    }

    pub fn twitter(&self) -> crate::twitter::TwitterEndpoints {
        self.endpoints(Provider::Twitter).into()
    }

    /// The simulated Microsoft under `common` (work, school and personal accounts).
    pub fn microsoft(&self) -> crate::microsoft::MicrosoftEndpoints {
        self.microsoft_tenant("common")
    }

    /// The simulated Microsoft under another tenant path: `organizations`, `consumers` or
    /// a tenant GUID.
    pub fn microsoft_tenant(&self, tenant: &str) -> crate::microsoft::MicrosoftEndpoints {
        let fill = PathParams::from([("tenant".to_owned(), tenant.to_owned())]);
        self.endpoints_with(Provider::Microsoft, &fill).into()
    }

    pub fn linkedin(&self) -> crate::linkedin::LinkedinEndpoints {
        self.endpoints(Provider::Linkedin).into()
    }

    /// Replaces the simulated LinkedIn's knobs (what its token endpoint does with PKCE).
    pub fn set_linkedin_knobs(&self, knobs: crate::linkedin::LinkedinKnobs) {
        self.state.linkedin_knobs.set(knobs);
    }

    pub fn apple(&self) -> crate::apple::AppleEndpoints {
        self.endpoints(Provider::Apple).into()
    }

    /// Replaces the simulated Apple's knobs (claim style, private relay, strict redirects).
    pub fn set_apple_knobs(&self, knobs: crate::apple::AppleKnobs) {
        self.state.apple.knobs.set(knobs);
    }

    /// Replaces what the standard providers say differently from the truth.
    pub fn set_standard_knobs(&self, knobs: crate::standard::StandardKnobs) {
        self.state.standard_knobs.set(knobs);
    }

    /// The form of a page the simulated Apple's authorize endpoint answered (`form_post`):
    /// its action and fields, so a test can "submit" it. `None` for any other page.
    pub fn apple_form_post(&self, html: &str) -> Option<crate::apple::AppleFormPost> {
        crate::apple::AppleFormPost::parse(html)
    }

    /// Adds or replaces (by login) `user` and approves as them when a request names nobody.
    pub fn set_identity(&self, user: SimUser) {
        locked(&self.state.directory).set_identity(user);
    }

    /// Adds or replaces (by login) a user that `login_hint` / `sim_user` can name.
    pub fn add_user(&self, user: SimUser) {
        locked(&self.state.directory).upsert(user);
    }

    /// Installs `fault`, replacing any earlier fault of the same provider and endpoint.
    pub fn set_fault(&self, fault: Fault) {
        self.state.faults.set(fault);
    }

    /// Breaks the next id_tokens of `provider` the way `fault` says, until faults are cleared.
    pub fn set_id_token_fault(&self, provider: Provider, fault: IdTokenFault) {
        self.state.id_token_faults.set(provider, fault);
    }

    /// Clears every fault, the id_token ones included.
    pub fn clear_faults(&self) {
        self.state.faults.clear();
        self.state.id_token_faults.clear();
    }

    /// Starts signing id_tokens with [`crate::TEST_KEY_B`]; the key sets then list both keys,
    /// as a provider's do during a rotation. There is no way back: start a new simulator.
    pub fn rotate_signing_key(&self) {
        self.state.keys.rotate();
    }

    /// Every request received so far, oldest first.
    pub fn requests(&self) -> Vec<RequestRecord> {
        self.state.log.all()
    }

    /// Signs an id_token about `user` for `audience`, as `provider`'s code flow signs one
    /// (same key, issuer, claims and injected faults; the scopes `openid email profile`,
    /// Apple's `openid email name`), for native sign-in tests to post to the service.
    ///
    /// # Panics
    /// For a provider without id_tokens: Google, Microsoft, Apple, LinkedIn and the
    /// standard OIDC provider sign them.
    pub fn mint_id_token(
        &self,
        provider: Provider,
        user: &SimUser,
        audience: &str,
        nonce: Option<&str>,
    ) -> String {
        let dialect = provider.dialect();
        assert!(
            dialect.token.answer.id_token != IdTokenWhen::Never,
            "the simulated {provider:?} issues no id_tokens"
        );
        let scopes = &dialect.mint_scopes;
        let subject = crate::claims::Subject {
            client_id: audience,
            user,
            scopes,
            nonce,
        };
        let cx = Cx::bare(&self.state, crate::providers::served(provider));
        crate::id_token::issue(&cx, &subject, None)
    }

    /// The authorization code Sign in with Apple gives an app on the device together with
    /// its id_token ([`Self::mint_id_token`] with the same `client_id`): for `client_id`, the
    /// app's bundle id (registered as an Apple client), about `user`, single use, exchanged
    /// without a redirect URI or PKCE verifier, as the service does for native sign-in.
    pub fn mint_apple_native_code(&self, user: &SimUser, client_id: &str) -> String {
        let dialect = Provider::Apple.dialect();
        self.state
            .codes(Provider::Apple)
            .issue(crate::codes::Grant {
                provider: Provider::Apple,
                client_id: client_id.to_owned(),
                redirect_uri: String::new(),
                pkce: Default::default(),
                scopes: dialect.mint_scopes.to_vec(),
                nonce: None,
                user: user.clone(),
            })
    }

    /// Every accepted revocation request so far, oldest first.
    pub fn revocations(&self) -> Vec<crate::revocation::Revocation> {
        self.state.revocations.all()
    }

    /// The values of the access tokens issued and not revoked (expired ones included), so a
    /// test can prove the service never shows, logs or stores them in plaintext.
    pub fn issued_access_tokens(&self) -> Vec<String> {
        self.state.tokens.values()
    }

    /// The absolute URL of `provider`'s API, ending in `/`:
    /// `http://127.0.0.1:<port>/github/api/`. Under it, for one of the provider's access
    /// tokens (Bearer, or `access_token` / `oauth_token` in the query): `me`, `echo`,
    /// `bytes?n=N`, `redirect`, `status/{code}`.
    pub fn api_base(&self, provider: Provider) -> String {
        format!("{}/{}/api/", self.base_url, provider.prefix())
    }

    /// Ends every access token issued so far, at every provider: the API and the user
    /// endpoints answer 401. Refresh tokens keep working; tokens issued later live.
    pub fn expire_access_tokens(&self) {
        self.state.expire_access_tokens();
    }

    /// Kills every access and refresh token issued so far, at every provider, as if each
    /// user had revoked the app: the API answers 401 and the refresh grant the dialect's
    /// invalid-grant error.
    pub fn revoke_grants(&self) {
        self.state.revoke_grants();
    }

    /// Whether a refresh grant answers a new refresh token and spends the one presented
    /// (off by default: the refresh token stays and none comes back).
    pub fn set_refresh_rotation(&self, on: bool) {
        self.state.refresh_knobs.update(|knobs| knobs.rotation = on);
    }

    /// How long a refresh grant waits before answering (zero by default).
    pub fn set_refresh_delay(&self, delay: Duration) {
        self.state
            .refresh_knobs
            .update(|knobs| knobs.set_delay(delay));
    }

    /// How long a refresh grant that issued tokens waits before its answer leaves (zero by
    /// default): the tokens exist at the provider before the client has them.
    pub fn set_refresh_late_answer(&self, delay: Duration) {
        self.state
            .refresh_knobs
            .update(|knobs| knobs.set_late_answer(delay));
    }

    /// How many refresh grants `provider` answered successfully.
    pub fn refresh_grants(&self, provider: Provider) -> usize {
        self.state.refresh_counts.of(provider)
    }

    /// Stops accepting connections and waits for requests in flight to finish.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for SimulatorHandle {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}
