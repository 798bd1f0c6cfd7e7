//! A relying party of one simulated provider, as the tests drive it: its calls are verbs
//! (authorize, exchange, ask for the user, revoke) that know the provider's ways (Apple's
//! form post and signed secret, X's HTTP Basic, Facebook's `appsecret_proof`), so a test
//! says what it varies and nothing else.

use super::fixtures::{Auth, Fixture};
use super::{CHALLENGE, NONCE, Params, VERIFIER};
use hmac::{Hmac, KeyInit, Mac};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use sha2::Sha256;
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID, EndpointSet, Provider,
    SimulatorHandle,
};
use std::ops::Deref;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A client that does not follow redirects and identifies itself, like a real one.
pub fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent("simulator-tests")
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

#[derive(Debug, Clone)]
pub struct SimClient<'s> {
    sim: Served<'s>,
    pub fixture: Fixture,
    http: reqwest::Client,
}

/// The simulator a client talks to: one the test holds, or one the client owns (for a test
/// that asks nothing else of the simulator).
#[derive(Debug, Clone)]
enum Served<'s> {
    Borrowed(&'s SimulatorHandle),
    Owned(Arc<SimulatorHandle>),
}

impl Deref for Served<'_> {
    type Target = SimulatorHandle;

    fn deref(&self) -> &SimulatorHandle {
        match self {
            Served::Borrowed(sim) => sim,
            Served::Owned(sim) => sim.as_ref(),
        }
    }
}

impl<'s> SimClient<'s> {
    pub fn new(sim: &'s SimulatorHandle, fixture: Fixture) -> Self {
        Self::of(Served::Borrowed(sim), fixture)
    }

