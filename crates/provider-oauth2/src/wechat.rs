//! WeChat (docs/providers.md#wechat-wechat): website login by QR code, OAuth 2.0 bent where no knob
//! reaches. The declaration names `appid`/`secret`, the scope, the userinfo URL and the
//! refresh endpoint; the quirks are the authorize URL's fixed parameter order, the token
//! request (and the refresh, without the secret) as a GET with the parameters in the query,
//! failures as `errcode` in a 200, and the `openid` of the token answer on the userinfo call
//! ([WeChat Login](https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login)).

use async_trait::async_trait;
use http::{Method, header};
use serde_json::{Map, Value, json};
use social_login_ports::ProviderError;
use social_login_provider_core::{Quirks, UserinfoCall};
use url::{Url, form_urlencoded};

/// The authorize parameters in the order WeChat matches them.
const AUTHORIZE_ORDER: [&str; 5] = ["appid", "redirect_uri", "response_type", "scope", "state"];
/// The token request's parameters, in the query; the rest of the body is left out.
const TOKEN_PARAMS: [&str; 4] = ["appid", "secret", "code", "grant_type"];
/// A refresh's parameters: no secret
/// ([refresh](https://developers.weixin.qq.com/doc/service/api/webdev/access/api_snsrefreshtoken)).
const REFRESH_PARAMS: [&str; 3] = ["appid", "grant_type", "refresh_token"];

/// WeChat's quirks.
#[derive(Debug, Clone, Copy, Default)]
pub struct WechatQuirks;

#[async_trait]
impl Quirks for WechatQuirks {
    /// `appid`, `redirect_uri`, `response_type`, `scope`, `state` in this order, the rest
    /// after them, and the `#wechat_redirect` fragment last: WeChat refuses another order.
    fn authorization_url(&self, url: String) -> String {
        let Ok(mut parsed) = Url::parse(&url) else {
            return url;
        };
        let mut pairs: Vec<(String, String)> = parsed.query_pairs().into_owned().collect();
        pairs.sort_by_key(|(name, _)| {
            AUTHORIZE_ORDER
                .iter()
                .position(|wanted| wanted == name)
                .unwrap_or(AUTHORIZE_ORDER.len())
        });
        parsed.query_pairs_mut().clear().extend_pairs(&pairs);
        parsed.into()
    }

    /// A GET with `appid`, `secret`, `code` and `grant_type` in the query, no body; a
    /// refresh (sent to the declared refresh endpoint, `/sns/oauth2/refresh_token`) with
    /// `appid`, `grant_type` and `refresh_token`.
    fn token_request(&self, mut request: oauth2::HttpRequest) -> oauth2::HttpRequest {
        let sent: Vec<(String, String)> = form_urlencoded::parse(request.body())
            .into_owned()
            .collect();
        let refresh = sent
            .iter()
            .any(|(name, value)| name == "grant_type" && value == "refresh_token");
        let kept = match refresh {
            true => &REFRESH_PARAMS[..],
            false => &TOKEN_PARAMS[..],
        };
        let params = sent
            .iter()
            .filter(|(name, _)| kept.contains(&name.as_str()));
        let query = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(params)
            .finish();
        let uri = format!("{}?{query}", request.uri());
        if let Ok(uri) = uri.parse() {
            *request.uri_mut() = uri;
        }
        *request.method_mut() = Method::GET;
        request.body_mut().clear();
        request.headers_mut().remove(header::CONTENT_TYPE);
        request.headers_mut().remove(header::AUTHORIZATION);
        request
    }

    /// `{"errcode": 40029, "errmsg": ...}` is a refusal: as RFC 6749 words it.
    fn token_answer(&self, body: Vec<u8>) -> Vec<u8> {
        match refusal(&body) {
            Some(code) => json!({ "error": format!("errcode_{code}") })
                .to_string()
                .into_bytes(),
            None => body,
        }
    }

    /// The declared call (the token as `access_token`, `lang`), with the token answer's
    /// `openid`.
    fn userinfo_request(&self, call: UserinfoCall<'_>) -> reqwest::RequestBuilder {
        let Some(openid) = call.token_members.get("openid").and_then(Value::as_str) else {
            return call.as_declared();
        };
        let mut url = call.url.clone();
        url.query_pairs_mut().append_pair("openid", openid);
        UserinfoCall { url: &url, ..call }.as_declared()
    }

