//! The operations the benchmark repeats, over real HTTP: authorize alone, and a whole login
//! (authorize → the simulated provider → callback).

use reqwest::StatusCode;

#[derive(Clone)]
pub struct Flows {
    pub http: reqwest::Client,
    pub base: String,
}

impl Flows {
    pub fn new(base: String) -> Self {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .pool_max_idle_per_host(256)
            .build()
            .expect("HTTP client");
        Self { http, base }
    }

    /// GET authorize; the authorization URL on success.
    pub async fn authorize(&self) -> Option<String> {
        let response = self
            .http
            .get(format!("{}/auth/oauth/github/authorize", self.base))
            .send()
            .await
            .ok()?;
        if response.status() != StatusCode::OK {
            return None;
        }
        let body: serde_json::Value = response.json().await.ok()?;
        body["authorization_url"].as_str().map(str::to_owned)
    }

    /// A whole GitHub login as simulated user `user_id`; true on 200.
    pub async fn login(&self, user_id: &str) -> bool {
        let Some(url) = self.authorize().await else {
            return false;
        };
        let Some((code, state)) = self.approve(&url, user_id).await else {
            return false;
        };
        self.http
            .post(format!("{}/auth/oauth/github/callback", self.base))
            .json(&serde_json::json!({"code": code, "state": state}))
            .send()
            .await
            .is_ok_and(|response| response.status() == StatusCode::OK)
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