    /// A client that owns `sim`: it runs as long as the client does.
    pub fn owning(sim: SimulatorHandle, fixture: Fixture) -> SimClient<'static> {
        SimClient::sharing(Arc::new(sim), fixture)
    }

    /// A client that shares `sim` with others: it runs as long as one of them does.
    pub fn sharing(sim: Arc<SimulatorHandle>, fixture: Fixture) -> SimClient<'static> {
        SimClient::of(Served::Owned(sim), fixture)
    }

    fn of(sim: Served<'s>, fixture: Fixture) -> Self {
        Self {
            sim,
            fixture,
            http: http(),
        }
    }

    pub fn urls(&self) -> EndpointSet {
        self.sim.endpoints(self.fixture.provider)
    }

    /// A valid authorize request for `scope`: this client and its callback, `code`, state
    /// `st`, the nonce and the S256 challenge (and `form_post` at Apple when it asks for
    /// scopes).
    pub fn valid(&self, scope: &str) -> Params {
        let f = self.fixture;
        let params = Params::of(&[
            ("client_id", f.id),
            ("redirect_uri", f.callback),
            ("response_type", "code"),
            ("scope", scope),
            ("state", "st"),
            ("nonce", NONCE),
            ("code_challenge", CHALLENGE),
            ("code_challenge_method", "S256"),
        ]);
        let form_post = f.provider == Provider::Apple && !scope.is_empty();
        params.with("response_mode", form_post.then_some("form_post"))
    }

    /// `GET` of the authorize endpoint with `params`.
    pub async fn authorize(&self, params: &Params) -> reqwest::Response {
        let url = url::Url::parse_with_params(&self.urls().authorization, &params.0).unwrap();
        self.http.get(url).send().await.unwrap()
    }

    /// What the authorize answer carried to the callback: a redirect's query, or the
    /// fields of Apple's form post. Panics on anything else (an error page).
    pub async fn answer(&self, params: &Params) -> Params {
        let response = self.authorize(params).await;
        if response.status() == 302 {
            let location = response.headers()["location"].to_str().unwrap();
            let location = url::Url::parse(location).unwrap();
            return Params(location.query_pairs().into_owned().collect());
        }
        let status = response.status();
        let html = response.text().await.unwrap();
        let form = self.sim.apple_form_post(&html);
        Params(form.unwrap_or_else(|| panic!("{status}: {html}")).fields)
    }

    /// A code for the default identity, from a valid request for `scope`.
    pub async fn code(&self, scope: &str) -> String {
        let answer = self.answer(&self.valid(scope)).await;
        answer.get("code").expect("a code").to_owned()
    }

    /// The token request for `code` as this client sends it (its credentials in the form
    /// unless it uses HTTP Basic, which [`Self::token`] adds).
    pub fn token_form(&self, code: &str) -> Params {
        let f = self.fixture;
        let form = Params::of(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", f.callback),
            ("code_verifier", VERIFIER),
        ]);
        match f.auth {
            Auth::Body => form.and("client_id", f.id).and("client_secret", f.secret),
            Auth::Basic => form,
            Auth::SignedSecret => form
                .and("client_id", f.id)
                .and("client_secret", &apple_secret()),
        }
    }

    /// The refresh grant for `refresh_token` as this client sends it: its token request
    /// without the code's parameters.
    pub fn refresh_form(&self, refresh_token: &str) -> Params {
        self.token_form("")
            .unset("code")
            .unset("redirect_uri")
            .unset("code_verifier")
            .set("grant_type", "refresh_token")
            .set("refresh_token", refresh_token)
    }

    /// POSTs `form` to the token endpoint asking for JSON, with this client's Basic
    /// credentials where it uses them.
    pub async fn token(&self, form: &Params) -> (u16, Value) {
        let basic =
            (self.fixture.auth == Auth::Basic).then_some((self.fixture.id, self.fixture.secret));
        self.post(&self.urls().token, form, basic).await
    }

    /// POSTs `form` to `url` asking for JSON, with HTTP Basic when given.
    pub async fn post(
        &self,
        url: &str,
        form: &Params,
        basic: Option<(&str, &str)>,
    ) -> (u16, Value) {
        let mut request = self
            .http
            .post(url)
            .header("accept", "application/json")
            .form(&form.0);
        if let Some((id, secret)) = basic {
            request = request.basic_auth(id, Some(secret));
        }
        status_and_json(request).await
    }

    /// Exchanges `code` with the token request `edit` makes of this client's own.
    pub async fn exchange(&self, code: &str, edit: impl FnOnce(Params) -> Params) -> (u16, Value) {
        self.token(&edit(self.token_form(code))).await
    }

    /// Exchanges `code` the way this client does.
    pub async fn redeem(&self, code: &str) -> (u16, Value) {
        self.token(&self.token_form(code)).await
    }

    /// A code for `scope` exchanged: the token answer.
    pub async fn tokens(&self, scope: &str) -> Value {
        let (status, body) = self.redeem(&self.code(scope).await).await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// A live access token for `scope`.
    pub async fn access_token(&self, scope: &str) -> String {
        self.tokens(scope).await["access_token"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// `GET url` with a Bearer token when given.
    pub async fn get(&self, url: &str, bearer: Option<&str>) -> (u16, Value) {
        let mut request = self.http.get(url);
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        status_and_json(request).await
    }

    /// The user endpoint for `token` (at Facebook with its `appsecret_proof`).
    pub async fn userinfo(&self, token: Option<&str>) -> (u16, Value) {
        let mut url = url::Url::parse(&self.urls().userinfo.unwrap()).unwrap();
        if let (Provider::Facebook, Some(token)) = (self.fixture.provider, token) {
            url.query_pairs_mut()
                .append_pair("appsecret_proof", &proof(self.fixture.secret, token));
        }
        self.get(url.as_str(), token).await
    }

    /// The page the authorization endpoint answers `params` with (a sign-in page, Apple's
    /// form post).
    pub async fn page(&self, params: &Params) -> String {
        self.authorize(params).await.text().await.unwrap()
    }

    /// What the token endpoint answers a fresh code for `scope`.
    pub async fn redeem_fresh(&self, scope: &str) -> (u16, Value) {
        let code = self.code(scope).await;
        self.redeem(&code).await
    }

    /// Asserts `params` are sent back to the callback as `invalid_request` with
    /// `description`, the state kept.
    pub async fn assert_invalid_request(&self, params: &Params, description: &str) {
        let answer = self.answer(params).await;
        let refusal = [Some("invalid_request"), Some(description), Some("st")];
        assert_eq!(
            answer.fields(["error", "error_description", "state"]),
            refusal
        );
    }

    /// What the user endpoint answers a live token for `scope`: the claims the scope grants.
    pub async fn profile(&self, scope: &str) -> Value {
        let token = self.access_token(scope).await;
        self.userinfo(Some(&token)).await.1
    }

    /// POSTs an RFC 7009 revocation of `token` with this client's credentials.
    pub async fn revoke(&self, token: &str, hint: &str) -> (u16, Value) {
        let f = self.fixture;
        let form = Params::of(&[("token", token), ("token_type_hint", hint)]);
        let (form, basic) = match f.auth {
            Auth::Body => (
                form.and("client_id", f.id).and("client_secret", f.secret),
                None,
            ),
            Auth::Basic => (form, Some((f.id, f.secret))),
            Auth::SignedSecret => (
                form.and("client_id", f.id)
                    .and("client_secret", &apple_secret()),
                None,
            ),
        };
        self.post(&self.urls().revocation.unwrap(), &form, basic)
            .await
    }

    /// `POST /_control/<operation>` with `body` (JSON when given): the status.
    pub async fn control(&self, operation: &str, body: Option<Value>) -> u16 {
        let mut request = self
            .http
            .post(format!("{}/_control/{operation}", self.sim.base_url()));
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send().await.unwrap().status().as_u16()
    }

    /// `DELETE /_control/faults`: clears every fault.
    pub async fn clear_faults(&self) -> u16 {
        let url = format!("{}/_control/faults", self.sim.base_url());
        self.http
            .delete(url)
            .send()
            .await
            .unwrap()
            .status()
            .as_u16()
    }

    /// The outcome the simulator logged for its latest request.
    pub fn last_outcome(&self) -> String {
        self.sim.requests().pop().expect("a request").outcome
    }
}

/// Sends a request and returns its status and JSON body (`null` when not JSON).
pub async fn status_and_json(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.unwrap();
    (
        response.status().as_u16(),
        response.json().await.unwrap_or_default(),
    )
}

/// Facebook's `appsecret_proof`: hex HMAC-SHA256 of the token with the app secret.
pub fn proof(secret: &str, token: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(token.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// A valid five-minute client secret of the fixture Apple team for the Apple fixture.
pub fn apple_secret() -> String {
    apple_secret_with(
        APPLE_TEST_KEY_PEM,
        APPLE_TEST_KEY_ID,
        &apple_secret_claims(),
    )
}

/// Apple client-secret claims: the fixture team, the Apple fixture, five minutes from now.
pub fn apple_secret_claims() -> Value {
    let now = unix_now();
    json!({"iss": APPLE_TEST_TEAM_ID, "sub": super::fixtures::APPLE.id,
           "aud": "https://appleid.apple.com", "iat": now, "exp": now + 300})
}

/// A client secret with the given claims, signed ES256 by `pem` under `kid`.
pub fn apple_secret_with(pem: &str, kid: &str, claims: &Value) -> String {
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some(kid.to_owned());
    let key = EncodingKey::from_ec_pem(pem.as_bytes()).unwrap();
    jsonwebtoken::encode(&header, claims, &key).unwrap()
}

pub fn unix_now() -> i64 {
    let elapsed = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(elapsed.as_secs()).unwrap()
}
