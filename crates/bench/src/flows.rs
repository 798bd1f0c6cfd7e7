//! The operations the benchmark repeats, over real HTTP: authorize alone, and a whole login
//! (authorize → the simulated provider → callback).

use reqwest::StatusCode;

/// The instances under test; with several, each login starts on one and finishes on the
/// next, as behind a round-robin load balancer.
#[derive(Clone)]
pub struct Flows {
    pub http: reqwest::Client,
    pub bases: Vec<String>,
}

impl Flows {
    pub fn new(bases: Vec<String>) -> Self {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .pool_max_idle_per_host(256)
            .build()
            .expect("HTTP client");
        Self { http, bases }
    }

    fn base(&self, turn: usize) -> &str {
        &self.bases[turn % self.bases.len()]
    }

    /// GET authorize on the `turn`-th instance; the authorization URL on success.
    pub async fn authorize(&self, turn: usize) -> Option<String> {
        let url = format!("{}/auth/oauth/github/authorize", self.base(turn));
        text_member(self.http.get(url), "authorization_url").await
    }

    /// A whole GitHub login as simulated user `user_id`, started on the `turn`-th instance
    /// and finished on the next; true on 200.
    pub async fn login(&self, turn: usize, user_id: &str) -> bool {
        self.logged_in(turn, user_id).await.is_some()
    }

    /// [`Self::login`], answering the login's response (with its access token) on 200.
    pub async fn logged_in(&self, turn: usize, user_id: &str) -> Option<reqwest::Response> {
        let url = self.authorize(turn).await?;
        let (code, state) = self.approve(&url, user_id).await?;
        let response = self
            .http
            .post(format!(
                "{}/auth/oauth/github/callback",
                self.base(turn + 1)
            ))
            .json(&serde_json::json!({"code": code, "state": state}))
            .send()
            .await
            .ok()?;
        (response.status() == StatusCode::OK).then_some(response)
    }

    /// POST /auth/refresh on the `turn`-th instance; the successor refresh token on 200.
    pub async fn refresh(&self, turn: usize, refresh_token: &str) -> Option<String> {
        let request = self
            .http
            .post(format!("{}/auth/refresh", self.base(turn)))
            .json(&serde_json::json!({"refresh_token": refresh_token}));
        text_member(request, "refresh_token").await
    }

    /// A native Google sign-in with `body` (`id_token`, `nonce`) on the `turn`-th instance;
    /// true on 200.
    pub async fn native_sign_in(&self, turn: usize, body: &serde_json::Value) -> bool {
        let url = format!("{}/auth/oauth/google/id-token", self.base(turn));
        let response = self.http.post(url).json(body).send().await;
        response.is_ok_and(|response| response.status() == StatusCode::OK)
    }

    /// GET `url` with `bearer`; true when it answers 200 and its whole body arrives.
    pub async fn get_all(&self, url: &str, bearer: &str) -> bool {
        let Ok(response) = self.http.get(url).bearer_auth(bearer).send().await else {
            return false;
        };
        response.status() == StatusCode::OK && response.bytes().await.is_ok()
    }

    /// The operator's three lookups of the `n`-th seeded user: by email, by provider account,
    /// then the user itself; true when each answers that one user.
    pub async fn admin_lookup(&self, turn: usize, n: u64) -> bool {
        let base = self.base(turn);
        let get = |path: String| {
            self.http
                .get(format!("{base}{path}"))
                .bearer_auth(crate::setup::ADMIN_KEY)
                .send()
        };
        let one_user = |body: &serde_json::Value| body["users"].as_array().map_or(0, Vec::len) == 1;
        let Ok(by_email) = get(format!("/admin/users?email=seed{n}@seed.example")).await else {
            return false;
        };
        let Ok(by_email) = by_email.json::<serde_json::Value>().await else {
            return false;
        };
        let Some(id) = by_email["users"][0]["id"].as_str() else {
            return false;
        };
        let by_account = get(format!("/admin/users?provider=github&subject=seed{n}")).await;
        let by_account = match by_account {
            Ok(response) => response.json::<serde_json::Value>().await.ok(),
            Err(_) => None,
        };
        let read = get(format!("/admin/users/{id}")).await;
        one_user(&by_email)
            && by_account.is_some_and(|body| one_user(&body))
            && read.is_ok_and(|response| response.status() == StatusCode::OK)
    }

    /// The whole audit trail as NDJSON from the `turn`-th instance, read to its end; how many
    /// events (lines) came, 0 on any failure.
    pub async fn stream_events(&self, turn: usize) -> usize {
        let url = format!("{}/admin/events", self.base(turn));
        let request = self
            .http
            .get(url)
            .bearer_auth(crate::setup::ADMIN_KEY)
            .header("accept", "application/x-ndjson");
        let Ok(mut response) = request.send().await else {
            return 0;
        };
        if response.status() != StatusCode::OK {
            return 0;
        }
        let mut lines = 0;
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => lines += chunk.iter().filter(|byte| **byte == b'\n').count(),
                Ok(None) => return lines,
                // A stream broken halfway is a failed operation, not a short one.
                Err(_) => return 0,
            }
        }
    }

    /// The browser at the provider: approve as `user_id`, read code and state off the
    /// redirect.
    async fn approve(&self, url: &str, user_id: &str) -> Option<(String, String)> {
        let response = self
            .http
            .get(format!("{url}&sim_user={user_id}"))
            .send()
            .await
            .ok()?;
        let location = response.headers().get("location")?.to_str().ok()?;
        let redirect = url::Url::parse(location).ok()?;
        let param = |name: &str| {
            redirect
                .query_pairs()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.into_owned())
        };
        Some((param("code")?, param("state")?))
    }
}

/// Sends `request`; on 200, the text member `name` of its JSON answer.
async fn text_member(request: reqwest::RequestBuilder, name: &str) -> Option<String> {
    let response = request.send().await.ok()?;
    if response.status() != StatusCode::OK {
        return None;
    }
    let body: serde_json::Value = response.json().await.ok()?;
    body[name].as_str().map(str::to_owned)
}
