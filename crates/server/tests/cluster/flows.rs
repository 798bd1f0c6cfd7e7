//! The browser and the client app, played over real HTTP against any instance.

use super::approval::authorization_url;
pub use super::approval::{Approval, user_id};
use super::deployment::REDIRECT_BASE;
use reqwest::{Response, StatusCode};
use serde_json::{Value, json};

pub const PASSWORD: &str = "correct horse battery";

#[derive(Clone)]
pub struct Browser {
    pub http: reqwest::Client,
}

impl Browser {
    pub fn new() -> Self {
        Self {
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(std::time::Duration::from_secs(30))
                .build()
                .unwrap(),
        }
    }

    /// GET authorize on `base`; the authorization URL.
    pub async fn authorize(&self, base: &str, provider: &str, bearer: Option<&str>) -> String {
        let mut request = self
            .http
            .get(format!("{base}/auth/oauth/{provider}/authorize"));
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        authorization_url(request.send().await.unwrap()).await
    }

    /// Approves at the simulated provider as `user_id` and reads code and state off the
    /// redirect back to our redirect_uri.
    pub async fn approve(&self, authorization_url: &str, user_id: &str) -> Approval {
        let response = self
            .http
            .get(format!("{authorization_url}&sim_user={user_id}"))
            .send()
            .await
            .unwrap();
        Approval::from_redirect(&response, REDIRECT_BASE)
    }

    pub async fn post(&self, url: String, body: &Value, bearer: Option<&str>) -> Response {
        let mut request = self.http.post(url).json(body);
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        request.send().await.unwrap()
    }

    pub async fn callback(&self, base: &str, provider: &str, approval: &Approval) -> Response {
        self.post(
            format!("{base}/auth/oauth/{provider}/callback"),
            &approval.body(),
            None,
        )
        .await
    }

    pub async fn connect(
        &self,
        base: &str,
        provider: &str,
        approval: &Approval,
        bearer: &str,
    ) -> Response {
        self.post(
            format!("{base}/auth/oauth/{provider}/connect"),
            &approval.body(),
            Some(bearer),
        )
        .await
    }

    /// authorize on `base` (as the holder of `bearer`, if any) and approve as `user_id`: the
    /// provider's answer, to bring to a callback or connect on any instance.
    pub async fn approval(
        &self,
        base: &str,
        provider: &str,
        bearer: Option<&str>,
        user_id: &str,
    ) -> Approval {
        let url = self.authorize(base, provider, bearer).await;
        self.approve(&url, user_id).await
    }

    /// authorize on `start`, approve as `user_id`, call back on `finish`.
    pub async fn login_across(
        &self,
        start: &str,
        finish: &str,
        provider: &str,
        user_id: &str,
    ) -> Response {
        let approval = self.approval(start, provider, None, user_id).await;
        self.callback(finish, provider, &approval).await
    }

    /// A successful GitHub login on one instance; the login result.
    pub async fn login(&self, base: &str, user_id: &str) -> Value {
        let response = self.login_across(base, base, "github", user_id).await;
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.unwrap()
    }

    /// POST /auth/refresh on the instance at `base` with `refresh_token`.
    pub async fn refresh(&self, base: &str, refresh_token: &str) -> Response {
        let body = json!({"refresh_token": refresh_token});
        self.post(format!("{base}/auth/refresh"), &body, None).await
    }

    pub async fn register(&self, base: &str, email: &str) -> Response {
        self.post(
            format!("{base}/auth/register"),
            &json!({"email": email, "password": PASSWORD}),
            None,
        )
        .await
    }

    pub async fn get(&self, url: String, bearer: Option<&str>) -> Response {
        let mut request = self.http.get(url);
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        request.send().await.unwrap()
    }

    /// GET `url` answered 200; its JSON body.
    pub async fn get_json(&self, url: String, bearer: Option<&str>) -> Value {
        let response = self.get(url, bearer).await;
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.unwrap()
    }

    pub async fn delete(&self, url: String, bearer: &str) -> Response {
        self.http
            .delete(url)
            .bearer_auth(bearer)
            .send()
            .await
            .unwrap()
    }
}

pub fn access_token(login: &Value) -> String {
    login["access_token"].as_str().unwrap().to_owned()
}

/// Asserts a problem+json answer with this status and code.
pub async fn assert_problem_code(response: Response, status: u16, code: &str) {
    assert_eq!(problem_code(response).await, (status, code.to_owned()));
}

/// The stable `code` of a problem+json answer (after checking it is one).
pub async fn problem_code(response: Response) -> (u16, String) {
    let status = response.status().as_u16();
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(content_type, "application/problem+json", "status {status}");
    let body: Value = response.json().await.unwrap();
    (status, body["code"].as_str().unwrap().to_owned())
}

/// What `tasks` returned, in their order, all within a minute; `what` names them when they
/// take longer.
pub async fn all_within_a_minute<T>(tasks: Vec<tokio::task::JoinHandle<T>>, what: &str) -> Vec<T> {
    let all = async {
        let mut results = Vec::with_capacity(tasks.len());
        for task in tasks {
            results.push(task.await.unwrap());
        }
        results
    };
    tokio::time::timeout(std::time::Duration::from_secs(60), all)
        .await
        .unwrap_or_else(|_| panic!("the {what} finished in time"))
}
