//! Seeded random requests to every endpoint: random bodies, path segments and headers.
//! Whatever arrives, the answer is never a 5xx, every error is problem+json with a code, and
//! the service is alive afterwards.

use crate::helpers::*;
use reqwest::Method;
use reqwest::header::{HeaderName, HeaderValue};
use serde_json::{Value, json};

const REQUESTS: usize = 1_200;
const SEED: u64 = 0x5eed_0f50_c1a1;

/// splitmix64: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn text(&mut self, max: usize) -> String {
        let len = self.below(max + 1);
        (0..len)
            .map(|_| match self.below(10) {
                0 => char::from_u32(0x80 + self.below(0x700) as u32).unwrap_or('é'),
                1 => ['"', '\\', '\n', '\0', '{', '%', '/'][self.below(7)],
                _ => char::from(b' ' + self.below(95) as u8),
            })
            .collect()
    }

    fn json(&mut self, depth: usize) -> Value {
        match self.below(if depth == 0 { 5 } else { 7 }) {
            0 => Value::Null,
            1 => json!(self.chance(50)),
            2 => json!(self.next() as i64),
            3 => json!((self.next() as f64) / 7.0),
            4 => json!(self.text(40)),
            5 => Value::Array((0..self.below(4)).map(|_| self.json(depth - 1)).collect()),
            _ => {
                let mut map = serde_json::Map::new();
                for _ in 0..self.below(5) {
                    map.insert(self.field_name(), self.json(depth - 1));
                }
                Value::Object(map)
            }
        }
    }

    /// One of `known` `percent` times in a hundred, else what `other` makes.
    fn one_of_or(
        &mut self,
        percent: u64,
        known: &[&str],
        other: impl FnOnce(&mut Self) -> String,
    ) -> String {
        if self.chance(percent) {
            known[self.below(known.len())].to_owned()
        } else {
            other(self)
        }
    }

    /// A documented field name most of the time, so the random values reach the handlers.
    fn field_name(&mut self) -> String {
        const FIELDS: [&str; 9] = [
            "code",
            "state",
            "post_body",
            "email",
            "password",
            "full_name",
            "refresh_token",
            "user",
            "name",
        ];
        self.one_of_or(80, &FIELDS, |rng| rng.text(12))
    }

    fn body(&mut self) -> Vec<u8> {
        match self.below(6) {
            0 => Vec::new(),
            1 => (0..self.below(300)).map(|_| self.next() as u8).collect(),
            2 => {
                let mut text = self.json(3).to_string();
                // Cut anywhere, but on a character: the JSON text may hold multi-byte ones.
                let cut = text.floor_char_boundary(self.below(text.len() + 1));
                text.truncate(cut);
                text.into_bytes()
            }
            3 => format!("{}{}", "[".repeat(200), "]".repeat(200)).into_bytes(),
            _ => self.json(4).to_string().into_bytes(),
        }
    }

    fn provider_segment(&mut self) -> String {
        const KEYS: [&str; 9] = [
            "github",
            "google",
            "apple",
            "microsoft",
            "discord",
            "twitter",
            "linkedin",
            "facebook",
            "myspace",
        ];
        self.one_of_or(70, &KEYS, |rng| {
            (0..rng.below(20))
                .map(|_| format!("%{:02X}", rng.next() as u8))
                .collect()
        })
    }

    fn header_value(&mut self) -> HeaderValue {
        let bytes: Vec<u8> = (0..self.below(120))
            .map(|_| match self.below(8) {
                0 => 0x80 + self.below(0x80) as u8,
                _ => b' ' + self.below(95) as u8,
            })
            .collect();
        HeaderValue::from_bytes(&bytes).unwrap_or_else(|_| HeaderValue::from_static("x"))
    }
}

const ROUTES: [(&str, &str); 16] = [
    ("GET", "/auth/oauth/{p}/authorize"),
    ("POST", "/auth/oauth/{p}/callback"),
    ("POST", "/auth/oauth/{p}/connect"),
    ("POST", "/auth/oauth/{p}/id-token"),
    ("POST", "/auth/oauth/{p}/id-token/connect"),
    ("GET", "/auth/oauth/accounts"),
    ("DELETE", "/auth/oauth/{p}/disconnect"),
    ("POST", "/auth/register"),
    ("POST", "/auth/login"),
    ("POST", "/auth/refresh"),
    ("POST", "/auth/logout"),
    ("GET", "/users/me"),
    ("GET", "/healthz"),
    ("GET", "/readyz"),
    ("GET", "/openapi.json"),
    ("PATCH", "/auth/oauth/{p}/callback"),
];

#[tokio::test]
async fn random_requests_to_every_endpoint_never_break_the_service() {
    let app = spawn_app().await;
    let mut rng = Rng(SEED);
    let bearer = token(&app.login("583231").await);
    let mut failures = Vec::new();
    for i in 0..REQUESTS {
        let (method, template) = ROUTES[i % ROUTES.len()];
        let path = template.replace("{p}", &rng.provider_segment());
        let mut request = app.http.request(
            Method::from_bytes(method.as_bytes()).unwrap(),
            app.url(&path),
        );
        if method != "GET" {
            request = request.body(rng.body());
            if rng.chance(80) {
                request = request.header("content-type", "application/json");
            }
        }
        match rng.below(4) {
            0 => request = request.bearer_auth(&bearer),
            1 => request = request.header("authorization", rng.header_value()),
            _ => {}
        }
        if rng.chance(30) {
            let name = ["x-forwarded-for", "x-request-id", "accept", "cookie"][rng.below(4)];
            request = request.header(HeaderName::from_static(name), rng.header_value());
        }
        let response = request.send().await.expect("the service answers");
        let status = response.status();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
            .to_owned();
        let body = response.bytes().await.unwrap_or_default();
        let is_problem = content_type == "application/problem+json"
            && serde_json::from_slice::<Value>(&body).is_ok_and(|problem| {
                problem["code"].is_string() && problem["status"] == status.as_u16()
            });
        if status.is_server_error() || (status.is_client_error() && !is_problem) {
            failures.push(format!("#{i} {method} {path} → {status} {content_type}"));
        }
    }
    assert!(
        failures.is_empty(),
        "seed {SEED:#x}: {} bad answers:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let alive = app.get("/healthz", None).await;
    assert_eq!(alive.status(), 200);
    assert_eq!(app.get("/readyz", None).await.status(), 200);
    app.stop().await;
}