    fn userinfo_failure(&self, document: &Map<String, Value>) -> Option<ProviderError> {
        let code = document.get("errcode").and_then(Value::as_i64)?;
        (code != 0)
            .then(|| ProviderError::UserInfo(format!("WeChat userinfo answered errcode {code}")))
    }
}

/// The non-zero `errcode` of a JSON answer.
fn refusal(body: &[u8]) -> Option<i64> {
    let answer: Map<String, Value> = serde_json::from_slice(body).ok()?;
    let code = answer.get("errcode")?.as_i64()?;
    (code != 0).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_authorize_parameters_go_in_wechats_order_before_the_fragment() {
        let built = "https://open.weixin.qq.com/connect/qrconnect?response_type=code&appid=wx1&redirect_uri=https%3A%2F%2Fapp%2Fcb&scope=snsapi_login&state=s1#wechat_redirect";
        let ordered = WechatQuirks.authorization_url(built.into());
        assert_eq!(
            ordered,
            "https://open.weixin.qq.com/connect/qrconnect?appid=wx1&redirect_uri=https%3A%2F%2Fapp%2Fcb&response_type=code&scope=snsapi_login&state=s1#wechat_redirect"
        );
    }

    #[test]
    fn the_token_request_is_a_get_with_the_credentials_in_the_query() {
        let mut request = http::Request::new(
            b"grant_type=authorization_code&code=c1&redirect_uri=https%3A%2F%2Fapp&appid=wx1&secret=s%26t"
                .to_vec(),
        );
        *request.method_mut() = Method::POST;
        *request.uri_mut() = "https://api.weixin.qq.com/sns/oauth2/access_token"
            .parse()
            .unwrap();
        request.headers_mut().insert(
            header::CONTENT_TYPE,
            "application/x-www-form-urlencoded".parse().unwrap(),
        );
        let shaped = WechatQuirks.token_request(request);
        assert_eq!(shaped.method(), Method::GET);
        assert_eq!(
            shaped.uri().to_string(),
            "https://api.weixin.qq.com/sns/oauth2/access_token?grant_type=authorization_code&code=c1&appid=wx1&secret=s%26t"
        );
        assert!(shaped.body().is_empty());
        assert!(!shaped.headers().contains_key(header::CONTENT_TYPE));
    }

    #[test]
    fn a_refresh_is_a_get_without_the_secret() {
        let mut request = http::Request::new(
            b"grant_type=refresh_token&refresh_token=r%2B1&appid=wx1&secret=s".to_vec(),
        );
        *request.method_mut() = Method::POST;
        *request.uri_mut() = "https://api.weixin.qq.com/sns/oauth2/refresh_token"
            .parse()
            .unwrap();
        let shaped = WechatQuirks.token_request(request);
        assert_eq!(shaped.method(), Method::GET);
        assert_eq!(
            shaped.uri().to_string(),
            "https://api.weixin.qq.com/sns/oauth2/refresh_token?grant_type=refresh_token&refresh_token=r%2B1&appid=wx1"
        );
    }

    #[test]
    fn an_errcode_is_a_refusal_and_a_grant_passes() {
        let refused =
            WechatQuirks.token_answer(br#"{"errcode":40029,"errmsg":"invalid code"}"#.to_vec());
        assert_eq!(refused, br#"{"error":"errcode_40029"}"#);
        let granted = br#"{"access_token":"a","expires_in":7200,"openid":"o1"}"#.to_vec();
        assert_eq!(WechatQuirks.token_answer(granted.clone()), granted);
        let failed = json!({"errcode": 40003, "errmsg": "invalid openid"});
        assert!(
            WechatQuirks
                .userinfo_failure(failed.as_object().unwrap())
                .is_some()
        );
        let fine = json!({"openid": "o1", "nickname": "Ada"});
        assert!(
            WechatQuirks
                .userinfo_failure(fine.as_object().unwrap())
                .is_none()
        );
    }
}
