//! A call to a provider's API with the user's access token (userinfo, the emails list), made
//! as the declaration's `[userinfo]` knob says: the method, where the token goes (a Bearer
//! header, a header of its own, a query parameter, the path), extra headers and query
//! parameters, a body. (The provider's own `User-Agent` is its HTTP client's.)

use crate::http_client::ProviderHttp;
use reqwest::RequestBuilder;
use reqwest::header::{CONTENT_TYPE, HeaderName, HeaderValue};
use social_login_domain::SecretText;
use social_login_provider_spec::knobs::{Method, TokenIn, Userinfo};
use std::collections::BTreeMap;
use url::Url;

/// Where a path says the token goes (`TokenIn::Path`), as the URL parser leaves it.
const TOKEN_IN_PATH: &str = "%7Baccess_token%7D";

/// How a provider's API calls are made.
#[derive(Debug, Clone, Copy)]
pub struct ApiShape<'a> {
    pub call: &'a Userinfo,
    /// `call.headers`, parsed once when the plan was made.
    pub headers: &'a [(HeaderName, HeaderValue)],
}

impl ApiShape<'_> {
    /// The request for `url` with `token`, ready to send on `http`.
    pub fn request(&self, http: &ProviderHttp, url: &Url, token: &SecretText) -> RequestBuilder {
        let call = self.call;
        let method = match call.method {
            Method::Get => reqwest::Method::GET,
            Method::Post => reqwest::Method::POST,
        };
        let mut request = self.carrying(&call.token_in, (http, method), url, token, &call.query);
        match (&call.method, &call.body) {
            (Method::Post, Some(body)) => {
                let json = serde_json::from_str::<serde_json::Value>(body).is_ok();
                if json {
                    request = request.header(CONTENT_TYPE, "application/json");
                }
                request.body(body.clone())
            }
            _ => request,
        }
    }
}

impl ApiShape<'_> {
    /// A relayed call: a `method` request of a URL the caller chose, in which no
    /// `{access_token}` is ever filled in (the provider would be asked to put the token in
    /// its answer). A provider whose userinfo takes the token in its path (HubSpot) takes
    /// it in a Bearer header on the rest of its API.
    pub fn relayed(
        &self,
        http: &ProviderHttp,
        method: reqwest::Method,
        url: &Url,
        token: &SecretText,
    ) -> RequestBuilder {
        let token_in = match &self.call.token_in {
            TokenIn::Path => &TokenIn::Header,
            other => other,
        };
        self.carrying(token_in, (http, method), url, token, &BTreeMap::new())
    }

    /// A `method` request of `url` (plus the `query` pairs) carrying `token` as `token_in`
    /// says, with the declaration's headers: what every call to the provider's API shares
    /// (its own `User-Agent` is its HTTP client's).
    fn carrying(
        &self,
        token_in: &TokenIn,
        (http, method): (&ProviderHttp, reqwest::Method),
        url: &Url,
        token: &SecretText,
        query: &BTreeMap<String, String>,
    ) -> RequestBuilder {
        let mut url = url.clone();
        match token_in {
            TokenIn::Path => url = token_in_path(&url, token).unwrap_or(url),
            TokenIn::Query(name) => {
                url.query_pairs_mut().append_pair(name, token.expose());
            }
            TokenIn::Header | TokenIn::NamedHeader(_) => {}
        }
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        let mut request = http.reqwest().request(method, url);
        request = match token_in {
            TokenIn::Header => request.bearer_auth(token.expose()),
            TokenIn::NamedHeader(name) => request.header(name.as_str(), token.expose()),
            TokenIn::Query(_) | TokenIn::Path => request,
        };
        for (name, value) in self.headers {
            request = request.header(name, value);
        }
        request
    }
}

