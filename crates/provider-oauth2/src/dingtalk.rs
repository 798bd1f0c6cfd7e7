//! DingTalk (docs/providers.md#dingtalk-dingtalk): the declaration names its endpoints, its JSON token
//! request and the header its API takes the token in; the quirks are its camelCase names on
//! both sides of the token endpoint, and its `{code, message}` failures
//! ([obtain a user token](https://open.dingtalk.com/document/orgapp/obtain-user-token)).

use async_trait::async_trait;
use serde_json::{Map, Value, json};
use social_login_provider_core::Quirks;

/// RFC 6749's names in the token request, and DingTalk's.
const REQUEST_NAMES: [(&str, &str); 4] = [
    ("client_id", "clientId"),
    ("client_secret", "clientSecret"),
    ("grant_type", "grantType"),
    ("refresh_token", "refreshToken"),
];
/// DingTalk's names in the token answer, and RFC 6749's.
const ANSWER_NAMES: [(&str, &str); 3] = [
    ("accessToken", "access_token"),
    ("refreshToken", "refresh_token"),
    ("expireIn", "expires_in"),
];
/// What its documented request has no field for.
const LEFT_OUT: [&str; 2] = ["redirect_uri", "code_verifier"];

/// DingTalk's quirks.
#[derive(Debug, Clone, Copy, Default)]
pub struct DingtalkQuirks;

#[async_trait]
impl Quirks for DingtalkQuirks {
    /// The JSON body (the declaration's format) under DingTalk's names.
    fn token_request(&self, mut request: oauth2::HttpRequest) -> oauth2::HttpRequest {
        if let Ok(body) = serde_json::from_slice::<Map<String, Value>>(request.body()) {
            let renamed: Map<String, Value> = body
                .into_iter()
                .filter(|(name, _)| !LEFT_OUT.contains(&name.as_str()))
                .map(|(name, value)| (rename(&REQUEST_NAMES, name), value))
                .collect();
            *request.body_mut() = Value::Object(renamed).to_string().into_bytes();
        }
        request
    }

    /// The answer under RFC 6749's names; `{"code", "message"}` (no `accessToken`) is a
    /// refusal. Any other body is left as it came, for the common checks to name.
    fn token_answer(&self, body: Vec<u8>) -> Vec<u8> {
        let Ok(answer) = serde_json::from_slice::<Map<String, Value>>(&body) else {
            return body;
        };
        if !answer.contains_key("accessToken") {
            return match answer.get("code") {
                Some(code) => json!({ "error": code }).to_string().into_bytes(),
                None => body,
            };
        }
        let renamed: Map<String, Value> = answer
            .into_iter()
            .map(|(name, value)| (rename(&ANSWER_NAMES, name), value))
            .collect();
        Value::Object(renamed).to_string().into_bytes()
    }
}

fn rename(names: &[(&str, &str)], name: String) -> String {
    names
        .iter()
        .find(|(from, _)| *from == name)
        .map_or(name, |(_, to)| (*to).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_request_speaks_dingtalks_names_and_leaves_out_what_it_has_no_field_for() {
        let body = json!({"grant_type": "authorization_code", "code": "c1", "client_id": "ding1",
            "clientSecret": "s", "redirect_uri": "https://app/cb"});
        let request = http::Request::new(body.to_string().into_bytes());
        let shaped = DingtalkQuirks.token_request(request);
        let sent: Value = serde_json::from_slice(shaped.body()).unwrap();
        assert_eq!(
            sent,
            json!({"grantType": "authorization_code", "code": "c1", "clientId": "ding1", "clientSecret": "s"})
        );
    }

    #[test]
    fn the_answer_is_read_under_rfc_6749_names_and_a_code_is_a_refusal() {
        let granted = br#"{"accessToken":"a1","refreshToken":"r1","expireIn":7200,"corpId":"c"}"#;
        let read: Value =
            serde_json::from_slice(&DingtalkQuirks.token_answer(granted.to_vec())).unwrap();
        assert_eq!(
            read,
            json!({"access_token": "a1", "refresh_token": "r1", "expires_in": 7200, "corpId": "c"})
        );
        let refused = br#"{"code":"invalidAuthCode","message":"bad"}"#;
        let read: Value =
            serde_json::from_slice(&DingtalkQuirks.token_answer(refused.to_vec())).unwrap();
        assert_eq!(read, json!({"error": "invalidAuthCode"}));
    }
}
