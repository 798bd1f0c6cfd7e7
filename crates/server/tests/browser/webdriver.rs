//! A minimal W3C WebDriver client over reqwest: just what the browser test needs.

use base64::Engine;
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `chromedriver` on a free loopback port, killed on drop.
pub struct Driver {
    process: Child,
    url: String,
}

impl Driver {
    pub fn start(binary: &str) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let process = Command::new(binary)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        Driver {
            process,
            url: format!("http://127.0.0.1:{port}"),
        }
    }

    /// A headless Chromium session with a fresh profile.
    pub async fn session(&self, profile: &std::path::Path) -> Browser {
        let http = reqwest::Client::new();
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--disable-quic", "--window-size=1280,1100",
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        }}});
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(response) = http
                .post(format!("{}/session", self.url))
                .json(&capabilities)
                .send()
                .await
            {
                let body: Value = response.json().await.unwrap();
                let id = body["value"]["sessionId"]
                    .as_str()
                    .unwrap_or_else(|| panic!("no session: {body}"));
                return Browser {
                    http,
                    base: format!("{}/session/{id}", self.url),
                };
            }
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// One browser session.
pub struct Browser {
    http: reqwest::Client,
    base: String,
}

impl Browser {
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let body: Value = request.send().await.unwrap().json().await.unwrap();
        body["value"].clone()
    }

    pub async fn goto(&self, url: &str) {
        self.call(reqwest::Method::POST, "/url", Some(json!({"url": url})))
            .await;
    }

    pub async fn current_url(&self) -> String {
        self.call(reqwest::Method::GET, "/url", None)
            .await
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// The element for a CSS selector, if present now.
    async fn find(&self, css: &str) -> Option<String> {
        let found = self
            .call(
                reqwest::Method::POST,
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            )
            .await;
        found
            .as_object()
            .and_then(|object| object.values().next())
            .and_then(Value::as_str)
            .map(str::to_owned)
    }

    /// Runs `script` in the page and returns its value.
    pub async fn eval(&self, script: &str) -> Value {
        self.call(
            reqwest::Method::POST,
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
        .await
    }

    /// Waits (up to 15 s) until `script` returns true.
    pub async fn wait_for(&self, what: &str, script: &str) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            if self.eval(script).await == Value::Bool(true) {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(format!(
            "timed out waiting for {what} at {}",
            self.current_url().await
        ))
    }

    /// Waits for an element and clicks it.
    pub async fn click(&self, css: &str) -> Result<(), String> {
        let selector = serde_json::to_string(css).unwrap();
        self.wait_for(
            css,
            &format!("return document.querySelector({selector}) !== null"),
        )
        .await?;
        let element = self.find(css).await.ok_or(format!("{css} vanished"))?;
        self.call(
            reqwest::Method::POST,
            &format!("/element/{element}/click"),
            Some(json!({})),
        )
        .await;
        Ok(())
    }

    pub async fn text(&self, css: &str) -> String {
        let selector = serde_json::to_string(css).unwrap();
        self.eval(&format!(
            "const e = document.querySelector({selector}); return e ? e.textContent : null"
        ))
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }

    /// The page as a PNG (WebDriver answers base64).
    pub async fn screenshot(&self) -> Result<Vec<u8>, String> {
        let data = self.call(reqwest::Method::GET, "/screenshot", None).await;
        let data = data
            .as_str()
            .ok_or_else(|| format!("no screenshot: {data}"))?;
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|error| format!("screenshot: {error}"))
    }

    pub async fn quit(self) {
        let _ = self.http.delete(&self.base).send().await;
    }
}