/// `url` with the token, percent-encoded, where its path says `{access_token}`.
fn token_in_path(url: &Url, token: &SecretText) -> Option<Url> {
    let encoded: String = url::form_urlencoded::byte_serialize(token.expose().as_bytes()).collect();
    let filled = url.as_str().replacen(TOKEN_IN_PATH, &encoded, 1);
    Url::parse(&filled).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http_client::test_client;
    use crate::token_http::header_pairs;

    fn built(call: &Userinfo, url: &str) -> reqwest::Request {
        let headers = header_pairs("userinfo.headers", &call.headers).unwrap();
        let shape = ApiShape {
            call,
            headers: &headers,
        };
        let token = SecretText::new("tok en/1");
        shape
            .request(&test_client(), &Url::parse(url).unwrap(), &token)
            .build()
            .unwrap()
    }

    #[test]
    fn the_default_is_a_bearer_get() {
        let request = built(&Userinfo::default(), "https://api.example/me");
        assert_eq!(request.method(), "GET");
        assert_eq!(request.headers()["authorization"], "Bearer tok en/1");
        assert_eq!(request.url().as_str(), "https://api.example/me");
    }

    #[test]
    fn the_token_goes_where_the_knob_says_and_nowhere_else() {
        let query = Userinfo {
            token_in: TokenIn::Query("oauth_token".into()),
            query: BTreeMap::from([("format".into(), "json".into())]),
            ..Userinfo::default()
        };
        let request = built(&query, "https://login.yandex.ru/info");
        assert_eq!(
            request.url().as_str(),
            "https://login.yandex.ru/info?oauth_token=tok+en%2F1&format=json"
        );
        assert!(!request.headers().contains_key("authorization"));

        let header = Userinfo {
            token_in: TokenIn::NamedHeader("x-amz-access-token".into()),
            ..Userinfo::default()
        };
        let request = built(&header, "https://api.amazon.com/user/profile");
        assert_eq!(request.headers()["x-amz-access-token"], "tok en/1");
        assert!(!request.headers().contains_key("authorization"));

        let path = Userinfo {
            token_in: TokenIn::Path,
            ..Userinfo::default()
        };
        let request = built(
            &path,
            "https://api.hubapi.com/oauth/v1/access-tokens/{access_token}",
        );
        assert_eq!(
            request.url().as_str(),
            "https://api.hubapi.com/oauth/v1/access-tokens/tok+en%2F1"
        );
    }

    /// A relayed GET of `url` with the token `tok en/1`, as `token_in` places it.
    fn relayed(token_in: TokenIn, url: &str) -> reqwest::Request {
        let call = Userinfo {
            token_in,
            ..Userinfo::default()
        };
        let shape = ApiShape {
            call: &call,
            headers: &[],
        };
        let token = SecretText::new("tok en/1");
        let url = Url::parse(url).unwrap();
        let request = shape.relayed(&test_client(), reqwest::Method::GET, &url, &token);
        request.build().unwrap()
    }

    #[test]
    fn a_relayed_url_never_gets_the_token_filled_in() {
        let asked =
            "https://api.hubapi.com/oauth/v1/access-tokens/%7Baccess_token%7D?t={access_token}";
        let request = relayed(TokenIn::Path, asked);
        assert_eq!(
            request.url(),
            &Url::parse(asked).unwrap(),
            "the caller's URL goes as it is"
        );
        assert_eq!(request.headers()["authorization"], "Bearer tok en/1");

        let request = relayed(
            TokenIn::Query("oauth_token".into()),
            "https://login.yandex.ru/info",
        );
        assert_eq!(
            request.url().as_str(),
            "https://login.yandex.ru/info?oauth_token=tok+en%2F1"
        );
    }

    #[test]
    fn a_post_carries_its_body_and_its_headers() {
        let graphql = Userinfo {
            method: Method::Post,
            body: Some(r#"{"query":"{ viewer { id email name } }"}"#.into()),
            headers: BTreeMap::from([("Notion-Version".into(), "2022-06-28".into())]),
            ..Userinfo::default()
        };
        let request = built(&graphql, "https://api.linear.app/graphql");
        assert_eq!(request.method(), "POST");
        assert_eq!(request.headers()["content-type"], "application/json");
        assert_eq!(request.headers()["notion-version"], "2022-06-28");
        let body = request.body().and_then(|body| body.as_bytes()).unwrap();
        assert!(body.starts_with(br#"{"query""#));
        let bare = Userinfo {
            method: Method::Post,
            ..Userinfo::default()
        };
        assert!(
            built(
                &bare,
                "https://api.dropboxapi.com/2/users/get_current_account"
            )
            .body()
            .is_none()
        );
    }
}
